"""``durak bots``: the strength levels (:mod:`durak.levels`: ``--level``, and ``--bots``
takes them too) and the computer players ``--bots`` accepts by name: the built-in ones and
those that installed packages add through the ``durak.bots`` entry points
(:data:`durak.bots.ENTRY_POINT_GROUP`). ``--bots module:Class`` takes any other bot class.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

import durak.bots as bots_module
from durak.levels import LEVELS, Level


def bot_catalogue() -> list[dict[str, Any]]:
    """Every named bot: ``name``, ``source`` (``"built in"`` or the package that adds it),
    ``target`` (its ``module:Class``) and ``summary`` (the first sentence of its docstring, where
    it loads)."""
    rows = []
    for name, factory in bots_module.BOTS.items():
        rows.append(
            {
                "name": name,
                "source": "built in",
                "target": bots_module.LAZY_TARGETS.get(
                    name, f"{factory.__module__}:{getattr(factory, '__qualname__', name)}"
                ),
                "summary": _summary(factory),
            }
        )
    for name, entry in sorted(bots_module.installed_bots().items()):
        dist = getattr(entry, "dist", None)
        try:
            summary = _summary(entry.load())
        except Exception as exc:  # a broken plug-in is listed with the reason
            summary = f"(fails to load: {exc})"
        rows.append(
            {
                "name": name,
                "source": dist.name if dist is not None else "an installed package",
                "target": entry.value,
                "summary": summary,
            }
        )
    return rows


def level_catalogue() -> list[dict[str, Any]]:
    """Every strength level, weakest first: ``name``, ``bot`` (the spec
    :func:`durak.bots.make_bot` reads), ``budget`` (seconds per move, ``None`` for a bot that
    does not search), ``full_budget`` (whether it thinks for a front-end's whole per-move
    budget) and ``description`` (English)."""
    return [
        {
            "name": level.name,
            "bot": level.spec,
            "budget": level.budget,
            "full_budget": level.full_budget,
            "description": level.description,
        }
        for level in LEVELS.values()
    ]


def _budget_text(level: Level) -> str:
    if level.budget is None:
        return "no search"
    text = f"{level.budget * 1000:g} ms a move"
    return f"{text} (the front-end's budget)" if level.full_budget else text


def _summary(obj: Any) -> str:
    """The first sentence of ``obj``'s docstring, whole (a sentence may run over several lines;
    one that introduces a list ends at its colon)."""
    doc = (getattr(obj, "__doc__", None) or "").strip()
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    paragraph = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", paragraph).replace("``", "")
    found = re.search(r"\.(\s|$)", paragraph)
    sentence = paragraph[: found.start() + 1] if found else paragraph
    return sentence[:-1] + "." if sentence.endswith(":") else sentence


def _cmd_bots(args: argparse.Namespace) -> int:
    """``durak bots [--json] [--levels]``: list the strength levels, then the named bots, one
    per line; ``--json`` prints the bots as JSON, ``--json --levels`` the levels."""
    rows = bot_catalogue()
    if args.json:
        found = level_catalogue() if args.levels else rows
        print(json.dumps(found, indent=2, ensure_ascii=False))
        return 0
    print("Levels (--level LEVEL, or --bots LEVEL,...):")
    names = max(len(name) for name in LEVELS)
    for level in LEVELS.values():
        print(f"  {level.name:<{names}}  {level.spec}, {_budget_text(level)}: {level.description}")
    if args.levels:
        return 0
    print("Bots (--bots KIND,...):")
    width = max(len(r["name"]) for r in rows)
    for row in rows:
        print(f"  {row['name']:<{width}}  {row['source']} ({row['target']}): {row['summary']}")
    print("Any other bot: --bots module:Class (made as Class(seed), with a choose(view) method).")
    return 0
