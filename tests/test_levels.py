"""Strength levels for front-ends (issue 29, item 4): durak.levels, ``durak play --level``,
``durak simulate --bots LEVEL,...``, ``durak bots`` and the levels' decisions."""

from __future__ import annotations

import io
import json
import sys

import pytest
from test_endgame import OPENINGS, play_out, won_endgames

import durak
from durak import Rules, apply, new_game, next_actor, view
from durak.bots import RandomBot, RuleBot, SearchBot, make_bot
from durak.cards import Card
from durak.cli import main
from durak.endgame import value_of
from durak.errors import DurakError
from durak.i18n import language
from durak.levels import (
    DEFAULT_LEVEL,
    DEFAULT_MOVE_BUDGET,
    LEVELS,
    LevelError,
    get_level,
    level_spec,
    make_level_bot,
    make_player,
)
from durak.tournament import run_tournament


def play(rules: Rules, bots: list[object], seed: int) -> list[str]:
    """The actions of one game between ``bots`` (one per seat), as text."""
    state = new_game(rules, seed=seed)
    played = []
    while state.result is None:
        actor = next_actor(state)
        assert actor is not None
        action = bots[actor].choose(view(state, actor))  # type: ignore[attr-defined]
        played.append(str(action))
        state = apply(state, action)
    return played


# --------------------------------------------------------------------------------------------
# The table of levels
# --------------------------------------------------------------------------------------------


def test_issue29_levels_are_easy_normal_hard_best_each_a_documented_bot_and_budget() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard", "best"]
    assert durak.LEVELS is LEVELS and durak.make_level_bot is make_level_bot
    for name, level in LEVELS.items():
        assert level.name == name and level.description.startswith(name.capitalize() + ":")
        make_bot(level.spec, 0)  # a spec make_bot reads
        for lang in ("de", "pl", "ru"):  # translated
            assert language(lang).gettext(level.description) != level.description
    easy = make_level_bot("easy", seed=1)
    assert isinstance(easy, RuleBot) and easy.blunder == 0.3
    normal = make_level_bot("normal", seed=1)
    assert isinstance(normal, RuleBot) and normal.blunder == 0
    hard, best = make_level_bot("hard", seed=1), make_level_bot("best", seed=1)
    assert isinstance(hard, SearchBot) and hard.time_limit == 0.05
    assert isinstance(best, SearchBot) and best.time_limit == DEFAULT_MOVE_BUDGET
    assert type(best).__name__ == "LeafBot"  # the search bot with leaf values
    assert [level.full_budget for level in LEVELS.values()] == [False, False, False, True]
    assert DEFAULT_LEVEL == "normal"


def test_issue29_the_hardest_level_keeps_the_web_servers_per_move_budget() -> None:
    from durak.web.config import ServerConfig

    assert ServerConfig().move_budget == DEFAULT_MOVE_BUDGET
    # best thinks the front-end's whole budget; the others at most that.
    assert level_spec("best", budget=2.0) == "leaf:time_limit=2"
    assert level_spec("best", budget=0.1) == "leaf:time_limit=0.1"
    assert level_spec("hard", budget=2.0) == "search:time_limit=0.05"
    assert level_spec("hard", budget=0.01) == "search:time_limit=0.01"
    assert level_spec("normal", budget=0.01) == "rule"
    assert level_spec("hard", clock="cpu") == "search:time_limit=0.05,clock=cpu"
    assert level_spec("easy", steps=100) == "rule:blunder=0.3"
    for bad in (0, -1.0):
        with pytest.raises(ValueError, match="budget"):
            level_spec("best", budget=bad)
    with pytest.raises(ValueError, match="steps"):
        level_spec("hard", steps=0)


@pytest.mark.parametrize("name", list(LEVELS))
def test_issue29_each_level_is_deterministic_for_a_seed_without_wall_time(name: str) -> None:
    rules = Rules(players=2)
    runs = [
        play(rules, [make_level_bot(name, seed=7, steps=300), RuleBot(seed=1)], seed=3)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_issue29_an_unknown_level_is_named_with_the_nearest() -> None:
    with pytest.raises(LevelError) as err:
        get_level("hrad")
    assert err.value.code == "input.unknown-level-near"
    assert str(err.value) == (
        "unknown level 'hrad'; did you mean hard? (known: easy, normal, hard, best)"
    )
    assert isinstance(err.value, DurakError) and isinstance(err.value, ValueError)
    with pytest.raises(LevelError) as far:
        make_level_bot("grandmaster")
    assert far.value.code == "input.unknown-level"
    assert language("de").say(err.value.message).startswith("unbekannte Stufe 'hrad'; meintest")
    assert get_level(" BEST ").name == "best"


def test_issue29_make_player_takes_levels_and_bots_and_suggests_the_nearest() -> None:
    assert type(make_player("hard", 1)) is SearchBot
    assert type(make_player("Random", 1)) is RandomBot
    assert make_player("search:steps=50,time_limit=none", 1).steps == 50  # type: ignore[attr-defined]
    with pytest.raises(LevelError) as err:
        make_player("esay", 1)
    assert err.value.code == "input.unknown-bot-near"
    assert "did you mean easy?" in str(err.value) and "or module:Class" in str(err.value)
    with pytest.raises(ValueError, match="unknown bot 'zzz'"):
        make_player("zzz", 1)


# --------------------------------------------------------------------------------------------
# The blunder option of the rule bot (the easy level)
# --------------------------------------------------------------------------------------------


def test_issue29_rule_bot_blunder_zero_plays_exactly_as_before() -> None:
    rules = Rules(players=3)
    plain = play(rules, [RuleBot(seed=s) for s in range(3)], seed=5)
    zero = play(rules, [RuleBot(seed=s, blunder=0) for s in range(3)], seed=5)
    assert plain == zero


def test_issue29_rule_bot_blunders_only_as_often_as_asked_and_stays_legal() -> None:
    rules = Rules(players=2)
    always = play(rules, [RuleBot(seed=1, blunder=1.0), RuleBot(seed=2)], seed=4)
    never = play(rules, [RuleBot(seed=1), RuleBot(seed=2)], seed=4)
    assert always != never  # legal by construction: apply() would have refused it
    for bad in (-0.1, 1.5, "often", True):
        with pytest.raises(ValueError, match="blunder"):
            RuleBot(seed=0, blunder=bad)  # type: ignore[arg-type]
    assert make_bot("rule:blunder=0.25", 0).blunder == 0.25  # type: ignore[attr-defined]


def test_issue29_levels_normal_beats_easy() -> None:
    """The cheap pair of the ordering (the benchmark plays every pair): the rule bot is the
    durak in well under half of 200 seat-rotated games against the blundering one."""
    result = run_tournament(Rules(players=2), ["normal", "easy"], 200, seed="levels-test")
    assert [s.name for s in result.stats] == ["normal", "easy"]
    assert result.stats[0].durak_interval[1] < 0.5


# --------------------------------------------------------------------------------------------
# Decisions of the levels hard and best (step budgets: deterministic and fast)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["hard", "best"])
@pytest.mark.parametrize("case", sorted(OPENINGS))
@pytest.mark.parametrize("seed", range(3))
def test_issue29_levels_keep_the_trump_ace_in_the_opening_when_a_lower_card_serves(
    level: str, case: str, seed: int
) -> None:
    state, seat = OPENINGS[case]
    bot = make_level_bot(level, seed=seed, steps=3000)
    action = bot.choose(view(state, seat))
    assert Card("Ad") not in getattr(action, "cards", ()), (level, action)


@pytest.mark.parametrize("level", ["hard", "best"])
def test_issue29_levels_win_every_won_two_player_endgame(level: str) -> None:
    games = won_endgames()
    assert len(games) >= 10
    for state, seat in games:
        for other in (RuleBot(seed=1), make_level_bot(level, seed=2, steps=20_000)):
            bot = make_level_bot(level, seed=3, steps=20_000)
            end = play_out(state, {seat: bot, 1 - seat: other})
            assert end.result is not None and value_of(end.result, seat) == 1, (state, seat)


# --------------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------------


def run_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    status = main(["play", "--line", "--seed", "2", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_issue29_durak_play_level_seats_every_computer_player_at_it(
    level: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: object,
) -> None:
    from pathlib import Path

    record = Path(str(tmp_path)) / "game.json"
    args = ["--players", "3", "--level", level.upper(), "--save", str(record)]
    status, out, _ = run_play(monkeypatch, capsys, args)
    assert status == 0 and "Places: 1st" in out
    players = json.loads(record.read_text("utf-8"))["players"]
    assert players == ["human", f"{level} bot", f"{level} bot"]


def test_issue29_durak_play_level_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run_play(monkeypatch, capsys, ["--level", "hrad"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unknown level 'hrad'; did you mean hard?" in err
    status, _, err = run_play(monkeypatch, capsys, ["--level", "easy", "--bots", "rule"])
    assert status == 2 and "--level and --bots" in err


def test_issue29_durak_simulate_takes_level_names(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--json", "--quiet", "--games", "6", "--seed", "1"]
    assert main([*args, "--bots", "normal,Easy"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == ["normal", "easy"]
    assert [e["bot"] for e in data["entries"]] == ["normal", "easy"]
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--bots", "normla,easy"])
    assert exit_.value.code == 2
    assert "unknown bot 'normla'; did you mean normal?" in capsys.readouterr().err


def test_issue29_durak_bots_lists_the_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    assert out.index("Levels") < out.index("easy") < out.index("best") < out.index("Bots")
    assert "hard    search, 50 ms a move: Hard:" in out
    assert main(["bots", "--json", "--levels"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == list(LEVELS)
    assert rows[3] == {
        "name": "best",
        "bot": "leaf",
        "budget": DEFAULT_MOVE_BUDGET,
        "full_budget": True,
        "description": LEVELS["best"].description,
    }
