"""The terminal's rough edges a new player found: players from ``--bots``, bots labelled by
seat, the help's percent sign, the match table's columns, team presets' player counts, the
highlighted card, the sources named as the rule book names them, error lines that cannot drive
the terminal, and output that cannot be written (a closed pipe, a full disk)."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from durak.actions import Lead
from durak.cards import Card
from durak.cli import _resolve_rules, main
from durak.cli.commands import parse_command
from durak.cli.console import _fail
from durak.cli.play import HUMAN, PlaySession, _KeyUI
from durak.cli.render import _cards_used
from durak.errors import RulesError
from durak.presets import PRESETS, loads_rules
from durak.records import RecordError, loads
from durak.rules import Rules

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
                ui.typed("t" if session.view.defender == HUMAN else "d")  # then Enter
                ui.enter()
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


# --- error lines that cannot drive the terminal ------------------------------------------------

ESC = "\x1b[2Jx"  # "clear the screen", then x
TOO_DEEP = json.loads("[" * 33 + "]" * 33)  # deeper than MAX_DEPTH below its key
BASE = {"format": "durak-record", "version": 1, "rules": {}, "deal": {"seed": 1, "dealer": 1}}
RESULT = {"durak": 0, "draw": False, "places": [1, 2], "winners": [1], "losers": [0]}


def _safe_line(text: str) -> bool:
    """Whether ``text`` is one line of printable characters that UTF-8 can write."""
    text.encode("utf-8")  # no lone surrogate
    return text.isprintable()


def test_cli_argument_errors_escape_control_characters(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # argparse quotes the arguments it does not know in its error line.
    with pytest.raises(SystemExit) as done:
        main(["rules", "podkidnoy", "extra\x1b[2J"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    last = err.rstrip("\n").splitlines()[-1]
    assert last == "durak: error: unrecognized arguments: extra\\x1b[2J" and _safe_line(last)


def test_cli_error_lines_escape_control_characters_of_a_rules_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "esc.toml"
    path.write_text('players = 3\n"\\u001b[2Jx" = 1\n', "utf-8")
    assert main(["simulate", "--rules", str(path), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.endswith("\n") and _safe_line(err[:-1]), ascii(err)
    assert "durak: error: '\\x1b[2Jx': unknown setting (known: preset, players," in err
    surrogate = tmp_path / "surrogate.json"
    surrogate.write_text('{"\\ud800": 1}', "utf-8")
    assert main(["simulate", "--rules", str(surrogate), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("durak: error: '\\ud800': unknown setting") and _safe_line(err[:-1])


def test_cli_error_lines_escape_control_characters_of_a_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = {
        "rules": {**BASE, "actions": [], "rules": {ESC: 1}},
        "result": {**BASE, "actions": [], "result": {**RESULT, ESC: 1}},
        "extra": {**BASE, "actions": [], "result": {**RESULT, "extra": {ESC: {"a": 1}}}},
        "meta": {**BASE, "actions": [], "meta": {ESC: TOO_DEEP}},
    }
    for name, record in records.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record), "utf-8")
        assert main(["replay", str(path), "--line"]) == 2, name
        err = capsys.readouterr().err
        assert err.endswith("\n") and _safe_line(err[:-1]), (name, ascii(err))
        assert "'\\x1b[2Jx'" in err, (name, err)


@pytest.mark.parametrize(
    "make",
    [
        lambda: loads_rules('{"\\ud800": 1}', "json"),
        lambda: loads_rules('{"players": 3, "\\u001b[2Jx": 1}', "json"),
        lambda: loads_rules('{"\\u001b[2Jx": ' + "[" * 40 + "]" * 40 + "}", "json"),
        lambda: loads_rules('{"\\u001b[2Jx": 1' + "0" * 5000 + "}", "json"),
        lambda: Rules(**{ESC: 1}),
        lambda: Rules().replace(**{ESC: 1}),
        lambda: Rules.from_dict({ESC: 1}),
    ],
)
def test_rules_errors_quote_setting_names_with_control_characters_or_surrogates(make: Any) -> None:
    with pytest.raises(RulesError) as err:
        make()
    assert _safe_line(str(err.value)) and _safe_line(err.value.setting), ascii(str(err.value))
    assert err.value.setting in ("'\\ud800'", "'\\x1b[2Jx'")


def test_record_errors_quote_field_names_with_control_characters() -> None:
    for changes in (
        {"result": {**RESULT, ESC: 1}},
        {"result": {**RESULT, "\ud800": 1}},
        {"result": {**RESULT, "extra": {ESC: {"a": 1}}}},
        {"meta": {ESC: {"a": 1, "b": TOO_DEEP}}},
    ):
        with pytest.raises(RecordError) as err:
            loads(json.dumps({**BASE, "actions": [], **changes}))
        assert _safe_line(str(err.value)) and _safe_line(err.value.where), ascii(str(err.value))


def test_error_names_that_are_plain_text_are_shown_as_they_are() -> None:
    with pytest.raises(RulesError, match=r"^colour: unknown setting") as err:
        loads_rules("colour = 'red'\n")
    assert err.value.setting == "colour"
    with pytest.raises(RulesError, match=r"^цвет: unknown setting"):
        loads_rules('{"цвет": 1}', "json")
    with pytest.raises(RecordError, match=r"^meta/notes/0/0/0"):
        loads(json.dumps({**BASE, "actions": [], "meta": {"notes": TOO_DEEP}}))


def test_cli_error_printing_escapes_any_control_character_or_surrogate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _fail("bad \x1b[2J\x07 name\ud800 on\ntwo lines\u202e") == 2
    assert capsys.readouterr().err == (
        "durak: error: bad \\x1b[2J\\x07 name\\ud800 on\\ntwo lines\\u202e\n"
    )
    assert _fail("ordinary: text, ходы, 7♥") == 2
    assert capsys.readouterr().err == "durak: error: ordinary: text, ходы, 7♥\n"


# --- output that cannot be written -------------------------------------------------------------


class _FailingOutput(io.StringIO):
    """Standard output whose writes fail with ``error``."""

    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        raise self.error


#: Commands that write their output in different ways (rich, plain JSON, the simulation's).
_WRITERS = [["rules", "--json"], ["rules"], ["simulate", "--games", "3", "--quiet", "--json"]]


@pytest.mark.parametrize("argv", _WRITERS)
def test_cli_ends_quietly_when_the_output_pipe_is_closed(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdout", _FailingOutput(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    assert main(argv) == 141
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv", _WRITERS)
def test_cli_says_in_one_line_when_it_cannot_write_the_output(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    full = OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(sys, "stdout", _FailingOutput(full))
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        "durak: error: cannot write the output: No space left on device\n"
    )


def _durak(argv: list[str], stdout: Any) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "durak", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("argv", [["rules", "--json"], ["simulate", "--games", "3", "--quiet"]])
def test_cli_process_ends_quietly_on_a_closed_pipe_without_a_traceback(argv: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written, as after `| head -1`
    try:
        done = _durak(argv, write)
    finally:
        os.close(write)
    assert done.stderr == "" and done.returncode == 141, done.stderr


@pytest.mark.parametrize("argv", _WRITERS)
def test_cli_process_on_a_full_disk_says_so_in_one_line(argv: list[str]) -> None:
    # Linux's /dev/full refuses every write with ENOSPC, as a full disk does.
    with open("/dev/full", "w") as full:
        done = _durak(argv, full)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "durak: error: cannot write the output: No space left on device\n"
