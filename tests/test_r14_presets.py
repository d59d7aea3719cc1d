"""R14 Presets: the table of named presets, lookup by name or alias, overrides, TOML and JSON
rules files, and settings that are unknown, mistyped or contradict each other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from durak import Rules, RulesError, build_deck, new_game
from durak.presets import PRESETS, dump_rules, dumps_rules, get_preset, load_rules, loads_rules
from durak.rules.extensions import jokers_of

# The rule book's table: every preset and the settings that differ from the defaults.
TABLE: dict[str, dict[str, Any]] = {
    "podkidnoy": {},
    "perevodnoy": {"transfer_by_card": True},
    "perevodnoy-show-trump": {"transfer_by_card": True, "transfer_by_showing_trump": True},
    "german-classic": {"throwers": "neighbours", "lead": "same_rank"},
    "polish": {"objective": "first_out", "first_bout_max": None, "draw_order": "join_order"},
    "polish-transfer": {
        "objective": "first_out",
        "first_bout_max": None,
        "draw_order": "join_order",
        "transfer_by_card": True,
    },
    "clubs-rule": {"strict_suits": ["c"]},
    "pairs": {"players": 4, "teams": [[0, 2], [1, 3]], "team_win": "first_out"},
    "pairs-3x2": {"players": 6, "teams": [[0, 3], [1, 4], [2, 5]], "team_win": "all_out"},
    "deck-32": {"deck_size": 32},
    "deck-24": {"deck_size": 24},
    "deck-52": {"deck_size": 52},
    "double-deck": {"decks": 2},
}

# For contradictions the error may name either setting involved.
_TEAMS_OR_PLAYERS = {"teams", "players"}
_TRANSFER_SETTINGS = {"transfer_several", "transfer_by_card"}


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(TABLE))
def test_R14_every_preset_of_the_table_exists_with_its_settings(name: str) -> None:
    preset = get_preset(name)
    assert preset.name == name
    assert PRESETS[name] is preset
    assert preset.rules() == Rules(**TABLE[name])


def test_R14_default_preset_is_podkidnoy_with_all_defaults() -> None:
    assert get_preset("podkidnoy").rules() == Rules()
    assert loads_rules("") == Rules()


def test_R14_named_settings_of_the_table() -> None:
    assert get_preset("clubs-rule").rules().strict_suits == frozenset(
        Rules(strict_suits="clubs").strict_suits
    )
    pairs = get_preset("pairs").rules()
    assert (pairs.players, pairs.teams, pairs.team_win) == (4, ((0, 2), (1, 3)), "first_out")
    couples = get_preset("pairs-3x2").rules()
    assert couples.teams == ((0, 3), (1, 4), (2, 5))
    assert couples.team_win == "all_out"
    assert get_preset("polish").rules().first_bout_max is None


@pytest.mark.parametrize("name", list(PRESETS))
def test_R14_preset_is_data_with_description_and_source(name: str) -> None:
    preset = PRESETS[name]
    assert preset.description.strip() and "\n" not in preset.description
    assert preset.source.strip()
    # Its settings are the differences from the defaults.
    assert preset.rules() == Rules(**dict(preset.settings))


@pytest.mark.parametrize("name", list(PRESETS))
def test_R14_every_preset_deals_a_game(name: str) -> None:
    rules = get_preset(name).rules()
    state = new_game(rules, seed=2)
    assert state.players == rules.players
    deck = build_deck(rules.deck_size, rules.decks) + jokers_of(rules)  # R1.2, R15.1
    assert sorted(state.all_cards()) == sorted(deck)


def test_R14_double_deck_takes_up_to_twelve_players() -> None:
    assert get_preset("double-deck").rules(players=12).players == 12
    with pytest.raises(RulesError) as info:
        get_preset("double-deck").rules(players=13)
    assert info.value.setting == "players"


# ---------------------------------------------------------------------------------------------
# Lookup
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_R14_lookup_by_name_is_case_insensitive(name: str) -> None:
    preset = PRESETS[name]
    assert get_preset(name.upper()) is preset
    assert get_preset(name.title()) is preset
    for alias in preset.aliases:
        assert get_preset(alias) is preset
        assert get_preset(alias.upper()) is preset
        assert get_preset(alias.swapcase()) is preset


def test_R14_aliases_name_one_preset_each() -> None:
    seen: dict[str, str] = {}
    for preset in PRESETS.values():
        for key in (preset.name, *preset.aliases):
            folded = key.casefold()
            assert folded not in seen, f"{key} names both {seen.get(folded)} and {preset.name}"
            seen[folded] = preset.name


def test_R14_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(RulesError) as info:
        get_preset("blitz-durak")
    err = info.value
    assert err.setting == "preset"
    assert "blitz-durak" in str(err)
    for name in PRESETS:
        assert name in str(err)


# ---------------------------------------------------------------------------------------------
# Overrides
# ---------------------------------------------------------------------------------------------


def test_R14_overrides_apply_on_top_of_the_preset() -> None:
    rules = get_preset("perevodnoy").rules(players=4, transfer_several=True)
    assert rules == Rules(players=4, transfer_by_card=True, transfer_several=True)
    rules = get_preset("Polish").rules(first_bout_max=3)
    assert (rules.objective, rules.first_bout_max, rules.draw_order) == (
        "first_out",
        3,
        "join_order",
    )
    # An override may also switch a preset's setting back.
    assert get_preset("german-classic").rules(throwers="all", lead="single") == Rules()


def test_R14_override_with_an_unknown_setting_rejected() -> None:
    with pytest.raises(RulesError) as info:
        get_preset("podkidnoy").rules(trump_suit="hearts")
    assert info.value.setting == "trump_suit"


@pytest.mark.parametrize(
    ("settings", "setting"),
    [
        ({"players": "four"}, "players"),
        ({"players": 1}, "players"),
        ({"transfer_by_card": "yes"}, "transfer_by_card"),
        ({"transfer_by_card": 1}, "transfer_by_card"),
        ({"throwers": "everyone"}, "throwers"),
        ({"lead": 2}, "lead"),
        ({"deck_size": 40}, "deck_size"),
        ({"first_bout_max": "five"}, "first_bout_max"),
        ({"strict_suits": ["x"]}, "strict_suits"),
        ({"objective": "last_out"}, "objective"),
        ({"team_win": "most_out"}, "team_win"),
    ],
)
def test_R14_override_with_a_wrong_type_or_value_rejected(
    settings: dict[str, Any], setting: str
) -> None:
    with pytest.raises(RulesError) as info:
        get_preset("podkidnoy").rules(**settings)
    assert info.value.setting == setting


def test_R14_pairs_preset_with_three_players_rejected() -> None:
    with pytest.raises(RulesError) as info:
        get_preset("pairs").rules(players=3)
    assert info.value.setting in _TEAMS_OR_PLAYERS


def test_R14_transfer_several_without_transfer_by_card_rejected() -> None:
    with pytest.raises(RulesError) as info:
        Rules(transfer_several=True)
    assert info.value.setting in _TRANSFER_SETTINGS
    with pytest.raises(RulesError) as info:
        get_preset("perevodnoy").rules(transfer_by_card=False, transfer_several=True)
    assert info.value.setting in _TRANSFER_SETTINGS


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (4, [[0, 1], [2, 3]]),
        (6, [[0, 1, 2], [3, 4, 5]]),
        (6, [[0, 1], [2, 3], [4, 5]]),
        (6, [[0, 2], [1, 3], [4, 5]]),
    ],
)
def test_R14_teams_that_do_not_alternate_rejected(players: int, teams: list[list[int]]) -> None:
    with pytest.raises(RulesError) as info:
        Rules(players=players, teams=teams)
    assert info.value.setting == "teams"


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (4, [[0, 2], [1]]),
        (4, [[0, 2], [1, 3], [4, 5]]),
        (4, [[0, 2], [0, 2], [1, 3]]),
        (4, [[0, 1, 2, 3]]),
    ],
)
def test_R14_teams_that_are_no_partition_of_the_seats_rejected(
    players: int, teams: list[list[int]]
) -> None:
    with pytest.raises(RulesError) as info:
        Rules(players=players, teams=teams)
    assert info.value.setting == "teams"


# ---------------------------------------------------------------------------------------------
# Rules files (TOML and JSON)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["toml", "json"])
@pytest.mark.parametrize("name", list(PRESETS))
def test_R14_every_preset_round_trips_through_text(name: str, fmt: Any) -> None:
    rules = get_preset(name).rules()
    assert loads_rules(dumps_rules(rules, fmt), fmt) == rules


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("name", list(PRESETS))
def test_R14_every_preset_round_trips_through_a_file(
    name: str, suffix: str, tmp_path: Path
) -> None:
    rules = get_preset(name).rules()
    path = tmp_path / f"rules{suffix}"
    dump_rules(rules, path)
    assert load_rules(path) == rules


def test_R14_overridden_rules_round_trip() -> None:
    rules = get_preset("pairs-3x2").rules(
        throwers="neighbours", strict_suits=["c", "s"], first_bout_max=None, transfer_by_card=True
    )
    for fmt in ("toml", "json"):
        assert loads_rules(dumps_rules(rules, fmt), fmt) == rules  # type: ignore[arg-type]


def test_R14_a_users_file_names_a_preset_and_overrides_it() -> None:
    text = 'preset = "Perevodnoy"\nplayers = 4\ntransfer_several = true\n'
    assert loads_rules(text) == get_preset("perevodnoy").rules(players=4, transfer_several=True)
    data = '{"preset": "pairs-3x2", "throwers": "neighbours"}'
    assert loads_rules(data, "json") == get_preset("pairs-3x2").rules(throwers="neighbours")
    assert loads_rules('{"players": 3}', "json") == Rules(players=3)


@pytest.mark.parametrize(
    ("fmt", "text", "setting"),
    [
        ("toml", 'colour = "red"\n', "colour"),
        ("json", '{"colour": "red"}', "colour"),
        ("toml", 'players = "four"\n', "players"),
        ("json", '{"players": "four"}', "players"),
        ("toml", "transfer_by_card = 1\n", "transfer_by_card"),
        ("json", '{"transfer_by_card": "true"}', "transfer_by_card"),
        ("json", '{"strict_suits": ["x"]}', "strict_suits"),
        ("toml", 'lead = "double"\n', "lead"),
        ("toml", 'preset = "blitz-durak"\n', "preset"),
        ("toml", "teams = [[0, 1], [2, 3]]\nplayers = 4\n", "teams"),
    ],
)
def test_R14_files_with_unknown_keys_or_wrong_types_rejected(
    fmt: Any, text: str, setting: str
) -> None:
    with pytest.raises(RulesError) as info:
        loads_rules(text, fmt)
    assert info.value.setting == setting


@pytest.mark.parametrize(
    ("fmt", "text", "settings"),
    [
        ("toml", 'preset = "pairs"\nplayers = 3\n', _TEAMS_OR_PLAYERS),
        ("json", '{"preset": "pairs", "players": 3}', _TEAMS_OR_PLAYERS),
        ("toml", "transfer_several = true\n", _TRANSFER_SETTINGS),
        (
            "json",
            '{"preset": "perevodnoy", "transfer_by_card": false, "transfer_several": true}',
            _TRANSFER_SETTINGS,
        ),
        ("toml", "players = 7\n", {"players"}),
    ],
)
def test_R14_files_with_contradicting_settings_rejected(
    fmt: Any, text: str, settings: set[str]
) -> None:
    with pytest.raises(RulesError) as info:
        loads_rules(text, fmt)
    assert info.value.setting in settings


@pytest.mark.parametrize(("fmt", "text"), [("toml", "players = = 4"), ("json", "{players: 4")])
def test_R14_text_that_does_not_parse_rejected(fmt: Any, text: str) -> None:
    with pytest.raises(RulesError):
        loads_rules(text, fmt)


def test_R14_missing_file_rejected(tmp_path: Path) -> None:
    with pytest.raises(RulesError):
        load_rules(tmp_path / "nowhere.toml")
