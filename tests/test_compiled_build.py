"""The optional compiled build (``DURAK_COMPILE=1``; docs/performance.md): the build backend's
switch and what it asks for, and whether the installed engine is the build CI meant to test.

CI installs the compiled build on one Python and runs the whole suite against it with
``DURAK_EXPECT_COMPILED=1``; everywhere else the pure-Python build is expected. Both builds run
the same sources, so every other test holds for both."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import durak
from durak import _step

ROOT = Path(__file__).resolve().parents[1]


def _backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "durak_build", ROOT / "build_backend" / "durak_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("value", "compiling"),
    [("", False), ("0", False), ("no", False), ("1", True), ("TRUE", True), (" yes ", True)],
)
def test_DURAK_COMPILE_switches_the_build(
    value: str, compiling: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = _backend()
    monkeypatch.setenv("DURAK_COMPILE", value)
    assert backend.compiling() is compiling


def test_an_unclear_DURAK_COMPILE_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    monkeypatch.setenv("DURAK_COMPILE", "maybe")
    with pytest.raises(ValueError, match=r"DURAK_COMPILE must be 1 or 0 .*'maybe'"):
        backend.compiling()


def test_the_compiled_build_asks_for_mypy_and_attrs(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    monkeypatch.setenv("DURAK_COMPILE", "1")
    for hook in (backend.get_requires_for_build_wheel, backend.get_requires_for_build_editable):
        assert {r.split(">")[0] for r in hook()} == {"mypy", "attrs"}


def test_the_compiled_modules_are_sources_of_the_package() -> None:
    for path in _backend().COMPILED:
        assert (ROOT / path).is_file(), path
    assert "src/durak/_step.py" in _backend().COMPILED  # the public calls stay in Python


def test_the_installed_engine_is_the_build_ci_expects() -> None:
    expected = os.environ.get("DURAK_EXPECT_COMPILED", "0") == "1"
    assert durak.compiled is expected, f"durak._step is {_step.__file__}"


def test_durak_version_says_which_build_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "durak", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    suffix = " (compiled)" if os.environ.get("DURAK_EXPECT_COMPILED") == "1" else ""
    assert done.stdout.strip() == f"durak {durak.__version__}{suffix}"
