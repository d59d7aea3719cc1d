"""The ``durak`` command (cli.py) and the random player (bots.py)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from durak import (
    Beat,
    Lead,
    Pass,
    Rules,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    apply,
    legal_actions,
    new_game,
    new_position,
    next_actor,
)
from durak.bots import RandomBot
from durak.cards import build_deck, parse_cards
from durak.cli import PlaySession, _play_keys, listed_actions, main, parse_command
from durak.presets import get_preset

FIRST_ACTION_SCRIPT = "1\n" * 3000


def run_play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    script: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status = main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> dict[str, Any]:
    assert main(["simulate", "--json", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def position(rules: Rules, hands: list[str], attacker: int) -> Any:
    """A set-up position with every card not in a hand in the discard pile."""
    held = {c for h in hands for c in parse_cards(h)}
    rest = [c for c in build_deck(rules.deck_size) if c not in held]
    return new_position(rules, hands=hands, discard=rest, trump="s", attacker=attacker)


# --------------------------------------------------------------------------------------------
# durak play, line by line
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [("podkidnoy", "2", "3"), ("perevodnoy", "3", "48"), ("german-classic", "4", "11")],
)
def test_play_to_the_end_answering_the_first_action(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    preset: str,
    players: str,
    seed: str,
) -> None:
    args = ["--preset", preset, "--players", players, "--seed", seed]
    status, out, _ = run_play(monkeypatch, capsys, args, FIRST_ACTION_SCRIPT)
    assert status == 0
    assert "game over:" in out
    assert "Places: 1st" in out
    assert "is the durak" in out or "durak!" in out or "Draw" in out
    assert "game abandoned" not in out
    # the screen: trump, stock, the players, the table, the hand, numbered actions
    for text in ("Trump ", "Stock ", "Discard pile", "Your hand", "Your legal actions:", "p1"):
        assert text in out
    assert "\x1b[" not in out  # no escape codes when the output is not a terminal


def test_play_same_seed_same_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run_play(monkeypatch, capsys, ["--seed", "5"], FIRST_ACTION_SCRIPT)
    second = run_play(monkeypatch, capsys, ["--seed", "5"], FIRST_ACTION_SCRIPT)
    assert first == second


def test_play_illegal_commands_print_the_error_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = new_game(Rules(), seed=3)
    missing = next(c for c in build_deck(36) if c not in state.hands[0])
    script = f"zz\n{missing}\n99\n\nfrobnicate 7h\n" + FIRST_ACTION_SCRIPT
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "3"], script)
    assert status == 0
    assert "not a card: 'zz'" in out
    assert f"{missing} is not in player 0's hand (R13.1)" in out
    assert "no action 99: choose a number from 1 to" in out
    assert "type a command" in out
    assert "not a card: 'frobnicate'" in out
    assert "Places: 1st" in out


def test_play_end_of_input_abandons_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_play(monkeypatch, capsys, ["--seed", "1"], "1\n1\n")
    assert status == 0
    assert "game abandoned" in out
    assert "Traceback" not in out + err


def test_play_quit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "1"], "help\nq\n1\n")
    assert status == 0
    assert "a number picks one of your listed actions" in out
    assert out.rstrip().endswith("game abandoned")


def test_play_in_a_subprocess_with_piped_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "durak.cli", "play", "--seed", "9", "--players", "3"],
        input=FIRST_ACTION_SCRIPT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env={"PYTHONIOENCODING": "utf-8", "TERM": "xterm-256color", "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    assert "Places: 1st" in done.stdout
    assert "\x1b[" not in done.stdout
    assert done.stderr == ""


# --------------------------------------------------------------------------------------------
# Line commands
# --------------------------------------------------------------------------------------------


def test_commands_of_the_defender() -> None:
    rules = Rules(players=3, transfer_by_card=True, transfer_by_showing_trump=True)
    s = position(rules, ["7h 8h", "9h 7c 7s 6h", "6c 6d"], attacker=0)
    s = apply(s, Lead(0, ("7h",)))
    assert parse_command("9h", s, 1).action == Beat(1, "7h", "9h")
    assert parse_command("7h 9h", s, 1).action == Beat(1, "7h", "9h")
    assert parse_command("9h 7h", s, 1).action == Beat(1, "7h", "9h")
    assert parse_command("beat 7h with 9h", s, 1).action == Beat(1, "7h", "9h")
    assert parse_command("t", s, 1).action == Take(1)
    assert parse_command("TAKE", s, 1).action == Take(1)
    assert parse_command("transfer 7c", s, 1).action == Transfer(1, ("7c",))
    assert parse_command("7c", s, 1).action == Transfer(1, ("7c",))  # its only use
    assert parse_command("show 7s", s, 1).action == ShowTrump(1, "7s")
    # 7s (trump) can beat 7h, transfer, or show: the plain card beats
    assert parse_command("7s", s, 1).action == Beat(1, "7h", "7s")
    numbered = listed_actions(s, 1)
    assert set(numbered) == set(legal_actions(s, 1))
    assert parse_command("1", s, 1).action == numbered[0]
    assert parse_command(str(len(numbered)), s, 1).action == numbered[-1]
    wrong = parse_command("6h", s, 1)
    assert wrong.action is None
    assert wrong.message == (
        "player 1 cannot beat 7h with 6h: 6h does not beat 7h (trump spades) (R4.7)"
    )
    wrong = parse_command("d", s, 1)
    assert wrong.action is None
    assert "cannot pass" in (wrong.message or "")
    assert parse_command("show 9h", s, 1).message == (
        "player 1 cannot show trump 9h: 9h is not a trump (R9.5)"
    )


def test_commands_of_the_attacker_and_the_throwers() -> None:
    rules = Rules(players=3)
    s = position(rules, ["7h 7d 9c", "8h Kh Qc", "7c 6d"], attacker=0)
    assert parse_command("7h", s, 0).action == Lead(0, ("7h",))
    assert parse_command("lead 9c", s, 0).action == Lead(0, ("9c",))
    assert "single card" in (parse_command("7h 7d", s, 0).message or "")
    s = apply(s, Lead(0, ("7h",)))
    s = apply(s, Beat(1, "7h", "8h"))
    assert next_actor(s) == 0
    assert parse_command("7d", s, 0).action == ThrowIn(0, "7d")
    assert parse_command("throw 7d", s, 0).action == ThrowIn(0, "7d")
    assert parse_command("done", s, 0).action == Pass(0)
    assert parse_command("pass", s, 0).action == Pass(0)
    assert parse_command("q", s, 0).quit
    assert "no card of rank 9" in (parse_command("9c", s, 0).message or "")
    assert parse_command("", s, 0).message == "type a command (help lists them)"


# --------------------------------------------------------------------------------------------
# durak play, with keys
# --------------------------------------------------------------------------------------------


def test_keys_choose_play_take_done_and_quit() -> None:
    rules = get_preset("perevodnoy").rules(players=3)
    session = PlaySession(rules, 48, "perevodnoy")
    session.advance()
    # seed 48: p1 led Ad, p2 transferred with Ah; the human defends holding Qc and Kc (trumps)
    assert session.state.defender == 0
    assert session.state.unbeaten == parse_cards("Ad Ah")
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=False, width=100)
    right, down, enter = "\x1b[C", "\x1b[B", "\r"
    with create_pipe_input() as keys:
        # Qc is selected first (the first playable card): Enter asks which ace, Down picks Ah,
        # Enter beats it; Right moves the selection; T takes; an unbound key does nothing; Q quits
        keys.send_text(enter + down + enter + right + "t" + "x" + "q")
        status = _play_keys(session, console, pt_input=keys, pt_output=DummyOutput())
    assert status == 0
    log = list(session.log)
    assert "you beat A♥ with Q♣" in log
    assert "you chose to take" in log
    out = buffer.getvalue()
    assert out.rstrip().endswith("game abandoned")
    assert "Your hand" in out


def test_keys_enter_on_a_card_that_cannot_be_played_explains_why() -> None:
    session = PlaySession(Rules(), 3, "podkidnoy")
    session.advance()
    # seed 3: p1 led 8c; the human holds Kc 7h Jh 8s Kd Ad (trump diamonds), Kc is selected
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=False, width=100)
    with create_pipe_input() as keys:
        keys.send_text("\x1b[C" + "\r" + "d" + "q")  # Right to 7h, Enter: 7h cannot beat 8c
        _play_keys(session, console, pt_input=keys, pt_output=DummyOutput())
    assert session.state.unbeaten == parse_cards("8c")  # nothing was played
    assert session.actions == 1


# --------------------------------------------------------------------------------------------
# durak simulate
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_simulate_counts_add_up_and_depend_only_on_the_seed(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    args = ["--players", str(players), "--games", "25"]
    first = run_json(capsys, [*args, "--seed", "1"])
    assert first["players"] == players
    assert first["games"] == 25
    assert len(first["durak"]) == players
    assert sum(first["durak"]) + first["draws"] == 25
    assert first["no_durak"] == 0
    assert first["mean_bouts"] > 1
    assert first["mean_actions"] > first["mean_bouts"]
    assert first["games_per_second"] > 0
    again = run_json(capsys, [*args, "--seed", "1"])
    other = run_json(capsys, [*args, "--seed", "2"])
    for data in (first, again, other):
        del data["seconds"], data["games_per_second"]
    assert again == first
    assert {k: v for k, v in other.items() if k != "seed"} != {
        k: v for k, v in first.items() if k != "seed"
    }


def test_simulate_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "deck-24", "--games", "10", "--seed", "4"]) == 0
    out, err = capsys.readouterr()
    assert "deck-24: 2 players, 10 games, seed 4" in out
    for text in ("durak %", "p0", "p1", "draws", "mean bouts per game", "games per second"):
        assert text in out
    assert "\x1b[" not in out
    assert err == ""


def test_simulate_first_out_games_have_losers_but_no_durak(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = run_json(capsys, ["--preset", "polish", "--players", "3", "--games", "10"])
    assert data["durak"] == [0, 0, 0]
    assert data["no_durak"] + data["draws"] == 10
    assert sum(data["lost"]) >= 10


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_unknown_preset_exits_2_naming_it(capsys: pytest.CaptureFixture[str], command: str) -> None:
    assert main([command, "--preset", "nope"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("durak: error: preset: unknown preset 'nope' (known: podkidnoy,")
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_seven_players_exit_2_naming_the_setting(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert main([command, "--players", "7"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "durak: error: players: 7 players x 6 cards need 42 cards, but the deck has 36 (R2.1)\n"
    )


def test_bad_input_in_a_subprocess_has_no_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "durak.cli", "simulate", "--players", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "durak: error: players: must be at least 2, not 1\n"


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--games", "0"])
    assert exc.value.code == 2
    assert "--games: must be at least 1" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# The random player
# --------------------------------------------------------------------------------------------


def test_random_bot_picks_legal_actions_reproducibly() -> None:
    def game(seed: str) -> list[str]:
        state = new_game(Rules(players=3), seed=1)
        bots = [RandomBot(f"{seed}:{p}") for p in range(3)]
        played = []
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            action = bots[actor].choose(state, actor)
            assert action in legal_actions(state, actor)
            state = apply(state, action)
            played.append(str(action))
        return played

    assert game("a") == game("a")
    assert game("a") != game("b")


def test_random_bot_without_a_legal_action_says_so() -> None:
    state = new_game(Rules(players=2), seed=1)
    idle = 1 - state.attacker
    with pytest.raises(ValueError, match=f"player {idle} has no legal action"):
        RandomBot(0).choose(state, idle)
