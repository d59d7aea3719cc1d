"""The package's layers (docs/architecture.md): the import-linter contracts in pyproject.toml
hold for the sources, and the page's picture and table are the ones made from the contract."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout and done.stdout.count("KEPT") == 3


def test_no_module_imports_another_in_a_circle() -> None:
    # Every edge, lazy imports inside functions included (type-checking imports aside): the
    # graph of modules has no strongly connected component of two or more.
    graph = grimp.build_graph("durak", exclude_type_checking_imports=True)
    seen: set[str] = set()
    for module in sorted(graph.modules):
        for other in graph.find_modules_directly_imported_by(module):
            if other != module and graph.chain_exists(imported=module, importer=other):
                seen.add(f"{module} <-> {other}")
    assert not seen


def test_the_architecture_page_is_drawn_from_the_contract() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "architecture.py"), "--check"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    svg = (ROOT / "docs" / "img" / "layers.svg").read_text("utf-8")
    assert "durak.engine" in svg and "durak.rules" in svg
