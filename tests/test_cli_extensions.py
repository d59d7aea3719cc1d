"""The command line with the R15 extensions: ``--set``, the joker's picture, the C key that
catches a cheat (R15.5)."""

from __future__ import annotations

import io
import json

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from durak import Beat, Lead, Rules, apply, build_deck, new_position
from durak.cli import PlaySession, _play_keys, main, render_screen
from durak.cli.commands import parse_command
from durak.cli.render import _Look, action_text
from durak.cli.screen import ScreenState
from durak.rules.extensions import Catch, jokers_of


def test_R15_simulate_takes_extension_settings_with_set(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--json", "--quiet", "--games", "4", "--players", "3", "--seed", "1"]
    sets = ["--set", "deck_size=52", "--set", "jokers=2", "--set", "cheating=true"]
    assert main([*args, *sets, "--bots", "rule"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and sum(data["durak"]) + data["draws"] == 4


def test_R15_a_bad_set_exits_2_naming_the_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--set", "jokers=2"]) == 2
    assert "jokers" in capsys.readouterr().err
    assert main(["simulate", "--games", "1", "--set", "nosuch=1"]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert main(["simulate", "--games", "1", "--set", "cheating"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_R15_rules_command_shows_the_shchelkovsky_preset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "shchelkovsky"]) == 0
    out = capsys.readouterr().out
    for name in ("jokers", "show_sends_back", "transfer_by_showing_trump"):
        assert f"* {name}" in out
    assert "* cheating" not in out and "cheating" in out


def test_R15_1_the_joker_is_drawn_as_a_picture_and_typed_as_Jk() -> None:
    joker, second = jokers_of(Rules(deck_size=52, decks=2, jokers=1))
    assert _Look().card(joker) == "🃏" and _Look().card(second) == "🃏#2"
    assert _Look(ascii=True).card(second) == "Jk#2"
    session = PlaySession(Rules(players=3, deck_size=52, jokers=2), 0, "jokers")
    assert any(c.special for c in session.state.hands[0])  # seed 0 deals the human a joker
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=False, width=120).print(
        render_screen(session, ScreenState())
    )
    hand_part = buffer.getvalue().split("Your hand", 1)[1]
    assert "🃏" in hand_part


def _cheat_session() -> PlaySession:
    """Seat 1 (a bot) "beat" the human's 9h with 7c, a cheat; the human is to move."""
    rules = Rules(players=3, cheating=True)
    hands = ["9h 8d", "7c Ks Kd", "Jd Qd"]
    used = set(" ".join(hands).split()) | {"6c", "7d", "8s"}
    rest = [c for c in build_deck(36) if str(c) not in used]
    state = new_position(rules, hands=hands, stock="6c 7d 8s", discard=rest, attacker=0)
    session = PlaySession(rules, 0, "cheating")
    session.state = apply(apply(state, Lead(0, "9h")), Beat(1, "9h", "7c"))
    return session


def test_R15_5_catch_is_typed_and_listed_in_line_mode() -> None:
    session = _cheat_session()
    assert session.human_to_move
    assert Catch(0, "7c") in session.human_actions()
    assert action_text(Catch(0, "7c")) == "catch 7c"
    assert action_text(Catch(0, "7c"), typed=True) == "catch 7c"
    assert parse_command("catch 7c", session.state, 0).action == Catch(0, "7c")


def test_R15_5_c_and_enter_catch_the_cheat() -> None:
    session = _cheat_session()
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=False, width=110)
    with create_pipe_input() as keys:
        keys.send_text("c\r" + "q\r")
        _play_keys(session, console, pt_input=keys, pt_output=DummyOutput())
    assert session.history[:1] == [Catch(0, "7c")]
    assert any("catch" in line for line in session.log)
    assert "c catch" in buffer.getvalue()
