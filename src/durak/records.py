"""Game records: a versioned JSON form of a whole game, and its replay.

A record holds the rules, the deal (a seed of the frozen shuffle, R2.5, or an explicit deck
order), every action in the order played (in the text form of :mod:`durak.notation`) and the
result. Its JSON Schema ships with the package (:func:`schema`). :func:`replay` plays the actions
again, checking every one, and reports the first illegal action with its index.

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
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import IO, Any

import attrs
import jsonschema

from durak.actions import Action
from durak.cards import Card, parse_cards
from durak.engine import apply, check, new_game
from durak.errors import DurakError, InvalidError
from durak.notation import parse_action
from durak.rules.settings import Rules
from durak.state import GameState, Result

__all__ = [
    "FORMAT",
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


class RecordError(InvalidError):
    """A record that is malformed: not JSON, against the schema, or with bad rules or cards.

    Attributes:
        where: the JSON path of the problem, e.g. ``"actions/3"`` (empty for the whole record).
    """

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where or '(top)'}: {reason}")


class ReplayError(DurakError):
    """A record whose actions cannot be replayed: one is illegal, or the result differs.

    Attributes:
        index: the 0-based index of the first illegal action (``None`` for a result mismatch).
        action: that action, or ``None``.
        rule: the rule id it breaks, or ``None``.
    """

    def __init__(self, index: int | None, action: Action | None, rule: str | None, reason: str):
        self.index = index
        self.action = action
        self.rule = rule
        self.reason = reason
        where = f"action {index} ({action})" if index is not None else "result"
        super().__init__(f"replay: {where}: {reason}" + (f" ({rule})" if rule else ""))


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of records, format version 1 (shipped as
    ``durak/schemas/record-v1.schema.json``)."""
    text = resources.files("durak").joinpath("schemas/record-v1.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def result_to_dict(result: Result) -> dict[str, Any]:
    """A result as plain JSON values."""
    return {
        "durak": result.durak,
        "draw": result.draw,
        "places": list(result.places),
        "winners": list(result.winners),
        "losers": list(result.losers),
    }


def result_from_dict(data: Mapping[str, Any]) -> Result:
    """The inverse of :func:`result_to_dict` (the caller validates the shape)."""
    return Result(
        durak=data["durak"],
        draw=data["draw"],
        places=tuple(data["places"]),
        winners=tuple(data["winners"]),
        losers=tuple(data["losers"]),
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
        """
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
        """
        if start.seed is None:
            raise RecordError("deal", "the game has no seed; use Record.start(deck=...)")
        record = cls(
            rules=start.rules,
            seed=start.seed,
            dealer=start.dealer,
            attacker=start.appointed,
            actions=tuple(actions),
        )
        return record.finish(end)

    def add(self, action: Action) -> Record:
        """The record with one more action."""
        return attrs.evolve(self, actions=(*self.actions, action))

    def finish(self, state: GameState) -> Record:
        """The record with the result of the finished (or unfinished) game ``state``."""
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
            RecordError: naming where and why, if the data is against the schema or holds bad
                rules, cards or actions.
        """
        _validate(data)
        try:
            rules = Rules.from_dict(data["rules"])
        except DurakError as exc:
            raise RecordError("rules", str(exc)) from None
        deal = data["deal"]
        actions = []
        for i, text in enumerate(data["actions"]):
            try:
                actions.append(parse_action(text))
            except DurakError as exc:
                raise RecordError(f"actions/{i}", str(exc)) from None
        try:
            deck = parse_cards(deal["deck"]) if "deck" in deal else None
        except DurakError as exc:
            raise RecordError("deal/deck", str(exc)) from None
        result = data.get("result")
        return cls(
            rules=rules,
            seed=deal.get("seed"),
            deck=deck,
            dealer=deal["dealer"],
            attacker=deal.get("attacker"),
            actions=tuple(actions),
            result=result_from_dict(result) if result is not None else None,
            players=tuple(data.get("players", ())),
            meta=dict(data.get("meta", {})),
        )


def _validate(data: Any) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        raise RecordError(where, error.message)


def replay(record: Record) -> GameState:
    """Play the record's actions from its deal, checking each one (R13.3), and return the last
    state.

    Raises:
        ReplayError: the first illegal action, with its index and the rule it breaks; or a
            recorded result that differs from the replayed one.
        RecordError: a deal the rules cannot make (bad dealer, deck or seed).
    """
    try:
        state = record.initial_state()
    except DurakError as exc:
        raise RecordError("deal", str(exc)) from None
    for i, action in enumerate(record.actions):
        bad = check(state, action)
        if bad is not None:
            raise ReplayError(i, action, bad[0], bad[1])
        state = apply(state, action)
    if record.result is not None and record.result != state.result:
        raise ReplayError(None, None, None, "the recorded result differs from the replayed one")
    return state


def dumps(record: Record, *, indent: int | None = 2) -> str:
    """The record as JSON text."""
    return json.dumps(record.to_dict(), indent=indent, ensure_ascii=False) + "\n"


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text.

    Raises:
        RecordError: the text is not JSON, or the record is malformed (naming where and why).
    """
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError("", f"not valid JSON: {exc}") from None
    return Record.from_dict(data)


def dump(record: Record, file: str | Path | IO[str]) -> None:
    """Write the record as JSON to a path or an open text file."""
    if isinstance(file, str | Path):
        Path(file).write_text(dumps(record), encoding="utf-8")
    else:
        file.write(dumps(record))


def load(file: str | Path | IO[str]) -> Record:
    """Read a record from a path or an open text file.

    Raises:
        RecordError: the file cannot be read, is not JSON, or the record is malformed.
    """
    if isinstance(file, str | Path):
        try:
            text = Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError("", f"cannot read {file}: {exc}") from None
        return loads(text)
    return loads(file.read())
