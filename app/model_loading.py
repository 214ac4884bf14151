"""The one way a model is loaded, for `pal-studio ask`/`eval` and for the window: a server
(`backend_url`), a GGUF file, or the embedded model (assembled into the data folder first if it
is not there yet). Runs on whatever thread calls it (the window's inference thread)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from models.embedded import ensure_embedded, is_ready
from models.types import LanguageModel


def load_model(
    *,
    backend_url: str | None,
    model_path: Path | None,
    n_ctx: int,
    n_threads: int | None,
    n_gpu_layers: int,
    progress: Callable[[int, int], None],
    phase: Callable[[str], None] = lambda _text: None,
    warn: Callable[[str], None] = lambda _text: None,
) -> LanguageModel:
    """The model named; `progress` hears the embedded model's assembly (bytes done, total),
    `phase` what is being done, `warn` that questions would leave this machine."""
    if backend_url:
        from models.remote import RemoteModel, privacy_warning

        warning = privacy_warning(backend_url)
        if warning:
            warn(warning)
        return RemoteModel(backend_url)
    from models.local import LocalModel, ModelSettings  # numpy and gguf: not for a server's sake

    if model_path is None:
        if not is_ready():
            phase("Preparing the embedded model (first run only)")
        model_path = ensure_embedded(progress=progress)
    phase(f"Loading {model_path.name}")
    return LocalModel(ModelSettings(model_path, n_ctx=n_ctx, n_threads=n_threads, n_gpu_layers=n_gpu_layers))
