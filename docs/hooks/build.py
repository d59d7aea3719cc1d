"""MkDocs hooks: the parts of the docs that are generated from the code at build time.

A page asks for a generated part with an HTML comment on a line of its own:

- ``<!-- generated: presets-table -->``: the table of :data:`durak.presets.PRESETS`;
- ``<!-- generated: cli-help COMMAND -->``: the ``--help`` text of ``durak COMMAND`` (``durak``
  alone for the top level);
- ``<!-- generated: cli-help-rest -->``: a section per ``durak`` subcommand the page has not
  shown yet (so a new subcommand appears in the docs without editing them);
- ``<!-- generated: tournament -->``: the summary of :mod:`durak.tournament`, once it exists.

The hooks also generate an API reference page, and a nav entry, for every public module that no
hand-written page under ``docs/reference/`` renders (except the command line, which has its own
page), so a new module is documented from its docstrings at once.
The functions are plain and importable, so ``tests/test_docs.py`` checks them too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

_MARKER = re.compile(r"^<!-- generated: (?P<what>[a-z-]+)(?: (?P<arg>[a-z-]+))? -->$", re.M)


# -------------------------------------------------------------------------------------------
# Presets
# -------------------------------------------------------------------------------------------


def _toml(value: Any) -> str:
    """A value as TOML writes it inline (``None`` is ``"none"``, as rules files write it)."""
    if value is None:
        return '"none"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple | frozenset | set):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def _setting(name: str, value: Any) -> str:
    """One setting as it is written in a TOML rules file."""
    return f"`{name} = {_toml(value)}`"


def presets_table() -> str:
    """A Markdown table of every preset: name and aliases, description, settings, source."""
    from durak.presets import DEFAULT_PRESET, PRESETS

    rows = [
        "| preset | what it is | settings that differ from the defaults | source |",
        "|---|---|---|---|",
    ]
    for name, preset in PRESETS.items():
        label = f"`{name}`" + (" (default)" if name == DEFAULT_PRESET else "")
        if preset.aliases:
            label += "<br>also " + ", ".join(f"`{a}`" for a in preset.aliases)
        settings = "<br>".join(_setting(k, v) for k, v in preset.settings.items()) or "none"
        source = preset.source.replace("|", "\\|")
        description = preset.description.replace("|", "\\|")
        rows.append(f"| {label} | {description} | {settings} | {source} |")
    return "\n".join(rows)


# -------------------------------------------------------------------------------------------
# The command line
# -------------------------------------------------------------------------------------------


@contextmanager
def _columns(width: int) -> Iterator[None]:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def cli_commands() -> dict[str, argparse.ArgumentParser]:
    """The ``durak`` parser (key ``durak``) and each subcommand's parser, in order."""
    from durak.cli import build_parser

    parser = build_parser()
    found = {"durak": parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def cli_help(command: str) -> str:
    """The ``--help`` text of ``durak COMMAND`` (or of ``durak``), 80 columns wide."""
    commands = cli_commands()
    if command not in commands:
        raise KeyError(f"the docs ask for the help of an unknown command: durak {command}")
    with _columns(80):
        text = commands[command].format_help()
    return f"```text\n$ durak{'' if command == 'durak' else ' ' + command} --help\n{text}```"


def cli_help_rest(shown: set[str]) -> str:
    """Sections for the subcommands a page has not shown yet."""
    parts = []
    for command in cli_commands():
        if command == "durak" or command in shown:
            continue
        parts.append(f"### `durak {command}`\n\n{cli_help(command)}")
    if not parts:
        return ""
    return "## More commands\n\n" + "\n\n".join(parts)


# -------------------------------------------------------------------------------------------
# Reference pages of modules that have no page of their own yet
# -------------------------------------------------------------------------------------------

#: Modules documented elsewhere than in the API reference: the command (the package
#: ``durak.cli`` and its modules) has its own page.
NOT_IN_REFERENCE = frozenset(
    {"durak.cli"}
    | {
        f"durak.cli.{path.stem}"
        for path in (ROOT / "src" / "durak" / "cli").glob("*.py")
        if not path.stem.startswith("_")
    }
)


def public_modules() -> list[str]:
    """Every public module of the package, by dotted name, in file order."""
    src = ROOT / "src"
    names = []
    for path in sorted((src / "durak").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") or part == "conftest" for part in parts):
            names.append(".".join(parts))
    return names


def documented_modules(docs: Path = ROOT / "docs") -> set[str]:
    """The modules that a hand-written reference page renders with ``::: name``."""
    found: set[str] = set()
    for page in (docs / "reference").rglob("*.md"):
        found.update(re.findall(r"^::: (durak[\w.]*)\s*$", page.read_text("utf-8"), re.M))
    return found


def generated_pages() -> dict[str, str]:
    """``{page path: module}`` for each public module without a hand-written reference page:
    the hooks generate those pages (``reference/rl/index.md`` for ``durak.rl``)."""
    documented = documented_modules()
    pages = {}
    modules = public_modules()
    for name in modules:
        if name in documented or name in NOT_IN_REFERENCE:
            continue
        parts = name.split(".")[1:]
        is_package = any(other.startswith(name + ".") for other in modules)
        path = "/".join(["reference", *parts, "index.md"] if is_package else ["reference", *parts])
        pages[path if is_package else path + ".md"] = name
    return pages


def has_tournament() -> bool:
    """Whether the tournament module is there yet (another part of the project adds it)."""
    return (ROOT / "src" / "durak" / "tournament.py").exists()


def tournament_section() -> str:
    """The tournament module's summary for the bots page, or nothing while it does not exist."""
    if not has_tournament():
        return ""
    page = next((p for p, m in generated_pages().items() if m == "durak.tournament"), None)
    link = page or "reference/tournament.md"
    return (
        "## Tournaments\n\n"
        "[`durak.tournament`][durak.tournament] plays bots against each other over many "
        "seat-rotated games and reports each bot's durak rate with a confidence interval "
        f"([reference]({link})).\n\n"
        "::: durak.tournament\n"
        "    options:\n"
        "      members: false\n"
        "      show_root_heading: false\n"
        "      show_root_toc_entry: false\n"
        "      heading_level: 3\n"
    )


# -------------------------------------------------------------------------------------------
# The hooks
# -------------------------------------------------------------------------------------------


def expand(markdown: str) -> str:
    """Replace every generated-part marker of a page's Markdown."""
    shown = {m.group("arg") for m in _MARKER.finditer(markdown) if m.group("what") == "cli-help"}

    def one(match: re.Match[str]) -> str:
        what, arg = match.group("what"), match.group("arg")
        if what == "presets-table":
            return presets_table()
        if what == "cli-help":
            return cli_help(arg or "durak")
        if what == "cli-help-rest":
            return cli_help_rest(shown)
        if what == "tournament":
            return tournament_section()
        raise KeyError(f"unknown generated part: {match.group(0)}")

    return _MARKER.sub(one, markdown)


def on_config(config: Any) -> Any:
    pages = generated_pages()
    if not pages:
        return config
    for item in config["nav"]:
        if isinstance(item, dict) and "API reference" in item:
            section = item["API reference"]
            listed = {
                p for e in section if isinstance(e, dict) for p in e.values() if isinstance(p, str)
            }
            at = next((i for i, e in enumerate(section) if "durak.errors" in e), len(section))
            for path, module in pages.items():
                if path not in listed:
                    section.insert(at, {module: path})
                    at += 1
    return config


def on_files(files: Any, config: Any) -> Any:
    import tempfile

    from mkdocs.structure.files import File

    # Written to a directory of their own, so that the pages have a source file like any other
    # (the translated-pages plugin sorts files by their source path).
    where = Path(tempfile.mkdtemp(prefix="durak-docs-"))
    _written.append(where)
    for path, module in generated_pages().items():
        if files.get_file_from_path(path) is None:
            (where / path).parent.mkdir(parents=True, exist_ok=True)
            (where / path).write_text(f"::: {module}\n", encoding="utf-8")
            files.append(
                File(path, str(where), config["site_dir"], config["use_directory_urls"])
            )
    return files


def on_post_build(config: Any) -> None:
    import shutil

    # The generated sources are read by then: remove their directories.
    while _written:
        shutil.rmtree(_written.pop(), ignore_errors=True)


#: The directories of generated page sources that :func:`on_post_build` removes.
_written: list[Path] = []


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if "<!-- generated:" not in markdown:
        return markdown
    return expand(markdown)
