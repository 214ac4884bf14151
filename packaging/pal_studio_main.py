"""Entry point of the frozen app: the window and CLI, or the sandbox worker when asked.

The sandbox starts its worker as `<this executable> --sandbox-worker` (or `--sandbox-wasm-worker`
for the WebAssembly backend; a frozen app has no `python -m`); that must be decided before
anything else is imported.
"""

import sys

if len(sys.argv) > 1 and sys.argv[1] == "--sandbox-worker":
    from sandbox.worker import main as worker_main

    worker_main()
elif len(sys.argv) > 1 and sys.argv[1] == "--sandbox-wasm-worker":
    from sandbox.wasm import main as wasm_main

    wasm_main()
else:
    from app.cli import main

    sys.exit(main())
