"""The table screen of ``durak play`` and ``durak replay``: a :class:`Scene` (the game as one seat
or an onlooker sees it) and a :class:`ScreenState` (selection, open choice, message) drawn with
rich by :func:`render_scene`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from durak.actions import Action, ShowTrump, Transfer
from durak.cards import Card, Suit
from durak.cli.render import (
    _cards_used,
    _Look,
    _result_lines,
    action_text,
    display_order,
)
from durak.i18n import N_
from durak.views import PlayerView

_KEY_HELP = N_("←/→ choose · Enter play · or type + Enter: 7h, t take, d done, q quit")
#: The key help where cheating is on (R15.5): c and Enter catch a cheat on the table.
CHEATING_KEY_HELP = N_("←/→ · Enter play · or type + Enter: 7h, t take, d done, c catch, q quit")
_CHOICE_HELP = N_("↑/↓ then Enter, or 1-9, to play · Esc back")


def _suit_style(suit: Suit) -> str:
    return "red" if suit in (Suit.HEARTS, Suit.DIAMONDS) else ""


def _card_style(card: Card) -> str:
    return "bold" if card.special else _suit_style(card.suit)


def _styled(look: _Look, card: Card, extra: str = "") -> Text:
    return Text(look.card(card), style=" ".join(s for s in (_card_style(card), extra) if s))


@dataclass
class ScreenState:
    """What the screen shows besides the game: the selected card, an open choice, a message.

    Attributes:
        selected: the card the arrow keys point at (interactive mode).
        choices: the actions the human is choosing between after Enter, or ``None``.
        choice: the highlighted choice.
        message: an error or a note shown above the key help.
        numbered: list the human's legal actions with numbers (line mode).
    """

    selected: Card | None = None
    choices: list[Action] | None = None
    choice: int = 0
    message: str | None = None
    numbered: bool = False


@dataclass(frozen=True)
class Scene:
    """Everything the table screen shows of a game, as one seat (or an onlooker) sees it.

    :class:`PlaySession` builds one from the human's view; ``durak replay`` from the view of
    the seat it follows, or from an onlooker's view with every hand face up.

    Attributes:
        view: what the viewer may know (:func:`durak.views.view`); ``view.player`` is ``None``
            for an onlooker.
        look: how cards are written.
        title: the first line.
        names: each seat's name (``"you"`` is the viewer).
        log: what happened, oldest first; the screen shows the last lines.
        hands: every hand face up (an onlooker of a replay), or ``None``: then the players
            show their card counts and the cards known to all (R2.4, R3.1, R5.2, R9.5, takes).
        actions: the viewer's legal actions in listed order when he is to move, else empty.
        key_help: the line of key help (interactive screens).
        status: a line shown instead of the hint of what to do (a replay's step).
        end_help: show the key help also once the game is over (a replay can step back).
    """

    view: PlayerView
    look: _Look
    title: str
    names: tuple[str, ...]
    log: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None
    actions: tuple[Action, ...] = ()
    key_help: str = _KEY_HELP
    status: str | None = None
    end_help: bool = False

    def name(self, seat: int) -> str:
        """The name of ``seat``."""
        return self.names[seat]


def _role_of(v: PlayerView, seat: int, look: _Look) -> str:
    _ = look._
    if v.result is not None:
        if seat == v.result.durak:
            return _("durak")
        return _("{place} place").format(place=look.lang.ordinal(v.result.places[seat]))
    place = v.places[seat]
    if place is not None and seat in v.left:
        return _("left ({place} place)").format(place=look.lang.ordinal(place))
    if place is not None:
        return _("out ({place} place)").format(place=look.lang.ordinal(place))
    if not v.active[seat]:
        return _("finished")
    if seat == v.defender:
        return _("defender, takes") if v.taken else _("defender")
    if seat == v.attacker:
        return _("attacker")
    if v.table and seat in v.throwers:
        return _("thrower")
    return ""


def _hint(scene: Scene) -> str:
    """One sentence telling the viewer what he may do now."""
    v, name, _ = scene.view, scene.name, scene.look._
    if v.result is not None:
        return _("The game is over.")
    actor = v.next_actor
    if actor is None or actor != v.player:
        return _("{player} is to move.").format(player=name(actor or 0))
    if not v.table:
        return _("You attack {defender}: lead a card.").format(defender=name(v.defender))
    if v.defender == v.player:
        if any(isinstance(a, Transfer | ShowTrump) for a in scene.actions):
            return _("You defend: beat every unbeaten card, transfer, or take (T).")
        return _("You defend: beat every unbeaten card, or take (T).")
    if v.taken:
        return _("{defender} takes: throw in more cards of the table's ranks, or done (D).").format(
            defender=name(v.defender)
        )
    return _("Throw in a card of a rank on the table, or done (D).")


def _cards_text(look: _Look, cards: Sequence[Card], style: str = "") -> Text:
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append_text(_styled(look, card, style))
    return text


def _players_table(scene: Scene) -> Table:
    """Per seat: name, card count, role (team, attacker, defender, thrower, passed or done,
    out), who is to move, and the cards known to all (not for the viewer, whose hand is shown
    below, nor when every hand is face up: :func:`_open_hands` shows them)."""
    v, look = scene.view, scene.look
    actor = v.next_actor
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(min_width=12)  # known cards (or open hands): they wrap on narrow screens
    for seat in range(v.players):
        role = _role_of(v, seat, look)
        notes = [role] if role else []
        if v.rules.teams is not None:
            notes.insert(0, look._("team {n}").format(n=v.rules.team_of(seat) + 1))
        if v.result is None and v.table:
            if seat in v.passed:
                notes.append(look._("passed"))
            elif seat in v.done:
                notes.append(look._("done"))
        if seat == actor and v.result is None:
            notes.append(("◀ " if not look.ascii else "<- ") + look._("to move"))
        cards = Text()
        if scene.hands is None and seat != v.player and v.known[seat]:
            cards = Text(look._("known: "), style="dim")
            cards.append_text(_cards_text(look, display_order(v.known[seat], v.trump)))
        grid.add_row(
            Text(scene.name(seat), style="bold" if seat == v.player else ""),
            look.n_("{n} card", "{n} cards", v.hand_sizes[seat]),
            Text(", ".join(notes), style="cyan" if seat == actor else ""),
            cards,
        )
    return grid


def _open_hands(scene: Scene) -> Table:
    """Every hand face up, one line per seat (an onlooker of a replay)."""
    v = scene.view
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for seat, hand in enumerate(scene.hands or ()):
        cards = _cards_text(scene.look, display_order(hand, v.trump)) if hand else Text("-")
        grid.add_row(Text(scene.name(seat), style="bold"), cards)
    return grid


def _table_view(scene: Scene) -> RenderableType:
    v, look, name = scene.view, scene.look, scene.name
    if v.result is not None:
        return Text("")
    _ = look._
    if v.attacker == look.you:
        who = _("you attack {defender}").format(defender=name(v.defender))
    else:
        who = _("{attacker} attacks {defender}").format(
            attacker=name(v.attacker), defender=name(v.defender)
        )
    head = Text.assemble((_("Table"), "bold"), f": {who}")
    if v.taken:
        head.append(
            " (" + _("{defender} will take").format(defender=name(v.defender)) + ")", style="yellow"
        )
    if not v.table:
        return Group(head, Text("  " + _("(empty: no card led yet)"), style="dim"))
    head.append(
        "   " + look.n_("at most {n} attack card", "at most {n} attack cards", v.attack_limit),
        style="dim",
    )
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    for _pair in v.table:
        grid.add_column(justify="center", no_wrap=True)
    attack_row: list[RenderableType] = [Text("  " + _("attack"), style="dim")]
    beat_row: list[RenderableType] = [Text("  " + _("beaten by"), style="dim")]
    for attack, beating in v.table:
        if beating is None:
            attack_row.append(_styled(look, attack, "bold"))
            beat_row.append(Text(_("unbeaten"), style="bold yellow"))
        else:
            attack_row.append(_styled(look, attack))
            beat_row.append(_styled(look, beating))
    grid.add_row(*attack_row)
    grid.add_row(*beat_row)
    return Group(head, grid)


def _hand_view(scene: Scene, screen: ScreenState, plain: bool) -> Text:
    look = scene.look
    playable = {c for a in scene.actions for c in _cards_used(a)}
    line = Text("  ")
    for card in display_order(scene.view.hand, scene.view.trump):
        selected = card == screen.selected
        style = "bold" if card in playable else "dim"
        if selected:
            style += " reverse"
        text = look.card(card) + ("*" if plain and card in playable else "")
        cell = Text(text, style=" ".join(s for s in (_card_style(card), style) if s))
        if selected:
            line.append("[")
            line.append_text(cell)
            line.append("] ")
        else:
            line.append(" ")
            line.append_text(cell)
            line.append("  ")
    return line


class _SideBySide:
    """Two renderables side by side, ``gap`` columns apart, when the width leaves the right
    one at least ``right_min`` columns next to the left one's full width; else one above the
    other (a narrow terminal, or many known cards), a :class:`_Tail` on the right then cut to
    3 rows so that the screen keeps its height."""

    def __init__(
        self, left: RenderableType, right: RenderableType, right_min: int = 28, gap: int = 3
    ) -> None:
        self.left = left
        self.right = right
        self.right_min = right_min
        self.gap = gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = Measurement.get(console, options, self.left).maximum
        if width + self.gap + self.right_min <= options.max_width:
            grid = Table.grid(padding=(0, self.gap))
            grid.add_column(no_wrap=True, width=width)
            grid.add_column()
            grid.add_row(self.left, self.right)
            yield grid
        else:
            yield self.left
            yield Text("")
            yield self.right.stacked() if isinstance(self.right, _Tail) else self.right


class _Tail:
    """A heading and the last lines of a log, wrapped to the width, as many whole lines as fit
    in ``rows`` rows, so that the log never pushes the rest of the screen below a 24-row
    terminal."""

    def __init__(self, head: Text, lines: Sequence[str], style: str, rows: int) -> None:
        self.head = head
        self.lines = lines
        self.style = style
        self.rows = rows

    def stacked(self) -> _Tail:
        """The tail as it is shown below the players (a narrow terminal): 3 rows."""
        return _Tail(self.head, self.lines, self.style, min(self.rows, 3))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.head
        kept: list[list[list[Segment]]] = []  # whole log lines, newest first, while they fit
        used = 0
        for entry in reversed(self.lines):
            text = Text(entry, style=self.style)
            rows = console.render_lines(text, options.update(height=None), pad=False)
            if used + len(rows) > self.rows and kept:
                break
            kept.append(rows[-self.rows :])
            used += len(rows)
        for rows in reversed(kept):
            for line in rows:
                yield from line
                yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def _choice_menu(screen: ScreenState, look: _Look) -> RenderableType:
    """The open choice ("Play it how?": beat this card or that one, transfer), numbered."""
    lines: list[RenderableType] = [Text(look._("Play it how?"), style="bold underline")]
    for i, action in enumerate(screen.choices or ()):
        mark = ">" if i == screen.choice else " "
        style = "reverse" if i == screen.choice else ""
        lines.append(Text(f"{mark} {i + 1}  {action_text(action, look)}", style=style))
    return Group(*lines)


def _key_help(scene: Scene, screen: ScreenState) -> Text:
    help_text = scene.look._(_CHOICE_HELP if screen.choices is not None else scene.key_help)
    if scene.look.ascii:
        help_text = help_text.replace("←/→", "Left/Right").replace("↑/↓", "Up/Down")
        help_text = help_text.replace("←", "Left").replace("→", "Right").replace("·", "-")
    return Text(help_text, style="dim")


def render_scene(scene: Scene, screen: ScreenState, plain: bool = False) -> RenderableType:
    """The table screen: title, trump, stock and discard pile, the players (card counts, roles,
    who moves, known cards or open hands), what just happened, the table, the viewer's hand
    (playable cards bold, or marked ``*`` when ``plain``; the selected card in brackets), a
    hint or status line, and at the end the result.

    Args:
        scene: the game as the viewer sees it.
        screen: selection, open choice, message, and whether to number the legal actions.
        plain: the output has no colours or styles (not a terminal, or ``NO_COLOR``).
    """
    v, look = scene.view, scene.look
    _ = look._
    parts: list[RenderableType] = [Text(scene.title, style="bold")]
    trump = Text.assemble(_("Trump") + " ", (look.suit(v.trump), "bold " + _suit_style(v.trump)))
    if v.trump_card is not None:
        trump.append(" (")
        trump.append_text(_styled(look, v.trump_card))
        trump.append(" " + _("under the stock") + ")" if v.face_up is not None else ")")
    trump.append(
        "   "
        + _("Stock {stock}   Discard pile {discard}   Bouts played {bouts}").format(
            stock=v.stock_size, discard=len(v.discard), bouts=v.bouts
        )
    )
    parts.append(trump)
    parts.append(Text(""))

    rows = max(8, v.players + 2)
    players = Group(Text(_("Players"), style="bold underline"), _players_table(scene))
    if screen.choices is not None:
        # The choice takes the place of the log, so that it is seen on a 24-line screen.
        right: RenderableType = _choice_menu(screen, look)
    else:
        head = Text(_("What happened"), style="bold underline")
        right = _Tail(head, list(scene.log)[-rows:], "dim" if not plain else "", rows)
    parts.append(_SideBySide(players, right))
    parts.append(Text(""))
    if scene.hands is not None:
        parts.append(Text(_("Hands"), style="bold underline"))
        parts.append(_open_hands(scene))
        parts.append(Text(""))
    if v.result is not None:
        lines = _result_lines(v.result, scene.name, look)
        parts.append(Text(lines[0], style="bold magenta"))
        parts.append(Text(lines[1], style="bold"))
        if v.hand:
            parts.append(
                Text(
                    _("Your cards: {cards}").format(
                        cards=look.cards(display_order(v.hand, v.trump))
                    )
                )
            )
        if scene.status:
            parts.append(Text(scene.status, style="cyan"))
        if screen.message:
            parts.append(Text(screen.message, style="bold"))
        if scene.end_help and not screen.numbered:
            parts.append(_key_help(scene, screen))
        return Group(*parts)

    parts.append(_table_view(scene))
    parts.append(Text(""))
    if v.player is not None:
        title_line = Text.assemble(
            (_("Your hand"), "bold"), f" ({look.n_('{n} card', '{n} cards', len(v.hand))})"
        )
        if plain and scene.actions:
            title_line.append(" (" + _("* playable") + ")")
        parts.append(title_line)
        parts.append(_hand_view(scene, screen, plain))
        if v.known[v.player]:
            known = Text("  " + _("the others know you hold: "), style="dim")
            known.append_text(_cards_text(look, display_order(v.known[v.player], v.trump)))
            parts.append(known)
    parts.append(Text(scene.status or _hint(scene), style="cyan"))
    if screen.numbered and scene.actions:
        parts.append(Text(_("Your legal actions:"), style="bold"))
        for i, action in enumerate(scene.actions, 1):
            parts.append(Text(f"  {i:>2}  {action_text(action, look)}"))
    if screen.message:
        parts.append(Text(screen.message, style="bold red"))
    if not screen.numbered:
        parts.append(_key_help(scene, screen))
    return Group(*parts)
