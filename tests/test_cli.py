"""The ``durak`` command (cli.py) and the random player (bots.py)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
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
from durak.cli import (
    PlaySession,
    ReplaySession,
    ScreenState,
    _bot_move,
    _MatchSeat,
    _play_keys,
    _replay_keys,
    bot_kinds,
    listed_actions,
    main,
    parse_command,
    render_screen,
)
from durak.match import play_match
from durak.presets import PRESETS, get_preset, loads_rules
from durak.records import load, replay
from durak.rules.settings import SETTINGS
from durak.views import PlayerView, view

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
    assert "not a card or a command: 'zz' (help lists the commands)" in out
    assert f"{missing.pretty} is not in your hand (R13.1)" in out  # "you", the screen's cards
    assert "no action 99: choose a number from 1 to" in out
    assert "type a command" in out
    assert "not a card or a command: 'frobnicate'" in out
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
    assert wrong.message == "6h does not beat 7h (trump spades) (R4.7)"
    wrong = parse_command("d", s, 1)
    assert wrong.action is None  # R4.9: passing is the throwers', the defender is told so
    assert wrong.message == (
        "you are the defender: done (D) is for the attackers; beat the cards or take (T)"
    )
    assert parse_command("show 9h", s, 1).message == (
        "9h is not a trump (R9.5)"
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
        # Enter beats it; Right moves the selection; t and Enter take; a typed key is only
        # shown, Backspace takes it off; q and Enter quit
        keys.send_text(enter + down + enter + right + "t" + enter + "x" + "\x7f" + "q" + enter)
        status = _play_keys(session, console, pt_input=keys, pt_output=DummyOutput())
    assert status == 0
    log = list(session.log)
    assert "you beat A♥ with Q♣" in log
    assert "you will take" in log
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
        # Right to 7h, Enter: 7h cannot beat 8c; d and Enter: the defender cannot pass; quit
        keys.send_text("\x1b[C" + "\r" + "d\r" + "q\r")
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
            action = _bot_move(bots[actor], state, actor)
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
        _bot_move(RandomBot(0), state, idle)


def test_bot_move_asks_bots_of_either_protocol() -> None:
    class ViewBot:
        def choose(self, v: PlayerView) -> Any:
            return v.legal_actions[-1]

    class StateBot:
        def choose(self, state: Any, player: int) -> Any:
            return legal_actions(state, player)[-1]

    state = new_game(Rules(players=3), seed=2)
    actor = next_actor(state)
    assert actor is not None
    expected = legal_actions(state, actor)[-1]
    assert _bot_move(ViewBot(), state, actor) == expected
    assert _bot_move(StateBot(), state, actor) == expected
    # a match seat answers both ways a match may ask
    counter = [0]
    seat = _MatchSeat(StateBot(), counter)
    assert seat.choose(state, actor) == expected
    assert _MatchSeat(ViewBot(), counter).choose(view(state, actor)) == expected
    assert counter == [2]
    with pytest.raises(TypeError, match="needs the state"):
        seat.choose(view(state, actor))
    match = play_match(Rules(), [_MatchSeat(ViewBot(), counter) for _ in range(2)], 2, seed=1)
    assert len(match.results) == 2


# --------------------------------------------------------------------------------------------
# durak play: views, events, bots
# --------------------------------------------------------------------------------------------


def test_play_screen_shows_the_human_view_and_the_events() -> None:
    session = PlaySession(Rules(players=3), 7, "podkidnoy")
    # seed 7: p1 holds the lowest trump 6♦ and showed it to lead (R3.1): everyone knows it
    assert view(session.state, 0).known[1] == frozenset(parse_cards("6d"))
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=False, width=120).print(
        render_screen(session, ScreenState())
    )
    screen = buffer.getvalue()
    assert "known: 6♦" in screen
    for text in ("Players", "What happened", "Trump ♦", "Stock ", "Discard pile", "Your hand"):
        assert text in screen
    session.advance()
    ended = ("p2 picked up", "beaten off:")
    while not session.over and not any(line.startswith(ended) for line in session.log):
        session.play(session.human_actions()[0])
        session.advance()
    log = list(session.log)
    assert log[0] == "new game: trump ♦, p1 leads against p2"
    assert any(line.startswith(ended) for line in log)
    draws = [line for line in log if " drew " in line]
    assert draws
    for line in draws:  # the cards others draw stay hidden; the human sees his own
        for part in line.split(", "):
            assert (":" in part) == part.startswith("you drew"), part
    assert any(line.startswith("new bout:") for line in log)
    assert session.actions == len(session.history)


def test_play_with_each_kind_of_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for kind in bot_kinds():
        if kind in ("search", "guided", "leaf", "learned"):
            # search, guided and leaf: slow by design; learned: no weights for three players;
            # all covered by the bots' own tests
            continue
        args = ["--seed", "2", "--players", "3", "--bots", kind]
        status, out, _ = run_play(monkeypatch, capsys, args, FIRST_ACTION_SCRIPT)
        assert status == 0
        assert "Places: 1st" in out


def test_unknown_bot_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--bots", "random,genius"])
    assert exc.value.code == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err


def test_simulate_bots_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    kinds = [k for k in bot_kinds() if k not in ("search", "guided", "leaf", "learned")]
    data = run_json(capsys, ["--games", "4", "--bots", ",".join(kinds)])
    assert data["bots"] == kinds  # one per seat: the bots set the number of players
    # several kinds of bot: a seat-rotated tournament, one entry per seat's bot
    assert [e["bot"] for e in data["entries"]] == data["bots"]
    assert sum(e["durak"] for e in data["entries"]) + data["draws"] == 4


# --------------------------------------------------------------------------------------------
# durak rules, --rules FILE
# --------------------------------------------------------------------------------------------


def test_rules_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for preset in PRESETS.values():
        assert preset.name in out
        assert all(alias in out for alias in preset.aliases)
    assert "podkidnoy (default)" in out
    assert main(["rules", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in listing] == list(PRESETS)
    for item, preset in zip(listing, PRESETS.values(), strict=True):
        assert item["description"] == preset.description
        assert item["source"] == preset.source
        assert item["aliases"] == list(preset.aliases)


def test_rules_of_a_preset_show_every_setting_marking_the_changed_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "GERMAN"]) == 0  # an alias, any case
    out = capsys.readouterr().out
    assert out.startswith("german-classic: ")
    lines = out.splitlines()
    for name in SETTINGS:
        header = next(i for i, line in enumerate(lines) if line.split()[:1] == ["setting"])
        words = [line.split() for line in lines[header + 1 :]]
        row = next(w for w in words if w[:1] == [name] or w[:2] == ["*", name])
        assert (row[0] == "*") == (name in ("throwers", "lead")), row
    assert "2 settings" in out


@pytest.mark.parametrize("name", ["perevodnoy", "pairs", "clubs-rule", "polish"])
@pytest.mark.parametrize("form", ["toml", "json"])
def test_rules_file_output_loads_back_to_the_preset(
    capsys: pytest.CaptureFixture[str], name: str, form: str
) -> None:
    assert main(["rules", name, f"--{form}"]) == 0
    text = capsys.readouterr().out
    assert loads_rules(text, "toml" if form == "toml" else "json") == get_preset(name).rules()


def test_rules_unknown_name_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "nope"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("durak: error: preset: unknown preset 'nope' (known: podkidnoy,")
    assert err.count("\n") == 1


def test_rules_file_for_play_and_simulate(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "perevodnoy"\nplayers = 3\ntransfer_several = true\n')
    data = run_json(capsys, ["--rules", str(toml), "--games", "5", "--seed", "1"])
    assert data["preset"] == "house.toml"
    assert data["players"] == 3
    assert sum(data["durak"]) + data["draws"] == 5
    data = run_json(capsys, ["--rules", str(toml), "--players", "4", "--games", "2"])
    assert data["players"] == 4  # --players still overrides
    js = tmp_path / "house.json"
    js.write_text(json.dumps({"deck_size": 24, "first_bout_max": None}))
    args = ["--rules", str(js), "--seed", "3"]
    status, out, _ = run_play(monkeypatch, capsys, args, FIRST_ACTION_SCRIPT)
    assert status == 0
    assert "house.json" in out
    assert "Places: 1st" in out


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("colour = 'red'\n", "colour: unknown setting (known: preset, players,"),
        ("players = 'three'\n", "players: must be an integer, not 'three'"),
        ("transfer_by_card = 1\n", "transfer_by_card: must be true or false, not 1"),
        ("lead = 'all'\n", "lead: unknown value 'all'"),
        ("preset = 'nope'\n", "preset: unknown preset 'nope'"),
        ("players = \n", "file: not valid TOML"),
    ],
)
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_bad_rules_file_exits_2_naming_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, text: str, error: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main([command, "--rules", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"durak: error: {error}"), err
    assert err.count("\n") == 1


def test_missing_rules_file_and_rules_with_preset(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["simulate", "--rules", str(tmp_path / "none.toml")]) == 2
    assert capsys.readouterr().err.startswith("durak: error: file: cannot read ")
    with pytest.raises(SystemExit) as exc:
        main(["play", "--rules", "x.toml", "--preset", "polish"])
    assert exc.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# durak play --save, durak replay
# --------------------------------------------------------------------------------------------


def _result_text(out: str) -> list[str]:
    """The two result lines of the last screen: the durak (or draw) and the places."""
    lines = out.splitlines()
    i = max(k for k, line in enumerate(lines) if line.startswith("Places: "))
    return lines[i - 1 : i + 1]


def test_play_save_then_replay_reproduces_the_result(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    args = ["--preset", "perevodnoy", "--players", "3", "--seed", "48", "--save", str(path)]
    status, out, _ = run_play(monkeypatch, capsys, args, FIRST_ACTION_SCRIPT)
    assert status == 0
    assert out.rstrip().endswith(f"game record saved to {path}")
    result = _result_text(out)
    record = load(path)
    assert record.result is not None
    assert record.players[0] == "human"
    assert replay(record).result == record.result
    # from the human's seat the replay tells the same result in the same words
    assert main(["replay", str(path), "--line", "--player", "0"]) == 0
    seen = capsys.readouterr().out
    assert _result_text(seen) == result
    assert "as p0" in seen
    assert f"{len(record.actions):>4}  " in seen  # every step is printed
    # an onlooker sees every hand
    assert main(["replay", str(path), "--line"]) == 0
    onlooker = capsys.readouterr().out
    assert "as an onlooker" in onlooker
    assert "Hands" in onlooker
    assert _result_text(onlooker)[1].startswith("Places: 1st")


def test_play_save_of_an_abandoned_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "abandoned.json"
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "1", "--save", str(path)], "1\n")
    assert status == 0
    assert "game abandoned (end of input)" in out
    record = load(path)
    assert record.result is None
    assert record.actions
    assert main(["replay", str(path)]) == 0  # stdin is not a terminal: line mode
    assert "the record ends here, before the game is over" in capsys.readouterr().out


def test_save_into_a_missing_directory_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["--save", str(tmp_path / "no" / "game.json")]
    status, _, err = run_play(monkeypatch, capsys, args, "q\n")
    assert status == 2
    assert err.startswith("durak: error: --save: no such directory")


def _saved_game(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    state = new_game(Rules(), seed=4)
    from durak.records import Record, dump

    record = Record.start(Rules(), seed=4)
    while not state.is_over:
        actor = next_actor(state)
        assert actor is not None
        action = legal_actions(state, actor)[0]
        state, record = apply(state, action), record.add(action)
    path = tmp_path / "game.json"
    dump(record.finish(state), path)
    return path, json.loads(path.read_text())


def test_tampered_record_exits_2_naming_the_first_illegal_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, data = _saved_game(tmp_path)
    data["actions"][7] = "p0 beat Ah 6h"  # well formed, illegal here
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--line"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"durak: error: {path}: replay: action 7 (p0 beat Ah 6h): ")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda d: d["actions"].__setitem__(3, "p1 fly"), "actions/3: not an action: 'p1 fly'"),
        (lambda d: d["result"].__setitem__("durak", 5), "replay: result: the recorded result"),
        (lambda d: d.__setitem__("version", 9), "version: must be 1 (the format version), not 9"),
        (lambda d: d["rules"].__setitem__("players", 1), "rules: players: must be at least 2"),
    ],
)
def test_malformed_record_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: Any, error: str
) -> None:
    path, data = _saved_game(tmp_path)
    change(data)
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"durak: error: {path}: {error}"), err
    assert "Traceback" not in err


def test_replay_of_a_missing_file_or_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["replay", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    path, _ = _saved_game(tmp_path)
    assert main(["replay", str(path), "--player", "2"]) == 2
    assert capsys.readouterr().err == "durak: error: --player: no seat 2 in a 2-player game\n"


def test_replay_keys_step_forward_and_back(tmp_path: Path) -> None:
    path, _ = _saved_game(tmp_path)
    session = ReplaySession(load(path), seat=1)
    assert session.steps == len(load(path).actions)
    assert session.scene(0).status == f"Step 0 of {session.steps}: the deal"
    assert session.scene(session.steps).view.result is not None
    right, left = "\x1b[C", "\x1b[D"
    with create_pipe_input() as keys:
        keys.send_text(right + right + left + "\r" + "q")
        assert _replay_keys(session, pt_input=keys, pt_output=DummyOutput()) == 0


# --------------------------------------------------------------------------------------------
# durak simulate --match
# --------------------------------------------------------------------------------------------


def test_simulate_matches_report_losses_that_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["--match", "3", "--games", "6", "--seed", "1"])
    assert (data["matches"], data["match_games"], data["games"]) == (2, 3, 6)
    assert sum(data["durak"]) + data["draws"] == 6
    assert data["lost"] == data["durak"]  # objective durak: the durak is the one loser
    assert all(0 <= n <= 3 for n in data["longest_streak"])
    for seat in range(2):
        if data["longest_streak"][seat] == 3:
            assert data["dauerdurak"][seat] >= 1
        streak_games = 2 * data["doppeldurak"][seat] + 3 * data["dauerdurak"][seat]
        assert streak_games <= data["lost"][seat]
    # the durak owes at least one shot per game; first-out vodka: one per game with a durak
    assert sum(data["vodka"]) >= sum(data["durak"])
    assert sum(data["vodka_first_out"]) == sum(data["durak"])
    again = run_json(capsys, ["--match", "3", "--games", "6", "--seed", "1"])
    for figures in (data, again):
        del figures["seconds"], figures["games_per_second"]
    assert again == data


def test_simulate_matches_with_teams_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["--preset", "pairs", "--match", "2", "--games", "5", "--seed", "2"])
    assert data["games"] == 4  # 5 // 2 matches of 2 games
    assert data["teams"] == [[0, 2], [1, 3]]
    assert sum(data["team_lost"]) + data["draws"] == 4
    assert main(["simulate", "--match", "2", "--games", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 matches of 2 games (4 games), seed 3" in out
    for text in ("lost", "longest", "Doppeldurak", "Dauerdurak", "vodka 1st out", "p0", "p1"):
        assert text in out
    assert main(["simulate", "--match", "7", "--games", "6"]) == 2
    assert "less than one match of 7 games" in capsys.readouterr().err


def test_simulate_with_several_bots_is_a_seat_rotated_tournament(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "--bots", "rule,random", "--games", "24", "--seed", "t", "--json"]
    assert main(args) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two  # the figures do not depend on the number of processes
    assert [e["bot"] for e in one["entries"]] == ["rule", "random"]
    for entry in one["entries"]:
        assert entry["games"] == 24
        assert entry["decided"] == 24 - one["draws"]
        low, high = entry["durak_interval"]
        assert low <= entry["durak_rate"] <= high
    assert sum(e["durak"] for e in one["entries"]) == 24 - one["draws"]
