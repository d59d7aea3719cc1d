"""The error contract (issue 26 items 4 and 6, issue 32 items 2 and 4): no public call lets
anything but a :class:`~durak.errors.DurakError` or a :class:`TypeError` escape for junk
arguments, 5,000-digit integers included; every error carries its data in one shape (a code of a
family, typed parameters, the whole sentence as a message) and is said in every shipped
language."""

from __future__ import annotations

import json
import pickle
import re
import string
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional_parts import examples

import durak.errors
from durak import (
    Beat,
    Card,
    DurakError,
    ExchangeTrump,
    IllegalActionError,
    InvalidCardError,
    InvalidError,
    Lead,
    Pass,
    PositionError,
    Rank,
    Redeal,
    Rules,
    RulesError,
    SeatError,
    ShowTrump,
    Suit,
    Take,
    ThrowIn,
    Transfer,
    apply,
    check,
    is_legal,
    legal_actions,
    new_game,
    new_position,
    parse_cards,
    validate_state,
    view,
)
from durak.cards import build_deck
from durak.events import Acted, Beaten, Drew, GameOver, describe_event
from durak.i18n import LANGUAGES, Language, language
from durak.messages import TEMPLATES, Message, message
from durak.notation import parse_action
from durak.presets import get_preset, rules_from_mapping
from durak.records import Record, RecordError, dumps, loads
from durak.rules.extensions import Catch
from durak.rules.settings import SETTINGS
from durak.serialize import event_to_dict, state_from_dict, state_to_dict

ALLOWED = (DurakError, TypeError)
HUGE = 10**5000

CONTRACT_SETTINGS = settings(
    max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# -- a legal position to put junk into --------------------------------------------------------

_DECK = [str(c) for c in build_deck(36)]
#: A game between bouts: the stock's last card (Ks) is the face-up trump.
BETWEEN: dict[str, Any] = {
    "hands": [" ".join(_DECK[0:6]), " ".join(_DECK[6:12])],
    "stock": " ".join(_DECK[12:35]),
    "trump": "s",
    "attacker": 0,
    "discard": _DECK[35],
}
#: The same with a bout in play: one attack card on the table.
IN_BOUT: dict[str, Any] = {**BETWEEN, "stock": " ".join(_DECK[13:35]), "table": [(_DECK[12], None)]}
STATE = new_game(Rules(), seed=1)


def _say_everywhere(error: BaseException) -> None:
    """The error's text, and for a library error its message in every language."""
    str(error)
    if isinstance(error, DurakError):
        for lang in LANGUAGES:
            language(lang).say(error.message)
            language(lang).say(error.message, you=0)


def _only_allowed(call: Callable[[], object]) -> bool:
    """Run ``call``: it may return (``True``), or raise a library error or a TypeError that can
    be shown and said (``False``); anything else fails the test."""
    try:
        call()
    except ALLOWED as exc:
        _say_everywhere(exc)
        return False
    return True


# -- issue 26 item 4: huge integers -----------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "field"),
    [(BETWEEN, "trump"), (BETWEEN, "defences"), (IN_BOUT, "defender_hand"), (BETWEEN, "bouts")],
)
@pytest.mark.parametrize("value", [HUGE, -HUGE], ids=["huge", "minus-huge"])
def test_issue26_4_new_position_refuses_a_huge_integer_naming_the_field(
    base: dict[str, Any], field: str, value: int
) -> None:
    with pytest.raises((PositionError, InvalidCardError)) as caught:
        new_position(Rules(), **{**base, field: value})
    assert "5001 digits" in str(caught.value)
    _say_everywhere(caught.value)


@pytest.mark.parametrize(
    "value", [HUGE, -HUGE, [HUGE], {"a": HUGE}], ids=["huge", "minus-huge", "list", "dict"]
)
def test_issue26_4_catch_refuses_a_huge_player_as_take_does(value: Any) -> None:
    with pytest.raises(InvalidError) as caught:
        Catch(value, "7h")
    with pytest.raises(InvalidError) as take:
        Take(value)
    assert caught.value.code == take.value.code
    assert caught.value.code in ("input.not-a-seat", "input.seat-too-big")


def test_issue26_4_a_message_with_huge_parameters_is_said_in_every_language() -> None:
    params = {
        "card": HUGE,
        "player": HUGE,
        "n": HUGE,
        "seat": HUGE,
        "count": -HUGE,
        "place": HUGE,
        "players": (HUGE, 1),
        "cards": (HUGE,),
        "limit": [HUGE],
        "hand": {"a": HUGE},
        "cap": float("nan"),
        "need": HUGE,
        "total": HUGE,
        "defender": HUGE,
        "attack": HUGE,
        "trump": HUGE,
        "given": HUGE,
        "known": HUGE,
    }
    for code in ("illegal.not-in-hand", "illegal.lead-over-limit", "event.out", "event.losers"):
        said = message(code, **params)
        assert "5001 digits" in said
        for lang in LANGUAGES:
            assert "5001 digits" in Language(lang).say(said, you=HUGE)


def test_issue26_4_language_calls_refuse_junk_with_type_errors() -> None:
    lang = Language("ru")
    for call in (
        lambda: Language(HUGE),  # type: ignore[arg-type]
        lambda: lang.say(HUGE),  # type: ignore[arg-type]
        lambda: lang.card(HUGE),  # type: ignore[arg-type]
        lambda: lang.rank_name(HUGE),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(InvalidError, match="no catalog") as caught:
        Language("x" * 100_000)
    assert caught.value.code == "input.unknown-language"
    assert lang.seat(HUGE) == "игрок <an integer of 5001 digits>"
    assert lang.ordinal(HUGE) == "<an integer of 5001 digits>"


@pytest.mark.parametrize("seat", [HUGE, 2, -3], ids=["huge", "two", "minus-three"])
def test_issue26_4_a_state_asked_about_a_seat_it_lacks_raises_seat_error(seat: int) -> None:
    with pytest.raises(SeatError) as caught:
        STATE.is_active(seat)
    assert caught.value.code == "seat.no-seat"
    assert isinstance(caught.value, IndexError)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("stock", (HUGE,)),
        ("discard", (HUGE, -HUGE)),
        ("table", ((HUGE, None),)),
        ("passed", frozenset({HUGE})),
        ("exchange", frozenset({HUGE})),
        ("shown", frozenset({HUGE})),
        ("trump_card", HUGE),
        ("result", HUGE),
    ],
    ids=lambda v: v if isinstance(v, str) else "junk",
)
def test_issue26_4_validate_state_names_a_hand_built_field_of_huge_integers(
    field: str, value: Any
) -> None:
    with pytest.raises(PositionError) as caught:
        validate_state(attrs.evolve(STATE, **{field: value}))
    assert str(caught.value).startswith(f"{field}: ")


def test_issue26_4_describing_a_hand_built_event_of_junk_raises_type_error() -> None:
    for event in (Beaten(0, HUGE, HUGE), Drew(HUGE, HUGE, None)):
        assert "5001" in Language("de").say(describe_event(event), you=0)
    for event in (Acted(0, HUGE), GameOver(HUGE)):
        with pytest.raises(TypeError, match="5001 digits"):
            describe_event(event)
    with pytest.raises(TypeError):
        event_to_dict(Beaten(0, HUGE, HUGE))


# -- issue 26 item 6: one shape of error data ------------------------------------------------

#: The families of codes: what each says.
FAMILIES = {"illegal", "rules", "card", "input", "seat", "position", "error", "action", "event"}
FAMILIES |= {"move", "game"}  # what a player types (durak.moves), a game's history (durak.Game)


def test_issue26_6_every_code_is_of_a_family() -> None:
    for code in TEMPLATES:
        family, _, rest = code.partition(".")
        assert rest and re.fullmatch(r"[a-z0-9-]+(:[a-z-]+)?", rest), code
        assert family in FAMILIES | {"server"}, code


def test_issue26_6_old_bare_codes_are_still_read() -> None:
    from durak.messages import ALIASES

    said = message("not-in-hand", card=Card.parse("9c"), player=0)
    assert said.code == "illegal.not-in-hand"
    assert ALIASES["not-leader"] == "illegal.not-leader"
    assert Language("de").template("not-led") == Language("de").template("illegal.not-led")
    assert pickle.loads(pickle.dumps(said)).code == "illegal.not-in-hand"


def test_issue26_6_rules_error_params_are_numbers_as_illegal_action_params_are() -> None:
    with pytest.raises(RulesError) as caught:
        Rules(players=9)
    err = caught.value
    assert err.code == "rules.deal-too-big"
    assert dict(err.params) == {"count": 9, "hand": 6, "need": 54, "total": 36}
    with pytest.raises(IllegalActionError) as illegal:
        apply(STATE, Take(1))
    assert illegal.value.code == "illegal.not-led"
    assert err.message.code == "error.rules"
    assert illegal.value.message.code == "error.illegal-action"


@pytest.mark.parametrize(
    ("call", "near"),
    [
        (lambda: get_preset("perevodnoi"), "perevodnoy"),
        (lambda: get_preset("Podkidnoi"), "podkidnoy"),
        (lambda: Rules(playrs=3), "players"),
        (lambda: Rules().replace(hand_sise=5), "hand_size"),
        (lambda: rules_from_mapping({"prest": "podkidnoy"}), "preset"),
        (lambda: Rules(lead="same-rank"), "'same_rank'"),
    ],
)
def test_issue26_6_an_unknown_name_suggests_the_nearest(call: Any, near: str) -> None:
    with pytest.raises(RulesError) as caught:
        call()
    assert caught.value.code.endswith("-near")
    assert caught.value.params["near"] == near
    assert f"did you mean {near}?" in str(caught.value)
    assert near in Language("pl").say(caught.value.message)


def test_issue26_6_a_name_near_nothing_suggests_nothing() -> None:
    with pytest.raises(RulesError) as caught:
        get_preset("zzzzzz")
    assert caught.value.code == "rules.unknown-preset"
    with pytest.raises(RulesError) as setting:
        Rules(qqqqq=1)
    assert setting.value.code == "rules.unknown-setting"


# -- issue 32 item 2: every error speaks every language ---------------------------------------


def _raised(call: Callable[[], object]) -> DurakError:
    with pytest.raises(DurakError) as caught:
        call()
    return caught.value


#: One error of each kind a front-end meets, from a real call.
ERRORS: dict[str, Callable[[], object]] = {
    "card": lambda: Card.parse("Xh"),
    "card copy": lambda: Card.parse("Qh#1"),
    "suit": lambda: Suit.parse("x"),
    "rank": lambda: Rank.parse("1"),
    "cards": lambda: parse_cards(3.5),  # type: ignore[arg-type]
    "deck": lambda: build_deck(37),
    "action": lambda: Lead(0, []),
    "player": lambda: Take(-1),
    "seat": lambda: legal_actions(STATE, 5),
    "position": lambda: new_position(Rules(), **{**BETWEEN, "attacker": 7}),
    "position card twice": lambda: new_position(Rules(), **{**BETWEEN, "discard": "Ks"}),
    "position cards missing": lambda: new_position(Rules(), **{**BETWEEN, "discard": ()}),
    "position trump": lambda: new_position(Rules(), **{**BETWEEN, "trump": "h"}),
    "position hands": lambda: new_position(Rules(), **{**BETWEEN, "hands": ["6c"]}),
    "illegal": lambda: apply(STATE, Take(0)),
    "rules": lambda: Rules(players=13),
    "preset": lambda: get_preset("perevodnoi"),
    "teams": lambda: Rules(players=4, teams=[[0, 1], [2, 3]]),
    "house rules": lambda: Rules(house_rules=["x", 1]),
    "strict suits": lambda: Rules(strict_suits=["x"]),
    "jokers": lambda: Rules(jokers=1),
    "language": lambda: Language("xx"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_issue32_2_every_error_carries_a_code_params_and_its_whole_sentence(name: str) -> None:
    err = _raised(ERRORS[name])
    assert err.code in TEMPLATES and err.code == err.reason.code
    assert isinstance(err.message, Message) and err.message.code in TEMPLATES
    assert str(err) == str(err.message)
    assert dict(err.params) == dict(err.reason.params)
    english = Language("en").say(err.message, ascii=True)
    assert english == str(err)
    for lang in ("de", "pl", "ru"):
        said = Language(lang).say(err.message)
        assert said != english and "{" not in said, (lang, said)


def test_issue32_2_the_lead_in_of_an_illegal_move_is_translated() -> None:
    err = _raised(lambda: apply(STATE, Take(0)))
    assert str(err) == "player 0 cannot take: no bout has been led yet (R4.2)"
    assert Language("en").say(err.message, you=0) == (
        "you cannot take: no bout has been led yet (R4.2)"
    )
    ru = Language("ru").say(err.message)
    assert ru.startswith("недопустимый ход (игрок 0): беру;")
    assert ru.endswith("(R4.2)")
    assert "cannot" not in Language("de").say(err.message, you=0)


def test_issue32_2_every_error_class_has_the_shape() -> None:
    classes = [
        c for c in vars(durak.errors).values() if isinstance(c, type) and issubclass(c, DurakError)
    ] + [RecordError]
    for cls in classes:
        if cls is RulesError:
            err: DurakError = cls("players", "x")
        elif cls is IllegalActionError:
            err = cls(Take(0), 0, "R4.2", "x")
        elif cls is RecordError:
            err = cls("deal", "x")
        else:
            err = cls("x")
        assert isinstance(err.message, Message) and err.code == err.reason.code, cls
        copy = pickle.loads(pickle.dumps(err))
        assert (type(copy), str(copy), copy.code) == (cls, str(err), err.code)


def test_issue32_2_a_record_error_keeps_the_code_of_what_it_wraps() -> None:
    data = json.loads(dumps(Record.start(Rules(), seed=1)))
    data["rules"]["players"] = 13
    with pytest.raises(RecordError) as caught:
        loads(json.dumps(data))
    err = caught.value
    assert err.message.code == "error.at" and err.where == "rules"
    assert err.code == "error.rules" and err.reason.params["reason"].code == "rules.deal-too-big"
    assert (
        str(err) == "rules: players: 13 players x 6 cards need 78 cards, but the deck has 36 (R2.1)"
    )
    assert "Spieler" not in str(err) and "13" in Language("de").say(err.message)


# -- issue 32 item 4: the action of an illegal action -----------------------------------------


def test_issue32_4_illegal_action_error_holds_the_action_and_its_description() -> None:
    err = _raised(lambda: apply(STATE, Take(0)))
    assert isinstance(err, IllegalActionError)
    assert err.action == Take(0)
    assert err.description.code == "action.take" and err.description == "take"
    copy = pickle.loads(pickle.dumps(err))
    assert isinstance(copy, IllegalActionError)
    assert (copy.action, copy.player, copy.rule, copy.code) == (Take(0), 0, "R4.2", err.code)
    assert copy.message.code == "error.illegal-action" and str(copy) == str(err)
    older = IllegalActionError("take", 0, "R4.2", "why")
    assert older.action is None and older.description == "take"


# -- issue 26 "Done means": no public call lets another error escape ---------------------------

_SPECIAL: dict[str, Callable[[], Any]] = {
    "a 5001-digit integer": lambda: HUGE,
    "a negative 5001-digit integer": lambda: -HUGE,
    "a list of a 5001-digit integer": lambda: [HUGE, 1],
    "a pair of 5001-digit integers": lambda: (HUGE, HUGE),
    "a table of a 5001-digit integer": lambda: [("6h", HUGE)],
    "a mapping of a 5001-digit integer": lambda: {"players": HUGE},
    "100,000 characters": lambda: "9" * 100_000,
    "a list 2000 deep": lambda: _deep(2_000),
    "nan": lambda: float("nan"),
    "an object": lambda: object(),
    "bytes": lambda: b"\xff",
}


def _deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


SPECIAL = st.sampled_from(sorted(_SPECIAL)).map(lambda name: _SPECIAL[name]())
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["7h", "Jk", "s", "players", "perevodnoi", "p0 take"])
    | SPECIAL,
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner),
    max_leaves=6,
)

_ACTIONS = (Lead, ThrowIn, Beat, Take, Pass, Transfer, ShowTrump, ExchangeTrump, Redeal, Catch)
_FIELDS = (
    "hands",
    "stock",
    "trump",
    "attacker",
    "discard",
    "trump_card",
    "dealer",
    "first_bout",
    "exchange",
    "defender",
    "table",
    "defender_hand",
    "taken",
    "passed",
    "shown",
    "known",
    "leader",
    "joined",
    "bouts",
    "defences",
    "places",
    "left",
    "extra",
)
_STATE_DICT = state_to_dict(STATE)
_CODES = ("illegal.not-in-hand", "illegal.table-full", "event.out", "rules.deal-too-big")


def _junk_message(code: str, j: Any) -> Message:
    """The message ``code`` with ``j`` for every parameter its texts name."""
    names = {
        field
        for text in TEMPLATES[code]
        if text
        for _, field, _, _ in string.Formatter().parse(text)
        if field
    }
    return message(code, **dict.fromkeys(names, j))


def _calls(
    j: Any, k: Any, name: str, setting: str, code: str, lang: str
) -> list[Callable[[], object]]:
    """Every public call, with the junk ``j`` (and ``k``) in one argument."""
    lng = Language(lang)
    return [
        lambda: new_game(Rules(), seed=j),
        lambda: new_game(j),
        lambda: new_position(Rules(), **{**BETWEEN, name: j}),
        lambda: new_position(Rules(), **{**IN_BOUT, name: j}),
        lambda: apply(STATE, j),
        lambda: apply(j, Take(1)),
        lambda: legal_actions(STATE, j),
        lambda: legal_actions(j),
        lambda: is_legal(STATE, j),
        lambda: check(STATE, j),
        lambda: view(STATE, j),
        lambda: view(j, 0),
        lambda: STATE.is_active(j),
        lambda: validate_state(attrs.evolve(STATE, **{name: j})),
        *[lambda a=a: a(j) for a in _ACTIONS],
        *[lambda a=a: a(0, j) for a in _ACTIONS],
        *[lambda a=a: a(j, "7h") for a in _ACTIONS],
        lambda: Beat(0, "7h", j),
        lambda: Rules(**{setting: j}),
        lambda: Rules().replace(**{name: j}),
        lambda: rules_from_mapping({setting: j}),
        lambda: rules_from_mapping(j),
        lambda: get_preset(j),
        lambda: parse_action(j),
        lambda: state_from_dict({**_STATE_DICT, name: j}),
        lambda: state_from_dict({**_STATE_DICT, "hands": j}),
        lambda: loads(j),
        lambda: Card.parse(j),
        lambda: parse_cards(j),
        lambda: Suit.parse(j),
        lambda: Rank.parse(j),
        lambda: Language(j),
        lambda: lng.say(j),
        lambda: lng.say(message("illegal.not-in-hand", card=Card.parse("7h"), player=0), you=j),
        lambda: lng.say(_junk_message(code, j)),
        lambda: lng.seat(j),
        lambda: lng.ordinal(j),
        lambda: lng.card(j),
        lambda: DurakError(j),
        lambda: RulesError(j, j),
        lambda: IllegalActionError(j, j, j, j),
        lambda: PositionError(k),
    ]


@CONTRACT_SETTINGS
@given(
    j=JUNK,
    k=JUNK,
    name=st.sampled_from(_FIELDS + tuple(a.name for a in attrs.fields(Rules))),
    setting=st.sampled_from(SETTINGS),
    code=st.sampled_from(_CODES),
    lang=st.sampled_from(LANGUAGES),
)
def test_issue26_done_no_public_call_lets_another_error_escape_for_junk(
    j: Any, k: Any, name: str, setting: str, code: str, lang: str
) -> None:
    calls = _calls(j, k, name, setting, code, lang)
    refused = sum(not _only_allowed(call) for call in calls)
    assert refused, "junk everywhere, yet every call took it"
