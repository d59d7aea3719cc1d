"""The documentation's code runs: every ```python block of docs/*.md, and the generated parts.

The blocks of one page run in order in one namespace, like a reader who types them in. A block
may be skipped only when it is deliberately partial: its fence carries a ``title="..."`` or the
line before it is ``<!-- no-run -->``. The blocks run in a temporary working directory, so
examples may write files.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from optional_parts import need, skip_if_optional

import durak
from durak.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.parts)

sys.path.insert(0, str(ROOT))  # the block finder of tools/doc_examples.py, which CI runs too
from tools.doc_examples import python_blocks  # noqa: E402


def test_the_block_finder() -> None:
    page = (
        "text\n```python\nx = 1\n```\n\n<!-- no-run -->\n```python\nnope(\n```\n"
        '```python title="part.py"\nnope(\n```\n```sh\nls\n```\n'
    )
    found = python_blocks(page)
    assert [(line, skip) for line, _, skip in found] == [(2, False), (7, True), (10, True)]
    assert found[0][1] == "x = 1\n"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_the_code_of_a_page_runs(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = python_blocks(page.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    for line, code, skip in blocks:
        if skip:
            continue
        where = f"{page.relative_to(ROOT)}:{line}"
        try:
            exec(compile(code, where, "exec"), namespace)
        except ModuleNotFoundError as error:
            skip_if_optional(error, where)  # a page of an optional part, without its extra
            raise


# --------------------------------------------------------------------------------------------
# The generated parts and the pages that must list everything
# --------------------------------------------------------------------------------------------


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks_build", DOCS / "hooks" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_docstring_rewriting_for_the_reference() -> None:
    need("griffe")  # the docs extra
    spec = importlib.util.spec_from_file_location(
        "docs_hooks_griffe_rest", DOCS / "hooks" / "griffe_rest.py"
    )
    assert spec is not None and spec.loader is not None
    rest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rest)
    doc = "Cards:\n\n>>> [str(c) for c in x]\n['9c']\n\nExamples:\n    >>> 1\n    1\n"
    assert rest._fence_doctests(doc) == (
        "Cards:\n\n```pycon\n>>> [str(c) for c in x]\n['9c']\n```\n\nExamples:\n    >>> 1\n    1\n"
    )
    assert rest._fence_literals("Usage::\n\n    durak play\n\nAfter.") == (
        "Usage:\n\n```text\ndurak play\n```\n\nAfter."
    )
    assert rest._comment_doc(["#: The seat.", "HUMAN = 0"], 2) == "The seat."
    assert rest._comment_doc(['    ALL = "all"  #: everyone'], 1) == "everyone"


def test_the_presets_table_lists_every_preset() -> None:
    table = _hooks().presets_table()
    rows = [row for row in table.splitlines() if row.startswith("| `")]
    assert len(rows) == len(PRESETS)
    for name, preset in PRESETS.items():
        row = next(r for r in rows if r.startswith(f"| `{name}`"))
        for alias in preset.aliases:
            assert f"`{alias}`" in row
        for setting in preset.settings:
            assert f"`{setting} = " in row
    assert "<!-- generated: presets-table -->" in (DOCS / "presets.md").read_text("utf-8")


def test_the_cli_page_shows_every_command() -> None:
    hooks = _hooks()
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    expanded = hooks.expand(page)
    assert "<!-- generated:" not in expanded
    for command in hooks.cli_commands():
        name = "durak" if command == "durak" else f"durak {command}"
        assert f"$ {name} --help" in expanded, command


def test_the_package_reference_lists_every_export() -> None:
    page = (DOCS / "reference" / "index.md").read_text(encoding="utf-8")
    missing = [name for name in durak.__all__ if f"`{name}`" not in page]
    assert not missing, f"docs/reference/index.md does not list {missing}"


def test_every_public_module_has_a_reference_page() -> None:
    hooks = _hooks()
    written = hooks.documented_modules()
    # The library's core has hand-written pages; modules added later get generated ones.
    core = {
        "durak", "durak.cards", "durak.rules", "durak.rules.settings", "durak.rules.modules",
        "durak.rules.beating", "durak.rules.throwing", "durak.rules.drawing",
        "durak.rules.seating", "durak.rules.objective", "durak.state", "durak.actions",
        "durak.engine", "durak.views", "durak.events", "durak.notation", "durak.records",
        "durak.serialize", "durak.presets", "durak.match", "durak.bots", "durak.errors",
    }  # fmt: skip
    assert core <= written
    generated = set(hooks.generated_pages().values())
    public = set(hooks.public_modules()) - hooks.NOT_IN_REFERENCE
    assert public <= written | generated
    assert not written & generated


#: Every rule id of the rule book (shared/RULES.md).
RULE_IDS = (
    "R1", "R1.1", "R1.2", "R1.3",
    "R2", "R2.1", "R2.2", "R2.3", "R2.4", "R2.5",
    "R3", "R3.1", "R3.2", "R3.3", "R3.4",
    "R4", "R4.1", "R4.2", "R4.3", "R4.4", "R4.5", "R4.6", "R4.7", "R4.8", "R4.9", "R4.10",
    "R5", "R5.1", "R5.2",
    "R6", "R6.1", "R6.2", "R6.3",
    "R7", "R7.1", "R7.2", "R7.3", "R7.4",
    "R8", "R8.1",
    "R9", "R9.1", "R9.2", "R9.3", "R9.4", "R9.5", "R9.6", "R9.6a", "R9.7",
    "R10", "R10.1", "R10.2", "R10.3", "R10.4",
    "R11", "R11.1", "R11.2", "R11.3",
    "R12", "R12.1", "R12.2",
    "R13", "R13.1", "R13.2", "R13.3", "R13.4",
    "R14",
    "R15", "R15.1", "R15.2", "R15.3", "R15.4", "R15.5",
)  # fmt: skip


def test_the_rules_page_has_an_anchor_per_rule() -> None:
    page = (DOCS / "rules.md").read_text(encoding="utf-8")
    anchors = re.findall(r"^#+ .*\{ *#(R[0-9.a]+) *\}$", page, flags=re.M)
    assert sorted(anchors) == sorted(RULE_IDS)


def test_the_frontend_guide_lists_every_view_field() -> None:
    import attrs

    from durak.views import PlayerView

    page = (DOCS / "frontends.md").read_text(encoding="utf-8")
    missing = [f.name for f in attrs.fields(PlayerView) if f"`{f.name}`" not in page]
    assert not missing, f"docs/frontends.md does not describe {missing}"


def test_the_rules_page_names_every_setting() -> None:
    from durak.rules.settings import SETTINGS

    page = (DOCS / "rules.md").read_text(encoding="utf-8")
    missing = [s for s in SETTINGS if f"`{s}`" not in page]
    assert not missing, f"docs/rules.md does not describe {missing}"
