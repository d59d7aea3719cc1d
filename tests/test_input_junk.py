"""Every reader and writer of notation.py, records.py, serialize.py, presets.py and the card
parsers, given arbitrary Python values (None, numbers, lists, dicts, bytes, objects, deep or
long values) or junk text, raises only a DurakError or a TypeError: never a KeyError,
AttributeError, IndexError, RecursionError or bare ValueError."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional_parts import examples

from durak import Card, DurakError, Rules, new_game
from durak.cards import Rank, Suit, build_deck, parse_cards
from durak.notation import format_position, parse_action, parse_position
from durak.presets import (
    dump_rules,
    dumps_rules,
    get_preset,
    load_rules,
    loads_rules,
    rules_from_mapping,
)
from durak.records import (
    Record,
    dump,
    dumps,
    load,
    loads,
    replay,
    result_from_dict,
    result_to_dict,
)
from durak.serialize import (
    event_from_dict,
    event_to_dict,
    state_from_dict,
    state_to_dict,
    view_from_dict,
    view_to_dict,
)

ALLOWED = (DurakError, TypeError)

JUNK_SETTINGS = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


_SPECIAL: dict[str, Callable[[], Any]] = {
    "a 5001-digit integer": lambda: 10**5000,
    "a negative 5001-digit integer": lambda: -(10**5000),
    "a list 5000 deep": lambda: _deep(5_000),
    "nan": lambda: float("nan"),
    "inf": lambda: float("inf"),
    "5000 digits of text": lambda: "9" * 5_000,
    "bytes that are not UTF-8": lambda: b"\xff",
    "an empty tuple": lambda: (),
}
# built on demand, as Hypothesis shows the strategy's repr (and 10**5000 has none)
SPECIAL = st.sampled_from(sorted(_SPECIAL)).map(lambda name: _SPECIAL[name]())

SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | st.binary()
)

#: JSON-like values, and a little more (tuples, bytes, sets).
VALUES = st.recursive(
    SCALARS | SPECIAL,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=12) | st.integers(), inner, max_size=4)
        | st.frozensets(st.integers() | st.text(max_size=3), max_size=3)
    ),
    max_leaves=12,
)

#: Objects of other kinds, the library's own included where another is expected.
OBJECTS = st.sampled_from(
    [
        object(),
        Ellipsis,
        int,
        type,
        complex(1, 2),
        Decimal("1.5"),
        Fraction(1, 3),
        range(3),
        Exception("x"),
        len,
        Rules(),
        Card.parse("7h"),
        Suit.HEARTS,
        Rank.TEN,
        new_game(Rules(), seed=2),
        Record.start(Rules(), seed=2),
        io.StringIO("{}"),
        io.BytesIO(b"[]"),
    ]
)

JUNK = VALUES | OBJECTS

#: Text made of the notation's own characters, and a few look-alikes, to get past the first
#: checks of the parsers.
NOTATION_TEXT = st.text(
    alphabet="p0123456789 \tleadthrowbeaktspnfxcgPTJQKA#,;:/-hands:stock:trump:attacker:discard"
    "first_bout:yesno\u0663\u212a\u017f\uff13\u00b2♣♦♥♠",
    max_size=60,
)
TEXT = st.text(max_size=40) | NOTATION_TEXT | st.sampled_from(["p" + "9" * 5000 + " take"])

_RECORD = json.loads(dumps(Record.start(Rules(), seed=3)))
_FIELDS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("rules", "players"),
    ("rules", "teams"),
    ("rules", "strict_suits"),
    ("deal",),
    ("deal", "seed"),
    ("deal", "deck"),
    ("deal", "dealer"),
    ("actions",),
    ("result",),
    ("players",),
    ("meta",),
    ("version",),
)


def _near_record(field: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A valid record with one field replaced by junk."""
    data: dict[str, Any] = json.loads(json.dumps(_RECORD))
    target = data
    for key in field[:-1]:
        target = target[key]
    target[field[-1]] = value
    return data


NEAR_RECORDS = st.builds(_near_record, st.sampled_from(_FIELDS), VALUES)


def _only_allowed(function: Callable[..., object], *args: Any, **kwargs: Any) -> None:
    """Call ``function``: it may return or raise one of :data:`ALLOWED`; anything else fails."""
    with contextlib.suppress(*ALLOWED):
        function(*args, **kwargs)


@contextlib.contextmanager
def _in_empty_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        yield Path(folder)


@JUNK_SETTINGS
@given(value=JUNK | TEXT)
def test_card_parsers_raise_only_library_or_type_errors(value: Any) -> None:
    for parse in (Card, Card.parse, Suit.parse, Rank.parse, parse_cards):
        _only_allowed(parse, value)
    _only_allowed(lambda: build_deck(value))
    _only_allowed(lambda: Card.of(value, 0))


@JUNK_SETTINGS
@given(value=JUNK | TEXT, text=NOTATION_TEXT)
def test_notation_raises_only_library_or_type_errors(value: Any, text: str) -> None:
    _only_allowed(lambda: parse_action(value))
    _only_allowed(lambda: parse_action(text))
    _only_allowed(lambda: parse_position(value, Rules()))
    _only_allowed(lambda: parse_position(text, Rules(deck_size=24)))
    _only_allowed(lambda: parse_position("hands: 6h / 7h; trump: d; attacker: 0", value))
    _only_allowed(lambda: format_position(value))


@JUNK_SETTINGS
@given(value=JUNK | TEXT | NEAR_RECORDS)
def test_record_readers_raise_only_library_or_type_errors(value: Any) -> None:
    _only_allowed(lambda: Record.from_dict(value))
    _only_allowed(lambda: result_from_dict(value))
    text: Any = value
    with contextlib.suppress(TypeError, ValueError, RecursionError):  # not JSON
        text = json.dumps(value)
    _only_allowed(lambda: loads(text))
    _only_allowed(lambda: loads(value))
    with _in_empty_dir():
        _only_allowed(lambda: load(value))
        _only_allowed(lambda: load(io.StringIO(text) if isinstance(text, str) else value))


@JUNK_SETTINGS
@given(value=JUNK)
def test_record_writers_raise_only_library_or_type_errors(value: Any) -> None:
    record = Record.start(Rules(), seed=1)
    for call in (
        lambda: dumps(value),
        lambda: dump(value, io.StringIO()),
        lambda: dump(record, value) if not isinstance(value, str | bytes) else None,
        lambda: replay(value),
        lambda: result_to_dict(value),
        lambda: record.add(value),
        lambda: record.finish(value),
        lambda: Record.start(value, seed=1),
        lambda: Record.start(Rules(), seed=value),
        lambda: Record.start(Rules(), deck=value),
        lambda: Record.start(Rules(), seed=1, dealer=value),
        lambda: Record.of_game(value, [], value),
    ):
        _only_allowed(call)


@JUNK_SETTINGS
@given(value=JUNK | NEAR_RECORDS)
def test_serialize_raises_only_library_or_type_errors(value: Any) -> None:
    for read in (state_from_dict, view_from_dict, event_from_dict):
        _only_allowed(read, value)
    for write in (state_to_dict, view_to_dict, event_to_dict):
        _only_allowed(write, value)
    if isinstance(value, dict):
        _only_allowed(lambda: event_from_dict({**value, "type": "Beaten"}))


_STATE = state_to_dict(new_game(Rules(), seed=1))


@JUNK_SETTINGS
@given(field=st.sampled_from(sorted(_STATE)), value=VALUES)
def test_a_state_with_one_junk_field_raises_only_library_or_type_errors(
    field: str, value: Any
) -> None:
    _only_allowed(lambda: state_from_dict({**_STATE, field: value}))


@JUNK_SETTINGS
@given(value=JUNK | TEXT, fmt=st.sampled_from(["toml", "json"]) | JUNK)
def test_rules_readers_raise_only_library_or_type_errors(value: Any, fmt: Any) -> None:
    _only_allowed(lambda: Rules.from_dict(value))
    _only_allowed(lambda: rules_from_mapping(value))
    _only_allowed(lambda: get_preset(value))
    _only_allowed(lambda: loads_rules(value, fmt))
    _only_allowed(lambda: dumps_rules(value))
    _only_allowed(lambda: dumps_rules(Rules(), fmt))
    for form in ("toml", "json"):
        _only_allowed(loads_rules, value, form)
    if isinstance(value, dict):
        text: Any = None
        with contextlib.suppress(TypeError, ValueError, RecursionError):  # not JSON
            text = json.dumps(value)
        _only_allowed(lambda: loads_rules(text, "json"))
        for name in ("players", "teams", "strict_suits", "lead", "house_rules", "deck_size"):
            _only_allowed(Rules.from_dict, {name: value})
            _only_allowed(rules_from_mapping, {name: value})
    with _in_empty_dir() as folder:
        _only_allowed(lambda: load_rules(value))
        _only_allowed(lambda: dump_rules(value, folder / "rules.toml"))


@JUNK_SETTINGS
@given(
    name=st.sampled_from(["players", "teams", "strict_suits", "lead", "first_bout_max"]),
    value=VALUES,
)
def test_a_setting_of_junk_raises_only_library_or_type_errors(name: str, value: Any) -> None:
    _only_allowed(lambda: Rules.from_dict({name: value}))
    _only_allowed(lambda: Rules().replace(**{name: value}))
    _only_allowed(lambda: rules_from_mapping({"preset": "pairs", name: value}))
