"""Inspect a GGUF file before loading it, and explain precisely why one cannot be used.

The header is parsed here with the `gguf` package's type tables rather than `gguf.GGUFReader`,
which decodes every tokenizer entry and takes ≈ 14 s on the 1.1 GB default model; this parser
skips those arrays and reads the header in well under a second. It also checks that the tensor
data the header promises is really in the file (a truncated download is caught here, not as a
crash inside llama.cpp).
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import gguf

from models.types import ModelError

_MAX_STRING = 64 * 1024 * 1024
_MAX_COUNT = 10_000_000
_FIXED = {
    gguf.GGUFValueType.UINT8: "<B", gguf.GGUFValueType.INT8: "<b", gguf.GGUFValueType.UINT16: "<H",
    gguf.GGUFValueType.INT16: "<h", gguf.GGUFValueType.UINT32: "<I", gguf.GGUFValueType.INT32: "<i",
    gguf.GGUFValueType.FLOAT32: "<f", gguf.GGUFValueType.BOOL: "<?", gguf.GGUFValueType.UINT64: "<Q",
    gguf.GGUFValueType.INT64: "<q", gguf.GGUFValueType.FLOAT64: "<d",
}  # fmt: skip


@dataclass(frozen=True)
class GGUFInfo:
    path: Path
    file_size: int
    version: int
    architecture: str
    name: str | None
    size_label: str | None
    parameter_count: int
    quantization: str | None
    context_length: int | None
    has_chat_template: bool

    @property
    def description(self) -> str:
        size = self.size_label or f"{self.parameter_count / 1e9:.1f}B"
        return f"{self.name or self.path.stem} ({self.architecture}, {size}, {self.quantization or 'unknown type'})"


class _Corrupt(Exception):
    pass


class _Reader:
    def __init__(self, data: mmap.mmap, pos: int) -> None:
        self.data, self.pos = data, pos

    def take(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise _Corrupt("ends in the middle of its header")
        value = struct.unpack_from(fmt, self.data, self.pos)[0]
        self.pos += size
        return value

    def string(self, keep: bool = True) -> str:
        length = self.take("<Q")
        if length > _MAX_STRING or self.pos + length > len(self.data):
            raise _Corrupt("has a string longer than the file")
        raw = self.data[self.pos : self.pos + length] if keep else b""
        self.pos += length
        return raw.decode("utf-8", "replace")

    def value(self, kind: int, keep: bool = True) -> Any:
        if kind in _FIXED:
            return self.take(_FIXED[gguf.GGUFValueType(kind)])
        if kind == gguf.GGUFValueType.STRING:
            return self.string(keep)
        if kind == gguf.GGUFValueType.ARRAY:
            inner, count = self.take("<I"), self.take("<Q")
            if count > _MAX_COUNT:
                raise _Corrupt("has an impossibly long array")
            if inner in _FIXED:  # skip fixed-size elements in one step
                self.pos += count * struct.calcsize(_FIXED[gguf.GGUFValueType(inner)])
                if self.pos > len(self.data):
                    raise _Corrupt("ends in the middle of its header")
                return None
            for _ in range(count):
                self.value(inner, keep=False)
            return None
        raise _Corrupt(f"has an unknown value type {kind}")


def inspect(path: str | os.PathLike[str]) -> GGUFInfo:
    """Read a GGUF header; raise `ModelError` saying what is wrong with the file if it is unusable."""
    file = Path(path)
    if not file.exists():
        raise ModelError(f"{file} does not exist")
    if not file.is_file():
        raise ModelError(f"{file} is not a file")
    size = file.stat().st_size
    try:
        with file.open("rb") as handle:
            if handle.read(4) != b"GGUF":
                raise ModelError(f"{file.name} is not a GGUF model file (GGUF files start with the bytes 'GGUF')")
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return _parse(file, size, _Reader(data, pos=4))  # after the magic bytes
    except _Corrupt as exc:
        raise ModelError(f"{file.name} is damaged or incomplete: the file {exc}") from None
    except OSError as exc:
        raise ModelError(f"{file.name} could not be read: {exc.strerror or exc}") from None


def _parse(file: Path, size: int, reader: _Reader) -> GGUFInfo:
    version = reader.take("<I")
    if version not in (2, 3):
        raise ModelError(f"{file.name} uses GGUF version {version}; versions 2 and 3 are supported")
    tensor_count, kv_count = reader.take("<Q"), reader.take("<Q")
    if tensor_count > _MAX_COUNT or kv_count > _MAX_COUNT:
        raise _Corrupt("claims an impossible number of entries")
    fields: dict[str, Any] = {}
    for _ in range(kv_count):
        key = reader.string()
        fields[key] = reader.value(reader.take("<I"))
    alignment = int(fields.get("general.alignment") or 32)
    parameters, data_end = 0, 0
    for _ in range(tensor_count):
        reader.string(keep=False)
        dims = [reader.take("<Q") for _ in range(reader.take("<I"))]
        kind, offset = reader.take("<I"), reader.take("<Q")
        elements = 1
        for dim in dims:
            elements *= dim
        try:
            block, type_size = gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType(kind)]
        except (ValueError, KeyError):
            raise _Corrupt(f"has a tensor of unknown type {kind}") from None
        parameters += elements
        data_end = max(data_end, offset + elements // block * type_size)
    data_start = -(-reader.pos // alignment) * alignment
    if data_start + data_end > size:
        missing = data_start + data_end - size
        raise _Corrupt(f"is {missing:,} bytes shorter than its header says (an interrupted download?)")
    architecture = fields.get("general.architecture")
    if not isinstance(architecture, str):
        raise _Corrupt("names no model architecture")
    return GGUFInfo(
        path=file,
        file_size=size,
        version=version,
        architecture=architecture,
        name=_text(fields.get("general.name")),
        size_label=_text(fields.get("general.size_label")),
        parameter_count=parameters,
        quantization=_file_type(fields.get("general.file_type")),
        context_length=_int(fields.get(f"{architecture}.context_length")),
        has_chat_template=bool(fields.get("tokenizer.chat_template")),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int) else None


def _file_type(value: Any) -> str | None:
    try:
        return gguf.LlamaFileType(int(value)).name.removeprefix("MOSTLY_")
    except (TypeError, ValueError):
        return None


@cache
def _llama_library_bytes() -> bytes:
    import llama_cpp.llama_cpp as bindings

    with open(bindings._lib._name, "rb") as handle:
        return handle.read()


def architecture_supported(architecture: str) -> bool:
    """Whether the bundled llama.cpp knows this architecture.

    llama.cpp keeps its architecture names as C strings in the library; a name that is not there
    cannot be loaded. (The reverse does not hold strictly, so a load failure is still reported.)
    """
    return architecture.encode() + b"\0" in _llama_library_bytes()


def available_memory_bytes() -> int | None:
    """Memory the system could give a new process now, if the platform tells."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def required_memory_bytes(info: GGUFInfo, n_ctx: int) -> int:
    """A rough need: the weights, plus 20 % and 64 KiB per context token for caches and buffers."""
    return int(info.file_size * 1.2) + n_ctx * 64 * 1024


def check_loadable(info: GGUFInfo, n_ctx: int) -> None:
    """Raise `ModelError` if the bundled llama.cpp cannot load the model or memory is too short."""
    if not architecture_supported(info.architecture):
        raise ModelError(
            f"{info.path.name} is a '{info.architecture}' model, an architecture this version of llama.cpp "
            "cannot run; update llama-cpp-python or choose another model"
        )
    available = available_memory_bytes()
    needed = required_memory_bytes(info, n_ctx)
    if available is not None and needed > available:
        raise ModelError(
            f"{info.path.name} needs about {needed / 2**30:.1f} GiB of memory but only "
            f"{available / 2**30:.1f} GiB is free; close other programs, use a smaller context or a smaller model"
        )
