"""Isolated, resource-limited execution of untrusted Python programs.

Qt-free and independent of `app` and `models`. Entry points: `Sandbox` (API) and
`python -m sandbox` (CLI).
"""

from sandbox.host import IsolationUnavailable, Sandbox, SandboxError
from sandbox.platforms import Layer
from sandbox.result import CapturedValue, Isolation, ProtocolError, RunResult, Status

__all__ = [
    "CapturedValue",
    "Isolation",
    "IsolationUnavailable",
    "Layer",
    "ProtocolError",
    "RunResult",
    "Sandbox",
    "SandboxError",
    "Status",
]
