"""The messages of the web front-end's WebSocket protocol.

Everything a seat receives is built here from what that seat may know: its
:func:`~durak.views.view` (as :func:`~durak.serialize.view_to_dict`) and its
:func:`~durak.events.events_for` events. Nothing in this module looks at a
:class:`~durak.state.GameState`, so nothing here can leak the stock order or another hand.

Server to client (JSON objects, ``type`` first):

- ``welcome``: ``seat`` (``null`` for an onlooker) and ``token`` (keep it to come back to the
  same seat).
- ``state``: the ``view``, the ``events`` since the last message (each with a ``text`` in
  words), the ``seats`` (each ``away`` while a bot plays for its person), who may act now
  (``acting``), ``started``, ``game``, ``version``, ``fixed_seed`` (the seed a demo table was
  created with, shown to every seat; ``null`` for a secret deal), ``timer`` (seconds a person
  has for a move, 0 for none) and ``restart_votes`` (the seats that asked for the next game).
  The first ``state`` message after connecting also carries ``history``: the seat's part of the
  current game's events so far (the last 120), for its log.
- ``error``: ``message`` (in English): an action was refused; nothing changed. Beside it the
  ``code`` and ``params`` of the reason (a ``server.`` code of :mod:`durak.messages`) and
  ``localized``, the same said in the connection's language (the ``lang`` of the WebSocket's
  address, else its ``Accept-Language``; English by default); for an illegal action also the
  ``rule`` and the rule's ``reason`` (code and parameters). Also sent before the server closes
  a connection it refuses (close code 4403: another origin; 4429: too many connections; 4404:
  no such table); a client that stops reading is closed with code 1008.

Client to server: an action in the notation (``p1 beat 7h 9h``) as a plain text frame or as
``{"type": "action", "action": "p1 beat 7h 9h"}``; an action as a JSON object
(``{"kind": "beat", "player": 1, "attack": "7h", "card": "9h"}``, optionally wrapped as
``{"type": "action", "action": {...}}``); ``{"type": "restart"}`` after a game is over (a vote:
the next game is dealt when every seated, connected person has asked); ``{"type": "leave"}`` to
give up one's seat; ``{"type": "ping"}``, answered by nothing.

>>> from durak.events import Beaten
>>> from durak.cards import Card
>>> out = event_to_dict(Beaten(1, Card.parse("7h"), Card.parse("9h")), 0, lambda p: f"P{p}")
>>> out["text"], out["message"]["code"], out["message"]["params"]
('P1 beat 7♥ with 9♥', 'event.beaten', {'player': 1, 'attack': '7h', 'card': '9h'})
>>> str(action_from_message('{"kind": "beat", "player": 1, "attack": "7h", "card": "9h"}'))
'p1 beat 7h 9h'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from durak._input import DuplicateKeyError, unique_object
from durak.actions import ACTION_KINDS as _ACTION_KINDS
from durak.actions import (
    Action,
)
from durak.cards import Card
from durak.errors import DurakError, InvalidError
from durak.events import (
    Event,
    GameOver,
    describe_event,
)
from durak.i18n import language, message_params
from durak.messages import Message, message
from durak.notation import parse_action
from durak.records import result_to_dict
from durak.rules import Rules, listing_bound
from durak.state import Result
from durak.views import PlayerView

__all__ = [
    "ACTION_KINDS",
    "EventCache",
    "acting_seats",
    "action_from_message",
    "error_fields",
    "event_text",
    "event_to_dict",
    "events_to_dicts",
    "listing_refusal",
    "result_text",
    "seat_names",
    "sentence",
]

#: Action classes by their ``kind`` (the JSON object form of an action names it): the one
#: registry of :mod:`durak.actions`, so a plug-in's registered kind is understood too.
ACTION_KINDS: dict[str, type[Any]] = _ACTION_KINDS

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _jsonable(value: Any) -> Any:
    """Event field values as JSON values: cards as their text form (R1.3), tuples as lists, a
    result as :func:`~durak.records.result_to_dict`."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Result):
        return result_to_dict(value)
    return value


#: The English of the events' texts (the page says them anew in its own language).
_ENGLISH = language("en")


def result_text(result: Result, seat: int | None, name: Callable[[int], str]) -> str:
    """A finished game's result in one line, as ``seat`` reads it (R7.4)."""
    if result.draw:
        return "A draw: nobody is the durak."
    if seat is not None and result.durak == seat:
        return "You are the durak."
    if result.durak is not None:
        head = f"{name(result.durak)} is the durak."
    else:
        head = f"Lost: {', '.join(name(p) for p in result.losers)}."
    if seat is not None:
        head += " You won!" if seat in result.winners else " You lost."
    return head


def event_text(
    event: Event,
    seat: int | None,
    name: Callable[[int], str],
    described: Message | None = None,
) -> str:
    """One event in English words for ``seat`` (``name`` gives a seat's name, e.g. ``"You"``):
    :func:`~durak.events.describe_event` said to ``seat`` as "you", cards with their suit
    symbols; the end of the game with :func:`result_text`.

    The event must already be the one ``seat`` may see (:func:`~durak.events.events_for`):
    only then are another player's drawn cards hidden. ``described`` is the event's
    :func:`~durak.events.describe_event`, when it has been worked out already.

    >>> from durak.events import NewBout
    >>> event_text(NewBout(1, 0), 0, lambda p: "You" if p == 0 else f"P{p}")
    'New bout: P1 attacks you'
    """
    if isinstance(event, GameOver):
        return "Game over. " + result_text(event.result, seat, name)
    def named(p: int) -> str:  # "you" inside a sentence, capitalised only at its start
        return "you" if p == seat else name(p)

    said = describe_event(event) if described is None else described
    text = _ENGLISH.say(said, you=seat, name=named)
    return text[:1].upper() + text[1:]


def event_to_dict(event: Event, seat: int | None, name: Callable[[int], str]) -> dict[str, Any]:
    """An event as a JSON-safe dict: ``type`` (the event class in snake case), its fields
    (cards as text), ``text`` (the event in English words for ``seat``) and ``message``: the
    code and parameters of :func:`~durak.events.describe_event`, for the page to say it in
    its language (:func:`durak.i18n.web_catalog`)."""
    fields, described, coded = _event_parts(event)
    return {**fields, "text": event_text(event, seat, name, described), "message": coded}


def _event_parts(event: Event) -> tuple[dict[str, Any], Message, dict[str, Any]]:
    """What :func:`event_to_dict` writes the same for every seat: the type and fields, the
    event's message, and that message as data (code and parameters)."""
    fields: dict[str, Any] = {"type": _CAMEL.sub("_", type(event).__name__).lower()}
    for field in attrs.fields(type(event)):
        fields[field.name] = _jsonable(getattr(event, field.name))
    described = describe_event(event)  # also as data, to say in the page's language
    return fields, described, {"code": described.code, "params": message_params(described)}


class EventCache:
    """The seat-independent parts of events (:func:`_event_parts`), worked out once for all
    the seats a table sends them to; only each seat's text is said per seat. It keeps the
    events it has seen, so an event's identity is never taken for another's.

    >>> from durak.events import NewBout
    >>> cache = EventCache()
    >>> bout = NewBout(1, 0)
    >>> [d["text"] for d in cache.to_dicts([bout], 0, lambda p: f"P{p}")]
    ['New bout: P1 attacks you']
    >>> cache.to_dicts([bout], 1, lambda p: f"P{p}")[0]["text"]
    'New bout: you attack P0'
    """

    def __init__(self) -> None:
        self._parts: dict[int, tuple[Event, tuple[dict[str, Any], Message, dict[str, Any]]]] = {}

    def to_dicts(
        self, events: Iterable[Event], seat: int | None, name: Callable[[int], str]
    ) -> list[dict[str, Any]]:
        """:func:`events_to_dicts`, with the parts shared by every seat built once."""
        out = []
        for event in events:
            kept = self._parts.get(id(event))
            if kept is None or kept[0] is not event:
                kept = self._parts[id(event)] = (event, _event_parts(event))
            fields, described, coded = kept[1]
            text = event_text(event, seat, name, described)
            out.append({**fields, "text": text, "message": coded})
        return out


def events_to_dicts(
    events: Iterable[Event], seat: int | None, name: Callable[[int], str]
) -> list[dict[str, Any]]:
    """:func:`event_to_dict` of every event (already filtered for ``seat``)."""
    return [event_to_dict(e, seat, name) for e in events]


def _action_from_object(data: Mapping[str, Any]) -> Action:
    kind = data.get("kind")
    cls = ACTION_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(ACTION_KINDS)
        raise InvalidError(f"not an action: {dict(data)!r} (its 'kind' must be one of {known})")
    names = [f.name for f in attrs.fields(cls)]
    unknown = sorted(set(data) - {"kind", *names})
    if unknown:
        raise InvalidError(f"not a {kind} action: unknown field {unknown[0]!r}")
    missing = [n for n in names if n not in data]
    if missing:
        raise InvalidError(f"not a {kind} action: the field {missing[0]!r} is missing")
    player = data["player"]
    if isinstance(player, bool) or not isinstance(player, int):
        raise InvalidError(f"not a {kind} action: player must be a seat number, not {player!r}")
    try:
        action: Action = cls(**{n: data[n] for n in names})
    except (DurakError, TypeError, ValueError) as exc:
        raise InvalidError(f"not a {kind} action: {exc}") from None
    return action


def action_from_message(message: str | Mapping[str, Any]) -> Action:
    """The action in a client's message: notation text (``p1 beat 7h 9h``), a JSON object
    (``{"kind": "beat", "player": 1, "attack": "7h", "card": "9h"}``), or either wrapped as
    ``{"type": "action", "action": ...}``. A text frame holding JSON is decoded first.

    Raises:
        InvalidError: the message holds no well-formed action; the text says why.
    """
    data: Any = message
    if isinstance(data, str):
        stripped = data.strip()
        if stripped.startswith("{"):
            try:
                data = json.loads(stripped, object_pairs_hook=unique_object)
            except DuplicateKeyError as exc:
                raise InvalidError(f"the message names a key twice: {exc}") from None
            except json.JSONDecodeError as exc:
                raise InvalidError(f"not valid JSON: {exc}") from None
        else:
            return parse_action(stripped)
    if not isinstance(data, Mapping):
        raise InvalidError(f"not an action: {data!r}")
    if "action" in data:
        inner = data["action"]
        if isinstance(inner, str):
            return parse_action(inner)
        if isinstance(inner, Mapping):
            return _action_from_object(inner)
        raise InvalidError(f"not an action: {inner!r} (expected text or an object)")
    return _action_from_object({k: v for k, v in data.items() if k != "type"})


def acting_seats(view: PlayerView) -> list[int]:
    """The seats that may act now, as every player can tell (R13.1): the view's ``acting``,
    from the library's own legality checks. Private rights (the trump-six exchange, a misdeal)
    are not shown."""
    return list(view.acting)


def seat_names(labels: Sequence[str], seat: int | None) -> Callable[[int], str]:
    """A name function for event texts: ``"You"`` for ``seat``, else the seat's label."""

    def name(p: int) -> str:
        return "You" if p == seat else labels[p]

    return name


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a full stop at its end (unless it
    ends with one already).

    >>> sentence("the game is over")
    'The game is over.'
    """
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def error_fields(msg: Message, lang: str = "en", seat: int | None = None) -> dict[str, Any]:
    """What the server adds to an error beside its English text: the ``code`` and ``params``
    of ``msg`` (:func:`durak.i18n.message_params`) and ``localized``, the message said in the
    language ``lang`` to ``seat`` ("you"; the other seats as ``P1``, ``P2`` ... as the page
    names them).

    Raises:
        ValueError: no catalog for ``lang``.

    >>> from durak.messages import message
    >>> error_fields(message("server.no-table"), "de")["localized"]
    'diesen Tisch gibt es nicht'
    """
    said = language(lang).say(msg, you=seat, name=lambda p: f"P{p}")
    return {"code": msg.code, "params": message_params(msg), "localized": said}


#: The settings :func:`~durak.rules.listing_bound` reads, named in a refusal when they differ
#: from the rule book's defaults.
_LISTING_SETTINGS = (
    "deck_size",
    "decks",
    "lead",
    "max_attack",
    "first_bout_max",
    "transfer_several",
    "players",
    "jokers",
    "cheating",
)


def listing_refusal(rules: Rules, limit: int) -> Message | None:
    """Why a server that lists at most ``limit`` legal actions in one position refuses
    ``rules`` (``server.listing-too-large``, naming the settings that make the listing long and
    the bound :func:`~durak.rules.listing_bound` gives), or ``None`` when they are within it
    (R13.1).

    >>> listing_refusal(Rules(), 2000) is None
    True
    >>> refused = listing_refusal(Rules(decks=2, deck_size=52, lead="same_rank"), 2000)
    >>> refused.code, refused.params["settings"], refused.params["count"]
    ('server.listing-too-large', 'deck_size = 52, decks = 2, lead = same_rank', 3935)
    """
    bound = listing_bound(rules)
    if bound <= limit:
        return None
    default = Rules()
    parts = []
    for name in _LISTING_SETTINGS:
        value = getattr(rules, name)
        if value != getattr(default, name):
            parts.append(f"{name} = {getattr(value, 'value', value)}")
    return message(
        "server.listing-too-large", settings=", ".join(parts), count=bound, limit=limit
    )
