"""The package's layers (docs/architecture.md): the import-linter contracts in pyproject.toml
hold for the sources, and the page's picture and table are the ones made from the contract.

The sources are analysed (``src`` first on the path), also where the tests run against an
installed build."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

#: Every pair of modules that reach each other through imports (lazy ones included, imports
#: made only for type checking aside): a circle.
CIRCLES = """
import grimp
graph = grimp.build_graph("durak", exclude_type_checking_imports=True)
for module in sorted(graph.modules):
    for other in sorted(graph.find_modules_directly_imported_by(module)):
        if other != module and graph.chain_exists(imported=module, importer=other):
            print(module, "<->", other)
"""


def test_the_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, env=SOURCES, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout and done.stdout.count("KEPT") == 3


def test_no_module_imports_another_in_a_circle() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CIRCLES], cwd=ROOT, env=SOURCES, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == ""


def test_the_architecture_page_is_drawn_from_the_contract() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "architecture.py"), "--check"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    svg = (ROOT / "docs" / "img" / "layers.svg").read_text("utf-8")
    assert "durak.engine" in svg and "durak.rules" in svg
