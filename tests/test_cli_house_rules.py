"""A rule module's own action kind in ``durak play`` and ``durak replay``: the action
``Concede`` of examples/house_rule.py is listed, labelled, typed in, told as an event and
replayed, with nothing in durak.cli knowing it (the issue "rule modules"); the web
protocol tells its event too."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path

import pytest

from durak import (
    Beat,
    ExchangeTrump,
    Lead,
    Pass,
    Redeal,
    Rules,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    apply,
    new_position,
)
from durak.cards import build_deck
from durak.cli import describe_events, listed_actions, main, parse_command
from durak.cli.render import _Look, action_text
from durak.events import Acted
from durak.state import GameState

EXAMPLES = Path(__file__).parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))
house_rule = importlib.import_module("house_rule")  # registers "concede" and its action kind
Concede = house_rule.Concede

#: Four players and 24 cards: the stock is empty from the deal, so a defender may concede.
RULES_FILE = 'players = 4\ndeck_size = 24\nhouse_rules = ["concede"]\n'


def _conceding_position() -> GameState:
    """The worked example of docs/plugins.md: p0 led 7h; p1 may beat it, take or concede."""
    rules = Rules(players=3, house_rules=["concede"])
    hands = ["7h 8c", "9h Tc", "Jd Qd"]
    used = " ".join(hands).split()
    discard = [str(c) for c in build_deck(36) if str(c) not in used]
    state = new_position(rules, hands=hands, trump="s", attacker=0, discard=discard)
    return apply(state, Lead(0, "7h"))


def _play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    script: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status = main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_line_mode_lists_labels_and_reads_a_house_rule_action(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rules = tmp_path / "concede.toml"
    rules.write_text(RULES_FILE, encoding="utf-8")
    record = tmp_path / "game.json"
    args = ["--rules", str(rules), "--seed", "0", "--line", "--save", str(record)]
    # seed 0: p3 leads the trump ace against the human, who can only concede or take
    status, out, err = _play(monkeypatch, capsys, args, "concede\n")
    assert (status, err) == (0, "")
    assert "Durak · concede.toml · 4 players · seed 0" in out
    assert "   1  concede the game\n   2  take\n" in out  # listed, labelled by its describe()
    assert "you chose to concede the game" in out  # its Acted event
    assert "You are the durak!" in out
    assert "game abandoned" not in out
    assert main(["replay", str(record), "--line"]) == 0
    replayed = capsys.readouterr().out
    assert "   2  p0 chose to concede the game\n      game over: p0 is the durak\n" in replayed


def test_line_mode_says_why_a_house_rule_action_is_not_possible(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rules = tmp_path / "concede.toml"
    rules.write_text(RULES_FILE, encoding="utf-8")
    # seed 4: the human leads; only a defender may concede
    status, out, _ = _play(
        monkeypatch, capsys, ["--rules", str(rules), "--seed", "4"], "concede\nq\n"
    )
    assert status == 0
    assert "only the defender facing an unbeaten card may concede (house:concede)" in out
    assert out.rstrip().endswith("game abandoned")


def test_commands_and_listed_order_of_a_house_rule_action() -> None:
    state = _conceding_position()
    assert listed_actions(state, 1) == (Beat(1, "7h", "9h"), Concede(1), Take(1))
    assert parse_command("concede", state, 1).action == Concede(1)
    assert parse_command("CONCEDE", state, 1).action == Concede(1)
    assert parse_command("2", state, 1).action == Concede(1)
    wrong = parse_command("concede", state, 2)
    assert wrong.action is None
    assert wrong.message == (
        "only the defender facing an unbeaten card may concede (house:concede)"
    )
    assert parse_command("concede 7h", state, 1).message == (
        "not an action: 'p1 concede 7h' ('concede' takes 0 card(s))"
    )


def test_action_text_of_every_kind() -> None:
    pretty = _Look(ascii=False)
    cases = [
        (Lead(0, "7h 7d"), "lead 7♦ 7♥", "lead 7d 7h"),
        (ThrowIn(2, "9h"), "throw in 9♥", "throw 9h"),
        (Beat(1, "7h", "9h"), "beat 7♥ with 9♥", "7h 9h"),
        (Take(1), "take", "take"),
        (Pass(0), "done (pass)", "done"),
        (Transfer(1, "7s"), "transfer with 7♠", "transfer 7s"),
        (ShowTrump(1, "7h"), "show the trump 7♥ to transfer", "show 7h"),
        (ExchangeTrump(2, "6h"), "exchange 6♥ for the face-up trump card", "exchange 6h"),
        (Redeal(0), "demand a redeal", "redeal"),
        (Concede(1), "concede the game", "concede"),  # a plug-in's: its describe(), its verb
    ]
    for action, label, typed in cases:
        assert action_text(action, pretty) == label, action
        assert action_text(action, pretty, typed=True) == typed, action
    assert action_text(Beat(1, "7h", "9h")) == "beat 7h with 9h"  # ASCII by default


def test_the_event_of_a_house_rule_action() -> None:
    def name(seat: int) -> str:
        return "you" if seat == 0 else f"p{seat}"

    assert describe_events([Acted(1, "p1 concede"), Acted(0, "p0 concede")], name) == [
        "p1 chose to concede the game",
        "you chose to concede the game",
    ]
    # a kind not registered in this program: its notation without the seat
    assert describe_events([Acted(2, "p2 frobnicate 7h")], name) == ["p2 chose to frobnicate 7h"]


def test_the_web_protocol_tells_a_house_rule_action() -> None:
    from durak.web.protocol import event_text, event_to_dict, seat_names

    name = seat_names(["P0", "P1", "P2"], 1)
    assert event_text(Acted(1, "p1 concede"), 1, name) == "You chose to concede the game"
    assert event_text(Acted(1, "p1 concede"), 0, seat_names(["P0", "P1"], 0)) == (
        "P1 chose to concede the game"
    )
    assert event_text(Acted(2, "p2 frobnicate"), 1, name) == "P2 chose to frobnicate"
    assert event_to_dict(Acted(1, "p1 concede"), 1, name) == {
        "type": "acted",
        "player": 1,
        "action": "p1 concede",
        "text": "You chose to concede the game",
        "message": {
            "code": "event.acted",
            "params": {
                "player": 1,
                "action": {"code": "other", "params": {"text": "concede the game"}},
            },
        },
    }
