"""Draw the package's layers from the import-linter contract in pyproject.toml.

    python tools/architecture.py          # write docs/img/layers.svg and the table in
                                          # docs/architecture.md (between its markers)
    python tools/architecture.py --check  # exit 1 if either differs from the contract

The contract (``[tool.importlinter]``, checked by ``lint-imports``) is the one source: the
picture and the table are made from it, so they cannot drift from what CI enforces.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
SVG = ROOT / "docs" / "img" / "layers.svg"
PAGE = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- layers: made by tools/architecture.py from pyproject.toml; do not edit -->"
END = "<!-- /layers -->"

#: What each layer of the package is for, by its first module (shown in the table).
ROLES = {
    "__main__": "`python -m durak`",
    "cli": "the terminal game and the `durak` command",
    "web": "`durak serve`: the browser game and the engine service; training the learned agent "
    "and the leaf values",
    "jax": "the JAX engine; the search bot with learned leaf values (numpy)",
    "agent": "the learned agent and the guided search bot (numpy)",
    "rl": "the RL adapters (Gymnasium, PettingZoo, OpenSpiel) and their shared encoding",
    "tournament": "bot tournaments",
    "game": "a game with its history: push, pop, save and load, bots included; the strength "
    "levels of the front-ends",
    "bots": "the computer players; matches (R11); what a player types, read in its position",
    "endgame": "exact two-player endgames: the solver",
    "serialize": "states, views and events as JSON",
    "records": "game records: write, read, replay",
    "notation": "text forms of actions and positions",
    "views": "what one player may see; the presets (R14)",
    "engine": "the public calls: `new_game`, `legal_actions`, `apply` ... (R13)",
    "_step": "the step: the listing, an action's effect, the bout end",
    "_deal": "the deal, trump, the first attacker, a redeal (R2, R3)",
    "rules": "the settings and the rule modules (R4-R12, R15)",
    "events": "what happened",
    "state": "the game state, a frozen value",
    "actions": "the actions; the languages' catalogs",
    "cards": "cards and decks (R1)",
    "errors": "the errors",
    "messages": "the messages and their codes",
    "_input": "guards for untrusted input; the JSON Schemas",
}


def contract(contract_id: str = "layers") -> tuple[str, list[list[str]]]:
    """The container and the layers (highest first, each a list of sibling modules) of the
    import-linter contract ``contract_id``."""
    data = tomllib.loads(PYPROJECT.read_text("utf-8"))
    for entry in data["tool"]["importlinter"]["contracts"]:
        if entry.get("id") == contract_id:
            layers = [
                [name.strip() for name in layer.replace(":", "|").split("|")]
                for layer in entry["layers"]
            ]
            return entry["containers"][0], layers
    raise SystemExit(f"no import-linter contract with id {contract_id!r} in pyproject.toml")


def svg(container: str, layers: list[list[str]]) -> str:
    """The layers as an SVG picture: one band per layer, highest on top, siblings side by
    side; an arrow says that imports go down."""
    width, row, gap, left = 640, 30, 6, 60
    height = len(layers) * (row + gap) + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="13">',
        f"  <title>The layers of {escape(container)}: a module imports only from the layers "
        "below its own</title>",
        '  <defs><marker id="down" viewBox="0 0 10 10" refX="5" refY="9" markerWidth="8" '
        'markerHeight="8" orient="auto"><path d="M 0 0 L 10 0 L 5 10 z" fill="#444"/>'
        "</marker></defs>",
        f'  <line x1="30" y1="24" x2="30" y2="{height - 24}" stroke="#444" stroke-width="2" '
        'marker-end="url(#down)"/>',
        f'  <text x="22" y="{height // 2}" transform="rotate(-90 22 {height // 2})" '
        'text-anchor="middle" fill="#444">imports</text>',
    ]
    y = 20
    span = width - left - 10
    for depth, layer in enumerate(layers):
        shade = 235 - depth * 60 // max(1, len(layers) - 1)
        fill = f"#{shade:02x}{shade:02x}ff"
        each = span / len(layer)
        for i, name in enumerate(layer):
            x = left + i * each
            out.append(
                f'  <rect x="{x + 2:.0f}" y="{y}" width="{each - 4:.0f}" height="{row}" rx="6" '
                f'fill="{fill}" stroke="#336"/>'
            )
            label = f"{container}.{name}"
            out.append(
                f'  <text x="{x + each / 2:.0f}" y="{y + row / 2 + 5:.0f}" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
        y += row + gap
    out.append("</svg>")
    return "\n".join(out) + "\n"


def table(container: str, layers: list[list[str]]) -> str:
    """The layers as a Markdown table, highest first."""
    lines = ["| layer | modules | what it holds |", "|---|---|---|"]
    for depth, layer in enumerate(layers, start=1):
        names = ", ".join(f"`{container}.{name}`" for name in layer)
        lines.append(f"| {depth} | {names} | {ROLES.get(layer[0], '')} |")
    return "\n".join(lines)


def page(text: str, block: str) -> str:
    """``text`` (the architecture page) with the block between the markers replaced."""
    start, end = text.index(BEGIN), text.index(END)
    return text[: start + len(BEGIN)] + "\n\n" + block + "\n\n" + text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; change nothing")
    args = parser.parse_args(argv)
    container, layers = contract()
    picture = svg(container, layers)
    text = PAGE.read_text("utf-8")
    new_text = page(text, table(container, layers))
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, old, new in (
            (SVG, SVG.read_text("utf-8") if SVG.exists() else "", picture),
            (PAGE, text, new_text),
        ) if old != new]  # fmt: skip
        if stale:
            print(f"out of date with pyproject.toml: {', '.join(stale)}", file=sys.stderr)
            print("run: python tools/architecture.py", file=sys.stderr)
            return 1
        return 0
    SVG.write_text(picture, "utf-8")
    PAGE.write_text(new_text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
