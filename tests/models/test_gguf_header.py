"""The GGUF header parser byte by byte: files built here to sit exactly on each limit."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from models import gguf_info
from models.gguf_info import GGUFInfo, check_loadable, inspect, required_memory_bytes
from models.types import ModelError

STRING, ARRAY, UINT8, UINT32 = 8, 9, 0, 4
F32 = 0  # tensor type: one float32 per element


def text(value: bytes | str) -> bytes:
    raw = value.encode() if isinstance(value, str) else value
    return struct.pack("<Q", len(raw)) + raw


def kv_text(key: str, value: bytes | str) -> bytes:
    return text(key) + struct.pack("<I", STRING) + text(value)


def kv_u32(key: str, value: int) -> bytes:
    return text(key) + struct.pack("<I", UINT32) + struct.pack("<I", value)


def kv_bytes(key: str, count: int, data: bytes = b"") -> bytes:
    return text(key) + struct.pack("<I", ARRAY) + struct.pack("<IQ", UINT8, count) + data


def tensor(name: str, dims: list[int], kind: int = F32, offset: int = 0) -> bytes:
    return (
        text(name)
        + struct.pack("<I", len(dims))
        + b"".join(struct.pack("<Q", d) for d in dims)
        + struct.pack("<IQ", kind, offset)
    )


ARCH = kv_text("general.architecture", "qwen2")


def build(
    kvs: list[bytes], tensors: tuple[bytes, ...] | list[bytes] = (), *, version: int = 3, data: int = 0, align: int = 32
) -> bytes:
    header = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs)) + b"".join(kvs) + b"".join(tensors)
    padding = -len(header) % align
    return header + bytes(padding + data)


def write(tmp_path: Path, content: bytes, name: str = "m.gguf") -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def damaged(tmp_path: Path, content: bytes) -> str:
    with pytest.raises(ModelError) as caught:
        inspect(write(tmp_path, content))
    message = str(caught.value)
    assert message.startswith("m.gguf is damaged or incomplete: the file ")
    return message.removeprefix("m.gguf is damaged or incomplete: the file ")


def padded_to_32(kvs: list[bytes]) -> list[bytes]:
    """`kvs` with a last string entry sized so the header ends exactly on a 32-byte boundary."""
    base = len(build([*kvs, kv_text("pad", "")], align=1))
    return [*kvs, kv_text("pad", "x" * (-base % 32))]


def test_every_field_is_read(tmp_path: Path) -> None:
    kvs = [
        ARCH,
        kv_text("general.name", b"Tiny \xff"),  # bad UTF-8 shown, not fatal
        kv_text("general.size_label", "7M"),
        kv_u32("general.file_type", 15),
        kv_u32("qwen2.context_length", 4096),
        kv_text("tokenizer.chat_template", "{{ x }}"),
        kv_bytes("tokenizer.scores", 3, b"abc"),
        text("tokenizer.tokens") + struct.pack("<I", ARRAY) + struct.pack("<IQ", STRING, 2) + text("a") + text("b"),
    ]
    tensors = [tensor("a", [4, 8]), tensor("b", [16], offset=128)]
    info = inspect(write(tmp_path, build(kvs, tensors, data=128 + 64)))
    assert info == GGUFInfo(
        path=tmp_path / "m.gguf",
        file_size=(tmp_path / "m.gguf").stat().st_size,
        version=3,
        architecture="qwen2",
        name="Tiny \ufffd",
        size_label="7M",
        parameter_count=48,
        quantization="Q4_K_M",
        context_length=4096,
        has_chat_template=True,
    )
    assert info.description == "Tiny \ufffd (qwen2, 7M, Q4_K_M)"


def test_missing_optional_fields(tmp_path: Path) -> None:
    kvs = [ARCH, kv_text("general.name", ""), text("qwen2.context_length") + struct.pack("<I", STRING) + text("9")]
    info = inspect(write(tmp_path, build(kvs, version=2)))
    assert (info.version, info.name, info.size_label, info.context_length) == (2, None, None, None)
    assert (info.quantization, info.has_chat_template, info.parameter_count) == (None, False, 0)
    assert info.description == "m (qwen2, 0.0B, unknown type)"


def test_tensor_data_must_be_in_the_file(tmp_path: Path) -> None:
    tensors = [tensor("w", [10]), tensor("v", [3], offset=40)]  # data ends at 40 + 12 = 52
    assert inspect(write(tmp_path, build([ARCH], tensors, data=52))).parameter_count == 13
    assert damaged(tmp_path, build([ARCH], tensors, data=51)) == (
        "is 1 bytes shorter than its header says (an interrupted download?)"
    )
    aligned = [ARCH, kv_u32("general.alignment", 64)]
    aligned.append(kv_text("pad", "x" * (-len(build([*aligned, kv_text("pad", "")], tensors, align=1)) % 64 + 1)))
    assert len(build(aligned, tensors, align=1)) % 64 == 1  # a 32-byte boundary is not a 64-byte one here
    assert inspect(write(tmp_path, build(aligned, tensors, data=52, align=64))).parameter_count == 13
    assert damaged(tmp_path, build(aligned, tensors, data=52, align=32)).startswith("is 32 bytes shorter")


def test_a_header_may_end_exactly_at_the_end_of_the_file(tmp_path: Path) -> None:
    content = build(padded_to_32([ARCH]), align=1)
    assert len(content) % 32 == 0
    assert inspect(write(tmp_path, content)).parameter_count == 0
    ends_in_array = padded_to_32([ARCH])
    ends_in_array.append(kv_bytes("blob", 32 - len(kv_bytes("blob", 0)) % 32))  # fixed elements up to the end
    ends_in_array[-1] += bytes(32 - len(kv_bytes("blob", 0)) % 32)
    content = build(ends_in_array, align=1)
    assert len(content) % 32 == 0
    assert inspect(write(tmp_path, content)).architecture == "qwen2"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"GGUF" + struct.pack("<I", 3) + bytes(3), "ends in the middle of its header"),
        (b"GGUF" + struct.pack("<IQQ", 3, 2**64 - 1, 0), "claims an impossible number of entries"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 10_000_001), "claims an impossible number of entries"),
        (build([text("k") + struct.pack("<IQ", STRING, 1000)]), "has a string longer than the file"),
        (build([text("k") + struct.pack("<I", 2**31 + 1)]), "has an unknown value type 2147483649"),
        (build([kv_bytes("big", 10_000_001)]), "has an impossibly long array"),
        (build([kv_bytes("big", 10_000_000)]), "ends in the middle of its header"),
        (build([kv_bytes("big", 2**63)]), "has an impossibly long array"),
        (build([ARCH], [tensor("w", [1], kind=99)]), "has a tensor of unknown type 99"),
        (build([ARCH], [text("w") + struct.pack("<I", 2**31)]), "ends in the middle of its header"),
        (build([kv_text("general.name", "no arch")]), "names no model architecture"),
        (b"GGUF" + struct.pack("<IQQ", 3, 10_000_000, 0), "ends in the middle of its header"),  # at the limit
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 10_000_000), "ends in the middle of its header"),
        (build([ARCH], [tensor("w", [1], kind=2**31 + 99)]), "has a tensor of unknown type 2147483747"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 2**63), "claims an impossible number of entries"),
        (build([text("k") + struct.pack("<IQ", STRING, 2**63)]), "has a string longer than the file"),
        (build([text("k") + struct.pack("<IIQ", ARRAY, 2**31 + 1, 1)]), "has an unknown value type 2147483649"),
        (build([kv_u32("general.architecture", 7)]), "names no model architecture"),
    ],
)
def test_damage_is_named(tmp_path: Path, content: bytes, reason: str) -> None:
    assert damaged(tmp_path, content) == reason


def test_a_string_at_the_size_limit_is_read(tmp_path: Path) -> None:
    limit = 64 * 1024 * 1024
    assert inspect(write(tmp_path, build([ARCH, kv_text("big", b"x" * limit)]))).architecture == "qwen2"
    over = build([ARCH, text("big") + struct.pack("<I", STRING) + struct.pack("<Q", limit + 1)])
    assert damaged(tmp_path, over + bytes(limit + 64)) == "has a string longer than the file"


def test_signed_and_unsigned_counts_are_not_confused(tmp_path: Path) -> None:
    assert inspect(write(tmp_path, build([ARCH], [tensor("w", [1])], data=4), "ok.gguf")).parameter_count == 1
    huge_dim = build([ARCH], [tensor("w", [2**63])])  # negative if read as signed
    assert damaged(tmp_path, huge_dim).startswith("is ")  # 2**63 elements: far beyond the file
    far_offset = build([ARCH], [tensor("w", [1], offset=2**63)])
    assert damaged(tmp_path, far_offset).startswith("is ")


def test_not_a_file_and_unsupported_version(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=rf"^{tmp_path} is not a file$"):
        inspect(tmp_path)
    with pytest.raises(ModelError, match=r"^m\.gguf uses GGUF version 4; versions 2 and 3 are supported$"):
        inspect(write(tmp_path, build([ARCH], version=4)))
    with pytest.raises(ModelError, match=r"^m\.gguf uses GGUF version 2147483651;"):
        inspect(write(tmp_path, build([ARCH], version=2**31 + 3)))


def _info(size: int) -> GGUFInfo:
    return GGUFInfo(Path("m.gguf"), size, 3, "qwen2", None, None, 0, None, None, False)


def test_memory_needed_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert required_memory_bytes(_info(1000), 10) == 1200 + 10 * 64 * 1024
    needed = required_memory_bytes(_info(1000), 10)
    monkeypatch.setattr(gguf_info, "available_memory_bytes", lambda: needed)
    check_loadable(_info(1000), 10)  # exactly enough is enough
    monkeypatch.setattr(gguf_info, "available_memory_bytes", lambda: needed - 1)
    with pytest.raises(ModelError, match="needs about"):
        check_loadable(_info(1000), 10)
    monkeypatch.setattr(gguf_info, "available_memory_bytes", lambda: None)
    check_loadable(_info(10**15), 10)  # unknown memory: not refused


def test_unknown_architecture_message() -> None:
    alien = GGUFInfo(Path("a.gguf"), 1, 3, "notarealarch", None, None, 0, None, None, False)
    with pytest.raises(ModelError) as caught:
        check_loadable(alien, 1)
    assert str(caught.value) == (
        "a.gguf is a 'notarealarch' model, an architecture this version of llama.cpp cannot run; "
        "update llama-cpp-python or choose another model"
    )


class _FakeFile:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines(keepends=True)

    def __enter__(self) -> list[str]:
        return self.lines

    def __exit__(self, *_exc: object) -> None:
        pass


def test_available_memory_from_meminfo_else_sysconf(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[tuple[str, str]] = []

    def fake_open(path: str, encoding: str) -> _FakeFile:
        opened.append((path, encoding))
        return _FakeFile("MemTotal: 100 kB\nMemFree: 9 kB\nMemAvailable: 7 kB\n")

    monkeypatch.setattr(gguf_info, "open", fake_open, raising=False)
    assert gguf_info.available_memory_bytes() == 7 * 1024
    assert opened == [("/proc/meminfo", "ascii")]

    def no_file(path: str, encoding: str) -> _FakeFile:
        raise OSError("no /proc here")

    pages = {"SC_AVPHYS_PAGES": 3, "SC_PAGE_SIZE": 4096}
    monkeypatch.setattr(gguf_info, "open", no_file, raising=False)
    monkeypatch.setattr(os, "sysconf", lambda name: pages[name])
    assert gguf_info.available_memory_bytes() == 3 * 4096

    def unsupported(name: str) -> int:
        raise ValueError(name)

    monkeypatch.setattr(os, "sysconf", unsupported)
    assert gguf_info.available_memory_bytes() is None
