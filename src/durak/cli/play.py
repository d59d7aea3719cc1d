"""``durak play``: one game against computer players in the terminal, as a full-screen
prompt_toolkit application driven by keys or line by line (:func:`_play_lines`), with the game
record saved on request.
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs
from rich.console import Console, RenderableType
from rich.text import Text

from durak import __version__
from durak.actions import Action
from durak.cards import Card
from durak.cli.commands import _explain_card, card_actions, parse_command
from durak.cli.console import _ansi, _can_encode, _console, _fail, _is_plain
from durak.cli.players import _bot_move, default_bot, make_bot, seat_bots
from durak.cli.render import (
    _cards_used,
    _deal_line,
    _Look,
    _order_actions,
    describe_events,
    hand_order,
)
from durak.cli.screen import CHEATING_KEY_HELP, Scene, ScreenState, render_scene
from durak.engine import apply_with_events, new_game, next_actor
from durak.errors import IllegalActionError
from durak.events import events_for
from durak.i18n import choose_language, language
from durak.moves import MAX_MOVE_TEXT
from durak.records import Record, dump
from durak.rules import Rules
from durak.rules.extensions import Catch
from durak.state import GameState
from durak.views import PlayerView
from durak.views import view as player_view

#: The seat of the human player in ``durak play``.
HUMAN = 0


class PlaySession:
    """One game of ``durak play``: the state, the computer players, the log of what happened
    and the actions played (for the game record).

    The human sits at :data:`HUMAN`; the other seats are computer players (:func:`make_bot`).
    The actor is always :func:`~durak.engine.next_actor`. The screen shows only the human's
    :func:`~durak.views.view` of the game, and the log tells what happened as he saw it (the
    events of :func:`~durak.engine.apply_with_events` through :func:`~durak.events.events_for`).

    Args:
        rules: the rules of the game.
        seed: the deal's seed; the bots' seeds derive from it.
        preset: the preset's name (or the rules file's), for the title.
        ascii: write cards as ``7h`` instead of ``7♥``.
        bots: the kinds of computer player (:func:`bot_kinds`) for seats 1, 2, ... in order,
            repeated as needed: ``("random",)`` puts a random player on every other seat.
        lang: the language of the screen and the log (:data:`durak.i18n.LANGUAGES`).
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | str,
        preset: str,
        ascii: bool = False,
        bots: Sequence[str] = ("random",),
        lang: str = "en",
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.preset = preset
        self.look = _Look(ascii, language(lang), HUMAN)
        self.state = new_game(rules, seed=seed)
        self.start = self.state
        self.history: list[Action] = []
        self.bot_kinds = seat_bots(bots, [s for s in range(rules.players) if s != HUMAN])
        self.bots = {
            seat: make_bot(kind, f"{seed}:bot:{seat}") for seat, kind in self.bot_kinds.items()
        }
        self.log: deque[str] = deque(maxlen=100)
        self.actions = 0
        self._view: PlayerView | None = None
        self._view_of: GameState | None = None
        self.log.append(_deal_line(self.view, self.name, self.look))

    def name(self, seat: int) -> str:
        """``"you"`` (in the screen's language) for the human, ``"p1"``, ``"p2"`` ... for the
        others."""
        return self.look.lang.pgettext("seat", "you") if seat == HUMAN else f"p{seat}"

    @property
    def view(self) -> PlayerView:
        """The human's view of the game now (:func:`durak.views.view`)."""
        if self._view is None or self._view_of is not self.state:
            self._view = player_view(self.state, HUMAN)
            self._view_of = self.state
        return self._view

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.result is not None

    @property
    def human_to_move(self) -> bool:
        """Whether the game waits for the human (he is :func:`next_actor`)."""
        return not self.over and self.view.next_actor == HUMAN

    def human_actions(self) -> tuple[Action, ...]:
        """The human's legal actions now, in the order the screen lists them."""
        v = self.view
        return _order_actions(v.legal_actions, v.hand, v.table, v.trump)

    def title(self) -> str:
        """The screen's title: preset, players and seed."""
        sep = " - " if self.look.ascii else " · "
        _ = self.look._
        players = _("{n} players").format(n=self.rules.players)
        return sep.join(("Durak", self.preset, players, _("seed {seed}").format(seed=self.seed)))

    def scene(self) -> Scene:
        """What the screen shows now: the human's view, the log, his actions if he is to move."""
        actions = self.human_actions() if self.human_to_move else ()
        names = tuple(self.name(s) for s in range(self.rules.players))
        keys = CHEATING_KEY_HELP if self.state.rules.cheating else Scene.key_help
        return Scene(
            self.view,
            self.look,
            self.title(),
            names,
            tuple(self.log),
            actions=actions,
            key_help=keys,
        )

    def advance(self) -> None:
        """Let the computer players act until the human is to move or the game is over."""
        while not self.over:
            actor = next_actor(self.state)
            if actor is None or actor == HUMAN:
                return
            self.play(_bot_move(self.bots[actor], self.state, actor))

    def play(self, action: Action) -> None:
        """Apply ``action``, remember it for the record and log what happened as the human saw
        it.

        Raises:
            IllegalActionError: the action is not legal; nothing changes.
        """
        self.state, events = apply_with_events(self.state, action)
        self.history.append(action)
        self.actions += 1
        self.log.extend(describe_events(events_for(events, HUMAN), self.name, self.look))

    def record(self) -> Record:
        """The game record of the game so far (:class:`durak.records.Record`): the deal, every
        action played, and the result (``None`` while the game is not over)."""
        record = Record.of_game(self.start, self.history, self.state)
        players = tuple(
            "human" if seat == HUMAN else f"{self.bot_kinds[seat]} bot"
            for seat in range(self.rules.players)
        )
        meta = {"program": f"durak {__version__} play", "preset": self.preset}
        return attrs.evolve(record, players=players, meta=meta)


def render_screen(session: PlaySession, screen: ScreenState, plain: bool = False) -> RenderableType:
    """The whole game screen for the human (:func:`render_scene` of ``session.scene()``).

    Args:
        session: the game.
        screen: selection, open choice, message, and whether to number the legal actions.
        plain: the output has no colours or styles (not a terminal, or ``NO_COLOR``).
    """
    return render_scene(session.scene(), screen, plain)


def _play_lines(session: PlaySession, console: Console, stdin: TextIO) -> int:
    """Line mode: show the screen with numbered actions, read a command, repeat."""
    plain = _is_plain(console)
    _ = session.look._
    interactive_input = bool(getattr(stdin, "isatty", lambda: False)())
    screen = ScreenState(numbered=True)
    show = True
    while True:
        session.advance()
        if session.over:
            break
        if show:
            console.print(render_screen(session, screen, plain=plain))
            console.print(
                Text(_("Type a card (7h), 7h 9h, t, d, a number, help or q."), style="dim")
            )
        screen.message = None
        try:
            if interactive_input:
                line: str | None = console.input(f"[bold]{_('Your move>')}[/bold] ")
            else:
                console.print(_("Your move>") + " ", end="")
                raw = stdin.readline()
                line = raw if raw else None
                console.print(raw.rstrip("\n") if raw else "")
        except EOFError:
            line = None
        except KeyboardInterrupt:
            console.print()
            console.print(_("game abandoned"))
            return 130
        if line is None:
            console.print(_("game abandoned (end of input)"))
            return 0
        command = parse_command(line, session.state, HUMAN, session.look, session.name)
        if command.quit:
            console.print(_("game abandoned"))
            return 0
        if command.action is None:
            console.print(Text(command.message or "?", style="bold red"))
            show = False
            continue
        try:
            session.play(command.action)
        except IllegalActionError as exc:  # pragma: no cover - parse_command only returns legal
            console.print(Text(str(exc), style="bold red"))
            show = False
            continue
        show = True
    console.print(render_screen(session, ScreenState(), plain=plain))
    return 0


class _KeyUI:
    """The state and key handling of the interactive screen."""

    def __init__(self, session: PlaySession) -> None:
        self.session = session
        self.screen = ScreenState()
        self.quit = False
        #: The move being typed (shown on the screen; Enter plays it, Esc clears it).
        self.buffer = ""
        self._fix_selection()

    # selection ------------------------------------------------------------------------------

    def _hand(self) -> list[Card]:
        return hand_order(self.session.state, HUMAN)

    def _fix_selection(self) -> None:
        hand = self._hand()
        playable = {c for a in self._actions() for c in _cards_used(a)}
        if self.screen.selected in playable:
            return
        first = next((c for c in hand if c in playable), None)
        if first is not None:
            self.screen.selected = first
        elif self.screen.selected not in hand:
            self.screen.selected = hand[0] if hand else None

    def _actions(self) -> tuple[Action, ...]:
        return self.session.human_actions() if self.session.human_to_move else ()

    def move(self, step: int) -> None:
        """Left/Right: move the selection, wrapping around."""
        self.screen.message = None
        if self.screen.choices is not None:
            return
        hand = self._hand()
        if not hand:
            return
        i = hand.index(self.screen.selected) if self.screen.selected in hand else 0
        self.screen.selected = hand[(i + step) % len(hand)]

    # actions --------------------------------------------------------------------------------

    def _play(self, action: Action) -> None:
        self.screen.choices = None
        self.screen.message = None
        try:
            self.session.play(action)
        except IllegalActionError as exc:  # pragma: no cover - only legal actions get here
            self.screen.message = str(exc)
            return
        self.session.advance()
        self._fix_selection()

    def enter(self) -> bool:
        """Enter: play the typed move if one is being typed, else the selected card, or confirm
        the highlighted choice. Whether the player asked to quit (``q`` typed)."""
        if self.buffer:
            return self.submit()
        self._enter_card()
        return False

    def _enter_card(self) -> None:
        if self.screen.choices is not None:
            self._play(self.screen.choices[self.screen.choice])
            return
        card = self.screen.selected
        if card is None:
            self.screen.message = self.session.look._("you hold no card")
            return
        uses = card_actions(self._actions(), card)
        if not uses:
            session = self.session
            self.screen.message = _explain_card(
                session.state, HUMAN, card, session.look, session.name
            )
        elif len(uses) == 1:
            self._play(uses[0])
        else:
            self.screen.choices = uses
            self.screen.choice = 0
            self.screen.message = None

    def choose_step(self, step: int) -> None:
        """Up/Down in a choice."""
        if self.screen.choices is not None:
            self.screen.choice = (self.screen.choice + step) % len(self.screen.choices)

    def choose_number(self, k: int) -> None:
        """A digit in a choice picks that option."""
        if self.screen.choices is not None and 1 <= k <= len(self.screen.choices):
            self._play(self.screen.choices[k - 1])

    def cancel(self) -> None:
        """Esc: close the choice, and clear the typed move."""
        self.screen.choices = None
        self.screen.message = None
        self.buffer = ""

    def catch(self) -> None:
        """C: catch a cheat on the table (R15.5): the one there is, or a choice of them."""
        self.screen.message = None
        catches = [a for a in self._actions() if a.kind == Catch.kind]
        if not catches:
            self.screen.message = self.session.look._("no cheat on the table to catch (R15.5)")
        elif len(catches) == 1:
            self._play(catches[0])
        else:
            self.screen.choices = catches
            self.screen.choice = 0

    def typed(self, key: str) -> None:
        """A printable key: it goes into the typed move, shown on the screen; nothing is
        played until Enter (so ``Kd``, ``7h`` or ``Th`` is read whole, never its letters as
        keys: ``t``, ``d``, ``c`` and ``q`` then Enter take, pass, catch and quit)."""
        if self.session.over:
            return
        if key == " " and not self.buffer:
            return
        self.buffer = (self.buffer + key)[:MAX_MOVE_TEXT]
        self._show_buffer()

    def backspace(self) -> None:
        """Backspace: the typed move's last character off."""
        self.buffer = self.buffer[:-1]
        self._show_buffer()

    def _show_buffer(self) -> None:
        self.screen.message = (
            self.session.look._("typed: {text} · Enter plays it · Esc clears").format(
                text=self.buffer
            )
            if self.buffer
            else None
        )

    def submit(self) -> bool:
        """Enter on a typed move: read it as ``durak play --line`` reads a line and play it,
        or say why not. Whether it asked to quit."""
        text, self.buffer = self.buffer.strip(), ""
        self.screen.message = None
        if text.lower() in ("c", "catch"):
            self.catch()
            return False
        session = self.session
        command = parse_command(text, session.state, HUMAN, session.look, session.name)
        if command.quit:
            self.quit = not session.over
            return True
        if command.action is None:
            self.screen.message = command.message or session.look._("not now")
            return False
        self.screen.choices = None
        self._play(command.action)
        return False

    def render(self, width: int) -> str:
        """The screen as text with ANSI styles, ``width`` columns wide."""
        screen = self.screen
        if self.session.over:
            screen = ScreenState(message=self.session.look._("Press Enter or Q to leave."))
        return _ansi(render_screen(self.session, screen), width)


def _play_keys(
    session: PlaySession, console: Console, pt_input: Any = None, pt_output: Any = None
) -> int:
    """Interactive mode: a full-screen prompt_toolkit application driven by key bindings.

    ``pt_input`` and ``pt_output`` replace the terminal (prompt_toolkit ``Input`` and ``Output``,
    for tests)."""
    from prompt_toolkit.application import Application, get_app
    from prompt_toolkit.formatted_text import ANSI
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    session.advance()
    ui = _KeyUI(session)
    keys = KeyBindings()

    def bind(*names: str) -> Callable[[Callable[[KeyPressEvent], None]], Any]:
        def add(handler: Callable[[KeyPressEvent], None]) -> Any:
            for name in names:
                keys.add(name)(handler)
            return handler

        return add

    @bind("left")
    def _left(event: KeyPressEvent) -> None:
        ui.move(-1)

    @bind("right")
    def _right(event: KeyPressEvent) -> None:
        ui.move(1)

    @bind("up")
    def _up(event: KeyPressEvent) -> None:
        ui.choose_step(-1)

    @bind("down")
    def _down(event: KeyPressEvent) -> None:
        ui.choose_step(1)

    @bind("enter")
    def _enter(event: KeyPressEvent) -> None:
        if session.over or ui.enter():
            event.app.exit()

    @bind("escape")
    def _escape(event: KeyPressEvent) -> None:
        ui.cancel()

    @bind("backspace", "c-h")
    def _backspace(event: KeyPressEvent) -> None:
        ui.backspace()

    @bind("c-c", "c-d")
    def _quit(event: KeyPressEvent) -> None:
        ui.quit = not session.over
        event.app.exit()

    for digit in range(1, 10):

        @bind(str(digit))
        def _digit(event: KeyPressEvent, k: int = digit) -> None:
            if ui.screen.choices is not None and not ui.buffer:
                ui.choose_number(k)  # a digit picks an option of the open menu
            else:
                ui.typed(event.data)

    @bind("<any>")
    def _other(event: KeyPressEvent) -> None:
        if session.over and event.data in ("q", "Q"):
            event.app.exit()
        elif event.data.isprintable():
            ui.typed(event.data)

    def text() -> ANSI:
        width = get_app().output.get_size().columns - 1
        return ANSI(ui.render(width))

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
    console.print(render_screen(session, ScreenState(), plain=_is_plain(console)))
    if ui.quit:
        console.print(session.look._("game abandoned"))
    return 0


def _save_record(session: PlaySession, path: Path, console: Console) -> bool:
    """Write the game record of ``session`` to ``path``; say so, or print why not to stderr.

    Returns:
        Whether the record was written.
    """
    try:
        dump(session.record(), path)
    except OSError as exc:
        _fail(f"--save: cannot write {path}: {exc.strerror or exc}")
        return False
    console.print(
        Text(session.look._("game record saved to {path}").format(path=path)), soft_wrap=True
    )
    return True


def _cmd_play(args: argparse.Namespace, name: str, rules: Rules, seed: int | str) -> int:
    console = _console(sys.stdout)
    save: Path | None = args.save
    if save is not None and not save.parent.is_dir():
        return _fail(f"--save: no such directory: {save.parent}")
    if save is not None and save.is_dir():
        return _fail(f"--save: {save} is a directory; give a file name")
    level: str | None = getattr(args, "level", None)
    if level is not None and args.bots:
        return _fail("--level and --bots: give one (--level sets every computer player)")
    kinds: tuple[str, ...] = args.bots or ((level,) if level is not None else (default_bot(),))
    ascii = not _can_encode(console, "♣♦♥♠←→◀·")
    try:
        lang = choose_language(getattr(args, "lang", None))
    except ValueError as exc:
        return _fail(f"--lang: {exc}")
    session = PlaySession(rules, seed, name, ascii=ascii, bots=kinds, lang=lang)
    stdin = sys.stdin
    tty = bool(getattr(stdin, "isatty", lambda: False)()) and console.is_terminal
    try:
        if tty and not args.line:
            status = _play_keys(session, console)
        else:
            status = _play_lines(session, console, stdin)
    except KeyboardInterrupt:
        if save is not None:
            _save_record(session, save, console)
        raise
    if save is not None and not _save_record(session, save, console):
        return 2
    return status
