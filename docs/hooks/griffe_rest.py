"""A griffe extension that turns the reST habits of durak's docstrings into Markdown at build time.

The docstrings are Google style but keep three reST/Sphinx habits, because they also serve
``help()``, doctests and editors:

- roles such as ``:class:`~durak.views.PlayerView``` or ``:func:`apply```: each becomes a link to
  the object's reference entry when that entry is rendered, else inline code;
- doctest paragraphs (``>>> ...`` and their output): each becomes a fenced ``pycon`` block, so
  that ``[...]`` in an output is not read as a Markdown link and ``>>>`` not as a quote;
- literal blocks introduced by ``::``: each becomes a fenced code block;

and one Sphinx habit for attributes: a ``#:`` comment above an assignment (or after it, on the
same line) becomes the attribute's docstring when it has none.

The source files are not changed: only what mkdocstrings renders.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

_ROLE = re.compile(
    r":(?:py:)?(?P<role>class|func|meth|mod|data|attr|exc|obj|const|type):`(?P<target>[^`]+)`"
)
_DOCTEST = re.compile(r"^(\s*)>>> ")
_LITERAL = re.compile(r"^(?P<text>.*?)::\s*$")


def _comment_doc(lines: list[str], lineno: int) -> str | None:
    """The ``#:`` documentation of the assignment on line ``lineno`` (1-based)."""
    line = lines[lineno - 1]
    same = re.search(r"\s#:\s?(.*)$", line)
    if same and not line.lstrip().startswith("#"):
        return same.group(1).strip()
    above: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].lstrip().startswith("#:"):
        above.insert(0, lines[i].lstrip()[2:].strip())
        i -= 1
    return " ".join(above) if above else None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _fence_doctests(text: str) -> str:
    """Fence doctest paragraphs, except inside an ``Examples:`` section (griffe parses those)."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    in_fence = False
    examples: int | None = None  # the indentation of an open ``Examples:`` header
    while i < len(lines):
        line = lines[i]
        if examples is not None and line.strip() and _indent(line) <= examples:
            examples = None
        if line.strip() in ("Examples:", "Example:"):
            examples = _indent(line)
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        match = None if in_fence or examples is not None else _DOCTEST.match(line)
        if match is None:
            out.append(line)
            i += 1
            continue
        indent = match.group(1)
        block: list[str] = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i])
            i += 1
        out.append(f"{indent}```pycon")
        out.extend(block)
        out.append(f"{indent}```")
    return "\n".join(out)


def _fence_literals(text: str) -> str:
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        match = _LITERAL.match(line)
        if match is None or line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        base = _indent(line)
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or _indent(lines[j]) <= base:
            out.append(line)
            i += 1
            continue
        head = match.group("text").rstrip()
        if head.strip():
            out.append(head + ":")
        block: list[str] = []
        k = j
        while k < len(lines) and (not lines[k].strip() or _indent(lines[k]) > base):
            block.append(lines[k])
            k += 1
        while block and not block[-1].strip():
            block.pop()
        inner = min(_indent(b) for b in block if b.strip())
        pad = " " * base
        out.append("")
        out.append(pad + "```text")
        out.extend(pad + b[inner:] if b.strip() else "" for b in block)
        out.append(pad + "```")
        out.append("")
        i = k
    return "\n".join(out)


class RestToMarkdown(griffe.Extension):
    """Rewrite docstrings for mkdocstrings (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._sources: dict[Path, list[str]] = {}

    # ``#:`` comments ------------------------------------------------------------------------

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        if attr.docstring is not None or attr.lineno is None:
            return
        path = attr.filepath
        if not isinstance(path, Path) or not path.exists():
            return
        lines = self._sources.get(path)
        if lines is None:
            lines = self._sources[path] = path.read_text(encoding="utf-8").splitlines()
        text = _comment_doc(lines, attr.lineno)
        if text:
            attr.docstring = griffe.Docstring(text, lineno=attr.lineno, parent=attr)

    # roles, doctests and literal blocks, once the whole package is loaded --------------------

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != "durak":
            return
        self._pkg = pkg
        for obj in self._walk(pkg, set()):
            doc = obj.docstring
            if doc is None:
                continue
            value = _fence_doctests(doc.value)
            value = _fence_literals(value)
            value = _ROLE.sub(lambda m, obj=obj: self._role(obj, m), value)
            doc.value = value

    def _walk(self, obj: griffe.Object, seen: set[str]) -> list[griffe.Object]:
        if obj.path in seen:
            return []
        seen.add(obj.path)
        found = [obj]
        for member in obj.members.values():
            if member.is_alias:
                continue
            found.extend(self._walk(member, seen))  # type: ignore[arg-type]
        return found

    def _find(self, path: str) -> griffe.Object | None:
        try:
            found = self._pkg.modules_collection[path]
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            return None
        try:
            while found.is_alias:
                found = found.final_target
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            return None
        return found  # type: ignore[no-any-return]

    def _resolve(self, obj: griffe.Object, target: str) -> griffe.Object | None:
        scopes: list[griffe.Object] = []
        scope: griffe.Object | None = obj
        while scope is not None:
            scopes.append(scope)
            scope = scope.parent
        head, _, rest = target.partition(".")
        for scope in scopes:
            member = scope.members.get(head)
            if member is None:
                continue
            found = self._find(member.path)
            if found is not None and rest:
                found = self._find(f"{found.path}.{rest}")
            if found is not None:
                return found
        return self._find(target)

    @staticmethod
    def _rendered(obj: griffe.Object) -> bool:
        """Whether mkdocstrings renders ``obj`` somewhere (the options of mkdocs.yml)."""
        path = obj.path
        if not (path == "durak" or path.startswith("durak.")) or path.startswith("durak.cli"):
            return False
        if any(part.startswith("_") for part in obj.path.split(".")):
            return False
        parent = obj.parent
        while parent is not None and not parent.is_module:
            if parent.docstring is None and not parent.is_class:
                return False
            parent = parent.parent
        return obj.is_module or obj.docstring is not None

    def _role(self, obj: griffe.Object, match: re.Match[str]) -> str:
        target = match.group("target").strip()
        short = target.startswith("~")
        target = target.lstrip("~")
        shown = target.rsplit(".", 1)[-1] if short else target
        if match.group("role") in ("func", "meth"):
            shown += "()"
        found = self._resolve(obj, target)
        if found is None or not self._rendered(found):
            return f"`{shown}`"
        return f"[`{shown}`][{found.path}]"
