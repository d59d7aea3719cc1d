"""The terminal's rough edges a new player found: players from ``--bots``, bots labelled by
seat, the help's percent sign, the match table's columns, team presets' player counts, the
highlighted card, and the sources named as the rule book names them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from durak.actions import Lead, Pass, Take
from durak.cards import Card
from durak.cli import _resolve_rules, main
from durak.cli.commands import parse_command
from durak.cli.play import HUMAN, PlaySession, _KeyUI
from durak.cli.render import _cards_used
from durak.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent


def test_simulate_takes_the_players_from_the_bots_and_labels_them_by_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "--bots", "rule,random,random,random", "--games", "4", "--seed", "1"]
    assert main([*args, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "tournament of 4 seat-rotated games" in out
    for seat, kind in enumerate(("rule", "random", "random", "random")):
        assert f"\n{kind} (seat {seat}) " in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["bots"]) == 4 and len(data["entries"]) == 4


def test_simulate_refuses_bots_that_do_not_match_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--bots", "rule,random", "--players", "3", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "2 bots (rule, random) make 2 players, but --players is 3" in err
    assert main(["play", "--bots", "rule,random", "--players", "2", "--line"]) == 2
    assert "make 3 players, but --players is 2" in capsys.readouterr().err


def test_simulate_help_says_95_percent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    assert "95% confidence" in " ".join(out.split())
    assert "%%" not in out


def test_match_table_shows_lost_only_where_it_differs_from_durak(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--match", "2", "--games", "4", "--seed", "2", "--quiet"]) == 0
    head = next(line for line in capsys.readouterr().out.splitlines() if "seat" in line)
    assert head.split()[:2] == ["seat", "durak"]  # podkidnoy: the loser is the durak
    args = ["simulate", "--preset", "polish", "--players", "3", "--match", "2", "--games", "4"]
    assert main([*args, "--seed", "2", "--quiet"]) == 0
    head = next(line for line in capsys.readouterr().out.splitlines() if "seat" in line)
    assert head.split()[:3] == ["seat", "lost", "durak"]  # first_out: losers without a durak


def test_R10_1_team_presets_say_how_many_players_they_need() -> None:
    with pytest.raises(Exception, match=r"pairs is for 4 players .*not 3 .*pairs-3x2 for 6"):
        _resolve_rules("pairs", 3)
    assert _resolve_rules("pairs", 4)[1].players == 4


def test_highlight_starts_on_a_playable_card_at_every_decision() -> None:
    _, rules = _resolve_rules("perevodnoy", 3)
    for seed in (1, 8):
        session = PlaySession(rules, seed, "perevodnoy", bots=("rule",))
        session.advance()
        ui = _KeyUI(session)
        decisions = 0
        while not session.over and decisions < 200:
            playable = {c for a in session.human_actions() for c in _cards_used(a)}
            if playable:
                assert ui.screen.selected in playable, (seed, decisions)
            decisions += 1
            ui.enter()
            if ui.screen.choices is not None:
                ui.choose_number(1)
            elif ui.screen.message:
                ui.simple(Take(HUMAN) if session.view.defender == HUMAN else Pass(HUMAN))
        assert session.over


def test_line_commands_name_a_card_missing_from_the_deck_and_junk_plainly() -> None:
    session = PlaySession(_resolve_rules("podkidnoy", 2)[1], 3, "podkidnoy")
    look, state = session.look, session.state
    assert parse_command("2h", state, HUMAN, look).message == (
        "there is no 2♥ in this deck (36 cards)"
    )
    assert parse_command("blah", state, HUMAN, look).message == (
        "not a card or a command: 'blah' (help lists the commands)"
    )
    german = PlaySession(_resolve_rules("podkidnoy", 2)[1], 3, "podkidnoy", lang="de")
    assert parse_command("2h", state, HUMAN, german.look).message == (
        "diese Karte gibt es in diesem Spiel nicht: 2♥ (36 Karten)"
    )


def test_sources_are_named_as_the_rule_book_names_them() -> None:
    for preset in PRESETS.values():
        assert "seed" not in preset.source.lower(), preset.name
    for path in (ROOT / "docs" / "rules.md", ROOT / "src" / "durak" / "match.py"):
        text = path.read_text("utf-8")
        for stale in ("German seed", "Polish seed", "seeds' Podkidnoy"):
            assert stale not in text, (path.name, stale)


def test_cards_typed_with_the_screen_language_s_rank_letters() -> None:
    rules = _resolve_rules("podkidnoy", 2)[1]
    german = PlaySession(rules, 2, "podkidnoy", lang="de")  # seed 2: the human leads, holds Qs
    state, look = german.state, german.look
    assert look.card(Card.parse("Qs")) == "D♠"  # the screen writes the Dame D
    for typed in ("D♠", "Ds", "ds"):
        assert parse_command(typed, state, HUMAN, look).action == Lead(HUMAN, ("Qs",)), typed
    assert parse_command("d", state, HUMAN, look).action is None  # d alone stays "done"
    russian = PlaySession(rules, 2, "podkidnoy", lang="ru")
    assert parse_command("Д♠", russian.state, HUMAN, russian.look).action == Lead(HUMAN, ("Qs",))
