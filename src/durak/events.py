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

from durak.cards import Card
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
