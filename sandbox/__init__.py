"""Isolated, resource-limited execution of untrusted Python programs.

Qt-free and independent of `app` and `models`. Entry points: `Sandbox` (API) and
`python -m sandbox` (CLI).
"""

from sandbox.host import IsolationUnavailable, LayerReport, Sandbox, SandboxError
from sandbox.result import CapturedValue, Isolation, ProtocolError, RunResult, Status

__all__ = [
    "CapturedValue",
    "Isolation",
    "IsolationUnavailable",
    "LayerReport",
    "ProtocolError",
    "RunResult",
    "Sandbox",
    "SandboxError",
    "Status",
]
