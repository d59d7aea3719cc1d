"""Bad input of every kind gets a clear error from the library, never a stray traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from durak import (
    Beat,
    Card,
    IllegalActionError,
    InvalidCardError,
    Lead,
    Rules,
    RulesError,
    apply,
    legal_actions,
    new_game,
    new_position,
    parse_cards,
    view,
)
from durak.cli import main
from durak.presets import load_rules


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
