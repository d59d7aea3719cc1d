"""Game records: a versioned JSON form of a whole game, and its replay.

A record holds the rules, the deal (a seed of the frozen shuffle, R2.5, or an explicit deck
order), every action in the order played (in the text form of :mod:`durak.notation`) and the
result. Its JSON Schema ships with the package (:func:`schema`). :func:`replay` plays the actions
again, checking every one, and reports the first illegal action with its index.

Records come from files and other programs, so reading one is guarded: a record is at most
:data:`MAX_RECORD_BYTES` (2 MiB) of JSON, refused before it is parsed when it is bigger; lists
and objects nest at most :data:`MAX_DEPTH` (32) levels deep; integers have at most
:data:`MAX_INT_DIGITS` (4,300) digits. Anything else that is wrong raises a
:class:`RecordError` naming where and why, never a stray ``KeyError`` or ``RecursionError``.

>>> from durak import Rules, new_game, legal_actions, next_actor, apply
>>> state = new_game(Rules(), seed=9)
>>> record = Record.start(Rules(), seed=9)
>>> while not state.is_over:
...     action = legal_actions(state, next_actor(state))[0]
...     state, record = apply(state, action), record.add(action)
>>> record = record.finish(state)
>>> loads(dumps(record)) == record
True
>>> replay(record) == state
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import IO, Any

import attrs

from durak import schemas
from durak._input import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    brief,
    brief_name,
    check_data,
    check_size,
    facts_from_json,
    parse_json,
    read_limited,
)
from durak.actions import Action, is_action
from durak.cards import Card, parse_cards
from durak.engine import apply, check, new_game
from durak.errors import DurakError, InvalidError
from durak.messages import Message, as_message, message
from durak.notation import parse_action
from durak.rules.settings import Rules
from durak.state import GameState, Result

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_RECORD_BYTES",
    "VERSION",
    "Record",
    "RecordError",
    "ReplayError",
    "dump",
    "dumps",
    "load",
    "loads",
    "replay",
    "result_from_dict",
    "result_to_dict",
    "schema",
]

FORMAT = "durak-record"
VERSION = 1

#: The largest record :func:`loads` and :func:`load` read: 2 MiB of JSON (UTF-8). A long game
#: of twelve players with four decks takes about 50 KB.
MAX_RECORD_BYTES = 2 * 1024 * 1024


class RecordError(InvalidError):
    """A record that is malformed: not JSON, against the schema, or with bad rules or cards.

    Attributes:
        where: the JSON path of the problem, e.g. ``"actions/3"`` (empty for the whole record).
    """

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        why = as_message(reason)
        self._set(why, message("error.at", where=where or "(top)", reason=why))


class ReplayError(DurakError):
    """A record whose actions cannot be replayed: one is illegal, or the result differs.

    Attributes:
        index: the 0-based index of the first illegal action (``None`` for a result mismatch).
        action: that action, or ``None``.
        rule: the rule id it breaks, or ``None``.
    """

    def __init__(
        self, index: int | None, action: Action | None, rule: str | None, reason: str | Message
    ):
        self.index = index
        self.action = action
        self.rule = rule
        why = as_message(reason)
        if index is None:
            whole = message("error.replay-result")
        elif rule is None:  # pragma: no cover - the engine names a rule for every refusal
            whole = message("error.at", where=f"replay: action {index} ({action})", reason=why)
        else:
            notation = str(action)
            whole = message("error.replay", index=index, notation=notation, reason=why, rule=rule)
        self._set(why if index is not None else whole, whole)


def schema() -> dict[str, Any]:
    """The JSON Schema of records, format version 1 (shipped as
    ``durak/schemas/record-v1.schema.json``; it refers to the ``rules``, ``card`` and
    ``result`` schemas of :mod:`durak.schemas`)."""
    return schemas.schema("record-v1")


def result_to_dict(result: Result) -> dict[str, Any]:
    """A result as plain JSON values.

    Raises:
        TypeError: ``result`` is not a :class:`~durak.state.Result`.
    """
    if not isinstance(result, Result):
        raise TypeError(f"expected a Result, not {type(result).__name__}")
    data: dict[str, Any] = {
        "durak": result.durak,
        "draw": result.draw,
        "places": list(result.places),
        "winners": list(result.winners),
        "losers": list(result.losers),
    }
    if result.extra:  # written only when a rule module added facts
        data["extra"] = {name: _thaw(value) for name, value in result.extra}
    return data


def _thaw(value: Any) -> Any:
    return [_thaw(v) for v in value] if isinstance(value, tuple) else value


def extra_from_json(data: Any, field: str = "extra") -> tuple[tuple[str, Any], ...]:
    """Rule modules' facts from JSON (an object of names to values, or pairs): values made of
    numbers, text, booleans, ``null`` and lists (read back as tuples). Numbers are finite:
    ``NaN`` and ``Infinity`` (which Python's ``json`` reads by default) are refused.

    Raises:
        RecordError: naming the field, for anything else.
    """
    return facts_from_json(data, RecordError, field)


_RESULT_FIELDS = ("durak", "draw", "places", "winners", "losers")


def _int_list(data: Mapping[str, Any], name: str, low: int, what: str) -> tuple[int, ...]:
    value = data[name]
    if not isinstance(value, list | tuple):
        raise RecordError(name, f"must be a list of {what}s, not {brief(value)}")
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or item < low:
            raise RecordError(
                f"{name}/{i}", f"must be a {what} (at least {low}), not {brief(item)}"
            )
    return tuple(value)


def result_from_dict(data: Mapping[str, Any]) -> Result:
    """The inverse of :func:`result_to_dict`.

    Raises:
        RecordError: naming the field, for a missing or unknown field or a value of the wrong
            type.
    """
    if not isinstance(data, Mapping):
        raise RecordError("", f"a result is a JSON object, not {brief(data)}")
    unknown = [key for key in data if key not in _RESULT_FIELDS and key != "extra"]
    if unknown:
        key = unknown[0]
        raise RecordError(brief_name(key), "unknown field of a result")
    missing = [name for name in _RESULT_FIELDS if name not in data]
    if missing:
        raise RecordError(missing[0], "missing field of a result")
    durak = data["durak"]
    if durak is not None and (isinstance(durak, bool) or not isinstance(durak, int) or durak < 0):
        raise RecordError("durak", f"must be a seat number or null, not {brief(durak)}")
    if not isinstance(data["draw"], bool):
        raise RecordError("draw", f"must be true or false, not {brief(data['draw'])}")
    return Result(
        durak=durak,
        draw=data["draw"],
        places=_int_list(data, "places", 1, "place"),
        winners=_int_list(data, "winners", 0, "seat number"),
        losers=_int_list(data, "losers", 0, "seat number"),
        extra=extra_from_json(data["extra"], "extra") if "extra" in data else (),
    )


@attrs.frozen
class Record:
    """A game record (format version 1).

    Attributes:
        rules: the rules.
        seed: the deal's seed, or ``None`` when ``deck`` is given.
        deck: the explicit deck order (top card first), or ``None``.
        dealer: the dealer's seat.
        attacker: the first attacker appointed by a match (R11.2), or ``None`` for R3.
        actions: the actions in the order played.
        result: the result, or ``None`` for an unfinished game.
        players: optional names of the seats.
        meta: optional free-form information.
    """

    rules: Rules
    seed: int | str | None = None
    deck: tuple[Card, ...] | None = None
    dealer: int = 0
    attacker: int | None = None
    actions: tuple[Action, ...] = ()
    result: Result | None = None
    players: tuple[str, ...] = ()
    meta: Mapping[str, Any] = attrs.field(factory=dict, eq=False)

    @classmethod
    def start(
        cls,
        rules: Rules,
        *,
        seed: int | str | None = None,
        deck: Iterable[Card | str] | None = None,
        dealer: int | None = None,
        attacker: int | None = None,
    ) -> Record:
        """An empty record of a game dealt like ``new_game(rules, seed=..., deck=..., ...)``.

        Raises:
            RecordError: neither or both of ``seed`` and ``deck``.
            InvalidCardError: a card of ``deck`` that does not parse.
            TypeError: ``rules`` is not a :class:`~durak.rules.Rules`, or a seed, dealer or
                attacker of the wrong type.
        """
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise TypeError(f"a seed is an integer or text, not {type(seed).__name__}")
        for name, seat in (("dealer", dealer), ("attacker", attacker)):
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise TypeError(f"the {name} is a seat number, not {type(seat).__name__}")
        if (seed is None) == (deck is None):
            raise RecordError("deal", "give exactly one of a seed and a deck order")
        return cls(
            rules=rules,
            seed=seed,
            deck=parse_cards(deck) if deck is not None else None,
            dealer=rules.players - 1 if dealer is None else dealer,
            attacker=attacker,
        )

    @classmethod
    def of_game(cls, start: GameState, actions: Iterable[Action], end: GameState) -> Record:
        """The record of a game dealt from a seed, from its first state, its actions and its
        last state.

        Raises:
            RecordError: the first state has no seed (an explicit deck or a set-up position).
            TypeError: ``start`` or ``end`` is not a game state, or an action is not an action.
        """
        if not isinstance(start, GameState):
            raise TypeError(f"start must be a GameState, not {type(start).__name__}")
        actions = tuple(actions)
        for action in actions:
            if not is_action(action):
                raise TypeError(f"not an action: {brief(action)}")
        if start.seed is None:
            raise RecordError("deal", "the game has no seed; use Record.start(deck=...)")
        record = cls(
            rules=start.rules,
            seed=start.seed,
            dealer=start.dealer,
            attacker=start.appointed,
            actions=actions,
        )
        return record.finish(end)

    def add(self, action: Action) -> Record:
        """The record with one more action.

        Raises:
            TypeError: ``action`` is not an action.
        """
        if not is_action(action):
            raise TypeError(f"not an action: {brief(action)}")
        return attrs.evolve(self, actions=(*self.actions, action))

    def finish(self, state: GameState) -> Record:
        """The record with the result of the finished (or unfinished) game ``state``.

        Raises:
            TypeError: ``state`` is not a game state.
        """
        if not isinstance(state, GameState):
            raise TypeError(f"expected a GameState, not {type(state).__name__}")
        return attrs.evolve(self, result=state.result)

    def initial_state(self) -> GameState:
        """The dealt state before the first action."""
        return new_game(
            self.rules, seed=self.seed, deck=self.deck, dealer=self.dealer, attacker=self.attacker
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON values, valid against :func:`schema`."""
        deal: dict[str, Any] = {"dealer": self.dealer, "attacker": self.attacker}
        if self.deck is not None:
            deal["deck"] = [str(c) for c in self.deck]
        else:
            deal["seed"] = self.seed
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "deal": deal,
            "actions": [str(a) for a in self.actions],
            "result": result_to_dict(self.result) if self.result is not None else None,
        }
        if self.players:
            out["players"] = list(self.players)
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Read a record from plain JSON values.

        Raises:
            RecordError: naming where and why, if the data is against the schema, holds bad
                rules, cards or actions, nests deeper than :data:`MAX_DEPTH` levels or holds an
                integer of more than :data:`MAX_INT_DIGITS` digits.
        """
        check_data(data, RecordError, "the record")
        _validate(data)
        try:
            rules = Rules.from_dict(data["rules"])
        except DurakError as exc:
            raise RecordError("rules", exc.message) from None
        deal = data["deal"]
        actions = []
        known: dict[str, Action] = {}  # a game repeats many actions ("p1 take", "p0 pass")
        for i, text in enumerate(data["actions"]):
            action = known.get(text)
            if action is None:
                try:
                    action = known[text] = parse_action(text)
                except DurakError as exc:
                    raise RecordError(f"actions/{i}", exc.message) from None
            actions.append(action)
        try:
            deck = parse_cards(deal["deck"]) if "deck" in deal else None
        except DurakError as exc:
            raise RecordError("deal/deck", exc.message) from None
        result = data.get("result")
        try:
            finished = result_from_dict(result) if result is not None else None
        except RecordError as exc:
            raise RecordError(f"result/{exc.where}".rstrip("/"), exc.reason) from None
        return cls(
            rules=rules,
            seed=deal.get("seed"),
            deck=deck,
            dealer=deal["dealer"],
            attacker=deal.get("attacker"),
            actions=tuple(actions),
            result=finished,
            players=tuple(data.get("players", ())),
            meta=dict(data.get("meta", {})),
        )


#: A card's text form (R1.3) as the record schema writes it (``deal/deck``).
CARD_PATTERN = re.compile(r"^(10|[2-9TJQKAtjqka])[cdhsCDHS♣♦♥♠](#[0-9]+)?$")

#: An action's text form as the record schema writes it (``actions``): the seat, the verb and
#: its cards; :func:`durak.notation.parse_action` then reads it.
ACTION_PATTERN = re.compile(r"^p[0-9]+ [a-z]+( \S+)*$")

_TOP_FIELDS = ("format", "version", "rules", "deal", "actions", "result", "players", "meta")
_TOP_REQUIRED = ("format", "version", "rules", "deal", "actions")
_DEAL_FIELDS = ("seed", "deck", "dealer", "attacker")


def _fail(where: str, reason: str) -> RecordError:
    if len(reason) > 200:  # a reason may show the value, which may be long
        reason = reason[:197] + "..."
    return RecordError(where, reason)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_fields(data: Any, where: str, what: str, known: Iterable[str]) -> Mapping[str, Any]:
    """``data`` as an object whose keys are all ``known``, else a :class:`RecordError` at
    ``where`` naming the first unknown key."""
    if not isinstance(data, Mapping):
        raise _fail(where, f"{what} is a JSON object, not {brief(data)}")
    names = tuple(known)
    for key in data:
        if key not in names:
            raise _fail(where, f"unknown field {brief(key)} of {what} (known: {', '.join(names)})")
    return data


def _check_strings(data: Any, where: str, pattern: re.Pattern[str] | None, what: str) -> None:
    """``data`` as a list of strings (matching ``pattern``), else a :class:`RecordError` at
    ``where`` or at the first wrong item (``where/3``)."""
    if not isinstance(data, list | tuple):
        raise _fail(where, f"must be a list of {what}s, not {brief(data)}")
    for i, item in enumerate(data):
        if not isinstance(item, str) or (pattern is not None and pattern.search(item) is None):
            raise _fail(f"{where}/{i}", f"must be {what}, not {brief(item)}")


def _seat(value: Any, where: str, optional: bool = False) -> None:
    if optional and value is None:
        return
    if not _is_int(value) or value < 0:
        also = " or null" if optional else ""
        raise _fail(where, f"must be a seat number (0 or more){also}, not {brief(value)}")


def _validate(data: Any) -> None:
    """Check a record's shape, as its JSON Schema (:func:`schema`) does, naming the first
    problem's JSON path: the fields and their types, the card and action patterns, exactly one
    of a seed and a deck. The rules, the cards and the actions themselves are read afterwards,
    by their own readers. The test suite checks this against the schema with a JSON Schema
    validator; the library needs none at run time.

    Raises:
        RecordError: naming where and why.
    """
    record = _check_fields(data, "", "a record", _TOP_FIELDS)
    for name in _TOP_REQUIRED:
        if name not in record:
            raise _fail("", f"the field {brief(name)} of a record is missing")
    if record["format"] != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}, not {brief(record['format'])}")
    version = record["version"]
    if not _is_int(version) or version != VERSION:
        raise _fail("version", f"must be {VERSION} (the format version), not {brief(version)}")
    if not isinstance(record["rules"], Mapping):
        raise _fail("rules", f"the rules are a JSON object, not {brief(record['rules'])}")
    deal = _check_fields(record["deal"], "deal", "the deal", _DEAL_FIELDS)
    if "seed" in deal and not (_is_int(deal["seed"]) or isinstance(deal["seed"], str)):
        raise _fail("deal/seed", f"a seed is an integer or text, not {brief(deal['seed'])}")
    if "deck" in deal:
        _check_strings(deal["deck"], "deal/deck", CARD_PATTERN, "a card such as '7h'")
    if ("seed" in deal) == ("deck" in deal):
        raise _fail("deal", "give exactly one of 'seed' and 'deck'")
    if "dealer" not in deal:
        raise _fail("deal", "the field 'dealer' of the deal is missing")
    _seat(deal["dealer"], "deal/dealer")
    if "attacker" in deal:
        _seat(deal["attacker"], "deal/attacker", optional=True)
    _check_strings(record["actions"], "actions", ACTION_PATTERN, "an action such as 'p0 lead 7h'")
    result = record.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise _fail("result", f"the result is a JSON object or null, not {brief(result)}")
    missing = [name for name in _RESULT_FIELDS if result is not None and name not in result]
    if missing:
        raise _fail("result", f"the field {brief(missing[0])} of the result is missing")
    if "players" in record:
        _check_strings(record["players"], "players", None, "a name")
    if "meta" in record and not isinstance(record["meta"], Mapping):
        raise _fail("meta", f"meta is a JSON object, not {brief(record['meta'])}")


def replay(record: Record) -> GameState:
    """Play the record's actions from its deal, checking each one (R13.3), and return the last
    state.

    Raises:
        ReplayError: the first illegal action, with its index and the rule it breaks; or a
            recorded result that differs from the replayed one.
        RecordError: a deal the rules cannot make (bad dealer, deck or seed).
        TypeError: ``record`` is not a :class:`Record`.
    """
    if not isinstance(record, Record):
        raise TypeError(f"expected a Record, not {type(record).__name__}")
    try:
        state = record.initial_state()
    except DurakError as exc:
        raise RecordError("deal", exc.message) from None
    for i, action in enumerate(record.actions):
        bad = check(state, action)
        if bad is not None:
            raise ReplayError(i, action, bad[0], bad[1])
        state = apply(state, action)
    if record.result is not None and record.result != state.result:
        raise ReplayError(None, None, None, message("error.replay-result"))
    return state


def dumps(record: Record, *, indent: int | None = 2) -> str:
    """The record as JSON text: with ``indent``, one field a line, and each entry of ``meta`` on
    one line; without, all on one line.

    Raises:
        TypeError: ``record`` is not a :class:`Record`.
    """
    if not isinstance(record, Record):
        raise TypeError(f"expected a Record, not {type(record).__name__}")
    data = record.to_dict()
    if indent is None or "meta" not in data:
        return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    meta = data.pop("meta")
    text = json.dumps(data, indent=indent, ensure_ascii=False)  # ends with "\n}"
    # ``meta`` comes last (Record.to_dict), each entry on one line: a front-end's or the bots'
    # state can hold long lists of numbers.
    pad = " " * indent
    entries = ",\n".join(
        f"{pad * 2}{json.dumps(key, ensure_ascii=False)}: "
        + json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        for key, value in meta.items()
    )
    return f'{text[:-2]},\n{pad}"meta": {{\n{entries}\n{pad}}}\n}}\n'


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text (``str``, or ``bytes`` in UTF-8, -16 or -32).

    Text longer than :data:`MAX_RECORD_BYTES` (2 MiB in UTF-8) is refused before it is parsed.

    Raises:
        RecordError: the text is too big, is not JSON, nests deeper than :data:`MAX_DEPTH`
            levels, holds an integer of more than :data:`MAX_INT_DIGITS` digits, or the record
            is malformed (naming where and why).
        TypeError: ``text`` is neither text nor bytes.
    """
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"a record is JSON text or bytes, not {type(text).__name__}")
    check_size(text, MAX_RECORD_BYTES, "the record", RecordError)
    return Record.from_dict(parse_json(text, RecordError, "the record"))


def dump(record: Record, file: str | Path | IO[str]) -> None:
    """Write the record as JSON to a path or an open text file.

    Raises:
        TypeError: ``record`` is not a :class:`Record`, or ``file`` is neither a path nor an
            open file.
        OSError: the file cannot be written.
    """
    text = dumps(record)
    if isinstance(file, str | PathLike):
        Path(file).write_text(text, encoding="utf-8")
    elif callable(getattr(file, "write", None)):
        file.write(text)
    else:
        raise TypeError(f"expected a path or an open file, not {type(file).__name__}")


def load(file: str | Path | IO[str]) -> Record:
    """Read a record from a path (a UTF-8 file) or an open file.

    A file bigger than :data:`MAX_RECORD_BYTES` (2 MiB) is refused before it is read; at most
    that much is ever read.

    Raises:
        RecordError: the file cannot be read, is too big, is not JSON, or the record is
            malformed (naming where and why).
        TypeError: ``file`` is neither a path nor an open file.
    """
    data = read_limited(file, MAX_RECORD_BYTES, "a record", RecordError)
    if isinstance(file, str | PathLike) and isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError("", f"cannot read {file}: not UTF-8 text ({exc.reason})") from None
    return loads(data)
