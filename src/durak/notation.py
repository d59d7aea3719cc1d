"""Text forms of actions and positions.

Actions (``str(action)`` writes them, :func:`parse_action` reads them back)::

    p0 lead 7h          p0 lead 7h 7d        p2 throw 9h         p1 beat 7h 9h
    p1 take             p0 pass              p1 transfer 7s      p1 show 7h
    p2 exchange 6h      p0 redeal

Seats count from 0 (R2.2). Cards use the text form of R1.3.

Positions between bouts (the inputs of :func:`durak.new_position`), one line of ``key: value``
fields separated by ``;``; hands are separated by ``/`` and ``-`` is an empty hand::

    hands: 6h 7h 8c / 9s Ts / -; stock: Kc Ac 9d; trump: d; attacker: 0; discard: Qc Jd

>>> parse_action("p1 beat 7h 9h")
Beat(player=1, attack=Card('7h'), card=Card('9h'))
>>> str(parse_action("P0 LEAD 10h"))
'p0 lead Th'
"""

from __future__ import annotations

import re

from durak.actions import (
    Action,
    Beat,
    ExchangeTrump,
    Lead,
    Pass,
    Redeal,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from durak.cards import Suit, format_cards, parse_cards
from durak.engine import new_position
from durak.errors import InvalidError, PositionError
from durak.rules.settings import Rules
from durak.state import GameState

__all__ = ["format_position", "parse_action", "parse_position"]

_ACTION = re.compile(r"^\s*p(\d+)\s+([a-z]+)((?:\s+\S+)*)\s*$", re.IGNORECASE)


def parse_action(text: str) -> Action:
    """Read an action's text form (see the module docs).

    Raises:
        InvalidError: naming the text, if it is not an action (unknown verb, wrong number of
            cards, a bad card or seat).
    """
    if not isinstance(text, str):
        raise InvalidError(f"not an action: {text!r} (expected text such as 'p0 lead 7h')")
    match = _ACTION.match(text)
    if match is None:
        raise InvalidError(f"not an action: {text!r} (expected e.g. 'p0 lead 7h', 'p1 take')")
    player = int(match.group(1))
    verb = match.group(2).lower()
    args = match.group(3).split()
    try:
        cards = parse_cards(args)
    except InvalidError as exc:
        raise InvalidError(f"not an action: {text!r} ({exc})") from None
    count = {"lead": -1, "transfer": -1, "throw": 1, "show": 1, "exchange": 1, "beat": 2}
    expected = count.get(verb, 0)
    if verb not in count and verb not in ("take", "pass", "redeal"):
        verbs = "lead, throw, beat, take, pass, transfer, show, exchange, redeal"
        raise InvalidError(f"not an action: {text!r} (unknown verb {verb!r}; known: {verbs})")
    if (expected == -1 and not cards) or (expected >= 0 and len(cards) != expected):
        need = "one or more cards" if expected == -1 else f"{expected} card(s)"
        raise InvalidError(f"not an action: {text!r} ('{verb}' takes {need})")
    match verb:
        case "lead":
            return Lead(player, cards)
        case "throw":
            return ThrowIn(player, cards[0])
        case "beat":
            return Beat(player, cards[0], cards[1])
        case "take":
            return Take(player)
        case "pass":
            return Pass(player)
        case "transfer":
            return Transfer(player, cards)
        case "show":
            return ShowTrump(player, cards[0])
        case "exchange":
            return ExchangeTrump(player, cards[0])
    return Redeal(player)


def format_position(state: GameState) -> str:
    """The one-line text of a position between bouts (no card on the table).

    Raises:
        PositionError: a card is on the table, or the game is over.
    """
    if state.table or state.result is not None:
        raise PositionError("only a position between bouts has a text form; use JSON")
    hands = " / ".join(format_cards(h) if h else "-" for h in state.hands)
    fields = [
        f"hands: {hands}",
        f"stock: {format_cards(state.stock)}",
        f"trump: {state.trump.letter}",
        f"attacker: {state.attacker}",
        f"discard: {format_cards(state.discard)}",
    ]
    if state.bouts == 0:
        fields.append("first_bout: yes")
    return "; ".join(fields)


def parse_position(text: str, rules: Rules) -> GameState:
    """Read a position written by :func:`format_position` (or by hand) under ``rules``.

    Raises:
        PositionError: a missing or unknown field, or a position :func:`durak.new_position`
            rejects (it names the problem).
        InvalidError: a card that does not parse.
    """
    fields: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("hands", "stock", "trump", "attacker", "discard", "first_bout"):
            raise PositionError(f"position: unknown field {part.strip()!r}")
        if key in fields:
            raise PositionError(f"position: field {key!r} given twice")
        fields[key] = value.strip()
    for key in ("hands", "trump", "attacker"):
        if key not in fields:
            raise PositionError(f"position: the field {key!r} is missing")
    hands = [h.strip() for h in fields["hands"].split("/")]
    attacker = fields["attacker"]
    if not attacker.isdigit():
        raise PositionError(f"position: attacker must be a seat number, not {attacker!r}")
    first = fields.get("first_bout", "no").lower()
    if first not in ("yes", "no"):
        raise PositionError(f"position: first_bout must be yes or no, not {first!r}")
    return new_position(
        rules,
        hands=[parse_cards("" if h == "-" else h) for h in hands],
        stock=fields.get("stock", ""),
        trump=Suit.parse(fields["trump"]),
        attacker=int(attacker),
        discard=fields.get("discard", ""),
        first_bout=first == "yes",
    )
