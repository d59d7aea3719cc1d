"""The ``durak`` command: play Durak in the terminal, simulate games and matches, list the house
rules, replay recorded games.

Usage::

    durak play [--preset NAME | --rules FILE] [--players N] [--seed S] [--bots KINDS]
               [--line] [--save FILE]
    durak simulate [--preset NAME | --rules FILE] [--players N] [--games G] [--match K]
                   [--seed S] [--bots KINDS] [--json] [--quiet]
    durak rules [NAME] [--toml | --json]
    durak replay FILE [--line] [--player N]

``durak play`` seats you at seat 0 against computer players (``--bots``; by default the
rule-of-thumb player of :mod:`durak.bots` where there is one, else the random one). In an
interactive terminal the arrow keys choose a card, Enter plays it, ``T`` takes, ``D`` is done
(pass) and ``Q`` quits. When the input is not a terminal, or with ``--line``, commands are read
line by line (``7h``, ``7h 9h``, ``t``, ``d``, ``transfer 7s``, ``show 7h``, a number, ``q``);
see :data:`LINE_HELP`. The screen shows only what you may know (:func:`durak.views.view`: your
hand, the others' card counts and the cards known to all) and tells what happened from the
engine's events (:func:`durak.engine.apply_with_events`, :func:`durak.events.events_for`).
``--save FILE`` writes the game record (:mod:`durak.records`), also of an abandoned game.

``durak simulate`` plays many games with a computer player on every seat (random by default)
and prints how often each seat was the durak, the draws, the mean bouts and actions per game and
the speed. With ``--match K`` the ``--games G`` are played as ``G // K`` matches of ``K`` games
(:func:`durak.match.play_match`) and scored (R11.3): losses, longest losing streaks,
Doppeldurak and Dauerdurak streaks, vodka shots, team losses.

``durak rules`` lists the presets (R14); ``durak rules NAME`` shows every setting of one, and
with ``--toml`` or ``--json`` prints it as a rules file that ``--rules FILE`` reads back.

``durak replay FILE`` steps through a game record: as an onlooker who sees every hand by
default, or from seat ``N``'s view with ``--player N``.

Bad input (an unknown preset, a bad rules file, rules that cannot be dealt, a malformed or
tampered record) prints one line naming the problem and exits with status 2.
"""

from __future__ import annotations

import argparse
import inspect
import json
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any, TextIO

import attrs
from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

import durak.bots as bots_module
from durak import __version__
from durak.actions import Action, Beat, Lead, Pass, ShowTrump, Take, ThrowIn, Transfer
from durak.cards import Card, Suit, parse_cards
from durak.engine import apply, apply_with_events, legal_actions, new_game, next_actor
from durak.errors import DurakError, IllegalActionError, InvalidError, RulesError
from durak.events import (
    Beaten,
    BoutEnded,
    Drew,
    Event,
    GameOver,
    Led,
    NewBout,
    Passed,
    PlayerLeft,
    PlayerOut,
    Redealt,
    TakeDeclared,
    ThrownIn,
    Transferred,
    TrumpExchanged,
    events_for,
)
from durak.match import (
    losses,
    play_match,
    streak_name,
    streaks,
    team_losses,
    vodka,
    vodka_first_out,
)
from durak.presets import DEFAULT_PRESET, PRESETS, Preset, dumps_rules, get_preset, load_rules
from durak.records import Record, dump, load, replay
from durak.rules import Rules
from durak.rules.settings import SETTINGS
from durak.state import GameState, Result
from durak.tournament import TournamentResult, run_tournament
from durak.views import PlayerView
from durak.views import view as player_view

__all__ = [
    "LINE_HELP",
    "MatchStats",
    "PlaySession",
    "ReplaySession",
    "Scene",
    "SimulationStats",
    "bot_kinds",
    "build_parser",
    "default_bot",
    "describe_events",
    "display_order",
    "listed_actions",
    "main",
    "make_bot",
    "parse_command",
    "render_scene",
    "render_screen",
    "rules_name",
    "seat_bots",
    "simulate",
    "simulate_matches",
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
_CHOICE_HELP = "↑/↓ then Enter, or 1-9, to play · Esc back"


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


def display_order(cards: Iterable[Card], trump: Suit) -> list[Card]:
    """``cards`` in display order: by suit with the trump suit last, then by rank."""
    return sorted(cards, key=lambda c: (c.suit == trump, c.suit, c.rank, c.copy))


def hand_order(state: GameState, seat: int) -> list[Card]:
    """``seat``'s hand in display order: by suit with the trump suit last, then by rank."""
    return display_order(state.hands[seat], state.trump)


def listed_actions(state: GameState, player: int) -> tuple[Action, ...]:
    """``player``'s legal actions in the order the screen lists (and numbers) them: leads,
    throw-ins, beats (by attack card), transfers, shown trumps, other actions, take, pass; the
    cards of each kind in the order of the displayed hand (trumps last)."""
    actions = legal_actions(state, player)
    return _order_actions(actions, state.hands[player], state.table, state.trump)


def _order_actions(
    actions: Iterable[Action],
    hand: Iterable[Card],
    table: Sequence[tuple[Card, Card | None]],
    trump: Suit,
) -> tuple[Action, ...]:
    """``actions`` in the order of :func:`listed_actions`, for a player holding ``hand``."""
    position = {card: i for i, card in enumerate(display_order(hand, trump))}
    on_table = {attack: i for i, (attack, _) in enumerate(table)}

    def key(action: Action) -> tuple[int, int, tuple[int, ...]]:
        cards = tuple(position.get(c, -1) for c in _cards_used(action))
        match action:
            case Lead():
                return (0, 0, cards)
            case ThrowIn():
                return (1, 0, cards)
            case Beat(attack=attack):
                return (2, on_table.get(attack, -1), cards)
            case Transfer():
                return (3, 0, cards)
            case ShowTrump():
                return (4, 0, cards)
            case Take():
                return (6, 0, cards)
            case Pass():
                return (7, 0, cards)
        return (5, 0, cards)

    return tuple(sorted(actions, key=key))


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
# Computer players
# --------------------------------------------------------------------------------------------

#: A computer player: any object with a ``choose`` method, either ``choose(view) -> Action``
#: (the protocol of :mod:`durak.bots`: it sees only a :class:`~durak.views.PlayerView`) or the
#: older ``choose(state, player) -> Action``. :func:`_bot_move` asks either kind.
BotLike = Any

_TAKES_VIEW: dict[type, bool] = {}


def _takes_view(bot: BotLike) -> bool:
    """Whether ``bot.choose`` takes one argument (a view) rather than ``(state, player)``;
    decided once per bot class from the method's signature."""
    kind = type(bot)
    known = _TAKES_VIEW.get(kind)
    if known is None:
        try:
            params = list(inspect.signature(bot.choose).parameters.values())
        except (TypeError, ValueError):  # no signature to read: assume the view protocol
            params = []
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        required = [p for p in params if p.kind in positional and p.default is p.empty]
        known = _TAKES_VIEW[kind] = len(required) < 2
    return known


def _bot_move(bot: BotLike, state: GameState, actor: int) -> Action:
    """The action ``bot`` chooses for seat ``actor`` in ``state``: ``bot.choose(view)`` with
    ``actor``'s :func:`~durak.views.view` for bots of the view protocol, else
    ``bot.choose(state, actor)``.

    Raises:
        ValueError: the bot has nothing to choose from (``actor`` has no legal action).
    """
    if _takes_view(bot):
        action: Action = bot.choose(player_view(state, actor))
    else:
        action = bot.choose(state, actor)
    return action


def bot_kinds() -> tuple[str, ...]:
    """The kinds of computer player ``--bots`` accepts: the names of ``durak.bots.BOTS``
    (``random``, ``rule``, ``search``), or only ``random`` where the bots module has no such
    registry."""
    names = getattr(bots_module, "BOTS", None)
    return tuple(str(name) for name in names) if names else ("random",)


def default_bot() -> str:
    """The default opponent of ``durak play``: the rule-of-thumb player ``rule`` if there is
    one, else ``random``."""
    return "rule" if "rule" in bot_kinds() else "random"


def make_bot(kind: str, seed: int | str) -> BotLike:
    """A computer player of ``kind`` (one of :func:`bot_kinds`) with its own seeded random
    generator: ``durak.bots.make_bot(kind, seed)``, or a ``RandomBot`` where the bots module has
    no ``make_bot``.

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in bot_kinds():
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(bot_kinds())})")
    make = getattr(bots_module, "make_bot", None)
    if make is None:
        return bots_module.RandomBot(seed)
    return make(kind, seed)


def seat_bots(kinds: Sequence[str], seats: Sequence[int]) -> dict[int, str]:
    """Which kind of bot plays each of ``seats``: ``kinds`` given in seat order, repeated as
    often as needed (one kind plays every seat)."""
    return {seat: kinds[i % len(kinds)] for i, seat in enumerate(seats)}


class _MatchSeat:
    """One seat of :func:`durak.match.play_match` played by a bot through :func:`_bot_move`.

    It answers both ways a match may ask, ``choose(state, player)`` and ``choose(view)``, and
    counts the actions played in ``counter``.
    """

    def __init__(self, bot: BotLike, counter: list[int]) -> None:
        self.bot = bot
        self.counter = counter

    def choose(self, state: GameState | PlayerView, player: int | None = None) -> Action:
        """The bot's action (see the class docs).

        Raises:
            TypeError: asked with a view, but the bot needs the whole state; or asked with a
                state but no player.
        """
        self.counter[0] += 1
        if isinstance(state, PlayerView):
            if not _takes_view(self.bot):
                raise TypeError(f"{type(self.bot).__name__} needs the state, not a view")
            action: Action = self.bot.choose(state)
            return action
        if player is None:
            raise TypeError("choose(state, player) needs the player")
        return _bot_move(self.bot, state, player)


# --------------------------------------------------------------------------------------------
# The game session of ``durak play``
# --------------------------------------------------------------------------------------------


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
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | str,
        preset: str,
        ascii: bool = False,
        bots: Sequence[str] = ("random",),
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.preset = preset
        self.look = _Look(ascii)
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
        """``"you"`` for the human, ``"p1"``, ``"p2"`` ... for the others."""
        return "you" if seat == HUMAN else f"p{seat}"

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
        return sep.join(
            ("Durak", self.preset, f"{self.rules.players} players", f"seed {self.seed}")
        )

    def scene(self) -> Scene:
        """What the screen shows now: the human's view, the log, his actions if he is to move."""
        actions = self.human_actions() if self.human_to_move else ()
        names = tuple(self.name(s) for s in range(self.rules.players))
        return Scene(self.view, self.look, self.title(), names, tuple(self.log), actions=actions)

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


def _deal_line(v: PlayerView, name: Callable[[int], str], look: _Look) -> str:
    """The first log line: the trump and who leads against whom."""
    lead = name(v.attacker)
    return (
        f"new game: trump {look.suit(v.trump)}, {lead} {'lead' if lead == 'you' else 'leads'} "
        f"against {name(v.defender)}"
    )


def describe_events(
    events: Iterable[Event], name: Callable[[int], str], look: _Look | None = None
) -> list[str]:
    """The log lines telling ``events`` (from :func:`~durak.engine.apply_with_events`, filtered
    for the reader by :func:`~durak.events.events_for`), one line per event; the draws after a
    bout share one line. ``name`` names a seat (``"you"`` takes the verb without ``s``).

    >>> from durak.events import BoutEnded, Drew
    >>> describe_events([BoutEnded(1, True, ()), Drew(0, 1, None), Drew(1, 2, None)], str)
    ['bout ended: 1 took 0 cards', '0 drew 1 card, 1 drew 2 cards']
    """
    look = look or _Look(ascii=True)
    lines: list[str] = []
    draws: list[str] = []
    for event in events:
        if isinstance(event, Drew):
            draws.append(_drew_text(event, name, look))
            continue
        if draws:
            lines.append(", ".join(draws))
            draws = []
        lines.append(_event_text(event, name, look))
    if draws:
        lines.append(", ".join(draws))
    return lines


def _drew_text(event: Drew, name: Callable[[int], str], look: _Look) -> str:
    text = f"{name(event.player)} drew {_plural(event.count, 'card')}"
    if event.cards:
        return f"{text} ({look.cards(event.cards)})"
    if event.face_up is not None:
        return f"{text} (one is the face-up {look.card(event.face_up)})"
    return text


def _event_text(event: Event, name: Callable[[int], str], look: _Look) -> str:
    """One event in words (not :class:`~durak.events.Drew`: see :func:`describe_events`)."""
    match event:
        case Led(player=p, cards=cards, defender=d):
            return f"{name(p)} led {look.cards(cards)} against {name(d)}"
        case ThrownIn(player=p, card=card):
            return f"{name(p)} threw in {look.card(card)}"
        case Beaten(player=p, attack=attack, card=card):
            return f"{name(p)} beat {look.card(attack)} with {look.card(card)}"
        case Transferred(player=p, to=to, cards=cards, shown=None):
            return f"{name(p)} transferred with {look.cards(cards)} to {name(to)}"
        case Transferred(player=p, to=to, shown=Card() as shown):
            return f"{name(p)} showed the trump {look.card(shown)}, the attack passes to {name(to)}"
        case TakeDeclared(player=p):
            return f"{name(p)} chose to take"
        case Passed(player=p):
            return f"{name(p)} passed (done)"
        case TrumpExchanged(player=p, card=card, face_up=face_up):
            return f"{name(p)} exchanged {look.card(card)} for the face-up {look.card(face_up)}"
        case Redealt(player=p):
            return f"{name(p)} called a misdeal: the cards are dealt again"
        case BoutEnded(defender=d, taken=True, cards=cards):
            return f"bout ended: {name(d)} took {_plural(len(cards), 'card')}"
        case BoutEnded(cards=cards):
            return f"bout ended: {_plural(len(cards), 'card')} to the discard pile"
        case PlayerOut(player=p, place=place):
            who = name(p)
            return f"{who} {'are' if who == 'you' else 'is'} out ({_ordinal(place)} place)"
        case PlayerLeft(player=p, place=place, partner=q):
            who = name(p)
            verb = "leave" if who == "you" else "leaves"
            return f"{who} {verb} with {name(q)} ({_ordinal(place)} place)"
        case NewBout(attacker=a, defender=d):
            who = name(a)
            return f"next bout: {who} {'attack' if who == 'you' else 'attacks'} {name(d)}"
        case GameOver(result=result):
            head = _result_lines(result, name)[0]
            return "game over: " + head[0].lower() + head[1:]
    return str(event)  # pragma: no cover - every event kind is told above


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


def _role_of(v: PlayerView, seat: int) -> str:
    if v.result is not None:
        if seat == v.result.durak:
            return "durak"
        return f"{_ordinal(v.result.places[seat])} place"
    place = v.places[seat]
    if place is not None and seat in v.left:
        return f"left ({_ordinal(place)} place)"
    if place is not None:
        return f"out ({_ordinal(place)} place)"
    if not v.active[seat]:
        return "finished"
    if seat == v.defender:
        return "defender, takes" if v.taken else "defender"
    if seat == v.attacker:
        return "attacker"
    if v.table and seat in v.throwers:
        return "thrower"
    return ""


def _hint(scene: Scene) -> str:
    """One sentence telling the viewer what he may do now."""
    v, name = scene.view, scene.name
    if v.result is not None:
        return "The game is over."
    actor = v.next_actor
    if actor is None or actor != v.player:
        return f"{name(actor or 0)} is to move."
    if not v.table:
        return f"You attack {name(v.defender)}: lead a card."
    if v.defender == v.player:
        transfer = any(isinstance(a, Transfer | ShowTrump) for a in scene.actions)
        extra = ", transfer" if transfer else ""
        return f"You defend: beat every unbeaten card{extra}, or take (T)."
    if v.taken:
        return f"{name(v.defender)} takes: throw in more cards of the table's ranks, or done (D)."
    return "Throw in a card of a rank on the table, or done (D)."


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
        role = _role_of(v, seat)
        notes = [role] if role else []
        if v.rules.teams is not None:
            notes.insert(0, f"team {v.rules.team_of(seat) + 1}")
        if v.result is None and v.table:
            if seat in v.passed:
                notes.append("passed")
            elif seat in v.done:
                notes.append("done")
        if seat == actor and v.result is None:
            notes.append("◀ to move" if not look.ascii else "<- to move")
        cards = Text()
        if scene.hands is None and seat != v.player and v.known[seat]:
            cards = Text("known: ", style="dim")
            cards.append_text(_cards_text(look, display_order(v.known[seat], v.trump)))
        grid.add_row(
            Text(scene.name(seat), style="bold" if seat == v.player else ""),
            _plural(v.hand_sizes[seat], "card"),
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
    verb = "attack" if name(v.attacker) == "you" else "attacks"
    head = Text.assemble(("Table", "bold"), f": {name(v.attacker)} {verb} {name(v.defender)}")
    if v.taken:
        head.append(f" ({name(v.defender)} will take)", style="yellow")
    if not v.table:
        return Group(head, Text("  (empty: no card led yet)", style="dim"))
    head.append(f"   at most {_plural(v.attack_limit, 'attack card')}", style="dim")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    for _ in v.table:
        grid.add_column(justify="center", no_wrap=True)
    attack_row: list[RenderableType] = [Text("  attack", style="dim")]
    beat_row: list[RenderableType] = [Text("  beaten by", style="dim")]
    for attack, beating in v.table:
        if beating is None:
            attack_row.append(_styled(look, attack, "bold"))
            beat_row.append(Text("unbeaten", style="bold yellow"))
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
    other (a narrow terminal)."""

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
            yield self.right


def _key_help(scene: Scene, screen: ScreenState) -> Text:
    help_text = _CHOICE_HELP if screen.choices is not None else scene.key_help
    if scene.look.ascii:
        help_text = help_text.replace("←/→", "Left/Right").replace("↑/↓", "Up/Down")
        help_text = help_text.replace("←", "Left").replace("→", "Right").replace("·", "-")
    return Text(help_text, style="dim")


def render_screen(session: PlaySession, screen: ScreenState, plain: bool = False) -> RenderableType:
    """The whole game screen for the human (:func:`render_scene` of ``session.scene()``).

    Args:
        session: the game.
        screen: selection, open choice, message, and whether to number the legal actions.
        plain: the output has no colours or styles (not a terminal, or ``NO_COLOR``).
    """
    return render_scene(session.scene(), screen, plain)


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
    parts: list[RenderableType] = [Text(scene.title, style="bold")]
    trump = Text.assemble("Trump ", (look.suit(v.trump), "bold " + _suit_style(v.trump)))
    if v.trump_card is not None:
        trump.append(" (")
        trump.append_text(_styled(look, v.trump_card))
        trump.append(" under the stock)" if v.stock_size else ")")
    trump.append(
        f"   Stock {v.stock_size}   Discard pile {len(v.discard)}   Bouts played {v.bouts}"
    )
    parts.append(trump)
    parts.append(Text(""))

    recent = list(scene.log)[-max(8, v.players + 2) :]
    log = Text("\n".join(recent), style="dim" if not plain else "")
    players = Group(Text("Players", style="bold underline"), _players_table(scene))
    parts.append(_SideBySide(players, Group(Text("What happened", style="bold underline"), log)))
    parts.append(Text(""))
    if scene.hands is not None:
        parts.append(Text("Hands", style="bold underline"))
        parts.append(_open_hands(scene))
        parts.append(Text(""))
    if v.result is not None:
        lines = _result_lines(v.result, scene.name)
        parts.append(Text(lines[0], style="bold magenta"))
        parts.append(Text(lines[1], style="bold"))
        if v.hand:
            parts.append(Text(f"Your cards: {look.cards(display_order(v.hand, v.trump))}"))
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
        title_line = Text.assemble(("Your hand", "bold"), f" ({_plural(len(v.hand), 'card')})")
        if plain and scene.actions:
            title_line.append(" (* playable)")
        parts.append(title_line)
        parts.append(_hand_view(scene, screen, plain))
        if v.known[v.player]:
            known = Text("  the others know you hold: ", style="dim")
            known.append_text(_cards_text(look, display_order(v.known[v.player], v.trump)))
            parts.append(known)
    parts.append(Text(scene.status or _hint(scene), style="cyan"))
    if screen.choices is not None:
        parts.append(Text("Play it how?", style="bold"))
        for i, action in enumerate(screen.choices):
            mark = ">" if i == screen.choice else " "
            style = "reverse" if i == screen.choice else ""
            parts.append(Text(f" {mark} {i + 1}  {_action_label(look, action)}", style=style))
    if screen.numbered and scene.actions:
        parts.append(Text("Your legal actions:", style="bold"))
        for i, action in enumerate(scene.actions, 1):
            parts.append(Text(f"  {i:>2}  {_action_label(look, action)}"))
    if screen.message:
        parts.append(Text(screen.message, style="bold red"))
    if not screen.numbered:
        parts.append(_key_help(scene, screen))
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
        screen = self.screen
        if self.session.over:
            screen = ScreenState(message="Press Enter or Q to leave.")
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


def _fail(message: str) -> int:
    """Print ``durak: error: message`` to stderr in one line; the exit status 2."""
    print(f"durak: error: {message}", file=sys.stderr)
    return 2


def _resolve_rules(
    preset: str, players: int | None, rules_file: str | None = None
) -> tuple[str, Rules]:
    """The rules of ``play`` and ``simulate`` and the name the screen shows for them: the
    preset's canonical name and rules, or the rules file's name and rules (``--rules``); then
    ``--players`` applied.

    Raises:
        RulesError: an unknown preset, a rules file that cannot be read or holds a bad setting
            (naming the key and the reason), or rules that cannot be dealt.
    """
    overrides: dict[str, Any] = {} if players is None else {"players": players}
    if rules_file is not None:
        rules = load_rules(rules_file)
        return Path(rules_file).name, rules.replace(**overrides) if overrides else rules
    found = get_preset(preset)
    return found.name, found.rules(**overrides)


def _seed(text: str | None) -> int | str:
    if text is None:
        return secrets.randbelow(1_000_000)
    text = text.strip()
    return int(text) if text.isdigit() else text


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
    console.print(Text(f"game record saved to {path}"), soft_wrap=True)
    return True


def _cmd_play(args: argparse.Namespace, name: str, rules: Rules, seed: int | str) -> int:
    console = _console(sys.stdout)
    save: Path | None = args.save
    if save is not None and not save.parent.is_dir():
        return _fail(f"--save: no such directory: {save.parent}")
    if save is not None and save.is_dir():
        return _fail(f"--save: {save} is a directory; give a file name")
    kinds: tuple[str, ...] = args.bots or (default_bot(),)
    ascii = not _can_encode(console, "♣♦♥♠←→◀·")
    session = PlaySession(rules, seed, name, ascii=ascii, bots=kinds)
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
    bots: Sequence[str] = ("random",),
) -> SimulationStats:
    """Play ``games`` games with a computer player on every seat (random ones by default).

    Game ``i`` is dealt with the seed ``f"{seed}:{i}"`` and seat ``p``'s bot is seeded with
    ``f"{seed}:{i}:{p}"``, so the figures depend only on the rules, ``games``, ``seed`` and the
    bots (a search bot under a time limit excepted).

    Args:
        rules: the rules of every game.
        games: how many games to play.
        seed: the run's seed.
        on_game: called after each game (for a progress bar).
        bots: the kinds of bot (:func:`bot_kinds`) for seats 0, 1, ... in order, repeated as
            needed.
    """
    stats = SimulationStats(players=rules.players)
    kinds = seat_bots(bots, range(rules.players))
    start = time.perf_counter()
    for i in range(games):
        state = new_game(rules, seed=f"{seed}:{i}")
        players = [make_bot(kinds[p], f"{seed}:{i}:{p}") for p in range(rules.players)]
        count = 0
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, _bot_move(players[actor], state, actor))
            count += 1
        stats.add(state, count)
        if on_game is not None:
            on_game()
    stats.seconds = time.perf_counter() - start
    return stats


def _losing_runs(results: Sequence[Result], seat: int) -> list[int]:
    """The lengths of ``seat``'s losing streaks in a match: maximal runs of games he lost."""
    runs: list[int] = []
    run = 0
    for result in results:
        if seat in result.losers:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return runs


@dataclass
class MatchStats:
    """The figures of a batch of matches (R11), scored with :mod:`durak.match`.

    Attributes:
        players: seats per game.
        match_games: games per match.
        matches: matches played.
        lost: per seat, games lost (among the losers, R11.3).
        durak: per seat, games in which he was the durak.
        draws: games drawn (R7.3).
        no_durak: games with losers but no single durak (``first_out``, teams).
        longest: per seat, his longest losing streak in any match (:func:`~durak.match.streaks`).
        doppeldurak: per seat, losing streaks of exactly two games (*Doppeldurak*,
            :func:`~durak.match.streak_name`); a streak counts once, by its full length.
        dauerdurak: per seat, losing streaks of three games or more (*Dauerdurak*).
        vodka: per seat, shots owed under the seed's vodka scoring (:func:`~durak.match.vodka`),
            summed over the matches.
        vodka_first_out: the same under the variant :func:`~durak.match.vodka_first_out`.
        teams: the teams of the rules, or ``None``.
        team_lost: per team, games the team lost (:func:`~durak.match.team_losses`); empty
            without teams.
        actions: actions applied in all games.
        seconds: time taken.
    """

    players: int
    match_games: int
    matches: int = 0
    lost: list[int] = field(default_factory=list)
    durak: list[int] = field(default_factory=list)
    draws: int = 0
    no_durak: int = 0
    longest: list[int] = field(default_factory=list)
    doppeldurak: list[int] = field(default_factory=list)
    dauerdurak: list[int] = field(default_factory=list)
    vodka: list[int] = field(default_factory=list)
    vodka_first_out: list[int] = field(default_factory=list)
    teams: tuple[tuple[int, ...], ...] | None = None
    team_lost: list[int] = field(default_factory=list)
    actions: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for name in (
            "lost",
            "durak",
            "longest",
            "doppeldurak",
            "dauerdurak",
            "vodka",
            "vodka_first_out",
        ):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)
        if self.teams is not None and not self.team_lost:
            self.team_lost = [0] * len(self.teams)

    @property
    def games(self) -> int:
        """Games played."""
        return self.matches * self.match_games

    def add(self, results: Sequence[Result], actions: int) -> None:
        """Count one finished match: its games' results in order, and the actions played."""
        self.matches += 1
        self.actions += actions
        for result in results:
            if result.durak is not None:
                self.durak[result.durak] += 1
            elif result.draw:
                self.draws += 1
            else:
                self.no_durak += 1
        lost, runs = losses(results), streaks(results)
        shots, first_out = vodka(results), vodka_first_out(results)
        for seat in range(self.players):
            self.lost[seat] += lost.get(seat, 0)
            self.longest[seat] = max(self.longest[seat], runs[seat].longest if runs else 0)
            self.vodka[seat] += shots.get(seat, 0)
            self.vodka_first_out[seat] += first_out.get(seat, 0)
            for run in _losing_runs(results, seat):
                name = streak_name(run)
                if name == "Doppeldurak":
                    self.doppeldurak[seat] += 1
                elif name == "Dauerdurak":
                    self.dauerdurak[seat] += 1
        if self.teams is not None:
            for team, count in team_losses(results, self.teams).items():
                self.team_lost[team] += count

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values (``seconds`` and ``games_per_second`` are the only
        ones that depend on the machine)."""
        data: dict[str, Any] = {
            "players": self.players,
            "matches": self.matches,
            "match_games": self.match_games,
            "games": self.games,
            "lost": list(self.lost),
            "durak": list(self.durak),
            "draws": self.draws,
            "no_durak": self.no_durak,
            "longest_streak": list(self.longest),
            "doppeldurak": list(self.doppeldurak),
            "dauerdurak": list(self.dauerdurak),
            "vodka": list(self.vodka),
            "vodka_first_out": list(self.vodka_first_out),
        }
        if self.teams is not None:
            data["teams"] = [list(team) for team in self.teams]
            data["team_lost"] = list(self.team_lost)
        data["mean_actions"] = round(self.actions / self.games, 4) if self.games else 0.0
        data["seconds"] = round(self.seconds, 4)
        data["games_per_second"] = round(self.games_per_second, 1)
        return data


def simulate_matches(
    rules: Rules,
    matches: int,
    match_games: int,
    seed: int | str,
    on_match: Callable[[], None] | None = None,
    bots: Sequence[str] = ("random",),
) -> MatchStats:
    """Play ``matches`` matches of ``match_games`` games each (:func:`durak.match.play_match`:
    the durak deals the next game and R11.2 picks its leader), a computer player on every seat,
    and score them (R11.3).

    Match ``j`` has the seed ``f"{seed}:{j}"`` (its game ``i`` is dealt with
    ``f"{seed}:{j}:{i}"``) and seat ``p``'s bot is seeded with ``f"{seed}:{j}:bot:{p}"``.

    Args:
        rules: the rules of every game.
        matches: how many matches to play.
        match_games: games per match.
        seed: the run's seed.
        on_match: called after each match (for a progress bar).
        bots: the kinds of bot for seats 0, 1, ... in order, repeated as needed.
    """
    stats = MatchStats(players=rules.players, match_games=match_games, teams=rules.teams)
    kinds = seat_bots(bots, range(rules.players))
    start = time.perf_counter()
    for j in range(matches):
        counter = [0]
        seats = [
            _MatchSeat(make_bot(kinds[p], f"{seed}:{j}:bot:{p}"), counter)
            for p in range(rules.players)
        ]
        match = play_match(rules, seats, games=match_games, seed=f"{seed}:{j}")
        stats.add(match.results, counter[0])
        if on_match is not None:
            on_match()
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


def _match_table(stats: MatchStats, preset: str, seed: int | str) -> Group:
    data = stats.to_dict()
    title = Text(
        f"{preset}: {stats.players} players, {stats.matches} matches of {stats.match_games} "
        f"games ({stats.games} games), seed {seed}",
        style="bold",
    )
    table = Table(box=box.SIMPLE_HEAD, collapse_padding=True, show_edge=False)
    table.add_column("seat", no_wrap=True)
    for column in ("lost", "durak", "longest", "Doppeldurak", "Dauerdurak", "vodka"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("vodka 1st out", justify="right", no_wrap=True)
    for seat in range(stats.players):
        table.add_row(
            f"p{seat}",
            str(stats.lost[seat]),
            str(stats.durak[seat]),
            str(stats.longest[seat]),
            str(stats.doppeldurak[seat]),
            str(stats.dauerdurak[seat]),
            str(stats.vodka[seat]),
            str(stats.vodka_first_out[seat]),
        )
    parts: list[RenderableType] = [title, table, Text("")]
    if stats.teams is not None:
        teams = Table(box=box.SIMPLE_HEAD, show_edge=False)
        teams.add_column("team")
        teams.add_column("seats")
        teams.add_column("lost", justify="right")
        for t, team in enumerate(stats.teams):
            seats = ", ".join(f"p{s}" for s in team)
            teams.add_row(f"team {t + 1}", seats, str(stats.team_lost[t]))
        parts.extend((teams, Text("")))
    summary = Table.grid(padding=(0, 2))
    summary.add_column()
    summary.add_column(justify="right")
    summary.add_row("draws", str(stats.draws))
    if stats.no_durak:
        summary.add_row("games without a durak", str(stats.no_durak))
    summary.add_row("mean actions per game", f"{data['mean_actions']:.2f}")
    summary.add_row("games per second", f"{stats.games_per_second:.0f}")
    parts.append(summary)
    parts.append(
        Text(
            "lost: games lost; longest: longest losing streak in a match; Doppeldurak: "
            "streaks of 2 losses, Dauerdurak: of 3 or more; vodka: shots owed, the durak "
            "drinking his streak; vodka 1st out: the first player out drinking one (R11.3)",
            style="dim",
        )
    )
    return Group(*parts)


def _tournament_dict(result: TournamentResult) -> dict[str, Any]:
    """A tournament's figures as JSON values: per entry its games, durak count, decided games,
    draws, durak rate and its 95% confidence interval."""
    return {
        "games": result.games,
        "draws": result.draws,
        "entries": [
            {
                "bot": stats.name,
                "games": stats.games,
                "durak": stats.durak,
                "decided": stats.decided,
                "durak_rate": stats.durak_rate,
                "durak_interval": list(stats.durak_interval),
            }
            for stats in result.stats
        ],
    }


def _cmd_simulate(args: argparse.Namespace, name: str, rules: Rules, seed: int | str) -> int:
    out = _console(sys.stdout)
    err = _console(sys.stderr, stderr=True)
    kinds: tuple[str, ...] = args.bots or ("random",)
    matches = args.games // args.match if args.match else 0
    if args.match and not matches:
        return _fail(f"--games {args.games} is less than one match of {args.match} games")
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=args.quiet or args.json or not err.is_terminal,
        transient=True,
    )
    seats = seat_bots(kinds, range(rules.players))
    data: dict[str, Any] = {"preset": name, "seed": seed, "bots": list(seats.values())}
    renderable: RenderableType
    with progress:
        if not args.match and (len(set(seats.values())) > 1 or args.jobs > 1):
            task = progress.add_task("games", total=args.games)
            result = run_tournament(
                rules,
                list(seats.values()),
                args.games,
                seed,
                jobs=args.jobs,
                progress=lambda done, _total: progress.update(task, completed=done),
            )
            data.update(_tournament_dict(result))
            renderable = (  # a plain table: too wide for rich to wrap usefully
                f"{name}: tournament of {result.games} seat-rotated games, seed {seed}\n"
                f"{result.table()}\ndraws: {result.draws}"
            )
        elif args.match:
            task = progress.add_task("matches", total=matches)
            match_stats = simulate_matches(
                rules, matches, args.match, seed, lambda: progress.advance(task), kinds
            )
            data.update(match_stats.to_dict())
            renderable = _match_table(match_stats, name, seed)
        else:
            task = progress.add_task("games", total=args.games)
            stats = simulate(rules, args.games, seed, lambda: progress.advance(task), kinds)
            data.update(stats.to_dict())
            renderable = _stats_table(stats, name, seed)
    if args.json:
        print(json.dumps(data), file=sys.stdout)
    elif isinstance(renderable, str):
        print(renderable, file=sys.stdout)
    else:
        out.print(renderable)
    return 0


# --------------------------------------------------------------------------------------------
# durak rules
# --------------------------------------------------------------------------------------------


def _setting_text(value: Any) -> str:
    """A setting's plain value (:meth:`Rules.to_dict`) as the settings table writes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def _presets_table() -> Table:
    """Every preset: its name, then its description with its aliases and source below."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for preset in PRESETS.values():
        name = preset.name + (" (default)" if preset.name == DEFAULT_PRESET else "")
        about = Text(preset.description + "\n")
        aliases = ", ".join(preset.aliases) or "-"
        about.append(f"aliases: {aliases}   source: {preset.source}", style="dim")
        table.add_row(name, about)
    return table


def _preset_details(preset: Preset) -> Group:
    """A preset's header and every setting of its rules, the ones that differ from the
    defaults of :class:`~durak.rules.Rules` marked ``*`` with the default beside them."""
    rules = preset.rules().to_dict()
    defaults = Rules().to_dict()
    head = Text.assemble((preset.name, "bold"), f": {preset.description}")
    about = Table.grid(padding=(0, 2))
    about.add_column(style="dim")
    about.add_column()
    about.add_row("aliases", ", ".join(preset.aliases) or "-")
    about.add_row("source", preset.source)
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("setting", no_wrap=True)
    table.add_column("value")
    table.add_column("default", style="dim")
    changed = 0
    for name in SETTINGS:
        value, default = rules[name], defaults[name]
        if value != default:
            changed += 1
            table.add_row(
                Text(f"* {name}", style="bold"),
                Text(_setting_text(value), style="bold"),
                _setting_text(default),
            )
        else:
            table.add_row(f"  {name}", _setting_text(value), "")
    note = Text(
        f"* differs from the default ({_plural(changed, 'setting')}); "
        f"'durak rules {preset.name} --toml' prints it as a rules file for --rules",
        style="dim",
    )
    return Group(head, about, table, note)


def _cmd_rules(args: argparse.Namespace) -> int:
    """``durak rules [NAME] [--toml | --json]``."""
    out = _console(sys.stdout)
    if args.name is None:
        if args.toml:
            return _fail("--toml prints one preset's rules: name it, e.g. durak rules podkidnoy")
        if args.json:
            listing = [
                {
                    "name": p.name,
                    "aliases": list(p.aliases),
                    "description": p.description,
                    "source": p.source,
                    "settings": dict(p.settings),
                }
                for p in PRESETS.values()
            ]
            print(json.dumps(listing, ensure_ascii=False, indent=2))
            return 0
        out.print(_presets_table())
        out.print(Text("'durak rules NAME' shows every setting of a preset.", style="dim"))
        return 0
    try:
        preset = get_preset(args.name)
    except RulesError as exc:
        return _fail(str(exc))
    if args.toml:
        text = f"# durak rules file: preset {preset.name}: {preset.description}\n"
        sys.stdout.write(text + dumps_rules(preset.rules(), "toml"))
    elif args.json:
        sys.stdout.write(dumps_rules(preset.rules(), "json"))
    else:
        out.print(_preset_details(preset))
    return 0


# --------------------------------------------------------------------------------------------
# durak replay
# --------------------------------------------------------------------------------------------

_REPLAY_HELP = "→ or Enter next · ← back · Home/End first/last · Q quit"


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

    def __init__(self, record: Record, seat: int | None = None, ascii: bool = False) -> None:
        players = record.rules.players
        if seat is not None and not 0 <= seat < players:
            raise IndexError(f"--player: no seat {seat} in a {players}-player game")
        replay(record)  # every action checked first: the error names the first illegal one
        self.record = record
        self.seat = seat
        self.look = _Look(ascii)
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
        """``"you"`` for the seat whose view is followed, ``"p0"``, ``"p1"`` ... for the
        others."""
        return "you" if seat == self.seat else f"p{seat}"

    def title(self) -> str:
        """The screen's title."""
        deal = f"seed {self.record.seed}" if self.record.seed is not None else "a given deck"
        who = "as an onlooker" if self.seat is None else f"as p{self.seat}"
        sep = " - " if self.look.ascii else " · "
        parts = ("Durak replay", self.preset, f"{self.record.rules.players} players", deal, who)
        return sep.join(parts)

    def status(self, step: int) -> str:
        """The status line of ``step``."""
        text = f"Step {step} of {self.steps}"
        if step == 0:
            text += ": the deal"
        if step == self.steps and self.states[step].result is None:
            text += " - the record ends here, before the game is over"
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


def _ansi(renderable: RenderableType, width: int) -> str:
    """``renderable`` as text with ANSI styles, ``width`` columns wide (for prompt_toolkit)."""
    buffer = StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        width=max(40, width),
        color_system="standard",
        highlight=False,
        emoji=False,
    )
    console.print(renderable)
    return buffer.getvalue()


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
        session = ReplaySession(record, args.player, ascii=not _can_encode(console, "♣♦♥♠←→◀·"))
    except DurakError as exc:  # RecordError, ReplayError: naming where and why
        return _fail(f"{args.file}: {exc}")
    except IndexError as exc:
        return _fail(str(exc))
    stdin = sys.stdin
    tty = bool(getattr(stdin, "isatty", lambda: False)()) and console.is_terminal
    if tty and not args.line:
        return _replay_keys(session)
    return _replay_lines(session, console)


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


def _bot_list(text: str) -> tuple[str, ...]:
    """``--bots``: kinds of computer player separated by commas."""
    kinds = tuple(k.strip().lower() for k in text.split(",") if k.strip())
    known = bot_kinds()
    if not kinds:
        raise argparse.ArgumentTypeError(f"name a kind of bot ({', '.join(known)})")
    for kind in kinds:
        if kind not in known:
            raise argparse.ArgumentTypeError(f"unknown bot {kind!r} (known: {', '.join(known)})")
    return kinds


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``durak`` command, with the ``play``, ``simulate``,
    ``rules`` and ``replay`` subcommands."""
    parser = argparse.ArgumentParser(
        prog="durak",
        description="The card game Durak: play it in the terminal, simulate it, list its "
        "house rules, replay recorded games.",
    )
    parser.add_argument("--version", action="version", version=f"durak {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    kinds = "|".join(bot_kinds())

    def common(sub: argparse.ArgumentParser, bots_default: str) -> None:
        which = sub.add_mutually_exclusive_group()
        which.add_argument(
            "--preset",
            default=DEFAULT_PRESET,
            metavar="NAME",
            help=f"house rules by name or alias (default {DEFAULT_PRESET}; 'durak rules' "
            "lists them)",
        )
        which.add_argument(
            "--rules",
            dest="rules_file",
            metavar="FILE",
            help="house rules from a TOML or JSON rules file (its optional 'preset' key names "
            "the preset it starts from); not with --preset",
        )
        sub.add_argument(
            "--players", type=_number, metavar="N", help="number of players (overrides the rules)"
        )
        sub.add_argument(
            "--seed", metavar="S", help="seed of the deal(s): the same seed, the same game"
        )
        sub.add_argument(
            "--bots",
            type=_bot_list,
            metavar="KIND[,KIND...]",
            help=f"the computer players, {kinds}: one kind for all, or one per seat in "
            f"seat order, repeated as needed (default {bots_default})",
        )

    play = commands.add_parser(
        "play",
        help="play a game against computer players",
        description="Play a game at seat 0 against computer players (by default the "
        "rule-of-thumb player where there is one). Keys: Left/Right choose a card, Enter "
        "plays it, T take, D done (pass), Q quit. " + LINE_HELP,
    )
    common(play, default_bot())
    play.add_argument(
        "--line", action="store_true", help="type commands line by line instead of using keys"
    )
    play.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record (JSON) to FILE when the game ends or is abandoned; "
        "'durak replay FILE' shows it again",
    )
    play.set_defaults(func=_with_rules(_cmd_play))

    sim = commands.add_parser(
        "simulate",
        help="play many computer games and print statistics",
        description="Play games with a computer player on every seat (random ones by default) "
        "and print how often each seat was the durak, the draws, and the mean bouts and "
        "actions per game. With --match K the games are played as matches of K games (the "
        "durak deals the next game, R11) and scored: losses, longest losing streaks, "
        "Doppeldurak and Dauerdurak streaks, vodka shots, team losses. With several kinds "
        "of bot (--bots search,rule,random,random) the games are a tournament: the bots "
        "change seats from game to game, and each bot's durak rate is reported with a 95%% "
        "confidence interval; --jobs N plays it in N processes.",
    )
    common(sim, "random")
    sim.add_argument(
        "--games",
        type=_positive,
        default=1000,
        metavar="G",
        help="games in all (1000); with --match K, G // K matches are played",
    )
    sim.add_argument(
        "--match",
        type=_positive,
        metavar="K",
        help="play matches of K games each and report the match scores",
    )
    sim.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        metavar="N",
        help="processes for a tournament (1); the figures do not depend on it",
    )
    sim.add_argument("--json", action="store_true", help="print the figures as JSON")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_with_rules(_cmd_simulate))

    rules = commands.add_parser(
        "rules",
        help="list the presets, or show one preset's settings",
        description="Without NAME: list every preset (name, aliases, description, source). "
        "With NAME: every setting of that preset, marking those that differ from the "
        "defaults; --toml or --json print it as a rules file for --rules.",
    )
    rules.add_argument("name", nargs="?", metavar="NAME", help="a preset name or alias")
    form = rules.add_mutually_exclusive_group()
    form.add_argument("--toml", action="store_true", help="print NAME as a TOML rules file")
    form.add_argument(
        "--json", action="store_true", help="print NAME as a JSON rules file (or the list)"
    )
    rules.set_defaults(func=_cmd_rules)

    rep = commands.add_parser(
        "replay",
        help="step through a recorded game",
        description="Show a game record (from 'durak play --save') step by step: Right or "
        "Enter the next action, Left the previous one, Home/End the first/last, Q quit. "
        "By default an onlooker's view with every hand face up; --player N follows seat "
        "N's view (his hand, the others' card counts and known cards). In line mode, or "
        "when the input is not a terminal, every step and the result are printed.",
    )
    rep.add_argument("file", metavar="FILE", help="a game record (JSON)")
    rep.add_argument("--line", action="store_true", help="print every step instead of keys")
    rep.add_argument("--player", type=_number, metavar="N", help="follow seat N's view")
    rep.set_defaults(func=_cmd_replay)

    web = commands.add_parser(
        "serve",
        help="play in the browser: the web front-end (needs the 'web' extra)",
        description="Serve the web front-end: start a table with people and bots, share its "
        "link, play in the browser. Needs the 'web' extra: pip install 'durak[web]'.",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    web.add_argument("--port", type=_positive, default=8000, help="port to listen on (8000)")
    web.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS", help="bots' pause (0.6)"
    )

    def serve(args: argparse.Namespace) -> int:
        try:
            from durak.web import serve as run_server
        except ImportError as exc:
            return _fail(f"durak serve needs the 'web' extra: pip install 'durak[web]' ({exc})")
        run_server(args.host, args.port, bot_delay=max(0.0, args.bot_delay))
        return 0

    web.set_defaults(func=serve)
    return parser


def _with_rules(
    command: Callable[[argparse.Namespace, str, Rules, int | str], int],
) -> Callable[[argparse.Namespace], int]:
    """``command`` run with the rules of ``--preset``/``--rules``/``--players`` and the seed;
    bad rules exit with status 2 and the error in one line."""

    def run(args: argparse.Namespace) -> int:
        try:
            name, rules = _resolve_rules(args.preset, args.players, args.rules_file)
        except DurakError as exc:
            return _fail(str(exc))
        return command(args, name, rules, _seed(args.seed))

    return run


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``durak`` command with ``argv`` (default: the process's arguments).

    Returns:
        The exit status: 0 on success (a finished or abandoned game), 2 for bad arguments,
        rules, rules files or records (the error is printed to stderr in one line), 130 when
        interrupted.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
