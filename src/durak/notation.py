"""Text forms of actions and positions.

Actions (``str(action)`` writes them, :func:`parse_action` reads them back)::

    p0 lead 7h          p0 lead 7h 7d        p2 throw 9h         p1 beat 7h 9h
    p1 take             p0 pass              p1 transfer 7s      p1 show 7h
    p2 exchange 6h      p0 redeal

Action kinds that rule modules add (:func:`durak.actions.register_action`) are read and
written the same way: ``p<seat> <verb> <cards>``.

Seats count from 0 (R2.2) and are written in ASCII digits without leading zeros (``p٣`` is
not seat 3, ``p03`` is refused: write ``p3``); verbs in ASCII letters of any case. Control
characters other than white space are refused, naming the character. Cards use the text form
of R1.3.

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

from durak._input import brief
from durak.actions import Action, build_action
from durak.cards import Suit, parse_cards
from durak.engine import new_position
from durak.errors import InvalidError, PositionError
from durak.rules.settings import Rules
from durak.state import GameState

__all__ = ["format_position", "parse_action", "parse_position"]

_ACTION = re.compile(r"^\s*p([0-9]+)\s+([a-z]+)((?:\s+\S+)*)\s*$", re.IGNORECASE | re.ASCII)

#: The most digits of a seat number or another number in the text forms.
_MAX_DIGITS = 6


def _number(text: str) -> int | None:
    """``text`` as a number written in at most :data:`_MAX_DIGITS` ASCII digits, else ``None``."""
    if text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS:
        return int(text)
    return None


def _leading_zero(text: str) -> bool:
    """Whether the number ``text`` (ASCII digits) has a leading zero (``03``; ``0`` is fine)."""
    return len(text) > 1 and text.startswith("0")


def _control(text: str) -> str | None:
    """The first control character of ``text`` that is not white space, shown as a ``repr``
    with its position, or ``None``."""
    for index, ch in enumerate(text):
        if (ch < " " or "\x7f" <= ch <= "\x9f") and not ch.isspace():
            return f"{ch!r} at position {index}"
    return None


def parse_action(text: str) -> Action:
    """Read an action's text form (see the module docs). What a player types in a position
    (``9h``, ``take``, ``беру``) is read by :func:`durak.moves.parse_action`, which
    :func:`durak.parse_action` is.

    Raises:
        InvalidError: naming the text, if it is not an action (unknown verb, wrong number of
            cards, a bad card or seat) or not text.
    """
    if not isinstance(text, str):
        raise InvalidError(f"not an action: {brief(text)} (expected text such as 'p0 lead 7h')")
    control = _control(text)
    if control is not None:
        raise InvalidError(f"not an action: {brief(text)} (a control character {control})")
    match = _ACTION.match(text)
    if match is None:
        raise InvalidError(
            f"not an action: {brief(text)} (expected e.g. 'p0 lead 7h', 'p1 take'; seats in "
            "ASCII digits)"
        )
    player = _number(match.group(1))
    if player is None:
        raise InvalidError(f"not an action: {brief(text)} (the seat number is too long)")
    if _leading_zero(match.group(1)):
        raise InvalidError(
            f"not an action: {brief(text)} (a seat is written without leading zeros: "
            f"p{player}, not p{match.group(1)})"
        )
    verb = match.group(2).lower()
    args = match.group(3).split()
    try:
        cards = parse_cards(args)
    except InvalidError as exc:
        raise InvalidError(f"not an action: {brief(text)} ({exc})") from None
    try:
        return build_action(verb, player, cards)
    except InvalidError as exc:
        raise InvalidError(f"not an action: {brief(text)} ({exc})") from None


def format_position(state: GameState) -> str:
    """The one-line text of a position between bouts (no card on the table).

    Raises:
        PositionError: a card is on the table, or the game is over.
        TypeError: ``state`` is not a game state.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {type(state).__name__}")
    if state.table or state.result is not None:
        raise PositionError("only a position between bouts has a text form; use JSON")
    return str(state)  # GameState.__str__ writes these fields between bouts


def parse_position(text: str, rules: Rules) -> GameState:
    """Read a position written by :func:`format_position` (or by hand) under ``rules``.

    Raises:
        PositionError: a missing or unknown field, a number that is not in ASCII digits (or
            has a leading zero), or a
            position :func:`durak.new_position` rejects (it names the problem).
        InvalidError: a card that does not parse.
        TypeError: ``text`` is not text or ``rules`` not a :class:`~durak.rules.Rules`.
    """
    if not isinstance(text, str):
        raise TypeError(f"a position is text, not {type(text).__name__}")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
    fields: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("hands", "stock", "trump", "attacker", "discard", "first_bout"):
            raise PositionError(f"position: unknown field {brief(part.strip())}")
        if key in fields:
            raise PositionError(f"position: field {key!r} given twice")
        fields[key] = value.strip()
    for key in ("hands", "trump", "attacker"):
        if key not in fields:
            raise PositionError(f"position: the field {key!r} is missing")
    hands = [h.strip() for h in fields["hands"].split("/")]
    attacker = _number(fields["attacker"])
    if attacker is None:
        raise PositionError(
            f"position: attacker must be a seat number in ASCII digits, not "
            f"{brief(fields['attacker'])}"
        )
    if _leading_zero(fields["attacker"]):
        raise PositionError(
            f"position: attacker is written without leading zeros: {attacker}, "
            f"not {fields['attacker']}"
        )
    first = fields.get("first_bout", "no").lower()
    if first not in ("yes", "no"):
        raise PositionError(f"position: first_bout must be yes or no, not {brief(first)}")
    return new_position(
        rules,
        hands=[parse_cards("" if h == "-" else h) for h in hands],
        stock=fields.get("stock", ""),
        trump=Suit.parse(fields["trump"]),
        attacker=attacker,
        discard=fields.get("discard", ""),
        first_bout=first == "yes",
    )
