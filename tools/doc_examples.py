"""Type-check the documentation's Python examples with ``mypy --strict``.

    python tools/doc_examples.py            # check README.md and docs/**/*.md; exit as mypy
    python tools/doc_examples.py --out DIR  # also keep the extracted modules in DIR

Every ```python block of a page (README.md, each page of docs/ in each language) that
``tests/test_docs.py`` runs goes, in order, into one module per page, as a reader types the blocks
of a page into one session; blocks that are deliberately partial (a ``title="..."`` on the fence,
or ``<!-- no-run -->`` on the line before) are left out. Each line of a module says where it comes
from in a comment at the end of each block's first line, so mypy's report points at the page.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


def python_blocks(text: str) -> list[tuple[int, str, bool]]:
    """``(line number, code, partial)`` of every ```python block of a Markdown text, in order."""
    lines = text.splitlines()
    blocks: list[tuple[int, str, bool]] = []
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        indent, fence, info = match.group("indent"), match.group("fence"), match.group("info")
        words = info.strip().split()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines):
            close = _FENCE.match(lines[i])
            if close and close.group("fence").startswith(fence) and not close.group("info").strip():
                break
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        if words and words[0] in ("python", "py", "{.python}"):
            previous = lines[start - 1].strip() if start > 0 else ""
            partial = "title=" in info or previous == "<!-- no-run -->"
            blocks.append((start + 1, "\n".join(body) + "\n", partial))
    return blocks


def pages() -> list[Path]:
    """README.md and every page of docs/ (not the build hooks)."""
    docs = sorted(p for p in (ROOT / "docs").rglob("*.md") if "hooks" not in p.parts)
    return [ROOT / "README.md", *docs]


def module_name(page: Path) -> str:
    """The module a page's examples become: ``docs_getting_started_de`` for
    ``docs/getting-started.de.md``."""
    relative = page.relative_to(ROOT).with_suffix("")
    return re.sub(r"\W", "_", str(relative).replace("/", "_").replace(".", "_")).lower()


def extract(out: Path) -> list[Path]:
    """Write one module per page that has examples into ``out``; the modules written."""
    written = []
    for page in pages():
        runnable = [
            (line, code)
            for line, code, partial in python_blocks(page.read_text("utf-8"))
            if not partial and code.strip()
        ]
        if not runnable:
            continue
        where = page.relative_to(ROOT)
        parts = [f"# The examples of {where}, in order.\n"]
        for line, code in runnable:
            parts.append(f"# {where}:{line}\n{code}")
        path = out / f"{module_name(page)}.py"
        path.write_text("\n".join(parts), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="keep the extracted modules in this folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        out = args.out or Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        modules = extract(out)
        command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
        command += ["--cache-dir", str(Path(folder) / ".mypy_cache")]
        env = {**os.environ, "MYPYPATH": str(ROOT / "examples")}  # pages import the examples
        status = subprocess.run([*command, *map(str, modules)], check=False, env=env).returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
