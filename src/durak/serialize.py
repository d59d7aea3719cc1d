"""JSON forms of game states and player views (R13.4: reading one back gives an equal object).

Cards are written in their text form (R1.3), actions in the notation of :mod:`durak.notation`,
rules as :meth:`durak.rules.Rules.to_dict`. A state's JSON holds hidden information (the stock
order, every hand): send players their view's JSON instead. Reading is guarded as for game
records: data nested deeper than :data:`durak.records.MAX_DEPTH` (32) levels or holding an
integer of more than :data:`durak.records.MAX_INT_DIGITS` (4,300) digits raises a
:class:`~durak.records.RecordError` naming where.

>>> from durak import Rules, new_game, view
>>> state = new_game(Rules(), seed=2)
>>> state_from_dict(state_to_dict(state)) == state
True
>>> view_from_dict(view_to_dict(view(state, 0))) == view(state, 0)
True

A :class:`~durak.cards.Card` is an :class:`int` (so are suits and ranks): given to
:func:`json.dumps` as it is, it silently becomes a number (``7h`` is ``39``). Turn any value
into JSON with :func:`to_json` first, or call :func:`dumps`:

>>> from durak import Card, Lead
>>> json.dumps({"card": Card("7h")})
'{"card": 39}'
>>> dumps({"card": Card("7h"), "move": Lead(0, "7h"), "hand": (Card("As"),)})
'{"card": "7h", "move": "p0 lead 7h", "hand": ["As"]}'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from enum import IntEnum
from typing import Any

import attrs

from durak import events as _events
from durak._input import brief, check_data
from durak.cards import Card, Suit
from durak.engine import validate_state
from durak.errors import DurakError
from durak.events import Event
from durak.notation import parse_action
from durak.records import RecordError, extra_from_json, result_from_dict, result_to_dict
from durak.rules.modules import plan_for
from durak.rules.settings import Rules
from durak.state import GameState
from durak.views import PlayerView

__all__ = [
    "dumps",
    "event_from_dict",
    "event_to_dict",
    "state_from_dict",
    "state_to_dict",
    "to_json",
    "view_from_dict",
    "view_to_dict",
]


def _card(v: Any) -> Card:
    return Card.parse(v)


def _items(v: Any) -> list[Any] | tuple[Any, ...]:
    """A JSON list (a tuple too): not text or an object, whose letters or keys would be read
    as its items."""
    if not isinstance(v, list | tuple):
        raise TypeError(f"expected a list, not {brief(v)}")
    return v


def _cards(v: Any) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in _items(v))


def _card_set(v: Any) -> frozenset[Card]:
    return frozenset(Card.parse(c) for c in _items(v))


def _ints(v: Any) -> tuple[int, ...]:
    return tuple(_int(x) for x in _items(v))


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"expected an integer, not {brief(v)}")
    return v


def _opt_int(v: Any) -> int | None:
    return None if v is None else _int(v)


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"expected true or false, not {brief(v)}")
    return v


def _pair(v: Any) -> tuple[Card, Card | None]:
    if len(_items(v)) != 2:
        raise ValueError(f"a table pair is [attack, beating card or null], not {brief(v)}")
    attack, card = v
    return _card(attack), None if card is None else _card(card)


def _nullable(field: attrs.Attribute[Any]) -> bool:
    """Whether the field's declared type admits ``None`` (``Card | None``, not
    ``tuple[int | None, ...]``): the decoders of the other fields never see a null."""
    return "None" in str(field.type).split(" | ")


def _decode_field(
    field: attrs.Attribute[Any], decode: Callable[[Any], Any], value: Any, what: str
) -> Any:
    """``value`` read by ``decode``, or a :class:`RecordError` naming the field: a null is
    refused where the field's declared type is not optional."""
    if value is None and not _nullable(field):
        raise RecordError(field.name, f"null is not a value of a {what}'s {field.name}")
    try:
        return decode(value)
    except (DurakError, TypeError, ValueError, KeyError) as exc:
        if isinstance(exc, DurakError):
            raise RecordError(field.name, exc.message) from None
        if isinstance(exc, KeyError):  # its text would be the key's repr, which may fail
            key = exc.args[0] if exc.args else None
            raise RecordError(field.name, f"unknown value {brief(key)}") from None
        raise RecordError(field.name, str(exc)) from None


_DECODE: dict[str, Callable[[Any], Any]] = {
    "rules": lambda v: Rules.from_dict(v),
    "hands": lambda v: tuple(_cards(h) for h in _items(v)),
    "hand": _cards,
    "stock": _cards,
    "discard": _cards,
    "trump": lambda v: Suit.parse(v),
    "trump_card": lambda v: None if v is None else _card(v),
    "table": lambda v: tuple(_pair(p) for p in _items(v)),
    "known": lambda v: tuple(_card_set(k) for k in _items(v)),
    "shown": _card_set,
    "exchange": _card_set,
    "passed": lambda v: frozenset(_ints(v)),
    "done": lambda v: frozenset(_ints(v)),
    "out": lambda v: frozenset(_ints(v)),
    "left": lambda v: frozenset(_ints(v)),
    "extra": lambda v: extra_from_json(v),
    "joined": _ints,
    "throwers": _ints,
    "hand_sizes": _ints,
    "places": lambda v: tuple(_opt_int(x) for x in _items(v)),
    "active": lambda v: tuple(_bool(x) for x in _items(v)),
    "acting": _ints,
    "result": lambda v: None if v is None else result_from_dict(v),
    "legal_actions": lambda v: tuple(parse_action(a) for a in _items(v)),
    "taken": _bool,
    "can_throw_in": _bool,
    "seed": lambda v: v if v is None or isinstance(v, str) else _int(v),
    "player": _opt_int,
    "appointed": _opt_int,
    "next_actor": _opt_int,
}


def _encode(value: Any) -> Any:
    if isinstance(value, Rules):
        return value.to_dict()
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, frozenset):
        return [_encode(v) for v in sorted(value)]
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if attrs.has(type(value)):
        if hasattr(value, "describe"):  # an action
            return str(value)
        return result_to_dict(value)
    return value


#: Each card's text form (R1.3), filled as cards are met (at most one entry per card).
_CARD_TEXT: dict[Card, str] = {}

#: :meth:`Rules.to_dict` of the rules met lately (a frozen ``Rules`` keeps its hash).
_RULES_DICT: dict[Rules, dict[str, Any]] = {}
_RULES_KEPT = 64


def _card_text(card: Card) -> str:
    text = _CARD_TEXT.get(card)
    if text is None:
        if type(card) is not Card:
            raise TypeError(f"expected a card, not {brief(card)}")
        text = _CARD_TEXT[card] = str(card)
    return text


def _card_texts(cards: Any) -> list[str]:
    return [_card_text(c) for c in cards]


def _sorted_card_texts(cards: frozenset[Card]) -> list[str]:
    return [_card_text(c) for c in sorted(cards)]


def _copy_json(value: Any) -> Any:
    if type(value) is list:
        return [_copy_json(v) for v in value]
    if type(value) is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    return value


def _rules_dict(rules: Rules) -> dict[str, Any]:
    known = _RULES_DICT.get(rules)
    if known is None:
        if len(_RULES_DICT) >= _RULES_KEPT:
            _RULES_DICT.clear()
        known = _RULES_DICT[rules] = rules.to_dict()
    out: dict[str, Any] = _copy_json(known)
    return out


def _pairs(table: tuple[tuple[Card, Card | None], ...]) -> list[list[str | None]]:
    return [[_card_text(a), None if b is None else _card_text(b)] for a, b in table]


def _same(value: Any) -> Any:
    return value


def _optional(encode: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda v: None if v is None else encode(v)


#: The encoder of a field by its declared type: the values :func:`_encode` gives, worked out
#: without asking each value what it is (a server encodes a view per seat and action). A field
#: of a type not named here goes through :func:`_encode`.
_BY_TYPE: dict[str, Callable[[Any], Any]] = {
    **dict.fromkeys(("int", "bool", "str", "int | None", "int | str | None"), _same),
    **dict.fromkeys(("tuple[int, ...]", "tuple[int | None, ...]", "tuple[bool, ...]"), list),
    "frozenset[int]": sorted,
    "Card": _card_text,
    "Card | None": _optional(_card_text),
    "tuple[Card, ...]": _card_texts,
    "frozenset[Card]": _sorted_card_texts,
    "tuple[tuple[Card, ...], ...]": lambda v: [_card_texts(h) for h in v],
    "tuple[frozenset[Card], ...]": lambda v: [_sorted_card_texts(k) for k in v],
    "tuple[Pair, ...]": _pairs,
    "Rules": _rules_dict,
    "Suit": lambda v: v.letter,
    "Result": result_to_dict,
    "Result | None": _optional(result_to_dict),
    "tuple[Action, ...]": lambda v: [str(a) for a in v],
}

_ENCODERS: dict[type, tuple[tuple[str, Callable[[Any], Any]], ...]] = {}


def _encoders(cls: type) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """Each field of the attrs class ``cls`` with its encoder, worked out once per class."""
    known = _ENCODERS.get(cls)
    if known is None:
        known = _ENCODERS[cls] = tuple(
            (f.name, _BY_TYPE.get(str(f.type), _encode)) for f in attrs.fields(cls)
        )
    return known


def _to_dict(obj: Any) -> dict[str, Any]:
    return {name: encode(getattr(obj, name)) for name, encode in _encoders(type(obj))}


def _from_dict(cls: type[Any], data: Any, what: str) -> Any:
    check_data(data, RecordError, f"the {what}")
    if not isinstance(data, Mapping):
        raise RecordError("", f"a {what} is a JSON object, not {type(data).__name__}")
    names = [f.name for f in attrs.fields(cls)]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise RecordError(unknown[0], f"unknown field of a {what}")
    missing = [n for n in names if n not in data]
    required = [n for n in missing if attrs.fields_dict(cls)[n].default is attrs.NOTHING]
    if required:
        raise RecordError(required[0], f"missing field of a {what}")
    values = {
        f.name: _decode_field(f, _DECODE.get(f.name, _int), data[f.name], what)
        for f in attrs.fields(cls)
        if f.name in data
    }
    made: Any = cls(**values)
    return made


def state_to_dict(state: GameState) -> dict[str, Any]:
    """A state as plain JSON values (hidden cards included).

    Raises:
        TypeError: ``state`` is not a game state.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {type(state).__name__}")
    return _to_dict(state)


def state_from_dict(data: Any) -> GameState:
    """Read a state written by :func:`state_to_dict`.

    Raises:
        RecordError: naming the field and the reason: an unknown or missing field, a wrong
            type, a bad card, or cards that are not the rules' deck exactly once.
        PositionError: a state the engine cannot play on, naming the field and the rule
            (:func:`durak.engine.validate_state`): say one beaten pair on the table with
            ``defender_hand = 1``, a bout R4.10 would already have ended.
    """
    state: GameState = _from_dict(GameState, data, "state")
    expected = sorted(plan_for(state.rules).deck)  # the modules' deck: jokers too (R15.1)
    if sorted(state.all_cards()) != expected:
        raise RecordError("hands", "the cards are not every card of the deck exactly once")
    if len(state.hands) != state.rules.players or len(state.places) != state.rules.players:
        raise RecordError("hands", "one hand and one place per seat are needed")
    return validate_state(state)


def view_to_dict(v: PlayerView) -> dict[str, Any]:
    """A player's view as plain JSON values (safe to send to that player).

    Each field is written by the encoder of its declared type, as states and events are (a
    server sends one view per seat and action): the rules' dict is built once per
    :class:`~durak.rules.Rules` and copied, each card's text once per card.

    Raises:
        TypeError: ``v`` is not a player's view.
    """
    if not isinstance(v, PlayerView):
        raise TypeError(f"expected a PlayerView, not {type(v).__name__}")
    return _to_dict(v)


def view_from_dict(data: Any) -> PlayerView:
    """Read a view written by :func:`view_to_dict`.

    Raises:
        RecordError: naming the field and the reason.
    """
    v: PlayerView = _from_dict(PlayerView, data, "view")
    return v


_EVENT_TYPES: dict[str, type[Any]] = {
    name: getattr(_events, name)
    for name in _events.__all__
    if name not in ("Event", "events_for") and attrs.has(getattr(_events, name))
}

def _at_least(low: int, what: str) -> Callable[[Any], int]:
    """A decoder of an event's integer field: ``low`` or more (seats and counts 0, places 1),
    and below ``2**31``."""

    def decode(v: Any) -> int:
        value = _int(v)
        if not low <= value < 2**31:
            raise ValueError(f"{what} must be {low} or more (below 2**31), not {brief(value)}")
        return value

    return decode


_SEAT = _at_least(0, "a seat")


def _text(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise TypeError(f"expected {what}, not {brief(v)}")
    return v

_EVENT_DECODE: dict[str, Callable[[Any], Any]] = {
    "player": _SEAT,
    "defender": _SEAT,
    "attacker": _SEAT,
    "to": _SEAT,
    "partner": _SEAT,
    "count": _at_least(0, "a count"),
    "place": _at_least(1, "a place"),
    "cards": lambda v: None if v is None else _cards(v),  # null only for Drew (R13 views)
    "card": _card,
    "attack": _card,
    "shown": lambda v: None if v is None else _card(v),
    "face_up": lambda v: None if v is None else _card(v),
    "taken": _bool,
    "result": lambda v: result_from_dict(v),
    "action": lambda v: _text(v, "an action's text"),
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as plain JSON values: ``{"type": "Beaten", "player": 1, "attack": "7h", ...}``.
    Filter events with :func:`durak.events.events_for` before sending them to a player.

    Raises:
        TypeError: ``event`` is not an event.
    """
    if not isinstance(event, Event):
        raise TypeError(f"expected an event, not {type(event).__name__}")
    return {"type": type(event).__name__, **_to_dict(event)}


def event_from_dict(data: Any) -> Event:
    """Read an event written by :func:`event_to_dict`.

    Raises:
        RecordError: naming the field and the reason (an unknown ``type`` included): a null
            where the field's type is not optional (only ``Drew.cards``, a hidden draw, and
            the optional face-up and shown cards may be null), or an event the engine never
            reports: a lead of no card or against the leader himself, a card beaten by
            itself, a draw whose cards are not ``count`` cards.
    """
    check_data(data, RecordError, "the event")
    if not isinstance(data, Mapping):
        raise RecordError("", f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    cls = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(_EVENT_TYPES)
        raise RecordError("type", f"unknown event type {brief(kind)} (known: {known})")
    fields = {k: v for k, v in data.items() if k != "type"}
    names = [f.name for f in attrs.fields(cls)]
    unknown = sorted(set(fields) - set(names))
    if unknown:
        raise RecordError(unknown[0], f"unknown field of a {kind} event")
    values = {}
    for f in attrs.fields(cls):
        if f.name not in fields:
            if f.default is attrs.NOTHING:
                raise RecordError(f.name, f"missing field of a {kind} event")
            continue
        decode = _EVENT_DECODE.get(f.name, _int)
        values[f.name] = _decode_field(f, decode, fields[f.name], f"{kind} event")
    event: Event = cls(**values)
    _check_event(event)
    return event


def _check_event(event: Event) -> None:
    """Refuse an event the engine never reports: a lead of no card or against the leader
    himself (R4.2), a card beaten by itself (R4.7), a draw naming other than ``count`` cards
    (R5)."""
    match event:
        case _events.Led(player=p, cards=cards, defender=d):
            if not cards:
                raise RecordError("cards", "a lead has at least one card (R4.2)")
            if d == p:
                raise RecordError("defender", f"player {p} does not lead against himself (R4.2)")
        case _events.Beaten(attack=attack, card=card) if attack == card:
            reason = f"a card does not beat itself: attack and card differ, not both {card}"
            raise RecordError("card", reason)
        case _events.Drew(count=count, cards=tuple() as cards) if len(cards) != count:
            reason = f"a draw of count {count} names {count} cards, not {len(cards)}"
            raise RecordError("cards", reason)


def to_json(value: Any) -> Any:
    """``value`` as plain JSON values, whatever the library put in it: cards as their text form
    (``"7h"``, not the integer a card also is), suits and ranks as letters, actions in the
    notation (``"p0 lead 7h"``), messages as their English text, states and views as
    :func:`state_to_dict` and :func:`view_to_dict`, events as :func:`event_to_dict`, rules as
    :meth:`~durak.rules.Rules.to_dict`, results as the records write them; tuples, lists and
    sets as lists (a set sorted), mappings as objects with text keys. Other values are left
    as they are, for :func:`json.dumps` to take or refuse.
    """
    if isinstance(value, Card):
        return _card_text(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, IntEnum) and hasattr(value, "letter"):  # a rank
        return value.letter
    if isinstance(value, bool | float | str | None) or type(value) is int:
        return str(value) if isinstance(value, str) and type(value) is not str else value
    if isinstance(value, GameState):
        return state_to_dict(value)
    if isinstance(value, PlayerView):
        return view_to_dict(value)
    if isinstance(value, Rules):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {str(to_json(k)): to_json(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return [to_json(v) for v in sorted(value)]
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if attrs.has(type(value)):
        if hasattr(value, "describe"):  # an action
            return str(value)
        if isinstance(value, Event):
            return event_to_dict(value)
        return result_to_dict(value)
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """:func:`json.dumps` of :func:`to_json` ``(value)``: cards as text, never as numbers.
    Keyword arguments go to :func:`json.dumps` (``indent=2``; ``ensure_ascii`` is ``False``
    unless given).

    Raises:
        TypeError: a value JSON cannot hold (as :func:`json.dumps`).
    """
    kwargs.setdefault("ensure_ascii", False)
    return json.dumps(to_json(value), **kwargs)
