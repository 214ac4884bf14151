"""Check that every runtime dependency but llama-cpp-python has a wheel for Windows and macOS.

    python scripts/check_platform_wheels.py [--python 3.11] [--pip PATH]

For each platform (Windows x86-64, macOS arm64, macOS x86-64) pip resolves the dependencies in
pyproject.toml — at the versions installed here, where the requirement admits them — and theirs,
without building anything (`--only-binary=:all:`) and without downloading wheels (`--dry-run --report`
reads the index's metadata). The table says which wheel each platform would get; exit status 1
if any dependency has none. llama-cpp-python ships no wheels on PyPI and is left out (README,
"Installing", "On each platform"). Needs the package index; `scripts/check-platform-wheels.sh`
runs it with the project's virtual environment.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {"llama-cpp-python"}
# What a current machine of each kind accepts (pip's --platform list): the macOS releases up to 15
# with their own architecture and universal2, so a wheel built for any supported release counts.
_MAC_RELEASES = [(10, minor) for minor in range(9, 16)] + [(major, 0) for major in range(11, 16)]
PLATFORMS: dict[str, dict[str, object]] = {
    "win_amd64": {"tags": ["win_amd64"], "sys_platform": "win32", "platform_system": "Windows", "machine": "AMD64"},
    "macosx_11_0_arm64": {
        "tags": [f"macosx_{a}_{b}_{arch}" for a, b in _MAC_RELEASES if a >= 11 for arch in ("arm64", "universal2")],
        "sys_platform": "darwin",
        "platform_system": "Darwin",
        "machine": "arm64",
    },
    "macosx_10_9_x86_64": {
        "tags": [f"macosx_{a}_{b}_{arch}" for a, b in _MAC_RELEASES for arch in ("x86_64", "intel", "universal2")],
        "sys_platform": "darwin",
        "platform_system": "Darwin",
        "machine": "x86_64",
    },
}


def requirements(platform: str) -> list[str]:
    """pyproject's runtime requirements that apply on `platform`, each pinned to the version
    installed here when the requirement admits it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    kind = PLATFORMS[platform]
    environment: dict[str, str] = {
        **{key: str(value) for key, value in default_environment().items()},  # packaging ≥ 26 types it as a TypedDict
        "sys_platform": str(kind["sys_platform"]),
        "platform_system": str(kind["platform_system"]),
        "platform_machine": str(kind["machine"]),
    }
    wanted = []
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if requirement.name in SKIPPED or (requirement.marker and not requirement.marker.evaluate(environment)):
            continue
        try:
            here = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            here = None
        if here is not None and requirement.specifier.contains(here, prereleases=True):
            wanted.append(f"{requirement.name}=={here}")
        else:
            wanted.append(f"{requirement.name}{requirement.specifier}")
    return wanted


def resolve(pip: list[str], platform: str, wanted: list[str], python: str) -> dict[str, str]:
    """{requirement: the wheel pip would take, or "NO WHEEL: why"} for one platform: all at once,
    and one by one only when that fails, to name the ones missing."""
    together = _resolve(pip, platform, wanted, python)
    if isinstance(together, list):
        return dict(zip(wanted, together, strict=True))
    found: dict[str, str] = {}
    for requirement in wanted:
        alone = _resolve(pip, platform, [requirement], python)
        found[requirement] = alone[0] if isinstance(alone, list) else f"NO WHEEL: {alone}"
    return found


def _resolve(pip: list[str], platform: str, wanted: list[str], python: str) -> list[str] | str:
    """The wheel file names pip would take for `wanted`, in order, or pip's complaint; their own
    dependencies are resolved too (a missing one fails the lot), and counted in the last entry."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        command = [*pip, "install", "--dry-run", "--only-binary=:all:", "--ignore-installed"]
        command += [f"--platform={tag}" for tag in PLATFORMS[platform]["tags"]]  # type: ignore[attr-defined]
        command += ["--python-version", python, "--implementation", "cp", "--target", scratch]
        command += ["--report", str(report), "--quiet", *wanted]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
            return lines[0] if lines else done.stderr.strip()[-200:]
        installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    wheels = {item["metadata"]["name"].lower().replace("_", "-"): item["download_info"]["url"] for item in installs}
    names = [wheels.pop(Requirement(r).name.lower().replace("_", "-")).rsplit("/", 1)[-1] for r in wanted]
    names[-1] += f"  (+ {len(wheels)} dependencies of theirs, all wheels)" if wheels else ""
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default="3.11", help="the Python version to check for (default 3.11)")
    parser.add_argument("--pip", default=None, help="the pip to run (default: this interpreter's)")
    args = parser.parse_args()
    pip = [args.pip] if args.pip else [sys.executable, "-m", "pip"]
    missing = 0
    for platform in PLATFORMS:
        wanted = requirements(platform)
        print(f"\n{platform} (Python {args.python}): {len(wanted)} runtime dependencies, llama-cpp-python left out")
        for requirement, wheel in resolve(pip, platform, wanted, args.python).items():
            missing += wheel.startswith("NO WHEEL")
            print(f"  {requirement:<40} {wheel}")
    print(f"\n{'every dependency has a wheel' if not missing else f'{missing} missing'} on the three platforms")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
