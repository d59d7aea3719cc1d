"""What happened: the events :func:`durak.apply_with_events` reports, so that a front-end can
animate a move without comparing two states.

Every event is a frozen value. Most are public; :class:`Drew` names the cards only for the
player who drew them: :func:`events_for` gives the events one player may see (R13, views).

>>> from durak import Rules, new_game, next_actor, legal_actions, apply_with_events
>>> state = new_game(Rules(), seed=3)
>>> state, events = apply_with_events(state, legal_actions(state, next_actor(state))[0])
>>> type(events[0]).__name__
'Led'
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from durak._input import brief
from durak.actions import build_action
from durak.cards import Card, parse_cards
from durak.errors import InvalidError
from durak.messages import Message, message
from durak.state import Result

__all__ = [
    "Acted",
    "Beaten",
    "BoutEnded",
    "Drew",
    "Event",
    "GameOver",
    "Led",
    "NewBout",
    "Passed",
    "PlayerLeft",
    "PlayerOut",
    "Redealt",
    "TakeDeclared",
    "ThrownIn",
    "Transferred",
    "TrumpExchanged",
    "describe_event",
    "events_for",
]


@attrs.frozen
class Led:
    """``player`` led the bout with ``cards`` against ``defender`` (R4.2)."""

    player: int
    cards: tuple[Card, ...]
    defender: int


@attrs.frozen
class ThrownIn:
    """``player`` threw in ``card`` (R4.3)."""

    player: int
    card: Card


@attrs.frozen
class Beaten:
    """``player`` beat ``attack`` with ``card`` (R4.7)."""

    player: int
    attack: Card
    card: Card


@attrs.frozen
class Transferred:
    """``player`` passed the attack to ``to`` (R9): by adding ``cards``, or by showing the trump
    ``shown`` (the card stays in his hand, R9.5)."""

    player: int
    to: int
    cards: tuple[Card, ...] = ()
    shown: Card | None = None


@attrs.frozen
class TakeDeclared:
    """The defender ``player`` declared that he takes (R4.8)."""

    player: int


@attrs.frozen
class Passed:
    """``player`` passed (R4.9)."""

    player: int


@attrs.frozen
class TrumpExchanged:
    """``player`` swapped ``card`` (the lowest trump) for the face-up ``face_up`` (R12.1)."""

    player: int
    card: Card
    face_up: Card


@attrs.frozen
class Redealt:
    """``player`` demanded a redeal for a misdeal; the cards were dealt again (R12.2)."""

    player: int


@attrs.frozen
class Acted:
    """``player`` played ``action`` (its text form), an action of a kind a rule module adds
    without an event of its own."""

    player: int
    action: str


@attrs.frozen
class BoutEnded:
    """The bout ended (R4.10): the defender beat everything (``taken`` false: ``cards`` went to
    the discard pile) or picked up ``cards``."""

    defender: int
    taken: bool
    cards: tuple[Card, ...]


@attrs.frozen
class Drew:
    """``player`` drew ``count`` cards from the stock (R5). ``cards`` names them for the drawer
    only (``None`` in other players' events); ``face_up`` is the face-up trump card if he drew
    it, which everyone sees (R5.2)."""

    player: int
    count: int
    cards: tuple[Card, ...] | None
    face_up: Card | None = None


@attrs.frozen
class PlayerOut:
    """``player`` went out (his hand empty with the stock empty, R7.1) with finishing place
    ``place`` (R7.2). Reported at the bout end that records it; a durak named by
    ``on_last_cleared = defender_loses`` is not out (R7.3), and neither is a player who leaves
    with a partner (:class:`PlayerLeft`)."""

    player: int
    place: int


@attrs.frozen
class PlayerLeft:
    """``player`` left the game holding cards because his partner ``partner`` went out under
    ``team_win = first_out`` (R10.3); he shares the partner's ``place`` (R7.2) but is not out."""

    player: int
    place: int
    partner: int


@attrs.frozen
class NewBout:
    """The next bout: ``attacker`` leads against ``defender`` (R6)."""

    attacker: int
    defender: int


@attrs.frozen
class GameOver:
    """The game ended with ``result`` (R7.3, R7.4)."""

    result: Result


#: Any event.
Event = (
    Led
    | ThrownIn
    | Beaten
    | Transferred
    | TakeDeclared
    | Passed
    | TrumpExchanged
    | Redealt
    | Acted
    | BoutEnded
    | Drew
    | PlayerOut
    | PlayerLeft
    | NewBout
    | GameOver
)


def events_for(events: Iterable[Event], player: int | None) -> tuple[Event, ...]:
    """The events as ``player`` sees them: the cards another player drew are hidden (only the
    count and a drawn face-up trump card stay). ``None`` is an onlooker who sees no hand."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, Drew) and event.player != player and event.cards is not None:
            event = attrs.evolve(event, cards=None)
        out.append(event)
    return tuple(out)


def _acted_action(text: str) -> Message:
    """The action an :class:`Acted` event reports (its notation, ``p1 concede``) as a phrase:
    the action's own ``describe()`` where its kind is registered, else its notation without
    the seat."""
    if not isinstance(text, str):
        raise TypeError(f"an Acted event's action is its notation, not {brief(text)}")
    phrase: str
    seat, _, rest = text.partition(" ")
    verb, *cards = rest.split()
    try:
        phrase = build_action(verb, int(seat[1:]), parse_cards(cards)).describe()
    except (InvalidError, ValueError):
        phrase = rest or text
    return phrase if isinstance(phrase, Message) else message("other", text=phrase)


def describe_event(event: Event) -> Message:
    """``event`` as a message (code ``event.led`` ..., listed in :mod:`durak.messages`): the
    English text a log shows, and the code and parameters to say it another way
    (:meth:`durak.i18n.Language.say`).

    A :class:`Drew` with its cards (the drawer's own event) gives ``event.drew-cards``; one
    without them ``event.drew``, or ``event.drew-face-up`` when the face-up trump card was
    among them (R5.2). A :class:`GameOver` gives ``event.durak``, ``event.draw`` or, with no
    single durak, ``event.losers``.

    >>> str(describe_event(BoutEnded(1, True, (Card.parse("7h"),))))
    'player 1 picked up 1 card'
    """
    match event:
        case Led(player=p, cards=cards, defender=d):
            return message("event.led", player=p, cards=cards, defender=d, n=len(cards))
        case ThrownIn(player=p, card=card):
            return message("event.thrown-in", player=p, card=card)
        case Beaten(player=p, attack=attack, card=card):
            return message("event.beaten", player=p, attack=attack, card=card)
        case Transferred(player=p, to=to, shown=Card() as shown):
            return message("event.shown", player=p, card=shown, to=to)
        case Transferred(player=p, to=to, cards=cards):
            return message("event.transferred", player=p, cards=cards, to=to, n=len(cards))
        case TakeDeclared(player=p):
            return message("event.take", player=p)
        case Passed(player=p):
            return message("event.passed", player=p)
        case TrumpExchanged(player=p, card=card, face_up=face_up):
            return message("event.exchanged", player=p, card=card, face_up=face_up)
        case Redealt(player=p):
            return message("event.redealt", player=p)
        case Acted(player=p, action=text):
            return message("event.acted", player=p, action=_acted_action(text))
        case BoutEnded(defender=d, taken=True, cards=cards):
            return message("event.picked-up", player=d, n=len(cards))
        case BoutEnded(cards=cards):
            return message("event.discarded", n=len(cards))
        case Drew(player=p, count=count, cards=tuple() as cards) if cards:
            return message("event.drew-cards", player=p, n=count, cards=cards)
        case Drew(player=p, count=count, face_up=Card() as face_up):
            return message("event.drew-face-up", player=p, n=count, face_up=face_up)
        case Drew(player=p, count=count):
            return message("event.drew", player=p, n=count)
        case PlayerOut(player=p, place=place):
            return message("event.out", player=p, place=place)
        case PlayerLeft(player=p, place=place, partner=q):
            return message("event.left", player=p, partner=q, place=place)
        case NewBout(attacker=a, defender=d):
            return message("event.new-bout", player=a, defender=d)
        case GameOver(result=result) if not isinstance(result, Result):
            raise TypeError(f"a GameOver event's result is a Result, not {brief(result)}")
        case GameOver(result=result) if result.draw:
            return message("event.draw")
        case GameOver(result=result) if result.durak is not None:
            return message("event.durak", player=result.durak)
        case GameOver(result=result):
            return message("event.losers", players=tuple(result.losers))
    raise TypeError(f"not an event: {brief(event)}")
