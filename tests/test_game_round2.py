"""Issue 40, the front-end author's API, round two: what :class:`durak.Game` gained.

Item 3: seat names (``players=``, kept through a save and a load) and a readable ``repr``;
item 5: bots seated on a record that has none; item 6: the strength levels are bots to
``Game``, and an unknown name or a bad seat is a coded error, not a bare ``ValueError``.
"""

from __future__ import annotations

import json
import random

import attrs
import pytest

from durak import Action, Game, Rules
from durak.bots import RuleBot, SearchBot
from durak.errors import DurakError, SeatError
from durak.i18n import Language
from durak.levels import LevelError
from durak.records import Record


def test_issue40_3_seat_names_are_kept_through_a_save_and_a_load() -> None:
    game = Game(Rules(players=3), seed=4, players=["Ann", "Bob", "Вера"], bots={2: "rule"})
    game.push(game.view(game.actor).legal_actions[0])
    assert game.players == ("Ann", "Bob", "Вера")
    assert game.record().players == ("Ann", "Bob", "Вера")
    again = Game.loads(game.dumps())
    assert again.players == ("Ann", "Bob", "Вера")
    assert again.moves == game.moves
    assert Game(Rules()).players == ()


@pytest.mark.parametrize(
    ("players", "error", "words"),
    [
        (["Ann"], ValueError, "1 names for 2 seats"),
        ("AnnBob", TypeError, "a name per seat"),
        (["Ann", 7], TypeError, "a seat's name is text"),
        (["Ann", ""], ValueError, "1-64 characters"),
        (["Ann", "x" * 65], ValueError, "1-64 characters"),
    ],
)
def test_issue40_3_bad_seat_names_are_refused_naming_the_field(
    players: object, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=f"players: .*{words}"):
        Game(Rules(), players=players)  # type: ignore[arg-type]


def test_issue40_3_the_repr_says_what_the_game_is() -> None:
    game = Game(Rules(players=2), seed=1, bots={1: "rule"}, players=["Ann", "Bot"])
    assert repr(game) == (
        "<Game 2 players, seed=1, 0 moves, p0 to act, bots={1: 'rule'}, "
        "players=('Ann', 'Bot')>"
    )
    game.push("6c")
    game.play_bots()
    assert "2 moves" in repr(game)
    while not game.is_over:
        game.push(game.view(game.actor).legal_actions[0])
        game.play_bots()
    assert ", over, " in repr(game)


def test_issue40_5_bots_are_seated_on_a_record_that_has_none() -> None:
    plain = Record.start(Rules(players=3), seed=9)  # as durak play --save or another program
    game = Game.from_record(plain, bots={1: "rule", 2: "hard"})
    assert isinstance(game.bots[1], RuleBot)
    assert isinstance(game.bots[2], SearchBot)
    game.push(game.view(0).legal_actions[0])
    played = game.play_bots()
    assert played and all(a.player in (1, 2) for a in played)
    again = Game.loads(game.dumps())  # the seated bots are saved with the game
    assert set(again.bots) == {1, 2}
    assert again.state == game.state
    # The same seating, the same seeds: the same answers.
    twin = Game.from_record(plain, bots={1: "rule", 2: "hard"})
    twin.push(twin.view(0).legal_actions[0])
    assert twin.play_bots() == played


def test_issue40_5_a_seat_that_already_has_a_bot_or_is_no_seat_is_refused() -> None:
    saved = Game(Rules(players=2), seed=1, bots={1: "rule"}).record()
    with pytest.raises(ValueError, match="seat 1 already has the record's bot"):
        Game.from_record(saved, bots={1: "random"})
    with pytest.raises(SeatError) as info:
        Game.from_record(Record.start(Rules(), seed=1), bots={5: "rule"})
    assert info.value.code == "seat.no-seat"


def test_issue40_6_levels_are_bots_to_game_and_survive_a_save() -> None:
    game = Game(Rules(players=2), seed=1, bots={1: "hard"})
    assert isinstance(game.bots[1], SearchBot)
    loaded = Game.loads(game.dumps())
    assert isinstance(loaded.bots[1], SearchBot)
    easy = Game(Rules(players=2), seed=1, bots={1: "easy"})
    assert isinstance(easy.bots[1], RuleBot)


def test_issue40_6_an_unknown_or_misspelt_bot_is_a_coded_error_in_every_language() -> None:
    with pytest.raises(LevelError) as info:
        Game(Rules(), bots={1: "hrad"})
    error = info.value
    assert isinstance(error, DurakError) and isinstance(error, ValueError)
    assert error.code == "input.unknown-bot-near"
    assert error.params["near"] == "hard"
    said = {lang: Language(lang).say(error.message) for lang in ("en", "de", "pl", "ru")}
    assert "hard" in said["en"] and "hrad" in said["en"]
    assert len(set(said.values())) == 4, said  # said in each language, not English four times
    with pytest.raises(LevelError) as unknown:
        Game(Rules(), bots={1: "nothing_like_it"})
    assert unknown.value.code == "input.unknown-bot"


def test_issue40_6_a_bad_bot_seat_is_a_seat_error() -> None:
    with pytest.raises(SeatError) as info:
        Game(Rules(players=2), bots={2: "rule"})
    assert info.value.code == "seat.no-seat"
    assert info.value.params["given"] == "2"
    with pytest.raises(TypeError):
        Game(Rules(players=2), bots={"1": "rule"})  # type: ignore[dict-item]


def test_issue40_6_a_saved_game_names_no_module_to_import() -> None:
    game = Game(Rules(players=2), seed=1, bots={1: "rule"})
    data = json.loads(game.dumps())
    data["meta"]["durak.bots"]["1"]["name"] = "os:system"
    with pytest.raises(DurakError, match="unknown bot"):
        Game.loads(json.dumps(data))


def test_issue40_4_each_move_s_events_come_with_the_game() -> None:
    from durak import apply_with_events
    from durak.events import Drew, events_for

    game = Game(Rules(players=2), seed=1, bots={1: "rule"})
    assert game.events(0) == ()
    before = game.state
    game.push("6c")
    assert game.events(0) == events_for(apply_with_events(before, game.moves[-1])[1], 0)
    game.play_bots()
    while not game.is_over:
        state = game.state
        game.push(game.view(game.actor).legal_actions[0])
        whole = apply_with_events(state, game.moves[-1])[1]
        for seat in (0, 1, None):
            assert game.events(seat) == events_for(whole, seat)
        drawn = [e for e in game.events(0) if isinstance(e, Drew) and e.player == 1]
        assert all(e.cards is None for e in drawn), "another seat's draw is hidden"
        game.play_bots()
    assert game.events(None, move=0)[0].player == 0  # the first move's event: the lead
    game.pop()
    assert len(game.moves) > 0 and game.events(0, move=len(game.moves) - 1) == game.events(0)
    with pytest.raises(SeatError):
        game.events(2)
    with pytest.raises(IndexError):
        game.events(0, move=10_000)


def test_issue40_1_the_issue_s_undo_gets_the_same_answer() -> None:
    g = Game(Rules(players=2), seed=1, bots={1: "rule"})
    g.push("6c")
    first = g.play_bots()
    g.pop()
    g.pop()
    g.push("6c")
    assert g.play_bots() == first


#: Every bot and the levels whose answers do not depend on the machine's speed (a search bot
#: with a budget in steps, not in time: with a clock, the same position may get more thought).
BOTS_FOR_UNDO = [
    "random",
    "rule",
    "search:time_limit=none,steps=60",
    "leaf:time_limit=none,steps=60",
    "learned",
    "guided:time_limit=none,steps=60",
    "easy",
    "normal",
]


def _played(seed: int) -> tuple[Game, dict[int, str], random.Random]:
    """A game of up to 60 moves: seat 0 a seeded random person, the others bots (the bot of
    BOTS_FOR_UNDO this seed picks at seat 1; in three-player games the rule bot at seat 2)."""
    bot = BOTS_FOR_UNDO[seed % len(BOTS_FOR_UNDO)]
    two_only = bot.startswith(("learned", "guided"))  # their weights are for two players
    rules = Rules(players=3 if seed % 3 == 0 and not two_only else 2)
    bots = {1: bot} if rules.players == 2 else {1: bot, 2: "rule"}
    game = Game(rules, seed=seed, bots=bots)
    human = random.Random(seed)
    while not game.is_over and len(game.moves) < 60:
        game.play_bots()
        if not game.is_over:
            game.push(human.choice(game.view(game.actor).legal_actions))
    return game, bots, human


def _undo_and_replay(
    game: Game, moves: tuple[Action, ...], bots: dict[int, str], back: int
) -> None:
    """Pop ``back`` moves, then play them again: each move that was a bot's must be the bot's
    answer again."""
    for _ in range(back):
        game.pop()
    for action in moves[len(moves) - back :]:
        if not game.is_over and game.actor in bots:
            assert game.bot_move() == action, (bots, len(game.moves))
        else:
            game.push(action)
    assert game.moves == moves


@pytest.mark.parametrize("seed", range(30))
def test_issue40_1_pop_back_and_push_again_gives_the_same_game_bots_included(seed: int) -> None:
    game, bots, human = _played(seed)
    moves = game.moves
    _undo_and_replay(game, moves, bots, back=human.randrange(1, len(moves) + 1))


@pytest.mark.parametrize("seed", range(30))
def test_issue40_1_undo_past_a_load_gives_the_same_bots_answers(seed: int) -> None:
    game, bots, human = _played(seed)
    loaded = Game.loads(game.dumps())  # a new game object, as after a restart
    _undo_and_replay(loaded, game.moves, bots, back=human.randrange(1, len(game.moves) + 1))
    assert loaded.state == game.state


def test_issue40_2_a_saved_game_s_bots_are_compact() -> None:
    sizes = []
    for seed in range(6):
        game = Game(Rules(players=2), seed=seed, bots={1: "rule"})
        human = random.Random(seed)
        while not game.is_over:
            game.play_bots()
            if not game.is_over:
                game.push(human.choice(game.view(game.actor).legal_actions))
        text = game.dumps()
        sizes.append(len(text.encode("utf-8")))
        bot = json.loads(text)["meta"]["durak.bots"]["1"]
        assert bot["state"]["rng"].split("@")[0].isdigit(), "the generator as a count of draws"
    assert sum(sizes) / len(sizes) < 12_000, sizes


@pytest.mark.parametrize(("count", "n"), [(1, 2), (2, 1), (5, 3), (11, 2), (21, 5), (22, 2)])
def test_issue40_10_the_hands_count_reason_agrees_in_number_in_every_language(
    count: int, n: int
) -> None:
    from durak.messages import message

    said = {c: Language(c).say(message("position.hands-count", count=count, n=n)) for c in LANGS}
    assert said["en"] == f"hands: {count} given, the game has {n} player" + ("s" if n != 1 else "")
    assert " 1 рук" not in said["ru"] and " 1 rąk" not in said["pl"] and "1 Hände" not in said["de"]
    ru_player = {1: "игрок", 2: "игрока", 3: "игрока", 5: "игроков"}
    if n in ru_player and not 11 <= n % 100 <= 14:
        assert said["ru"].endswith(f"{n} {ru_player[n]}"), said["ru"]


LANGS = ("en", "de", "pl", "ru")


def test_issue40_9_a_replay_error_is_coded_and_said_whole_in_every_language() -> None:
    from durak.actions import Take
    from durak.records import ReplayError, replay

    bad = Record(rules=Rules(), seed=1, actions=(Take(0),))
    with pytest.raises(ReplayError) as info:
        replay(bad)
    error = info.value
    assert error.code == "illegal.not-led" and error.message.code == "error.replay"
    said = {code: Language(code).say(error.message) for code in LANGS}
    assert said["en"] == "replay: action 0 (p0 take): no bout has been led yet (R4.2)"
    assert said["ru"].startswith("повтор партии: ход 0 (p0 take): ") and "R4.2" in said["ru"]
    assert len(set(said.values())) == 4
    finished = Game(Rules(), seed=2, bots={0: "rule", 1: "rule"})
    finished.play_bots()
    record = finished.record()
    wrong = attrs.evolve(record, result=attrs.evolve(record.result, durak=1 - record.result.durak))
    with pytest.raises(ReplayError) as differs:
        replay(wrong)
    assert differs.value.code == "error.replay-result"
    assert Language("de").say(differs.value.message).startswith("Nachspielen: ")


def test_issue40_10_an_event_against_you_is_said_to_you() -> None:
    from durak.events import describe_event

    game = Game(Rules(players=2), seed=1)
    game.push("6c")
    led = describe_event(game.events(1)[0])
    said = {code: Language(code).say(led, you=1) for code in LANGS}
    assert said["en"] == "player 0 led 6♣ against you"
    assert said["de"] == "Spieler 0 spielt 6♣ gegen dich aus"
    assert "player 1" not in said["en"] and "игрок 1" not in said["ru"]
    assert Language("en").say(led, you=0) == "you led 6♣ against player 1"
    assert Language("en").say(led) == "player 0 led 6♣ against player 1"


def test_issue40_12_durak_bots_gives_each_bot_s_first_sentence_whole() -> None:
    from durak.cli.bots_cmd import bot_catalogue

    summaries = {row["name"]: row["summary"] for row in bot_catalogue()}
    assert summaries["rule"].endswith('strategy tips ("Strategie-Tipps").')
    for name, summary in summaries.items():
        assert summary.endswith("."), (name, summary)  # a whole sentence, not a cut line
        assert "``" not in summary and ":class:" not in summary, (name, summary)


def test_issue40_9_a_missing_file_and_bad_toml_or_json_are_coded_in_every_language(
    tmp_path: object,
) -> None:
    from pathlib import Path

    from durak.errors import RulesError
    from durak.presets import load_rules, loads_rules
    from durak.records import RecordError, loads

    assert isinstance(tmp_path, Path)
    with pytest.raises(RulesError) as missing:
        load_rules(tmp_path / "nothing.toml")
    with pytest.raises(RulesError) as toml:
        loads_rules("players = 2\nlead = \n", "toml")
    with pytest.raises(RecordError) as json_text:
        loads("{nope")
    assert missing.value.code == "input.cannot-read"
    assert toml.value.code == "input.not-toml-line" and toml.value.params["line"] == 2
    assert json_text.value.code == "input.not-json"
    assert Language("ru").say(toml.value.message).startswith("file: некорректный TOML в строке 2")
    assert Language("de").say(missing.value.message).startswith("file: kann ")
    assert Language("pl").say(json_text.value.message).endswith(json_text.value.params["detail"])
