"""Draw the terminal game's table screen, in German, as an SVG picture for the README:

    python tools/terminal_picture.py docs/img/terminal-de.svg

The game is perevodnoy for three players, seed 8, played by the terminal's own key handling
(Enter on the highlighted card, the first choice of a menu) until the "Play it how?" menu
offers a transfer; that screen is drawn 80 columns wide.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from durak.actions import Pass, Take, Transfer  # noqa: E402
from durak.cli import _resolve_rules  # noqa: E402
from durak.cli.play import HUMAN, PlaySession, _KeyUI, render_screen  # noqa: E402


def main(out: str) -> None:
    _, rules = _resolve_rules("perevodnoy", 3)
    session = PlaySession(rules, 8, "perevodnoy", bots=("rule",), lang="de")
    session.advance()
    ui = _KeyUI(session)
    for _ in range(200):
        ui.enter()
        if ui.screen.choices is not None:
            if any(isinstance(a, Transfer) for a in ui.screen.choices):
                break
            ui.choose_number(1)
        elif ui.screen.message:
            ui.simple(Take(HUMAN) if session.view.defender == HUMAN else Pass(HUMAN))
    console = Console(
        record=True, width=80, force_terminal=True, color_system="standard", file=io.StringIO()
    )
    console.print(render_screen(session, ui.screen))
    Path(out).write_text(console.export_svg(title="durak play --lang de"), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "terminal-de.svg")
