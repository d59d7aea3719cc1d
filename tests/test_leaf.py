"""The search bot with learned leaf values (issue 29, item 3): the features of a full position
say where every card lies from the scoring seat's side, the shipped values load and a file of
another format or size is refused naming the field, the bot plays only legal actions through
whole games, is the search bot where no values ship or with ``leaf=False``, keeps to its
budgets, keeps the trump ace in the opening and wins every won two-player endgame of the small
set.

Needs numpy (the ``rl`` or ``cli`` extra). CI installs it, so there a missing library fails the
run instead of skipping it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from test_bots import play_checked
from test_endgame import OPENINGS, play_out, won_endgames

from durak import Rules, apply, new_game, next_actor, view
from durak.agent import WeightsError, save_network
from durak.bots import _DEFAULT_WEIGHTS, BOTS, RuleBot, SearchBot, _Game, make_bot
from durak.cards import Card
from durak.endgame import value_of
from durak.errors import RulesError
from durak.leaf import (
    COVERED,
    FORMAT,
    LeafBot,
    ValueNetwork,
    feature_size,
    features,
    load_value_network,
    rule_steps,
    save_value_network,
    value_network_for,
)
from durak.state import GameState


def _positions(rules: Rules, games: int = 3) -> list[GameState]:
    """Every position of a few games between rule bots."""
    found = []
    for g in range(games):
        state = new_game(rules, seed=f"leaf:{g}")
        bots = [RuleBot(seed=i) for i in range(rules.players)]
        while state.result is None:
            found.append(state)
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, bots[actor].choose(view(state, actor)))
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_issue29_leaf_features_locate_every_card_once_from_the_scoring_seat(
    players: int,
) -> None:
    rules = Rules(players=players)
    width = players + 6
    for s in _positions(rules, 2)[::7]:
        for me in range(players):
            row = features(s, me)
            assert row.shape == (feature_size(players),) and row.dtype == np.float32
            cards = row[: 36 * width].reshape(36, width)
            # Each card lies in exactly one place: a hand, the stock, the discard pile or the
            # table (as an attack card or as a beating card).
            where = cards[:, : players + 1].sum(1) + cards[:, players + 2 : players + 5].sum(1)
            assert (where == 1).all()
            # Hand k is the hand of the seat k places after me.
            for k in range(players):
                assert cards[:, k].sum() == len(s.hands[(me + k) % players])
            # The trump suit comes first: the face-up trump card is among the first nine cards.
            if s.stock:
                depth = cards[:, players + 1]
                last = int(np.argmax(depth))
                assert last < 9 and depth[last] == len(s.stock) / 36
            g = 36 * width + 1 + players
            assert row[g + (s.attacker - me) % players] == 1
            assert row[g + players + (s.defender - me) % players] == 1


def test_issue29_leaf_features_do_not_change_the_state() -> None:
    s = _positions(Rules(), 1)[10]
    copy = s
    features(s, 0)
    assert s == copy and hash(s) == hash(copy)


@pytest.mark.parametrize("rules", list(COVERED), ids=["2p", "4p"])
def test_issue29_shipped_leaf_values_load_and_score_positions_in_0_1(rules: Rules) -> None:
    net = value_network_for(rules)
    assert net.rules == rules and net.weights[0][0].shape[0] == feature_size(rules.players)
    assert net.weights[-1][0].shape[1] == 1
    assert net.meta["games"] > 0 and isinstance(net.meta["seed"], int)
    states = _positions(rules, 1)
    rows = np.stack([features(s, 0) for s in states])
    values = net.values(rows)
    assert values.shape == (len(states),) and ((values > 0) & (values < 1)).all()
    assert net.value(states[5], 0) == pytest.approx(float(values[5]), abs=1e-6)


def test_issue29_leaf_values_tell_a_won_position_from_a_lost_one() -> None:
    # Late in a two-player game the values of the seat who goes on to win are higher on average
    # than his opponent's: the network has learned something about who wins.
    net = value_network_for(Rules())
    winner_values, loser_values = [], []
    for g in range(20):
        state = new_game(Rules(), seed=f"late:{g}")
        bots = [RuleBot(seed=0), RuleBot(seed=1)]
        seen = []
        while state.result is None:
            seen.append(state)
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, bots[actor].choose(view(state, actor)))
        if state.result.draw:
            continue
        late = seen[-len(seen) // 3 :]
        winner = state.result.winners[0]
        winner_values += [net.value(s, winner) for s in late]
        loser_values += [net.value(s, 1 - winner) for s in late]
    assert np.mean(winner_values) > np.mean(loser_values) + 0.2


def _tiny(rules: Rules | None = None) -> ValueNetwork:
    rules = rules if rules is not None else Rules()
    rng = np.random.default_rng(0)
    sizes = [feature_size(rules.players), 4, 1]
    weights = tuple(
        (rng.normal(size=(a, b)).astype(np.float32), np.zeros(b, np.float32))
        for a, b in itertools.pairwise(sizes)
    )
    return ValueNetwork(rules, weights, {"games": 1})


def test_issue29_leaf_values_round_trip_through_their_format(tmp_path: Path) -> None:
    path = tmp_path / "leaf.npz"
    save_value_network(path, _tiny())
    with np.load(path) as data:
        assert str(data["format"]) == FORMAT and data["w0"].dtype == np.float16
    back = load_value_network(path)
    assert back.rules == Rules() and back.meta == {"games": 1}
    assert back.weights[0][0].shape == (feature_size(2), 4)


def test_issue29_a_leaf_file_of_another_format_or_size_is_refused_naming_the_field(
    tmp_path: Path,
) -> None:
    from test_agent import _tiny as tiny_agent

    agent = tmp_path / "agent.npz"
    save_network(agent, tiny_agent())
    with pytest.raises(WeightsError) as info:
        load_value_network(agent)
    assert info.value.field == "format" and "durak-leaf" in str(info.value)
    wide = _tiny()
    two_outputs = ValueNetwork(
        wide.rules, (wide.weights[0], (np.zeros((4, 2), np.float32), np.zeros(2, np.float32)))
    )
    with pytest.raises(WeightsError) as info:
        save_value_network(tmp_path / "two.npz", two_outputs)
    assert info.value.field == "w1" and "expected 1" in str(info.value)
    short = ValueNetwork(Rules(players=4), _tiny().weights)
    with pytest.raises(WeightsError) as info:
        save_value_network(tmp_path / "short.npz", short)
    assert info.value.field == "w0" and str(feature_size(4)) in str(info.value)


def test_issue29_rules_without_leaf_values_are_named() -> None:
    with pytest.raises(RulesError) as info:
        value_network_for(Rules(players=3))
    assert info.value.setting == "players"


def test_issue29_rule_steps_play_the_rule_of_thumb_and_stop_at_the_end() -> None:
    state = new_game(Rules(), seed=4)
    game = _Game(state, _DEFAULT_WEIGHTS)
    same, played = rule_steps(state, game, 0, 0)
    assert same is state and played == 0
    after, played = rule_steps(state, game, 0, 3)
    assert played == 3
    expected = state
    for _ in range(3):
        actor = next_actor(expected)
        assert actor is not None
        expected, _ = rule_steps(expected, game, None, 1)
    assert after == expected
    end, played = rule_steps(state, game, None, 5000)
    assert end.result is not None and played < 5000


def test_issue29_leaf_is_a_registered_bot() -> None:
    assert "leaf" in BOTS
    bot = make_bot("leaf:time_limit=0.02,clock=cpu,depth=2", 1)
    assert isinstance(bot, LeafBot) and isinstance(bot, SearchBot)
    assert (bot.time_limit, bot.clock, bot.depth) == (0.02, "cpu", 2)
    with pytest.raises(ValueError, match="depth"):
        LeafBot(1, depth=-1)


@pytest.mark.parametrize("players", [2, 4])
def test_issue29_the_leaf_bot_plays_only_legal_actions_through_whole_games(players: int) -> None:
    kinds = ["leaf:time_limit=none,playouts=48", "rule", "random"]
    kinds.append("search:time_limit=none,steps=300")
    names = kinds[:players]
    assert play_checked(Rules(players=players), names, f"leaf:{players}")


def test_issue29_the_leaf_bot_is_deterministic_on_a_playouts_budget() -> None:
    state = new_game(Rules(), seed=8)
    actor = next_actor(state)
    assert actor is not None
    v = view(state, actor)
    a = LeafBot(3, time_limit=None, playouts=64)
    b = LeafBot(3, time_limit=None, playouts=64)
    assert a.choose(v) == b.choose(v)
    assert a.last_playouts >= 64 and a.last_steps > 0


def test_issue29_the_leaf_bot_without_values_plays_as_the_search_bot() -> None:
    for rules, options in ((Rules(), {"leaf": False}), (Rules(players=3), {})):
        state = new_game(rules, seed=11)
        plain = SearchBot(4, time_limit=None, steps=1500)
        bare = LeafBot(4, time_limit=None, steps=1500, **options)
        for _ in range(25):
            if state.result is None:
                actor = next_actor(state)
                assert actor is not None
                v = view(state, actor)
                action = plain.choose(v)
                assert bare.choose(v) == action
                state = apply(state, action)


def test_issue29_the_leaf_bot_keeps_its_time_limit() -> None:
    ticks = itertools.count()
    # A fake clock that advances a millisecond at every reading.
    bot = LeafBot(1, time_limit=0.01, clock=lambda: next(ticks) / 1000)
    state = new_game(Rules(), seed=2)
    actor = next_actor(state)
    assert actor is not None
    bot.choose(view(state, actor))
    assert next(ticks) <= 12
    assert bot.last_playouts > 0


@pytest.mark.parametrize("case", sorted(OPENINGS))
@pytest.mark.parametrize("seed", range(3))
def test_issue29_leaf_bot_keeps_the_trump_ace_in_the_opening_when_a_lower_card_serves(
    case: str, seed: int
) -> None:
    state, seat = OPENINGS[case]
    action = LeafBot(seed, time_limit=None, playouts=200).choose(view(state, seat))
    assert Card("Ad") not in getattr(action, "cards", ()), action


def test_issue29_leaf_bot_wins_every_won_two_player_endgame() -> None:
    games = won_endgames()
    assert sum(state.rules in COVERED for state, _ in games) >= 4
    for state, seat in games:
        for other in (RuleBot(seed=1), SearchBot(seed=2, time_limit=None, steps=20_000)):
            bot = LeafBot(seed=3, time_limit=None, steps=20_000)
            end = play_out(state, {seat: bot, 1 - seat: other})
            assert end.result is not None and value_of(end.result, seat) == 1, (state, seat)


def test_issue29_a_leaf_bot_with_its_own_values_refuses_other_rules(tmp_path: Path) -> None:
    path = tmp_path / "leaf.npz"
    save_value_network(path, _tiny(Rules(players=4)))
    bot = make_bot(f"leaf:weights={path},time_limit=none,playouts=32", 1)
    assert isinstance(bot, LeafBot) and bot._net(Rules(players=4)) is not None
    state = new_game(Rules(), seed=1)
    actor = next_actor(state)
    assert actor is not None
    with pytest.raises(RulesError) as info:
        bot.choose(view(state, actor))
    assert info.value.setting == "players"
    with pytest.raises(RulesError):
        bot.check_rules(Rules())
    four = new_game(Rules(players=4), seed=1)
    first = next_actor(four)
    assert first is not None
    assert bot.choose(view(four, first)) in view(four, first).legal_actions
    assert json.loads(json.dumps(load_value_network(path).meta)) == {"games": 1}


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("depth=1.5", "depth must be a whole number"),
        ("depth=-1", "depth must be a whole number"),
        ("worlds=0", "worlds must be a whole number"),
        ("worlds=abc", "worlds must be a whole number"),
        ("leaf=maybe", "leaf must be true or false"),
    ],
)
def test_issue29_bad_leaf_options_are_refused_naming_the_option(option: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_bot(f"leaf:{option}", 1)


def test_issue29_unreadable_or_damaged_leaf_files_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read a file"):
        make_bot(f"leaf:weights={tmp_path / 'missing.npz'}", 1)
    good = tmp_path / "good.npz"
    save_value_network(good, _tiny())
    data = good.read_bytes()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(data[:-10])
    flipped = tmp_path / "flipped.npz"
    middle = len(data) // 2
    flipped.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :])
    junk = tmp_path / "junk.npz"
    junk.write_text("weights, honestly", encoding="utf-8")
    for bad in (cut, flipped, junk):
        with pytest.raises(WeightsError) as info:
            load_value_network(bad)
        assert info.value.field in {"format", "w0", "b0", "w1", "b1", "rules", "meta"}, bad
        assert "allow_pickle" not in str(info.value)
        assert str(info.value).startswith("not a weights file this library reads: ")
    nan = _tiny()
    w, b = nan.weights[0]
    broken = ValueNetwork(nan.rules, ((np.full_like(w, np.nan), b), nan.weights[1]))
    save_value_network(tmp_path / "nan.npz", broken)
    with pytest.raises(WeightsError) as info:
        load_value_network(tmp_path / "nan.npz")
    assert info.value.field == "w0" and "finite" in str(info.value)


def test_issue29_the_leaf_bot_takes_the_rule_of_thumbs_constants() -> None:
    bot = make_bot("leaf:take_base=5,time_limit=none,playouts=16", 1)
    assert isinstance(bot, LeafBot) and bot.weights.take_base == 5
    assert bot.weights_file is None


def test_issue29_the_leaf_bot_keeps_to_its_playouts_and_steps_within_a_deal() -> None:
    state = new_game(Rules(), seed=8)
    actor = next_actor(state)
    assert actor is not None
    v = view(state, actor)
    candidates = min(8, len(v.legal_actions))
    bot = LeafBot(3, time_limit=None, playouts=1)
    bot.choose(v)
    assert 1 <= bot.last_playouts <= candidates
    bot = LeafBot(3, time_limit=None, steps=10)
    bot.choose(v)
    assert 10 <= bot.last_steps <= 10 + 4 * candidates


def test_issue29_without_numpy_the_leaf_bot_is_the_search_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import durak.bots

    monkeypatch.setattr(durak.bots, "_has_numpy", lambda: False)
    bot = make_bot("leaf:depth=2,worlds=3,time_limit=0.01", 1)
    assert type(bot) is SearchBot and bot.time_limit == 0.01
    with pytest.raises(ValueError, match="numpy"):
        make_bot("leaf:weights=values.npz", 1)


def test_R7_3_leaf_playouts_stop_when_the_scored_seat_is_out() -> None:
    # Four players, objective durak: a seat that is out has won (R7.3), so the rule of
    # thumb's steps after a candidate stop as soon as the scored seat is out, and the leaf
    # bot scores that as a win without asking the network.
    rules = Rules(players=4)
    game = _Game(new_game(rules, seed=1), _DEFAULT_WEIGHTS)
    for s in _positions(rules, 4):
        after, _ = rule_steps(s, game, None, 1)
        out = [p for p in range(4) if s.places[p] is None and after.places[p] is not None]
        if after.result is not None or not out:
            continue
        seat = out[0]
        stopped, played = rule_steps(s, game, seat, 10)
        assert played == 1 and stopped == after
        # Without the scored seat, play goes on past that action.
        other = next(p for p in range(4) if after.places[p] is None)
        _, going_on = rule_steps(s, game, other, 10)
        assert going_on > 1
        return
    raise AssertionError("no seat went out before the end in these games")
