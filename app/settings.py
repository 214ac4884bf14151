"""`Settings`: what the user chose (model, threads, limits), typed and validated on creation.

Stored by `app.store.settings`; read by the window, the controller and the composition root.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.reasoning.session import DEFAULT_LIMITS
from sandbox.platforms import BACKEND_CHOICES


@dataclass(frozen=True)
class Settings:
    model_path: str | None = None  # None: the embedded default model
    n_threads: int | None = None  # None: one per physical core (models.threads)
    n_ctx: int = 4096
    n_gpu_layers: int = 0
    temperature: float = 0.0
    time_s: float = DEFAULT_LIMITS.time_s
    memory_mb: int = DEFAULT_LIMITS.memory_mb
    backend_url: str | None = None  # an OpenAI-compatible server instead of a model run here
    sandbox: str = "auto"  # "auto" (native on Linux, WebAssembly elsewhere), "native" or "wasm"

    def __post_init__(self) -> None:
        problems = []
        if self.backend_url is not None and (
            not self.backend_url.startswith(("http://", "https://")) or len(self.backend_url) > 2000
        ):
            problems.append("the server address must start with http:// or https://")
        if self.n_threads is not None and not 1 <= self.n_threads <= 256:
            problems.append("threads must be between 1 and 256")
        if not 256 <= self.n_ctx <= 131072:
            problems.append("context size must be between 256 and 131072 tokens")
        if self.n_gpu_layers < -1:
            problems.append("GPU layers must be -1 (all), 0 or more")
        if not 0.0 <= self.temperature <= 2.0:
            problems.append("temperature must be between 0 and 2")
        if not 0.1 <= self.time_s <= 600:
            problems.append("the time limit must be between 0.1 and 600 seconds")
        if not 64 <= self.memory_mb <= 65536:
            problems.append("the memory limit must be between 64 and 65536 MB")
        if self.sandbox not in BACKEND_CHOICES:
            problems.append("the sandbox must be auto, native or wasm")
        if problems:
            raise ValueError("; ".join(problems))

    def model_differs(self, other: Settings) -> bool:
        """Whether switching from `other` to these settings needs the model loaded again."""
        keys = ("model_path", "n_threads", "n_ctx", "n_gpu_layers", "backend_url")
        return any(getattr(self, k) != getattr(other, k) for k in keys)
