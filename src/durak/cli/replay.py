"""``durak replay``: step through a game record, as an onlooker who sees every hand or from one
seat's view, with keys or printed step by step.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from durak.cli.console import _ansi, _can_encode, _console, _fail, _is_plain
from durak.cli.render import _deal_line, _Look, describe_events
from durak.cli.screen import Scene, ScreenState, render_scene
from durak.engine import apply_with_events
from durak.errors import DurakError, RulesError
from durak.events import events_for
from durak.i18n import N_, choose_language, language
from durak.presets import PRESETS
from durak.records import Record, load, replay
from durak.rules import Rules
from durak.views import view as player_view

_REPLAY_HELP = N_("→ or Enter next · ← back · Home/End first/last · Q quit")


def rules_name(rules: Rules, meta: Any = None) -> str:
    """A name for ``rules``: the ``preset`` a record's ``meta`` names, else the preset whose
    rules (with the same number of players) they are, else ``"custom rules"``."""
    if isinstance(meta, dict) and isinstance(meta.get("preset"), str):
        return str(meta["preset"])
    for preset in PRESETS.values():
        try:
            if preset.rules(players=rules.players) == rules:
                return preset.name
        except RulesError:  # e.g. a pairs preset with another number of players
            continue
    return "custom rules"


class ReplaySession:
    """The steps of a recorded game, for ``durak replay``.

    Step 0 is the deal, step ``k`` the position after the record's ``k``-th action. Each step's
    screen is seen from seat ``seat``'s view (his hand, the others' card counts and known
    cards, the events as he saw them: other players' drawn cards hidden), or, with ``seat``
    ``None``, by an onlooker who sees every hand face up and every drawn card.

    Args:
        record: the game record.
        seat: whose view to follow, or ``None`` for the onlooker.
        ascii: write cards as ``7h`` instead of ``7♥``.

    Raises:
        ReplayError: an action is illegal (naming its index) or the recorded result differs.
        RecordError: a deal the rules cannot make.
        IndexError: ``seat`` is not a seat of the game.
    """

    def __init__(
        self, record: Record, seat: int | None = None, ascii: bool = False, lang: str = "en"
    ) -> None:
        players = record.rules.players
        if seat is not None and not 0 <= seat < players:
            raise IndexError(f"--player: no seat {seat} in a {players}-player game")
        replay(record)  # every action checked first: the error names the first illegal one
        self.record = record
        self.seat = seat
        self.look = _Look(ascii, language(lang), seat)
        self.preset = rules_name(record.rules, record.meta)
        state = record.initial_state()
        self.states = [state]
        self.logs = [[_deal_line(player_view(state, seat), self.name, self.look)]]
        for action in record.actions:
            state, events = apply_with_events(state, action)
            self.states.append(state)
            seen = events_for(events, seat) if seat is not None else events
            self.logs.append(describe_events(seen, self.name, self.look))

    @property
    def steps(self) -> int:
        """The number of actions: the last step's index."""
        return len(self.states) - 1

    def name(self, seat: int) -> str:
        """``"you"`` (in the screen's language) for the seat whose view is followed, ``"p0"``,
        ``"p1"`` ... for the others."""
        return self.look.lang.pgettext("seat", "you") if seat == self.seat else f"p{seat}"

    def title(self) -> str:
        """The screen's title."""
        _ = self.look._
        seed = self.record.seed
        deal = _("seed {seed}").format(seed=seed) if seed is not None else _("a given deck")
        who = _("as an onlooker") if self.seat is None else _("as p{n}").format(n=self.seat)
        sep = " - " if self.look.ascii else " · "
        players = _("{n} players").format(n=self.record.rules.players)
        parts = (_("Durak replay"), self.preset, players, deal, who)
        return sep.join(parts)

    def status(self, step: int) -> str:
        """The status line of ``step``."""
        _ = self.look._
        text = _("Step {step} of {steps}").format(step=step, steps=self.steps)
        if step == 0:
            text += ": " + _("the deal")
        if step == self.steps and self.states[step].result is None:
            text += " - " + _("the record ends here, before the game is over")
        return text

    def scene(self, step: int) -> Scene:
        """What the screen shows at ``step`` (0 to :attr:`steps`)."""
        state = self.states[step]
        log = tuple(line for lines in self.logs[: step + 1] for line in lines)
        return Scene(
            player_view(state, self.seat),
            self.look,
            self.title(),
            tuple(self.name(s) for s in range(state.players)),
            log,
            hands=state.hands if self.seat is None else None,
            key_help=_REPLAY_HELP,
            status=self.status(step),
            end_help=True,
        )


def _replay_lines(session: ReplaySession, console: Console) -> int:
    """Line mode: the deal's screen, every step's events numbered, the final screen."""
    plain = _is_plain(console)
    console.print(render_scene(session.scene(0), ScreenState(numbered=True), plain))
    console.print()
    for step in range(1, session.steps + 1):
        lines = session.logs[step]
        console.print(Text(f"{step:>4}  {lines[0] if lines else ''}"))
        for line in lines[1:]:
            console.print(Text(f"      {line}"))
    console.print()
    console.print(render_scene(session.scene(session.steps), ScreenState(numbered=True), plain))
    return 0


def _replay_keys(session: ReplaySession, pt_input: Any = None, pt_output: Any = None) -> int:
    """Interactive mode: Right, Enter, Space or N show the next step, Left, Backspace or P the
    previous one, Home and End the first and last; Q or Esc quits, as does Enter at the end.

    ``pt_input`` and ``pt_output`` replace the terminal (for tests)."""
    from prompt_toolkit.application import Application, get_app
    from prompt_toolkit.formatted_text import ANSI
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    step = [0]
    keys = KeyBindings()

    def go(to: int) -> None:
        step[0] = max(0, min(session.steps, to))

    @keys.add("right")
    @keys.add("space")
    @keys.add("n")
    def _next(event: KeyPressEvent) -> None:
        go(step[0] + 1)

    @keys.add("enter")
    def _enter(event: KeyPressEvent) -> None:
        if step[0] == session.steps:
            event.app.exit()
        go(step[0] + 1)

    @keys.add("left")
    @keys.add("backspace")
    @keys.add("p")
    def _previous(event: KeyPressEvent) -> None:
        go(step[0] - 1)

    @keys.add("home")
    def _first(event: KeyPressEvent) -> None:
        go(0)

    @keys.add("end")
    def _last(event: KeyPressEvent) -> None:
        go(session.steps)

    @keys.add("q")
    @keys.add("Q")
    @keys.add("escape")
    @keys.add("c-c")
    @keys.add("c-d")
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    def text() -> ANSI:
        width = get_app().output.get_size().columns - 1
        return ANSI(_ansi(render_scene(session.scene(step[0]), ScreenState()), width))

    control = FormattedTextControl(text, focusable=True, show_cursor=False)
    app: Application[None] = Application(
        layout=Layout(Window(control, wrap_lines=False)),
        key_bindings=keys,
        full_screen=True,
        mouse_support=False,
        input=pt_input,
        output=pt_output,
    )
    app.run()
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    """``durak replay FILE [--line] [--player N]``."""
    console = _console(sys.stdout)
    try:
        record = load(args.file)
        lang = choose_language(getattr(args, "lang", None))
        ascii = not _can_encode(console, "♣♦♥♠←→◀·")
        session = ReplaySession(record, args.player, ascii=ascii, lang=lang)
    except DurakError as exc:  # RecordError, ReplayError: naming where and why
        return _fail(f"{args.file}: {exc}")
    except IndexError as exc:
        return _fail(str(exc))
    stdin = sys.stdin
    tty = bool(getattr(stdin, "isatty", lambda: False)()) and console.is_terminal
    if tty and not args.line:
        return _replay_keys(session)
    return _replay_lines(session, console)
