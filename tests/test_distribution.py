"""The distribution: its name and extras, a core that needs attrs alone, the ``durak`` command
naming the extra it needs, and what the wheel and the sdist carry (their configuration; CI
builds both and checks their contents, ``tests/check_dist.py``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
NAME = "durak-engine"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=120, env=env, cwd=ROOT
    )


def test_the_distribution_is_durak_engine_and_needs_attrs_alone() -> None:
    assert PROJECT["name"] == NAME
    assert [re.split(r"[<>=!~ ;\[]", d)[0] for d in PROJECT["dependencies"]] == ["attrs"]


def test_every_extra_that_names_the_project_names_it_by_its_distribution_name() -> None:
    extras: dict[str, list[str]] = PROJECT["optional-dependencies"]
    self_refs = [d for deps in extras.values() for d in deps if d.startswith("durak")]
    assert "durak-engine[web]" in extras["webtest"]
    assert "durak-engine[cli]" in extras["web"]  # durak serve is a subcommand of durak
    assert self_refs and all(d.startswith(f"{NAME}[") for d in self_refs)
    assert {"cli", "toml", "web", "webtest", "rl", "openspiel", "dev", "docs"} <= set(extras)
    assert "jsonschema>=4.18" in extras["dev"]  # the schemas are checked in the tests only


def test_the_classifiers_name_python_3_11_to_3_13() -> None:
    versions = {c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"] if ":: 3." in c}
    assert versions == {"3.11", "3.12", "3.13"}
    assert PROJECT["requires-python"] == ">=3.11"


def test_the_docs_and_sources_name_the_distribution_not_the_other_project() -> None:
    wrong = re.compile(r"pip install[^\n`]*['\"]?durak\[")
    for path in [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("src/durak/**/*.py")]:
        assert not wrong.search(path.read_text("utf-8")), path


def test_the_core_plays_records_and_loads_every_preset_without_any_extra() -> None:
    done = _run("tests/core_smoke.py", "--block")
    assert done.returncode == 0, done.stderr
    assert "core smoke: ok" in done.stdout


def test_durak_without_the_cli_extra_names_the_extra_and_exits_2() -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests'); import core_smoke; core_smoke.block(); "
        "from durak.__main__ import main; sys.exit(main(['play']))"
    )
    done = _run("-c", code)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "durak: the durak command needs the 'cli' extra: pip install 'durak-engine[cli]' "
        "(missing: rich, prompt_toolkit)"
    )


def test_durak_with_the_cli_extra_runs_the_command() -> None:
    done = _run("-m", "durak", "rules")
    assert done.returncode == 0, done.stderr
    assert "podkidnoy" in done.stdout


def test_the_sdist_carries_docs_examples_changelog_and_tests_and_the_wheel_no_tests() -> None:
    manifest = (ROOT / "MANIFEST.in").read_text("utf-8").split("\n")
    for line in ("graft docs", "graft examples", "graft tests"):
        assert line in manifest
    assert any(line.startswith("include ") and "CHANGELOG.md" in line for line in manifest)
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert setuptools["packages"]["find"]["where"] == ["src"]
    assert not list((ROOT / "src").rglob("conftest.py"))
    assert not list((ROOT / "src").rglob("test_*.py"))
