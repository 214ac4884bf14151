"""Isolated, resource-limited execution of untrusted Python programs.

Qt-free and independent of `app` and `models`. Entry points: `Sandbox` (API) and
`python -m sandbox` (CLI).
"""

from sandbox.host import IsolationUnavailable, Sandbox, SandboxError
from sandbox.platforms import Layer
from sandbox.protocol import ChainStep, ProtocolError, TraceStep
from sandbox.result import CapturedValue, Isolation, RunResult, Status

__all__ = [
    "CapturedValue",
    "ChainStep",
    "Isolation",
    "IsolationUnavailable",
    "Layer",
    "ProtocolError",
    "RunResult",
    "Sandbox",
    "SandboxError",
    "Status",
    "TraceStep",
]
