"""The words of the ``durak`` command, shared by its screens: how cards are written, the text of
actions (:func:`action_text`, the one place that names them) and of events
(:func:`describe_events`), the order in which a player's actions are listed, and a result in
words.

Nothing here draws a screen (:mod:`durak.cli.screen` does) or reads input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from durak.actions import Action, Beat, Lead, Pass, ShowTrump, Take, ThrowIn, Transfer
from durak.cards import Card, Suit
from durak.cards import hand_order as _hand_order
from durak.engine import legal_actions
from durak.events import (
    Drew,
    Event,
    describe_event,
)
from durak.i18n import Language, language
from durak.messages import Message
from durak.rules.extensions import is_joker
from durak.state import GameState, Result
from durak.views import PlayerView


@dataclass(frozen=True)
class _Look:
    """How the screens speak: the language (:class:`~durak.i18n.Language`), the seat they
    address as "you" (``None``: an onlooker), and cards with suit symbols or in plain ASCII
    when the output's encoding has no ``♥``."""

    ascii: bool = False
    lang: Language = field(default_factory=language)
    you: int | None = None

    def card(self, card: Card) -> str:
        if not self.ascii and is_joker(card):  # R15.1: the joker, its copy as R1.3 writes it
            return "🃏" + str(card)[2:]
        return self.lang.card(card, self.ascii)

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def suit(self, suit: Suit) -> str:
        return self.lang.suit_name(suit) if self.ascii else suit.symbol

    def _(self, text: str) -> str:
        """``text`` translated (:meth:`~durak.i18n.Language.gettext`)."""
        return self.lang.gettext(text)

    def n_(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for ``n``, translated, with ``{n}`` filled in."""
        return self.lang.ngettext(singular, plural, n).format(n=n)

    def say(self, msg: str, name: Callable[[int], str] | None = None) -> str:
        """A library message (:mod:`durak.messages`) in this language, to :attr:`you`."""
        return self.lang.say(msg, you=self.you, name=name, ascii=self.ascii)


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
    """``cards`` in display order: by suit with the trump suit last, then by rank
    (:func:`durak.cards.hand_order`)."""
    return list(_hand_order(cards, trump))


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


def action_text(action: Action, look: _Look | None = None, typed: bool = False) -> str:
    """``action`` in words: the one source of the command line's text for actions.

    By default the label the screen lists (and numbers) it by, in the imperative: ``beat 7♥
    with 9♥``, ``done (pass)``. With ``typed``, the command a line-mode player types for it
    (``7h 9h``, ``done``), which :func:`~durak.cli.commands.parse_command` reads back; it is
    always in ASCII. The lead, throw-in, beat, take, pass, transfer and shown trump have words
    of their own; every other registered kind (the trump exchange, the redeal, a rule module's
    kind such as a house rule's ``Concede``) is labelled by its own ``describe()`` and typed as
    its notation without the seat (``concede`` for ``p0 concede``, :mod:`durak.notation`).

    >>> from durak.actions import Beat, Redeal
    >>> action_text(Beat(1, "7h", "9h")), action_text(Beat(1, "7h", "9h"), typed=True)
    ('beat 7h with 9h', '7h 9h')
    >>> action_text(Redeal(0)), action_text(Redeal(0), typed=True)
    ('demand a redeal', 'redeal')
    """
    look = _Look(ascii=True) if typed or look is None else look
    if typed:
        match action:
            case Lead(cards=cards):
                return f"lead {look.cards(cards)}"
            case ThrowIn(card=card):
                return f"throw {card}"
            case Beat(attack=attack, card=card):
                return f"{attack} {card}"
            case Take():
                return "take"
            case Pass():
                return "done"
            case Transfer(cards=cards):
                return f"transfer {look.cards(cards)}"
            case ShowTrump(card=card):
                return f"show {card}"
        return str(action).partition(" ")[2]
    match action:
        case Pass():
            return look._("done (pass)")
        case ShowTrump(card=card):
            return look._("show the trump {card} to transfer").format(card=look.card(card))
    describe = getattr(action, "describe", None)
    text = describe() if callable(describe) else str(action).partition(" ")[2]
    return look.say(text) if isinstance(text, Message) else str(text)


def _result_lines(
    result: Result, name: Callable[[int], str], look: _Look | None = None
) -> list[str]:
    """The result in words: who is the durak (or the draw), then the places."""
    look = look or _Look()
    if result.draw:
        head = look._("Draw: the last players went out together, there is no durak.")
    elif result.durak is not None:
        if result.durak == look.you:
            head = look._("You are the durak!")
        else:
            head = look._("{player} is the durak.").format(player=name(result.durak))
    else:
        losers = ", ".join(name(p) for p in result.losers)
        winners = ", ".join(name(p) for p in result.winners)
        head = look._("Winners: {winners}. Lost: {losers}.").format(winners=winners, losers=losers)
    by_place: dict[int, list[str]] = {}
    for seat, place in enumerate(result.places):
        by_place.setdefault(place, []).append(name(seat))
    places = look._("Places: {places}").format(
        places=", ".join(
            f"{look.lang.ordinal(place)} {look.lang.join(names)}"
            for place, names in sorted(by_place.items())
        )
    )
    return [head, places]


def _deal_line(v: PlayerView, name: Callable[[int], str], look: _Look) -> str:
    """The first log line: the trump and who leads against whom."""
    if v.attacker == look.you:
        text = look._("new game: trump {trump}, you lead against {defender}")
    else:
        text = look._("new game: trump {trump}, {attacker} leads against {defender}")
    return text.format(
        trump=look.suit(v.trump), attacker=name(v.attacker), defender=name(v.defender)
    )


def describe_events(
    events: Iterable[Event], name: Callable[[int], str], look: _Look | None = None
) -> list[str]:
    """The log lines telling ``events`` (from :func:`~durak.engine.apply_with_events`, filtered
    for the reader by :func:`~durak.events.events_for`), one line per event
    (:func:`~durak.events.describe_event` in the look's language, to its "you"); the draws
    after a bout share one line. ``name`` names a seat.

    >>> from durak.events import BoutEnded, Drew
    >>> describe_events([BoutEnded(1, True, ()), Drew(0, 1, None), Drew(1, 2, None)], str)
    ['1 picked up 0 cards', '0 drew 1 card, 1 drew 2 cards']
    """
    look = look or _Look(ascii=True)
    lines: list[str] = []
    draws: list[str] = []
    for event in events:
        text = look.say(describe_event(event), name)
        if isinstance(event, Drew):
            draws.append(text)
            continue
        if draws:
            lines.append(", ".join(draws))
            draws = []
        lines.append(text)
    if draws:
        lines.append(", ".join(draws))
    return lines
