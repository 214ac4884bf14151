"""Fixtures shared across packages: the real embedded model, loaded once per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox
from sandbox.host import default_cache_dir
from sandbox.wasm import CACHE_ENV


@pytest.fixture(autouse=True, scope="session")
def _private_log_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Solve logs of the test run go to a temporary folder, not the user's log folder; the compiled
    WebAssembly module is shared."""
    patcher = pytest.MonkeyPatch()
    patcher.setenv("PAL_STUDIO_LOG_DIR", str(tmp_path_factory.mktemp("logs")))
    # Windows made in temporary data folders share one compiled WebAssembly module (minutes to make).
    patcher.setenv(CACHE_ENV, default_cache_dir())
    yield
    patcher.undo()


@pytest.fixture(scope="session")
def sandbox() -> Iterator[Sandbox]:
    """One real sandbox worker for the whole run."""
    with Sandbox() as box:
        yield box


@pytest.fixture(scope="session")
def local_model() -> Iterator[LocalModel]:
    """The embedded default model through llama.cpp (assembled from its packages on first use)."""
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096))
    yield model
    model.close()
