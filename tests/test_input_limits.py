"""Hostile records and rules files: too big, nested too deeply, integers too long, the wrong
shape. Each is refused with a RecordError or RulesError naming where and why, and on the command
line with one line on stderr and exit status 2 (docs/cli.md), never with a traceback."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from durak import Rules, RulesError
from durak.cli import main
from durak.presets import MAX_RULES_BYTES, load_rules, loads_rules, rules_from_mapping
from durak.records import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_RECORD_BYTES,
    Record,
    RecordError,
    load,
    loads,
    result_from_dict,
)
from durak.serialize import event_from_dict, state_from_dict, view_from_dict

DEEP = 100_000
LONG_INT = "9" * 5_000


def _record(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "durak-record",
        "version": 1,
        "rules": {},
        "deal": {"seed": 1, "dealer": 1},
        "actions": [],
    }
    data.update(changes)
    return data


def _deep_json(depth: int = DEEP) -> str:
    return "[" * depth + "]" * depth


def _one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("durak: error: ")
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


# --- the documented limits ---------------------------------------------------------------------


def test_the_limits_are_the_documented_ones() -> None:
    assert MAX_RECORD_BYTES == 2 * 1024 * 1024
    assert MAX_RULES_BYTES == 64 * 1024
    assert MAX_DEPTH == 32
    assert MAX_INT_DIGITS == 4_300
    cli = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    for words in ("2 MiB", "64 KiB", "32 levels", "4,300 digits"):
        assert words in cli


# --- records -----------------------------------------------------------------------------------


def test_R13_4_a_record_nested_100000_deep_is_a_record_error() -> None:
    text = json.dumps(_record())[:-1] + ', "meta": {"x": ' + _deep_json() + "}}"
    with pytest.raises(RecordError) as err:
        loads(text)
    assert err.value.where == ""
    assert "nested more than 32 levels deep at line 1, column" in str(err.value)


def test_R13_4_a_record_nested_a_little_too_deep_names_the_field() -> None:
    data = _record(meta={"x": json.loads(_deep_json(40))})
    with pytest.raises(RecordError) as err:
        loads(json.dumps(data))
    assert err.value.where.startswith("meta/x/0/0")
    assert "nested more than 32 levels deep" in err.value.reason
    with pytest.raises(RecordError) as err:
        Record.from_dict(data)  # the same data given as Python values
    assert err.value.where.startswith("meta/x/0/0")


def test_R13_4_nesting_up_to_the_limit_is_read() -> None:
    data = _record(meta={"x": json.loads(_deep_json(MAX_DEPTH - 2))})
    assert loads(json.dumps(data)).meta == data["meta"]


@pytest.mark.parametrize(
    ("field", "where"),
    [("seed", "deal/seed"), ("dealer", "deal/dealer")],
)
def test_R13_4_a_5000_digit_integer_names_its_field(field: str, where: str) -> None:
    text = json.dumps(_record()).replace(f'"{field}": 1', f'"{field}": {LONG_INT}')
    with pytest.raises(RecordError) as err:
        loads(text)
    assert err.value.where == where
    assert "an integer of 5,000 digits is too long (at most 4,300 digits)" in err.value.reason


def test_R13_4_a_long_integer_given_as_python_data_names_its_field() -> None:
    with pytest.raises(RecordError) as err:
        Record.from_dict(_record(deal={"seed": 10**5000, "dealer": 1}))
    assert err.value.where == "deal/seed"
    assert "too long" in err.value.reason


def test_R13_4_a_record_bigger_than_the_limit_is_refused_before_parsing() -> None:
    # 3 MB of '[' would be a RecursionError if it were parsed; it is refused for its size
    for text in ("[" * (MAX_RECORD_BYTES + 1), b"[" * (MAX_RECORD_BYTES + 1), "é" * 1_100_000):
        with pytest.raises(RecordError) as err:
            loads(text)
        assert err.value.where == ""
        assert "the record is too big" in err.value.reason
        assert "2,097,152 bytes (2 MiB)" in err.value.reason


def test_R13_4_a_50_MB_record_file_is_refused_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:  # a sparse file: 50 MB long, nothing written
        file.truncate(50_000_000)
    with pytest.raises(RecordError) as err:
        load(path)
    assert "huge.json is too big for a record: 50,000,000 bytes" in err.value.reason


def test_R13_4_an_open_file_is_read_no_further_than_the_limit() -> None:
    class Endless(io.RawIOBase):
        asked: ClassVar[list[int]] = []

        def read(self, size: int = -1) -> bytes:
            assert size >= 0, "read everything"
            self.asked.append(size)
            return b" " * size

    with pytest.raises(RecordError, match="too big"):
        load(Endless())  # type: ignore[arg-type]
    assert Endless.asked == [MAX_RECORD_BYTES + 1]


def test_R13_4_the_first_wrong_action_of_a_record_near_the_limit_is_named() -> None:
    data = _record(actions=["p0 take"] * 140_000 + ["p0 dance!"] + ["x"] * 100_000)
    text = json.dumps(data)
    assert len(text) < MAX_RECORD_BYTES
    with pytest.raises(RecordError) as err:
        loads(text)
    assert err.value.where == "actions/140000"
    assert "must be an action such as 'p0 lead 7h', not 'p0 dance!'" in err.value.reason


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("[]", ""),
        ('"record"', ""),
        ("null", ""),
        ('{"format": "durak-record"}', ""),
        (json.dumps(_record(rules=[])), "rules"),
        (json.dumps(_record(rules={"players": {"a": 1}})), "rules"),
        (json.dumps(_record(deal=[1])), "deal"),
        (json.dumps(_record(deal={"dealer": 1})), "deal"),
        (json.dumps(_record(deal={"seed": [1], "dealer": 1})), "deal/seed"),
        (json.dumps(_record(deal={"deck": "7h 8h", "dealer": 1})), "deal/deck"),
        (json.dumps(_record(deal={"deck": ["7h#1"], "dealer": 1})), "deal/deck"),
        (json.dumps(_record(actions={"0": "p0 take"})), "actions"),
        (json.dumps(_record(actions=[["p0", "take"]])), "actions/0"),
        (json.dumps(_record(actions=["p٣ take"])), "actions/0"),
        (json.dumps(_record(result=[])), "result"),
        (json.dumps(_record(result={"durak": 0})), "result"),
        (json.dumps(_record(players="ab")), "players"),
        (json.dumps(_record(meta=[])), "meta"),
        ('{"format": "durak-record", "version": NaN}', ""),
    ],
)
def test_R13_4_a_record_of_the_wrong_shape_names_the_field(text: str, where: str) -> None:
    with pytest.raises(RecordError) as err:
        loads(text)
    assert err.value.where == where


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ([], ""),
        ({"durak": 0}, "draw"),
        ({"durak": "0", "draw": False, "places": [], "winners": [], "losers": []}, "durak"),
        ({"durak": 0, "draw": 0, "places": [], "winners": [], "losers": []}, "draw"),
        ({"durak": 0, "draw": False, "places": [0], "winners": [], "losers": []}, "places/0"),
        ({"durak": 0, "draw": False, "places": [], "winners": "1", "losers": []}, "winners"),
        ({"durak": 0, "draw": False, "places": [], "winners": [], "losers": [], "x": 1}, "x"),
    ],
)
def test_R13_4_a_result_of_the_wrong_shape_names_the_field(data: Any, where: str) -> None:
    with pytest.raises(RecordError) as err:
        result_from_dict(data)
    assert err.value.where == where


@pytest.mark.parametrize("read", [state_from_dict, view_from_dict, event_from_dict])
def test_R13_4_deep_or_long_data_for_states_views_and_events_is_a_record_error(
    read: Callable[[Any], object],
) -> None:
    deep: list[Any] = []
    for _ in range(DEEP):
        deep = [deep]
    with pytest.raises(RecordError, match="nested more than 32 levels deep"):
        read({"type": "Beaten", "player": deep})
    with pytest.raises(RecordError, match="too long"):
        read({"type": "Beaten", "player": 10**5000})


def test_durak_replay_of_hostile_files_exits_2_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases = {
        "deep.json": (_deep_json(), "nested more than 32 levels deep"),
        "long.json": (
            json.dumps(_record()).replace('"seed": 1', f'"seed": {LONG_INT}'),
            "deal/seed: an integer of 5,000 digits is too long",
        ),
        "shape.json": (json.dumps(_record(deal=[])), "deal: "),
    }
    for name, (text, words) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        err = _one_line_exit_2(capsys, ["replay", str(path)])
        assert words in err
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(50_000_000)
    err = _one_line_exit_2(capsys, ["replay", str(huge)])
    assert "too big for a record: 50,000,000 bytes" in err


# --- rules files -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("json", _deep_json(20_000)),
        ("json", '{"teams": ' + _deep_json(20_000) + "}"),
        ("toml", "teams = " + _deep_json(20_000)),
        ("toml", "teams = " + "{a = " * 5_000 + "1" + "}" * 5_000),
    ],
)
def test_R14_a_rules_file_nested_too_deeply_is_a_rules_error(fmt: Any, text: str) -> None:
    with pytest.raises(RulesError) as err:
        loads_rules(text, fmt)
    assert err.value.setting == "file"
    assert "nested more than 32 levels deep at line 1, column" in err.value.reason


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("json", '{"teams": ' + _deep_json(40) + "}"),
        ("toml", "teams = " + _deep_json(40)),
        ("toml", "teams" + ".a" * 40 + " = 1"),  # dotted keys nest without brackets
    ],
)
def test_R14_a_rules_file_nested_a_little_too_deep_names_the_setting(fmt: Any, text: str) -> None:
    with pytest.raises(RulesError) as err:
        loads_rules(text, fmt)
    assert err.value.setting == "teams"
    assert "nested more than 32 levels deep" in err.value.reason


@pytest.mark.parametrize(
    ("fmt", "text", "setting"),
    [
        ("toml", f"players = {LONG_INT}\n", "players"),
        ("toml", f"hand_size = 6\nplayers = {LONG_INT}\n", "players"),
        ("toml", f"teams = [[0, 2], [1, {LONG_INT}]]\n", "teams"),
        ("json", f'{{"players": {LONG_INT}}}', "players"),
        ("json", f'{{"teams": [[0, 2], [1, {LONG_INT}]]}}', "teams"),
    ],
)
def test_R14_a_5000_digit_integer_names_the_setting(fmt: Any, text: str, setting: str) -> None:
    with pytest.raises(RulesError) as err:
        loads_rules(text, fmt)
    assert err.value.setting == setting
    assert "an integer of 5,000 digits is too long (at most 4,300 digits)" in err.value.reason


def test_R14_a_long_integer_in_settings_from_python_does_not_break_the_message() -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_dict({"players": 10**5000})
    assert err.value.setting == "players"
    assert "<an integer of 5001 digits>" in err.value.reason
    with pytest.raises(RulesError) as err:
        rules_from_mapping({"players": "9" * 5_000})
    assert err.value.setting == "players"
    assert len(str(err.value)) < 200


def test_R14_a_rules_file_bigger_than_the_limit_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as err:
        loads_rules("#" * (MAX_RULES_BYTES + 1))
    assert err.value.setting == "file"
    assert "at most 65,536 bytes (64 KiB)" in err.value.reason
    path = tmp_path / "huge.toml"
    with path.open("wb") as file:
        file.truncate(50_000_000)
    with pytest.raises(RulesError) as err:
        load_rules(path)
    assert err.value.setting == "file"
    assert "huge.toml is too big for a rules file: 50,000,000 bytes" in err.value.reason


@pytest.mark.parametrize(
    ("fmt", "text", "setting"),
    [
        ("json", "[1, 2]", "rules"),
        ("json", '"players"', "rules"),
        ("json", '{"players": [4]}', "players"),
        ("json", '{"deck_size": [36]}', "deck_size"),
        ("json", '{"deck_size": {"a": 1}}', "deck_size"),
        ("json", '{"strict_suits": [[1]]}', "strict_suits"),
        ("json", '{"strict_suits": [3]}', "strict_suits"),
        ("json", '{"lead": ["single"]}', "lead"),
        ("json", '{"teams": 4}', "teams"),
        ("json", '{"teams": [[0, [1]]]}', "teams"),
        ("json", '{"house_rules": 1}', "house_rules"),
        ("json", '{"preset": 1}', "preset"),
        ("json", '{"players": NaN}', "file"),
        ("toml", "players = 1979-05-27\n", "players"),
        ("toml", "[players]\na = 1\n", "players"),
        ("toml", "teams = [[0, 1.5], [1, 3]]\nplayers = 4\n", "teams"),
    ],
)
def test_R14_a_rules_file_of_the_wrong_shape_names_the_setting(
    fmt: Any, text: str, setting: str
) -> None:
    with pytest.raises(RulesError) as err:
        loads_rules(text, fmt)
    assert err.value.setting == setting


def test_R14_a_path_that_cannot_be_opened_is_a_rules_error(tmp_path: Path) -> None:
    for path in (tmp_path, "bad\x00name.toml"):
        with pytest.raises(RulesError) as err:
            load_rules(path)
        assert err.value.setting == "file"
        assert "cannot read" in err.value.reason


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("deep.toml", "teams = " + _deep_json(20_000), "file: the rules file is nested"),
        ("deep.json", _deep_json(20_000), "file: the rules file is nested"),
        ("long.toml", f"players = {LONG_INT}\n", "players: an integer of 5,000 digits"),
        ("long.json", f'{{"players": {LONG_INT}}}', "players: an integer of 5,000 digits"),
        ("shape.json", '{"players": [4]}', "players: must be an integer"),
    ],
)
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_durak_with_hostile_rules_files_exits_2_in_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: str,
    name: str,
    text: str,
    words: str,
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    err = _one_line_exit_2(capsys, [command, "--rules", str(path)])
    assert err.startswith(f"durak: error: {words}"), err


def test_durak_play_with_a_50_MB_rules_file_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "huge.toml"
    with path.open("wb") as file:
        file.truncate(50_000_000)
    err = _one_line_exit_2(capsys, ["play", "--rules", str(path)])
    assert "too big for a rules file: 50,000,000 bytes" in err


# --- the web front-end's request bodies ----------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (_deep_json(5_000), 400, "nested more than 32 levels deep"),
        ('{"seats": ' + _deep_json(40) + "}", 400, "seats/0/0/0"),
        ('{"seats": ["human", "rule"], "seed": ' + LONG_INT + "}", 400, "5,000 digits"),
        ("{not json", 400, "send the table's settings as JSON"),
        (b"\xff\xfe{", 400, "send the table's settings as JSON"),
        ("[" * 20_000, 413, "too big"),
    ],
)
def test_hostile_bodies_for_a_new_table_are_refused(
    body: str | bytes, status: int, words: str
) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from durak.web import create_app

    with TestClient(create_app(bot_delay=0)) as client:
        answer = client.post(
            "/api/tables", content=body, headers={"content-type": "application/json"}
        )
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_a_deeply_nested_message_at_a_table_is_refused_in_words() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from durak.web import create_app

    with TestClient(create_app(bot_delay=0)) as client:
        table = client.post("/api/tables", json={"seats": ["human", "rule"]}).json()
        with client.websocket_connect(f"/ws/{table['id']}") as ws:
            assert ws.receive_json()["type"] == "welcome"
            for depth in (40, 800):  # parsed, then refused; too deep for the parser
                ws.send_text('{"":' * depth + "1" + "}" * depth)
                while (message := ws.receive_json())["type"] != "error":
                    pass
                assert "nested more than 32 levels deep" in message["message"]
