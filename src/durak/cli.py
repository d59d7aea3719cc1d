"""The ``durak`` command: play Durak in the terminal, or simulate random games.

Usage::

    durak play [--preset NAME] [--players N] [--seed S] [--line]
    durak simulate [--preset NAME] [--players N] [--games G] [--seed S] [--json] [--quiet]

``durak play`` seats you at seat 0 against computer players who pick random legal actions. In an
interactive terminal the arrow keys choose a card, Enter plays it, ``T`` takes, ``D`` is done
(pass) and ``Q`` quits. When the input is not a terminal, or with ``--line``, commands are read
line by line (``7h``, ``7h 9h``, ``t``, ``d``, ``transfer 7s``, ``show 7h``, a number, ``q``);
see :data:`LINE_HELP`.

``durak simulate`` plays many games with a random player on every seat and prints how often each
seat was the durak, the draws, the mean bouts and actions per game and the speed.

Bad input (an unknown preset, rules that cannot be dealt) prints one line naming the problem and
exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import Any, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from durak import __version__
from durak.actions import Action, Beat, Lead, Pass, ShowTrump, Take, ThrowIn, Transfer
from durak.bots import RandomBot
from durak.cards import Card, Suit, parse_cards
from durak.engine import apply, legal_actions, new_game, next_actor
from durak.errors import DurakError, IllegalActionError, InvalidError
from durak.presets import DEFAULT_PRESET, get_preset
from durak.rules import Rules
from durak.rules.throwing import throwers
from durak.state import GameState, Result

__all__ = [
    "LINE_HELP",
    "PlaySession",
    "SimulationStats",
    "build_parser",
    "listed_actions",
    "main",
    "parse_command",
    "render_screen",
    "simulate",
]

#: The seat of the human player in ``durak play``.
HUMAN = 0

#: What a line-mode player may type.
LINE_HELP = (
    "Commands: a card such as 7h plays it (lead, throw in, or beat the first card it can beat); "
    "7h 9h beats 7h with 9h; t or take; d, done or pass; transfer 7s; show 7h (show a trump to "
    "transfer); a number picks one of your listed actions; help; q or quit."
)

_KEY_HELP = "←/→ choose a card · Enter play it · T take · D done (pass) · Q quit"
_CHOICE_HELP = "↑/↓ or 1-9 choose · Enter confirm · Esc back"


# --------------------------------------------------------------------------------------------
# Text helpers
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Look:
    """How cards are written: with suit symbols, or in plain ASCII when the output's encoding
    has no ``♥``."""

    ascii: bool = False

    def card(self, card: Card) -> str:
        return str(card) if self.ascii else card.pretty

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def suit(self, suit: Suit) -> str:
        return suit.name.lower() if self.ascii else suit.symbol


def _suit_style(suit: Suit) -> str:
    return "red" if suit in (Suit.HEARTS, Suit.DIAMONDS) else ""


def _card_style(card: Card) -> str:
    return _suit_style(card.suit)


def _styled(look: _Look, card: Card, extra: str = "") -> Text:
    return Text(look.card(card), style=" ".join(s for s in (_card_style(card), extra) if s))


def _can_encode(console: Console, text: str) -> bool:
    try:
        text.encode(console.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _cards_played(action: Action) -> tuple[Card, ...]:
    """The cards ``action`` moves from the player's hand to the table."""
    match action:
        case Lead(cards=cards) | Transfer(cards=cards):
            return cards
        case ThrowIn(card=card) | Beat(card=card):
            return (card,)
    return ()


def _cards_used(action: Action) -> tuple[Card, ...]:
    """The cards of the player's hand that ``action`` uses: the cards it plays, a shown trump,
    or the card of any other action that names one (such as a trump exchange)."""
    played = _cards_played(action)
    if played or isinstance(action, Take | Pass):
        return played
    cards = getattr(action, "cards", None)
    if isinstance(cards, tuple):
        return tuple(c for c in cards if isinstance(c, Card))
    card = getattr(action, "card", None)
    return (card,) if isinstance(card, Card) else ()


def hand_order(state: GameState, seat: int) -> list[Card]:
    """``seat``'s hand in display order: by suit with the trump suit last, then by rank."""
    return sorted(state.hands[seat], key=lambda c: (c.suit == state.trump, c.suit, c.rank, c.copy))


def listed_actions(state: GameState, player: int) -> tuple[Action, ...]:
    """``player``'s legal actions in the order the screen lists (and numbers) them: leads,
    throw-ins, beats (by attack card), transfers, shown trumps, other actions, take, pass; the
    cards of each kind in the order of the displayed hand (trumps last)."""
    position = {card: i for i, card in enumerate(hand_order(state, player))}
    table = {attack: i for i, (attack, _) in enumerate(state.table)}

    def key(action: Action) -> tuple[int, int, tuple[int, ...]]:
        cards = tuple(position.get(c, -1) for c in _cards_used(action))
        match action:
            case Lead():
                return (0, 0, cards)
            case ThrowIn():
                return (1, 0, cards)
            case Beat(attack=attack):
                return (2, table.get(attack, -1), cards)
            case Transfer():
                return (3, 0, cards)
            case ShowTrump():
                return (4, 0, cards)
            case Take():
                return (6, 0, cards)
            case Pass():
                return (7, 0, cards)
        return (5, 0, cards)

    return tuple(sorted(legal_actions(state, player), key=key))


def _action_label(look: _Look, action: Action) -> str:
    """What a choice does, in the imperative: ``beat 7♥ with 9♥``."""
    match action:
        case Lead(cards=cards):
            return f"lead {look.cards(cards)}"
        case ThrowIn(card=card):
            return f"throw in {look.card(card)}"
        case Beat(attack=attack, card=card):
            return f"beat {look.card(attack)} with {look.card(card)}"
        case Take():
            return "take"
        case Pass():
            return "done (pass)"
        case Transfer(cards=cards):
            return f"transfer with {look.cards(cards)}"
        case ShowTrump(card=card):
            return f"show the trump {look.card(card)} to transfer"
    return action.describe()


def _result_lines(result: Result, name: Callable[[int], str]) -> list[str]:
    """The result in words: who is the durak (or the draw), then the places."""
    if result.draw:
        head = "Draw: the last players went out together, there is no durak."
    elif result.durak is not None:
        who = name(result.durak)
        head = "You are the durak!" if who == "you" else f"{who} is the durak."
    else:
        losers = ", ".join(name(p) for p in result.losers)
        winners = ", ".join(name(p) for p in result.winners)
        head = f"Winners: {winners}. Lost: {losers}."
    by_place: dict[int, list[str]] = {}
    for seat, place in enumerate(result.places):
        by_place.setdefault(place, []).append(name(seat))
    places = "Places: " + ", ".join(
        f"{_ordinal(place)} {' and '.join(names)}" for place, names in sorted(by_place.items())
    )
    return [head, places]


# --------------------------------------------------------------------------------------------
# The game session of ``durak play``
# --------------------------------------------------------------------------------------------


class PlaySession:
    """One game of ``durak play``: the state, the computer players and the log of what happened.

    The human sits at :data:`HUMAN`; every other seat is a :class:`~durak.bots.RandomBot`. The
    actor is always :func:`~durak.engine.next_actor`.

    Args:
        rules: the rules of the game.
        seed: the deal's seed; the bots' seeds derive from it.
        preset: the preset's name, for the title.
        ascii: write cards as ``7h`` instead of ``7♥``.
    """

    def __init__(self, rules: Rules, seed: int | str, preset: str, ascii: bool = False) -> None:
        self.rules = rules
        self.seed = seed
        self.preset = preset
        self.look = _Look(ascii)
        self.state = new_game(rules, seed=seed)
        self.bots = {
            seat: RandomBot(f"{seed}:bot:{seat}") for seat in range(rules.players) if seat != HUMAN
        }
        self.log: deque[str] = deque(maxlen=100)
        self.actions = 0
        lead = self.name(self.state.attacker)
        self.log.append(
            f"new game: trump {self.look.suit(self.state.trump)}, "
            f"{lead} {'lead' if lead == 'you' else 'leads'} against "
            f"{self.name(self.state.defender)}"
        )

    def name(self, seat: int) -> str:
        """``"you"`` for the human, ``"p1"``, ``"p2"`` ... for the others."""
        return "you" if seat == HUMAN else f"p{seat}"

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.result is not None

    @property
    def human_to_move(self) -> bool:
        """Whether the game waits for the human (he is :func:`next_actor`)."""
        return not self.over and next_actor(self.state) == HUMAN

    def human_actions(self) -> tuple[Action, ...]:
        """The human's legal actions now."""
        return listed_actions(self.state, HUMAN)

    def advance(self) -> None:
        """Let the computer players act until the human is to move or the game is over."""
        while not self.over:
            actor = next_actor(self.state)
            if actor is None or actor == HUMAN:
                return
            self.play(self.bots[actor].choose(self.state, actor))

    def play(self, action: Action) -> None:
        """Apply ``action`` and log what happened.

        Raises:
            IllegalActionError: the action is not legal; nothing changes.
        """
        old = self.state
        new = apply(old, action)
        self.state = new
        self.actions += 1
        self.log.extend(self._describe(old, action, new))

    def _describe(self, old: GameState, action: Action, new: GameState) -> Iterator[str]:
        look, who = self.look, self.name(action.player)
        match action:
            case Lead(cards=cards):
                yield f"{who} led {look.cards(cards)} against {self.name(old.defender)}"
            case ThrowIn(card=card):
                yield f"{who} threw in {look.card(card)}"
            case Beat(attack=attack, card=card):
                yield f"{who} beat {look.card(attack)} with {look.card(card)}"
            case Take():
                yield f"{who} chose to take"
            case Pass():
                yield f"{who} passed (done)"
            case Transfer(cards=cards):
                yield f"{who} transferred with {look.cards(cards)} to {self.name(new.defender)}"
            case ShowTrump(card=card):
                yield (
                    f"{who} showed the trump {look.card(card)}, "
                    f"the attack passes to {self.name(new.defender)}"
                )
            case _:
                yield f"{who}: {action.describe()}"
        if new.bouts == old.bouts:
            return
        played = _cards_played(action)
        on_table = sum(1 if b is None else 2 for _, b in old.table) + len(played)
        took = old.taken or isinstance(action, Take)
        if took:
            yield f"bout ended: {self.name(old.defender)} took {_plural(on_table, 'card')}"
        else:
            yield f"bout ended: {_plural(on_table, 'card')} to the discard pile"
        drawn = []
        for seat in range(old.players):
            before = len(old.hands[seat]) - (len(played) if seat == action.player else 0)
            if took and seat == old.defender:
                before += on_table
            if len(new.hands[seat]) > before:
                count = len(new.hands[seat]) - before
                drawn.append(f"{self.name(seat)} drew {_plural(count, 'card')}")
        if drawn:
            yield ", ".join(drawn)
        for seat in range(old.players):
            place = new.places[seat]
            if old.places[seat] is None and place is not None:
                verb = "are" if seat == HUMAN else "is"
                yield f"{self.name(seat)} {verb} out ({_ordinal(place)} place)"
        if new.result is not None:
            head = _result_lines(new.result, self.name)[0]
            yield "game over: " + head[0].lower() + head[1:]
        else:
            attacker = self.name(new.attacker)
            verb = "attack" if attacker == "you" else "attacks"
            yield f"next bout: {attacker} {verb} {self.name(new.defender)}"


# --------------------------------------------------------------------------------------------
# Understanding the human's input
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """What a line of input asks for: an action, quitting, or only a message to show (an error
    or the help)."""

    action: Action | None = None
    quit: bool = False
    message: str | None = None


def _explain_card(state: GameState, player: int, card: Card) -> str:
    """Why ``card`` cannot be played now: the :class:`IllegalActionError` text of the action the
    player most likely meant."""
    probe: Action
    if not state.table:
        probe = Lead(player, (card,))
    elif player == state.defender and state.unbeaten and not state.taken:
        probe = Beat(player, state.unbeaten[0], card)
    else:
        probe = ThrowIn(player, card)
    return _illegal_text(state, probe) or f"{card} cannot be played now"


def _illegal_text(state: GameState, action: Action) -> str | None:
    """The :class:`IllegalActionError` message for ``action``, or ``None`` if it is legal."""
    try:
        apply(state, action)
    except IllegalActionError as exc:
        return str(exc)
    return None


def _try(state: GameState, action: Action, legal: Sequence[Action]) -> Command:
    if action in legal:
        return Command(action=action)
    return Command(message=_illegal_text(state, action) or f"{action} is not possible now")


def card_actions(actions: Sequence[Action], card: Card) -> list[Action]:
    """The actions among ``actions`` that use ``card`` from the hand."""
    return [a for a in actions if card in _cards_used(a)]


def _single_card(state: GameState, player: int, legal: Sequence[Action], card: Card) -> Command:
    """``7h`` alone: lead it, throw it in, or beat the first unbeaten card it beats; else the only
    transfer it makes."""
    uses = card_actions(legal, card)
    plain = [
        a
        for a in uses
        if isinstance(a, ThrowIn | Beat) or (isinstance(a, Lead) and a.cards == (card,))
    ]
    if plain:
        return Command(action=plain[0])
    if len(uses) == 1:
        return Command(action=uses[0])
    if uses:
        options = " or ".join(f"'{_command_text(a)}'" for a in uses)
        return Command(message=f"{card} can do several things: type {options}")
    return Command(message=_explain_card(state, player, card))


def _command_text(action: Action) -> str:
    match action:
        case Lead(cards=cards):
            return "lead " + " ".join(map(str, cards))
        case Transfer(cards=cards):
            return "transfer " + " ".join(map(str, cards))
        case ShowTrump(card=card):
            return f"show {card}"
        case ThrowIn(card=card):
            return f"throw {card}"
        case Beat(attack=attack, card=card):
            return f"{attack} {card}"
        case Take():
            return "take"
        case Pass():
            return "done"
    return str(action).partition(" ")[2]


_QUIT = {"q", "quit", "exit"}
_TAKE = {"t", "take"}
_PASS = {"d", "done", "pass", "bito"}
_HELP = {"h", "help", "?"}


def parse_command(text: str, state: GameState, player: int) -> Command:
    """Understand one line typed by ``player``.

    Accepted: a card (``7h``: lead it, throw it in, or beat the first unbeaten card it can beat;
    if it can only transfer, transfer), two cards (``7h 9h``: beat 7h with 9h; when leading, a lead
    of both), ``t``/``take``, ``d``/``done``/``pass``, ``transfer 7s [7c]``, ``show 7h``,
    ``lead 7h [7d]``, ``throw 7h``, ``beat 7h 9h``, a number ``k`` (the k-th of the player's legal
    actions as :func:`listed_actions` orders them), ``help``, ``q``/``quit``.

    Never raises for bad input: an unknown word, a bad card or an illegal action gives a
    :class:`Command` with a message (the :class:`~durak.errors.InvalidCardError` or
    :class:`~durak.errors.IllegalActionError` text).
    """
    words = text.replace(",", " ").split()
    if not words:
        return Command(message="type a command (help lists them)")
    head = words[0].lower()
    if head in _QUIT and len(words) == 1:
        return Command(quit=True)
    if head in _HELP and len(words) == 1:
        return Command(message=LINE_HELP)
    legal = listed_actions(state, player)
    try:
        if head in _TAKE and len(words) == 1:
            return _try(state, Take(player), legal)
        if head in _PASS and len(words) == 1:
            return _try(state, Pass(player), legal)
        if head.isdigit() and len(words) == 1:
            k = int(head)
            if not legal:
                return Command(message="you have no action to choose now")
            if not 1 <= k <= len(legal):
                return Command(message=f"no action {k}: choose a number from 1 to {len(legal)}")
            return Command(action=legal[k - 1])
        rest = words[1:]
        if head == "transfer":
            if not rest:
                transfers = [a for a in legal if isinstance(a, Transfer)]
                if len(transfers) == 1:
                    return Command(action=transfers[0])
                return Command(message="say which card(s) to transfer with, e.g. transfer 7s")
            return _try(state, Transfer(player, parse_cards(rest)), legal)
        if head == "show":
            if len(rest) != 1:
                return Command(message="say which trump to show, e.g. show 7h")
            return _try(state, ShowTrump(player, Card.parse(rest[0])), legal)
        if head == "lead":
            return _try(state, Lead(player, parse_cards(rest)), legal)
        if head in ("throw", "throwin"):
            if len(rest) != 1:
                return Command(message="say which card to throw in, e.g. throw 7h")
            return _try(state, ThrowIn(player, Card.parse(rest[0])), legal)
        if head == "beat":
            pair = [w for w in rest if w.lower() != "with"]
            if len(pair) != 2:
                return Command(message="say which card to beat with which, e.g. beat 7h 9h")
            return _try(state, Beat(player, Card.parse(pair[0]), Card.parse(pair[1])), legal)
        typed = " ".join(words).lower()
        for action in legal:  # any other action by its text form, e.g. "redeal"
            if _command_text(action).lower() == typed:
                return Command(action=action)
        cards = parse_cards(words)
    except InvalidError as exc:
        return Command(message=str(exc))
    if len(cards) == 1:
        return _single_card(state, player, legal, cards[0])
    if not state.table and player == state.attacker:
        return _try(state, Lead(player, cards), legal)
    if len(cards) == 2:
        beat = Beat(player, cards[0], cards[1])
        if beat not in legal and Beat(player, cards[1], cards[0]) in legal:
            beat = Beat(player, cards[1], cards[0])
        return _try(state, beat, legal)
    return Command(message=f"too many cards: {' '.join(words)} (help lists the commands)")


# --------------------------------------------------------------------------------------------
# The screen
# --------------------------------------------------------------------------------------------


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


def _role_of(state: GameState, seat: int) -> str:
    if state.result is not None:
        if seat == state.result.durak:
            return "durak"
        return f"{_ordinal(state.result.places[seat])} place"
    if state.places[seat] is not None:
        return f"out ({_ordinal(state.places[seat] or 0)} place)"
    if not state.is_active(seat):
        return "finished"
    if seat == state.defender:
        return "defender, takes" if state.taken else "defender"
    if seat == state.attacker:
        return "attacker"
    if state.table:
        active = [state.is_active(s) for s in range(state.players)]
        if seat in throwers(state.rules, active, state.attacker, state.defender):
            return "thrower"
    return ""


def _hint(session: PlaySession, actions: Sequence[Action]) -> str:
    """One sentence telling the human what he may do now."""
    s = session.state
    name = session.name
    if s.result is not None:
        return "The game is over."
    actor = next_actor(s)
    if actor != HUMAN:
        return f"{name(actor or 0)} is to move."
    if not s.table:
        return f"You attack {name(s.defender)}: lead a card."
    if s.defender == HUMAN:
        transfer = any(isinstance(a, Transfer | ShowTrump) for a in actions)
        extra = ", transfer" if transfer else ""
        return f"You defend: beat every unbeaten card{extra}, or take (T)."
    if s.taken:
        return f"{name(s.defender)} takes: throw in more cards of the table's ranks, or done (D)."
    return "Throw in a card of a rank on the table, or done (D)."


def _players_table(session: PlaySession) -> Table:
    s = session.state
    actor = next_actor(s)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True)
    for seat in range(s.players):
        role = _role_of(s, seat)
        notes = [role] if role else []
        if s.rules.teams is not None:
            notes.insert(0, f"team {s.rules.team_of(seat) + 1}")
        if seat in s.passed:
            notes.append("passed")
        if seat == actor:
            notes.append("◀ to move" if not session.look.ascii else "<- to move")
        style = "bold" if seat == HUMAN else ""
        grid.add_row(
            Text(session.name(seat), style=style),
            _plural(len(s.hands[seat]), "card"),
            Text(", ".join(notes), style="cyan" if seat == actor else ""),
        )
    return grid


def _table_view(session: PlaySession) -> RenderableType:
    s, look, name = session.state, session.look, session.name
    if s.result is not None:
        return Text("")
    verb = "attack" if s.attacker == HUMAN else "attacks"
    head = Text.assemble(("Table", "bold"), f": {name(s.attacker)} {verb} {name(s.defender)}")
    if s.taken:
        head.append(f" ({name(s.defender)} will take)", style="yellow")
    if not s.table:
        return Group(head, Text("  (empty: no card led yet)", style="dim"))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    for _ in s.table:
        grid.add_column(justify="center", no_wrap=True)
    attack_row: list[RenderableType] = [Text("  attack", style="dim")]
    beat_row: list[RenderableType] = [Text("  beaten by", style="dim")]
    for attack, beating in s.table:
        if beating is None:
            attack_row.append(_styled(look, attack, "bold"))
            beat_row.append(Text("unbeaten", style="bold yellow"))
        else:
            attack_row.append(_styled(look, attack))
            beat_row.append(_styled(look, beating))
    grid.add_row(*attack_row)
    grid.add_row(*beat_row)
    return Group(head, grid)


def _hand_view(
    session: PlaySession, screen: ScreenState, actions: Sequence[Action], plain: bool
) -> Text:
    look = session.look
    playable = {c for a in actions for c in _cards_used(a)}
    line = Text("  ")
    for card in hand_order(session.state, HUMAN):
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


def render_screen(session: PlaySession, screen: ScreenState, plain: bool = False) -> RenderableType:
    """The whole game screen for the human: title, trump and stock, the players (card counts,
    who attacks, defends and moves), the table, what just happened, the human's hand (playable
    cards bold, or marked ``*`` when ``plain``; the selected card in brackets), and, at the end,
    the result.

    Args:
        session: the game.
        screen: selection, open choice, message, and whether to number the legal actions.
        plain: the output has no colours or styles (not a terminal, or ``NO_COLOR``).
    """
    s, look = session.state, session.look
    parts: list[RenderableType] = []
    title = (
        f"Durak · {session.preset} · {s.players} players · seed {session.seed}"
        if not look.ascii
        else f"Durak - {session.preset} - {s.players} players - seed {session.seed}"
    )
    parts.append(Text(title, style="bold"))
    trump = Text.assemble("Trump ", (look.suit(s.trump), "bold " + _suit_style(s.trump)))
    if s.trump_card is not None:
        trump.append(" (")
        trump.append_text(_styled(look, s.trump_card))
        trump.append(" under the stock)" if s.stock else ")")
    trump.append(
        f"   Stock {len(s.stock)}   Discard pile {len(s.discard)}   Bouts played {s.bouts}"
    )
    parts.append(trump)
    parts.append(Text(""))

    recent = list(session.log)[-max(6, s.players + 1) :]
    log = Text("\n".join(recent), style="dim" if not plain else "")
    top = Table.grid(padding=(0, 4))
    top.add_column(no_wrap=True)
    top.add_column()
    top.add_row(
        Text("Players", style="bold underline"), Text("What happened", style="bold underline")
    )
    top.add_row(_players_table(session), log)
    parts.append(top)
    parts.append(Text(""))
    if s.result is not None:
        lines = _result_lines(s.result, session.name)
        parts.append(Text(lines[0], style="bold magenta"))
        parts.append(Text(lines[1], style="bold"))
        if s.hands[HUMAN]:
            parts.append(Text(f"Your cards: {look.cards(hand_order(s, HUMAN))}"))
        return Group(*parts)

    parts.append(_table_view(session))
    parts.append(Text(""))
    actions = session.human_actions() if session.human_to_move else ()
    title_line = Text.assemble(("Your hand", "bold"), f" ({_plural(len(s.hands[HUMAN]), 'card')})")
    if plain and actions:
        title_line.append(" (* playable)")
    parts.append(title_line)
    parts.append(_hand_view(session, screen, actions, plain))
    parts.append(Text(_hint(session, actions), style="cyan"))
    if screen.choices is not None:
        parts.append(Text("Play it how?", style="bold"))
        for i, action in enumerate(screen.choices):
            mark = ">" if i == screen.choice else " "
            style = "reverse" if i == screen.choice else ""
            parts.append(Text(f" {mark} {i + 1}  {_action_label(look, action)}", style=style))
    if screen.numbered and actions:
        parts.append(Text("Your legal actions:", style="bold"))
        for i, action in enumerate(actions, 1):
            parts.append(Text(f"  {i:>2}  {_action_label(look, action)}"))
    if screen.message:
        parts.append(Text(screen.message, style="bold red"))
    if not screen.numbered:
        help_text = _CHOICE_HELP if screen.choices is not None else _KEY_HELP
        if look.ascii:
            help_text = help_text.replace("←/→", "Left/Right").replace("↑/↓", "Up/Down")
            help_text = help_text.replace("·", "-")
        parts.append(Text(help_text, style="dim"))
    return Group(*parts)


# --------------------------------------------------------------------------------------------
# durak play
# --------------------------------------------------------------------------------------------


def _console(stream: TextIO, stderr: bool = False) -> Console:
    """A rich console on ``stream``: plain text (no escape codes) when it is not a terminal;
    rich itself honours ``NO_COLOR``."""
    isatty = getattr(stream, "isatty", None)
    tty = bool(isatty and isatty())
    return Console(
        file=stream,
        force_terminal=None if tty else False,
        stderr=stderr,
        highlight=False,
        emoji=False,
        soft_wrap=False,
    )


def _is_plain(console: Console) -> bool:
    return console.color_system is None or not console.is_terminal


def _play_lines(session: PlaySession, console: Console, stdin: TextIO) -> int:
    """Line mode: show the screen with numbered actions, read a command, repeat."""
    plain = _is_plain(console)
    interactive_input = bool(getattr(stdin, "isatty", lambda: False)())
    screen = ScreenState(numbered=True)
    show = True
    while True:
        session.advance()
        if session.over:
            break
        if show:
            console.print(render_screen(session, screen, plain=plain))
            console.print(Text("Type a card (7h), 7h 9h, t, d, a number, help or q.", style="dim"))
        screen.message = None
        try:
            if interactive_input:
                line: str | None = console.input("[bold]Your move>[/bold] ")
            else:
                console.print("Your move> ", end="")
                raw = stdin.readline()
                line = raw if raw else None
                console.print(raw.rstrip("\n") if raw else "")
        except EOFError:
            line = None
        except KeyboardInterrupt:
            console.print()
            console.print("game abandoned")
            return 130
        if line is None:
            console.print("game abandoned (end of input)")
            return 0
        command = parse_command(line, session.state, HUMAN)
        if command.quit:
            console.print("game abandoned")
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

    def enter(self) -> None:
        """Enter: play the selected card, or confirm the highlighted choice."""
        if self.screen.choices is not None:
            self._play(self.screen.choices[self.screen.choice])
            return
        card = self.screen.selected
        if card is None:
            self.screen.message = "you hold no card"
            return
        uses = card_actions(self._actions(), card)
        if not uses:
            self.screen.message = _explain_card(self.session.state, HUMAN, card)
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
        """Esc: close the choice."""
        self.screen.choices = None
        self.screen.message = None

    def simple(self, action: Action) -> None:
        """T (take) or D (done): play it if legal, else say why not."""
        if self.screen.choices is not None:
            self.screen.choices = None
        if action in self._actions():
            self._play(action)
        else:
            self.screen.message = _illegal_text(self.session.state, action) or "not now"

    def render(self, width: int) -> str:
        """The screen as text with ANSI styles, ``width`` columns wide."""
        buffer = StringIO()
        console = Console(
            file=buffer,
            force_terminal=True,
            width=max(40, width),
            color_system="standard",
            highlight=False,
            emoji=False,
        )
        screen = self.screen
        if self.session.over:
            screen = ScreenState(message="Press Enter or Q to leave.")
        console.print(render_screen(self.session, screen))
        return buffer.getvalue()


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
        if session.over:
            event.app.exit()
            return
        ui.enter()

    @bind("escape")
    def _escape(event: KeyPressEvent) -> None:
        ui.cancel()

    @bind("t", "T")
    def _take(event: KeyPressEvent) -> None:
        if not session.over:
            ui.simple(Take(HUMAN))

    @bind("d", "D")
    def _done(event: KeyPressEvent) -> None:
        if not session.over:
            ui.simple(Pass(HUMAN))

    @bind("q", "Q", "c-c", "c-d")
    def _quit(event: KeyPressEvent) -> None:
        ui.quit = not session.over
        event.app.exit()

    for digit in range(1, 10):

        @bind(str(digit))
        def _digit(event: KeyPressEvent, k: int = digit) -> None:
            ui.choose_number(k)

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
        console.print("game abandoned")
    return 0


def _resolve_rules(preset: str, players: int | None) -> tuple[str, Rules]:
    """The preset's canonical name and its rules with ``--players`` applied.

    Raises:
        RulesError: an unknown preset or rules that cannot be dealt.
    """
    found = get_preset(preset)
    overrides: dict[str, Any] = {} if players is None else {"players": players}
    return found.name, found.rules(**overrides)


def _seed(text: str | None) -> int | str:
    if text is None:
        return secrets.randbelow(1_000_000)
    text = text.strip()
    return int(text) if text.isdigit() else text


def _cmd_play(args: argparse.Namespace, name: str, rules: Rules, seed: int | str) -> int:
    console = _console(sys.stdout)
    session = PlaySession(rules, seed, name, ascii=not _can_encode(console, "♣♦♥♠←→◀·"))
    stdin = sys.stdin
    tty = bool(getattr(stdin, "isatty", lambda: False)()) and console.is_terminal
    if tty and not args.line:
        return _play_keys(session, console)
    return _play_lines(session, console, stdin)


# --------------------------------------------------------------------------------------------
# durak simulate
# --------------------------------------------------------------------------------------------


@dataclass
class SimulationStats:
    """The figures of a batch of random games.

    Attributes:
        players: seats per game.
        games: games played.
        durak: per seat, how often he was the durak.
        lost: per seat, how often he lost (the durak, or under ``objective = first_out`` every
            player not out, or a losing team).
        draws: games drawn (R7.3).
        no_durak: games that ended with losers but no single durak (``first_out``, teams).
        bouts: bouts played in all games (``state.bouts`` at the end).
        actions: actions applied in all games.
        seconds: time taken.
    """

    players: int
    games: int = 0
    durak: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    draws: int = 0
    no_durak: int = 0
    bouts: int = 0
    actions: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if not self.durak:
            self.durak = [0] * self.players
        if not self.lost:
            self.lost = [0] * self.players

    def add(self, state: GameState, actions: int) -> None:
        """Count one finished game."""
        result = state.result
        if result is None:
            raise ValueError("the game is not over")
        self.games += 1
        if result.durak is not None:
            self.durak[result.durak] += 1
        elif result.draw:
            self.draws += 1
        else:
            self.no_durak += 1
        for seat in result.losers:
            self.lost[seat] += 1
        self.bouts += state.bouts
        self.actions += actions

    def _pct(self, count: int) -> float:
        return round(100.0 * count / self.games, 2) if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values (``seconds`` and ``games_per_second`` are the only
        ones that depend on the machine)."""
        return {
            "players": self.players,
            "games": self.games,
            "durak": list(self.durak),
            "durak_percent": [self._pct(c) for c in self.durak],
            "lost": list(self.lost),
            "draws": self.draws,
            "draw_percent": self._pct(self.draws),
            "no_durak": self.no_durak,
            "mean_bouts": round(self.bouts / self.games, 4) if self.games else 0.0,
            "mean_actions": round(self.actions / self.games, 4) if self.games else 0.0,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
        }


def simulate(
    rules: Rules,
    games: int,
    seed: int | str,
    on_game: Callable[[], None] | None = None,
) -> SimulationStats:
    """Play ``games`` games with a :class:`~durak.bots.RandomBot` on every seat.

    Game ``i`` is dealt with the seed ``f"{seed}:{i}"`` and seat ``p``'s bot is seeded with
    ``f"{seed}:{i}:{p}"``, so the figures depend only on the rules, ``games`` and ``seed``.

    Args:
        rules: the rules of every game.
        games: how many games to play.
        seed: the run's seed.
        on_game: called after each game (for a progress bar).
    """
    stats = SimulationStats(players=rules.players)
    start = time.perf_counter()
    for i in range(games):
        state = new_game(rules, seed=f"{seed}:{i}")
        bots = [RandomBot(f"{seed}:{i}:{p}") for p in range(rules.players)]
        count = 0
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, bots[actor].choose(state, actor))
            count += 1
        stats.add(state, count)
        if on_game is not None:
            on_game()
    stats.seconds = time.perf_counter() - start
    return stats


def _stats_table(stats: SimulationStats, preset: str, seed: int | str) -> Group:
    data = stats.to_dict()
    title = Text(
        f"{preset}: {stats.players} players, {stats.games} games, seed {seed}", style="bold"
    )
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("seat")
    table.add_column("durak", justify="right")
    table.add_column("durak %", justify="right")
    show_lost = any(lost != durak for lost, durak in zip(stats.lost, stats.durak, strict=True))
    if show_lost:
        table.add_column("lost", justify="right")
    for seat in range(stats.players):
        row = [f"p{seat}", str(stats.durak[seat]), f"{data['durak_percent'][seat]:.1f}"]
        if show_lost:
            row.append(str(stats.lost[seat]))
        table.add_row(*row)
    summary = Table.grid(padding=(0, 2))
    summary.add_column()
    summary.add_column(justify="right")
    summary.add_row("draws", f"{stats.draws} ({data['draw_percent']:.1f}%)")
    if stats.no_durak:
        summary.add_row("games without a durak", str(stats.no_durak))
    summary.add_row("mean bouts per game", f"{data['mean_bouts']:.2f}")
    summary.add_row("mean actions per game", f"{data['mean_actions']:.2f}")
    summary.add_row("games per second", f"{stats.games_per_second:.0f}")
    return Group(title, table, summary)


def _cmd_simulate(args: argparse.Namespace, name: str, rules: Rules, seed: int | str) -> int:
    out = _console(sys.stdout)
    err = _console(sys.stderr, stderr=True)
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=args.quiet or args.json or not err.is_terminal,
        transient=True,
    )
    with progress:
        task = progress.add_task("games", total=args.games)
        stats = simulate(rules, args.games, seed, lambda: progress.advance(task))
    if args.json:
        data = {"preset": name, "seed": seed, **stats.to_dict()}
        print(json.dumps(data), file=sys.stdout)
    else:
        out.print(_stats_table(stats, name, seed))
    return 0


# --------------------------------------------------------------------------------------------
# Arguments and main
# --------------------------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``durak`` command, with the ``play`` and ``simulate``
    subcommands."""
    parser = argparse.ArgumentParser(
        prog="durak", description="The card game Durak: play it in the terminal, or simulate it."
    )
    parser.add_argument("--version", action="version", version=f"durak {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--preset",
            default=DEFAULT_PRESET,
            metavar="NAME",
            help=f"house rules by name or alias (default {DEFAULT_PRESET})",
        )
        sub.add_argument(
            "--players", type=_number, metavar="N", help="number of players (overrides the preset)"
        )
        sub.add_argument(
            "--seed", metavar="S", help="seed of the deal(s): the same seed, the same game"
        )

    play = commands.add_parser(
        "play",
        help="play a game against computer players",
        description="Play a game at seat 0 against computer players who play at random. "
        "Keys: Left/Right choose a card, Enter plays it, T take, D done (pass), Q quit. "
        + LINE_HELP,
    )
    common(play)
    play.add_argument(
        "--line", action="store_true", help="type commands line by line instead of using keys"
    )
    play.set_defaults(func=_cmd_play)

    sim = commands.add_parser(
        "simulate",
        help="play many random games and print statistics",
        description="Play games with a random player on every seat and print how often each "
        "seat was the durak, the draws, and the mean bouts and actions per game.",
    )
    common(sim)
    sim.add_argument("--games", type=_positive, default=1000, metavar="G", help="games (1000)")
    sim.add_argument("--json", action="store_true", help="print the figures as JSON")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``durak`` command with ``argv`` (default: the process's arguments).

    Returns:
        The exit status: 0 on success (a finished or abandoned game), 2 for bad arguments or
        rules (the error is printed to stderr in one line), 130 when interrupted.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        name, rules = _resolve_rules(args.preset, args.players)
    except DurakError as exc:
        print(f"durak: error: {exc}", file=sys.stderr)
        return 2
    try:
        status: int = args.func(args, name, rules, _seed(args.seed))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
