"""A regular install: the wheel built from this tree, installed into a fresh virtual environment
(no editable install, no source tree on the path), answers a question with its own prompts: the
scripted model writes the program, the real sandbox runs it.

The heavy dependencies (llama.cpp, Qt, sympy) are lent from the test's own environment by one path
line, which adds a folder to sys.path without running its .pth files: the editable install living
there stays switched off, so `app` can only come from the wheel.
"""

from __future__ import annotations

import json
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
import app
from app.reasoning import solve_pal
from app.reasoning.prompts import template
from models.testing import ScriptedModel
from sandbox import Sandbox

model = ScriptedModel(["```python\nprint(24 - 3 * 6)\n```"])
with Sandbox() as sandbox:
    solution = solve_pal("A baker made 24 muffins and sold 3 boxes of 6. How many are left?", model, sandbox)
print(json.dumps({
    "app": app.__file__,
    "answer": solution.answer,
    "status": solution.status.value,
    "isolation": solution.isolation,
    "prompt_has_template": template("pal").splitlines()[0] in str(model.calls[0]),
}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(ROOT)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    (built,) = out.glob("pal_studio-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_holds_every_prompt(wheel: Path) -> None:
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {name.rsplit("/", 1)[1] for name in names if name.startswith("app/resources/prompts/")}
    in_tree = {path.name for path in (ROOT / "resources" / "prompts").glob("*.txt")}
    assert in_tree and shipped == in_tree
    assert "models/catalog.json" in names


@pytest.mark.slow
def test_a_fresh_environment_answers_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, capture_output=True, timeout=300)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    fresh_site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True, timeout=60,
        ).stdout.strip()
    )  # fmt: skip
    lent = [sysconfig.get_paths()["purelib"], *site.getsitepackages()]
    (fresh_site / "zz_lent_dependencies.pth").write_text("\n".join(dict.fromkeys(lent)) + "\n", encoding="utf-8")

    done = subprocess.run(
        [str(python), "-I", "-c", PROBE], capture_output=True, text=True, timeout=300, cwd=tmp_path, check=False
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout.splitlines()[-1])
    assert Path(data["app"]).is_relative_to(fresh_site), data["app"]
    assert (data["answer"], data["status"]) == ("6", "answered")
    assert data["prompt_has_template"]
    assert data["isolation"] in {"strong", "partial"}


def test_every_package_of_the_tree_is_listed_for_the_wheel() -> None:
    """pyproject lists its packages by hand (one is mapped from resources/): a new one must be added."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("app", "models", "sandbox")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed, f"not in pyproject's packages: {sorted(found - listed)}"
