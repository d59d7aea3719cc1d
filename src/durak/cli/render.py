"""The words of the ``durak`` command, shared by its screens: how cards are written, the text of
actions (:func:`action_text`, the one place that names them) and of events
(:func:`describe_events`), the order in which a player's actions are listed, and a result in
words.

Nothing here draws a screen (:mod:`durak.cli.screen` does) or reads input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from durak.actions import Action, Beat, Lead, Pass, ShowTrump, Take, ThrowIn, Transfer
from durak.cards import Card, Suit
from durak.engine import legal_actions
from durak.errors import InvalidError
from durak.events import (
    Acted,
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
)
from durak.notation import parse_action
from durak.rules.extensions import is_joker
from durak.state import GameState, Result
from durak.views import PlayerView


@dataclass(frozen=True)
class _Look:
    """How cards are written: with suit symbols, or in plain ASCII when the output's encoding
    has no ``♥``."""

    ascii: bool = False

    def card(self, card: Card) -> str:
        if self.ascii:
            return str(card)
        if is_joker(card):  # R15.1: the joker's picture, its copy as R1.3 writes it
            return "🃏" + str(card)[2:]
        return card.pretty

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def suit(self, suit: Suit) -> str:
        return suit.name.lower() if self.ascii else suit.symbol


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
    return sorted(
        cards,
        key=lambda c: (2, 0, 0, c.copy, int(c))
        if c.special
        else (int(c.suit == trump), int(c.suit), int(c.rank), c.copy, int(c)),
    )


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
    match action:
        case Lead(cards=cards):
            return f"lead {look.cards(cards)}"
        case ThrowIn(card=card):
            return f"throw {card}" if typed else f"throw in {look.card(card)}"
        case Beat(attack=attack, card=card):
            if typed:
                return f"{attack} {card}"
            return f"beat {look.card(attack)} with {look.card(card)}"
        case Take():
            return "take"
        case Pass():
            return "done" if typed else "done (pass)"
        case Transfer(cards=cards):
            return (
                f"transfer {look.cards(cards)}" if typed else f"transfer with {look.cards(cards)}"
            )
        case ShowTrump(card=card):
            return f"show {card}" if typed else f"show the trump {look.card(card)} to transfer"
    notation = str(action).partition(" ")[2]
    if typed:
        return notation
    describe = getattr(action, "describe", None)
    return str(describe()) if callable(describe) else notation


def _acted_phrase(text: str, look: _Look) -> str:
    """The action an :class:`~durak.events.Acted` event reports (its notation, ``p1
    concede``) in words: its :func:`action_text` where its kind is registered, else its
    notation without the seat."""
    try:
        action = parse_action(text)
    except InvalidError:
        return text.partition(" ")[2] or text
    return action_text(action, look)


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
        case Acted(player=p, action=text):
            return f"{name(p)} chose to {_acted_phrase(text, look)}"
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
