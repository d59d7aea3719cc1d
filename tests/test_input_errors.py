"""Bad input of every kind gets a clear error from the library, never a stray traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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
    Redeal,
    Rules,
    RulesError,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    apply,
    legal_actions,
    new_game,
    new_position,
    parse_cards,
    view,
)
from durak.cards import format_cards
from durak.cli import main
from durak.match import losses, streaks, team_losses, vodka, vodka_first_out
from durak.notation import parse_action, parse_position
from durak.presets import dumps_rules, load_rules, loads_rules
from durak.records import RecordError, extra_from_json
from durak.serialize import (
    event_from_dict,
    event_to_dict,
    state_from_dict,
    state_to_dict,
    view_from_dict,
    view_to_dict,
)
from durak.state import Result


@pytest.mark.parametrize("text", ["7h,8h", "A h", "7h 8h", ""])
def test_R1_3_one_card_text_holds_one_card(text: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize("value", [None, 7, 3.5])
def test_R1_3_parse_cards_rejects_what_is_not_cards(value: object) -> None:
    with pytest.raises(InvalidCardError, match="not cards"):
        parse_cards(value)  # type: ignore[arg-type]


def test_R10_1_a_team_seat_that_is_not_an_integer_is_a_rules_error() -> None:
    with pytest.raises(RulesError) as err:
        Rules(players=4, teams=[[0, "a"], [1, 3]])
    assert err.value.setting == "teams"
    assert "'a'" in str(err.value)


def test_R14_a_rules_file_that_is_not_utf8_is_a_rules_error(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RulesError) as err:
        load_rules(path)
    assert err.value.setting == "file"
    assert "UTF-8" in str(err.value)


def test_R4_7_beating_when_everything_is_beaten_cites_the_beating_rule() -> None:
    rules = Rules(deck_size=24)
    state = new_position(
        rules,
        hands=["9c Th", "Tc Kd Ks"],
        stock="Qs Ah",
        attacker=0,
        discard="Ac Jc Qc Kc 9d Td Jd Qd Ad 9h Jh Qh Kh 9s Ts Js As",
    )
    state = apply(state, Lead(0, ["9c"]))
    state = apply(state, Beat(1, "9c", "Tc"))
    # the attacker could still throw in Th, so the bout goes on with nothing unbeaten
    assert state.table == ((Card.parse("9c"), Card.parse("Tc")),)
    with pytest.raises(IllegalActionError) as err:
        apply(state, Beat(1, "9c", "Kd"))
    assert err.value.rule == "R4.7"


def test_R13_1_a_player_is_a_seat_number() -> None:
    state = new_game(Rules(), seed=1)
    for bad in (True, "0", 1.0):
        with pytest.raises(TypeError, match="seat number"):
            legal_actions(state, bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="seat number"):
            view(state, bad)  # type: ignore[arg-type]
    with pytest.raises(IndexError, match="no seat 5"):
        legal_actions(state, 5)


def test_play_save_to_a_directory_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--line", "--seed", "1", "--save", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


# --- huge integers and deep nesting ------------------------------------------------------------

BIG = 10**5000


def _deep(levels: int = 100_000) -> object:
    value: object = []
    for _ in range(levels):
        value = [value]
    return value


_SEAT_ACTIONS: list[Callable[[Any], object]] = [
    lambda p: Take(p),
    lambda p: Pass(p),
    lambda p: Redeal(p),
    lambda p: Lead(p, "7h"),
    lambda p: Transfer(p, "7h"),
    lambda p: ShowTrump(p, "7h"),
    lambda p: ExchangeTrump(p, "6h"),
    lambda p: ThrowIn(p, "7h"),
    lambda p: Beat(p, "7h", "8h"),
]


@pytest.mark.parametrize("make", _SEAT_ACTIONS)
@pytest.mark.parametrize("seat", [BIG, -BIG, 2**31], ids=["big", "minus-big", "2**31"])
def test_R13_1_a_huge_seat_number_is_refused_when_the_action_is_made(
    make: Callable[[Any], object], seat: int
) -> None:
    with pytest.raises(InvalidError, match="seat number") as err:
        make(seat)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize("make", _SEAT_ACTIONS)
def test_R13_1_a_deeply_nested_seat_is_described_briefly(make: Callable[[Any], object]) -> None:
    with pytest.raises(InvalidError, match="seat number") as err:
        make(_deep())
    assert "..." in str(err.value)


def test_R13_1_the_largest_seat_number_still_makes_an_action() -> None:
    assert str(Take(2**31 - 1)) == f"p{2**31 - 1} take"
    assert repr(Take(2**31 - 1)) == f"Take(player={2**31 - 1})"


def test_R1_3_format_cards_of_deep_junk_raises_no_recursion_error() -> None:
    with pytest.raises((DurakError, TypeError)):
        format_cards([_deep()])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("setting", "extra"),
    [
        ("max_attack", {}),
        ("first_bout_max", {}),
        ("misdeal_suit_count", {}),
        ("max_attack", {"deck_size": 24}),
    ],
)
def test_R4_6_R12_2_caps_have_upper_bounds(setting: str, extra: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as err:
        Rules(**{setting: BIG}, **extra)
    assert err.value.setting == setting
    assert "5001 digits" in str(err.value)


def test_R4_6_caps_may_be_the_number_of_cards_in_play() -> None:
    rules = Rules(max_attack=36, first_bout_max=36)
    assert dumps_rules(rules) and repr(rules)
    with pytest.raises(RulesError, match="number of cards in play"):
        Rules(max_attack=37)
    with pytest.raises(RulesError, match="first_bout_max"):
        Rules(first_bout_max=37)
    assert Rules(decks=2, max_attack=72).max_attack == 72


def test_R12_2_misdeal_suit_count_is_at_most_the_hand_size() -> None:
    assert Rules(misdeal_suit_count=6).misdeal_suit_count == 6
    with pytest.raises(RulesError, match="hand_size") as err:
        Rules(misdeal_suit_count=7)
    assert err.value.setting == "misdeal_suit_count"
    with pytest.raises(RulesError, match="misdeal_suit_count"):
        Rules(hand_size=4, misdeal_suit_count=5)


# --- match scoring (R11.3) ---------------------------------------------------------------------

_SCORINGS: list[Callable[[Any], object]] = [
    losses,
    streaks,
    vodka,
    vodka_first_out,
    lambda results: team_losses(results, [[0]]),
]


@pytest.mark.parametrize("score", _SCORINGS)
@pytest.mark.parametrize("junk", [[{}], {"a": 1}, [1], "ab", 5, None, [None]])
def test_R11_3_scoring_takes_a_sequence_of_results(
    score: Callable[[Any], object], junk: object
) -> None:
    with pytest.raises(TypeError, match=r"durak\.state\.Result"):
        score(junk)


@pytest.mark.parametrize("score", _SCORINGS)
def test_R11_3_scoring_refuses_results_that_disagree_on_the_seats(
    score: Callable[[Any], object],
) -> None:
    two = Result(durak=1, draw=False, places=(1, 2), winners=(0,), losers=(1,))
    three = Result(durak=2, draw=False, places=(1, 1, 3), winners=(0, 1), losers=(2,))
    ghost = Result(durak=7, draw=False, places=(1, 2), winners=(0,), losers=(7,))
    with pytest.raises(InvalidError, match="places"):
        score([two, three])
    with pytest.raises(InvalidError, match="durak 7"):
        score([two, ghost])
    assert score([two, two]) == score((two, two))


# --- the command line's --seed -----------------------------------------------------------------


@pytest.mark.parametrize(
    "args", [["play", "--line"], ["simulate", "--games", "1"]], ids=["play", "simulate"]
)
@pytest.mark.parametrize(
    "seed", ["9" * 5000, "x" * 1001, "\udcff"], ids=["digits", "text", "bytes"]
)
def test_cli_a_bad_seed_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], seed: str
) -> None:
    assert main([*args, "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert err.startswith("durak: error: seed: ") and err.count("\n") == 1
    assert len(err) < 200


@pytest.mark.parametrize(
    ("seed", "shown"), [("²", "²"), ("٣", "٣"), ("12", 12), ("9" * 1000, 10**1000 - 1)]
)
def test_cli_only_ascii_digits_make_a_number_seed(
    capsys: pytest.CaptureFixture[str], seed: str, shown: object
) -> None:
    assert main(["simulate", "--games", "1", "--json", "--seed", seed]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == shown


# --- records: extra facts and events (R13.3) ---------------------------------------------------


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_R13_3_extra_facts_are_finite_numbers(number: float) -> None:
    with pytest.raises(RecordError, match="finite") as err:
        extra_from_json({"score": [1, number]}, "extra")
    assert err.value.where == "extra/score/1"
    data = state_to_dict(new_game(Rules(), seed=1))
    data["extra"] = json.loads(json.dumps({"x": number}))
    with pytest.raises(RecordError, match="finite"):
        state_from_dict(data)
    assert extra_from_json({"x": 1.5}) == (("x", 1.5),)


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ({"type": "PlayerOut", "player": 0, "place": 0}, "place"),
        ({"type": "PlayerOut", "player": 0, "place": 2**31}, "place"),
        ({"type": "PlayerLeft", "player": -1, "place": 1, "partner": 0}, "player"),
        ({"type": "PlayerLeft", "player": 1, "place": 1, "partner": -2}, "partner"),
        ({"type": "Drew", "player": 0, "count": -5, "cards": None}, "count"),
        ({"type": "NewBout", "attacker": -1, "defender": 0}, "attacker"),
        ({"type": "Led", "player": 0, "cards": ["7h"], "defender": -1}, "defender"),
    ],
)
def test_R13_3_event_seats_and_counts_are_at_least_0_places_at_least_1(
    event: dict[str, Any], field: str
) -> None:
    with pytest.raises(RecordError) as err:
        event_from_dict(event)
    assert err.value.where == field


def test_R13_3_event_seats_0_and_place_1_are_read() -> None:
    event = event_from_dict({"type": "PlayerOut", "player": 0, "place": 1})
    assert event_from_dict(event_to_dict(event)) == event
    drew = event_from_dict({"type": "Drew", "player": 0, "count": 0, "cards": None})
    assert event_from_dict(event_to_dict(drew)) == drew


@pytest.mark.parametrize(
    ("event", "field", "reason"),
    [
        ({"type": "Led", "player": 0, "cards": None, "defender": 1}, "cards", "null"),
        ({"type": "BoutEnded", "defender": 1, "taken": True, "cards": None}, "cards", "null"),
        ({"type": "Transferred", "player": 0, "to": 1, "cards": None}, "cards", "null"),
        (
            {"type": "TrumpExchanged", "player": 0, "card": "6h", "face_up": None},
            "face_up",
            "null",
        ),
        ({"type": "Beaten", "player": 1, "attack": None, "card": "7h"}, "attack", "null"),
        ({"type": "GameOver", "result": None}, "result", "null"),
        ({"type": "Passed", "player": None}, "player", "null"),
        ({"type": "Led", "player": 0, "cards": [], "defender": 1}, "cards", "at least one"),
        ({"type": "Led", "player": 0, "cards": ["7h"], "defender": 0}, "defender", "himself"),
        ({"type": "Beaten", "player": 1, "attack": "7h", "card": "7h"}, "card", "differ"),
        ({"type": "Drew", "player": 0, "count": 3, "cards": ["7h"]}, "cards", "count"),
        ({"type": "Drew", "player": 0, "count": 0, "cards": ["7h"]}, "cards", "count"),
    ],
)
def test_R13_3_an_event_with_a_null_or_inconsistent_field_is_refused_naming_it(
    event: dict[str, Any], field: str, reason: str
) -> None:
    with pytest.raises(RecordError, match=reason) as err:
        event_from_dict(event)
    assert err.value.where == field


def test_R13_3_the_optional_fields_of_an_event_may_be_null() -> None:
    for data in (
        {"type": "Drew", "player": 0, "count": 2, "cards": None, "face_up": None},
        {"type": "Drew", "player": 0, "count": 1, "cards": ["7h"], "face_up": "7h"},
        {"type": "Transferred", "player": 0, "to": 1, "shown": None},
        {"type": "Transferred", "player": 0, "to": 1, "shown": "7h"},
        {"type": "BoutEnded", "defender": 1, "taken": False, "cards": []},
    ):
        event = event_from_dict(data)
        assert event_from_dict(event_to_dict(event)) == event


@pytest.mark.parametrize("field", ["stock", "hands", "table", "rules", "trump", "passed", "dealer"])
def test_R13_4_a_state_field_that_is_not_optional_may_not_be_null(field: str) -> None:
    data = state_to_dict(new_game(Rules(), seed=1))
    data[field] = None
    with pytest.raises(RecordError, match="null") as err:
        state_from_dict(data)
    assert err.value.where == field


@pytest.mark.parametrize("field", ["hand", "legal_actions", "known", "exchange", "stock_size"])
def test_R13_4_a_view_field_that_is_not_optional_may_not_be_null(field: str) -> None:
    data = view_to_dict(view(new_game(Rules(), seed=1), 0))
    data[field] = None
    with pytest.raises(RecordError, match="null") as err:
        view_from_dict(data)
    assert err.value.where == field


def test_R13_4_the_optional_fields_of_states_and_views_may_be_null() -> None:
    state = new_game(Rules(), seed=1)
    data = state_to_dict(state)
    data.update(seed=None, appointed=None, result=None)
    assert state_from_dict(data).seed is None
    onlooker = view_to_dict(view(state, None))
    assert onlooker["player"] is None
    assert view_from_dict(onlooker) == view(state, None)


# --- notation: leading zeros and control characters (R13.1) ------------------------------------


@pytest.mark.parametrize(("text", "canonical"), [("p03 take", "p3"), ("p00 pass", "p0")])
def test_R13_1_a_seat_with_a_leading_zero_is_refused_naming_the_canonical_form(
    text: str, canonical: str
) -> None:
    with pytest.raises(InvalidError, match="leading zeros") as err:
        parse_action(text)
    assert canonical in str(err.value)
    assert str(parse_action("p0 take")) == "p0 take"
    assert str(parse_action("p10 take")) == "p10 take"


def test_R13_1_a_position_attacker_with_a_leading_zero_is_refused() -> None:
    text = "hands: 6h 7h / 8h 9h; stock: Ts; trump: d; attacker: 01"
    with pytest.raises(PositionError, match="leading zeros"):
        parse_position(text, Rules(hand_size=2))


@pytest.mark.parametrize("text", ["p0 lead 7h\x00", "p0\x1b take", "p1 beat 7h\x7f 9h"])
def test_R13_1_a_control_character_in_an_action_is_named(text: str) -> None:
    with pytest.raises(InvalidError, match="control character") as err:
        parse_action(text)
    assert "not a rank" not in str(err.value)


def test_R1_3_a_control_character_in_a_card_is_named() -> None:
    with pytest.raises(InvalidCardError, match=r"control character '\\x00'"):
        Card.parse("7h\x00")


# --- duplicate keys in JSON (as TOML refuses them) ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"players": 3, "players": 4}', "players"),
        ('{"preset": "classic", "players": 3, "preset": "classic"}', "preset"),
        ('{"players": 3, "deck_size": 36, "players": 3}', "players"),
    ],
)
def test_R14_a_json_rules_file_with_a_duplicate_key_is_refused_naming_it(
    text: str, key: str, tmp_path: Path
) -> None:
    with pytest.raises(RulesError, match=f'duplicate key "{key}"') as err:
        loads_rules(text, "json")
    assert err.value.setting == "file"
    path = tmp_path / "house.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError, match=f'duplicate key "{key}"'):
        load_rules(path)
    with pytest.raises(RulesError, match="not valid TOML") as toml_err:  # as TOML does
        loads_rules(f"{key} = 3\n{key} = 4\n")
    assert toml_err.value.setting == "file"
