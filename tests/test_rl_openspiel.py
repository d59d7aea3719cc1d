"""The OpenSpiel game python_durak (durak.rl.openspiel_game, extra ``openspiel``).

CI installs the extra, so there a missing library fails the run instead of skipping it.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import numpy as np
import pyspiel
import pytest

from durak import Card, GameState, new_game, parse_cards
from durak.rl import encoding as enc
from durak.rl.openspiel_game import GAME_NAME, DurakGame, game_rules


def load(**params: Any) -> Any:
    if "rules" in params and not isinstance(params["rules"], str):
        params["rules"] = json.dumps(params["rules"])
    return pyspiel.load_game(GAME_NAME, params)


def play_random(state: Any, rng: random.Random) -> Any:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice([a for a, _ in outcomes]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"players": 3},
        {"preset": "perevodnoy-show-trump", "players": 4, "rules": {"trump_six_exchange": True}},
        {"preset": "pairs"},
        {"preset": "polish-transfer", "players": 3},
        {"rules": {"deck_size": 24, "hand_size": 3, "no_trump_lead": "redeal"}},
    ],
)
def test_random_sim_test_passes(params: dict[str, Any]) -> None:
    game = load(**params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


def test_random_sim_test_with_serialization_passes() -> None:
    game = load(rules={"deck_size": 24})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_facts() -> None:
    game = load()
    rules = game_rules({})
    assert isinstance(game, DurakGame)
    assert game.num_players() == 2
    assert game.num_distinct_actions() == enc.action_space_size(rules) == 363
    assert game.max_chance_outcomes() == 36
    assert game.max_game_length() == 2000
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_size() == enc.observation_size(rules)
    assert game.information_state_tensor_size() == enc.observation_size(rules) + 2 * 36
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load(players=3).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert load(preset="polish").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_the_deal_is_a_uniform_shuffle_card_by_card() -> None:
    game = load(rules={"deck_size": 24})
    state = game.new_initial_state()
    picked = []
    for k in range(24):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 24 - k
        assert all(abs(p - 1 / (24 - k)) < 1e-12 for _, p in outcomes)
        action = outcomes[len(outcomes) // 2][0]
        picked.append(action)
        state.apply_action(action)
    assert not state.is_chance_node()
    deck = [enc.index_card(i, game.rules) for i in picked]
    assert state.game_state == new_game(game.rules, deck=deck)


def _deck_without_trump_for_anyone() -> list[Card]:
    """A 24-card deck order (2 players, hand size 3) in which neither hand holds a trump."""
    dealt = "9c Tc Jc 9d Td Jd"  # dealt alternately: no heart in either hand
    face_up = "Qh"  # the face-up trump card: hearts are trump
    rest = "Qc Kc Ac Qd Kd Ad 9h Th Jh Kh Ah 9s Ts Js Qs Ks As"
    return list(parse_cards(f"{dealt} {face_up} {rest}"))


def test_no_trump_lead_redeal_shuffles_again() -> None:
    game = load(rules={"deck_size": 24, "hand_size": 3, "no_trump_lead": "redeal"})
    state = game.new_initial_state()
    for card in _deck_without_trump_for_anyone():
        state.apply_action(enc.card_index(card, game.rules))
    assert state.is_chance_node() and len(state.chance_outcomes()) == 24
    assert "redeal" in state.information_state_string(0)
    play_random(state, random.Random(0))
    assert state.game_state is not None


def test_legal_actions_are_the_next_actors_sorted_ids() -> None:
    game = load(preset="perevodnoy", players=3)
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        g: GameState = state.game_state
        player = state.current_player()
        legal = state.legal_actions()
        assert legal == sorted(legal) == enc.legal_ids(g, player)
        for other in range(3):
            if other != player:
                assert state.legal_actions(other) == []
        assert state.observation_tensor(player) == pytest.approx(enc.observe(g, player).tolist())
        state.apply_action(rng.choice(legal))


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[2-9TJQKA][cdhs](?:#\d+)?", text))


def test_information_state_never_names_another_players_hidden_card() -> None:
    game = load(players=3)
    rng = random.Random(8)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            g: GameState = state.game_state
            for player in range(3):
                hidden = {
                    str(c)
                    for seat, hand in enumerate(g.hands)
                    if seat != player
                    for c in set(hand) - g.known[seat]
                } | {str(c) for c in g.stock[:-1]}
                for text in (
                    state.information_state_string(player),
                    state.observation_string(player),
                ):
                    assert hidden.isdisjoint(_tokens(text))
            state.apply_action(rng.choice(state.legal_actions()))


def test_information_state_string_is_perfect_recall_of_own_draws() -> None:
    game = load()
    state = play_random(game.new_initial_state(), random.Random(2))
    text = state.information_state_string(0)
    assert text.startswith("p0\np0: hand ")
    assert re.search(r"p0 drew \d+: [2-9TJQKA][cdhs]", text)
    assert re.search(r"p1 drew \d+: \?", text)


def test_returns_follow_the_result_and_truncation_is_a_draw() -> None:
    game = load(players=3)
    state = play_random(game.new_initial_state(), random.Random(4))
    result = state.game_state.result
    assert result is not None
    expected = [0.0 if result.draw else 1.0 if p in result.winners else -1.0 for p in range(3)]
    assert state.returns() == expected

    short = load(max_game_length=50)
    state = play_random(short.new_initial_state(), random.Random(4))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.game_state.result is None
    assert len(state.history()) == 50


def test_clones_are_independent() -> None:
    game = load()
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(45):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    before = str(state)
    play_random(clone, rng)
    assert str(state) == before
    assert str(clone) != before


def test_public_observer_hides_the_hand() -> None:
    game = load()
    public = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    mid = game.new_initial_state()
    rng = random.Random(3)
    while mid.is_chance_node() or len(mid.history()) < 40:
        if mid.is_chance_node():
            mid.apply_action(rng.choice([a for a, _ in mid.chance_outcomes()]))
        else:
            mid.apply_action(rng.choice(mid.legal_actions()))
    observer.set_from(mid, 0)
    assert not np.any(observer.dict["hand"]) and not np.any(observer.dict["unseen"])
    assert "hand" not in observer.string_from(mid, 0)
    everyone = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="every player"):
        game.make_py_observer(everyone)


@pytest.mark.parametrize(
    ("params", "setting"),
    [
        ({"rules": {"misdeal_suit_count": 5}}, "misdeal_suit_count"),
        ({"rules": '["not", "an", "object"]'}, "rules"),
        ({"max_game_length": 36}, "max_game_length"),
    ],
)
def test_unsupported_parameters_are_rejected(params: dict[str, Any], setting: str) -> None:
    with pytest.raises(Exception, match=setting):
        load(**params)


def test_a_rules_parameter_with_a_duplicate_key_is_rejected_naming_it() -> None:
    from durak import RulesError

    with pytest.raises(RulesError, match='duplicate key "deck_size"') as err:
        game_rules({"rules": '{"deck_size": 36, "deck_size": 52}'})
    assert err.value.setting == "rules"


def _midgame(game: Any, seed: int, moves: int) -> Any:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node() or len(state.history()) < game.rules.cards + moves:
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset", ["podkidnoy", "german-classic", "perevodnoy", "pairs"])
def test_resample_from_infostate_keeps_what_the_player_knows(preset: str) -> None:
    game = load(preset=preset)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for seed in range(3):
        state = _midgame(game, seed, 12)
        if state.is_terminal():
            continue
        player = state.current_player()
        g: GameState = state.game_state
        hidden = sorted(c for seat, hand in enumerate(g.hands) if seat != player for c in hand)
        moved = False
        for _ in range(5):
            sample = state.resample_from_infostate(player, sampler)
            s: GameState = sample.game_state
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.information_state_tensor(player) == state.information_state_tensor(player)
            assert sample.observation_string(player) == state.observation_string(player)
            assert sample.legal_actions() == state.legal_actions()
            assert s.hands[player] == g.hands[player] and s.table == g.table
            others = sorted(c for seat, hand in enumerate(s.hands) if seat != player for c in hand)
            assert sorted([*others, *s.stock]) == sorted([*hidden, *g.stock])
            moved |= s.hands != g.hands
            play_random(sample, random.Random(seed))
        assert moved, "the hidden cards are dealt anew"


def test_resample_from_infostate_during_the_deal_and_bad_seats() -> None:
    game = load(rules={"deck_size": 24})
    state = game.new_initial_state()
    for action in (3, 5, 7):
        state.apply_action(action)
    sample = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert sample.is_chance_node() and len(sample.chance_outcomes()) == 21
    with pytest.raises(ValueError, match="not a seat"):
        state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))


def test_ismcts_plays_whole_games_through_evaluate_bots() -> None:
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    from durak.rl.openspiel_game import LibraryBot, Restartable

    game = load(rules={"deck_size": 24})
    rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, rollouts, 2.0, max_simulations=8, random_state=np.random.RandomState(1)
    )
    for seats in (
        (Restartable(bot), LibraryBot("rule", 1)),
        (LibraryBot("random", 2), Restartable(bot)),
    ):
        returns = evaluate_bots.evaluate_bots(
            game.new_initial_state(), list(seats), np.random.RandomState(3)
        )
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_private_observer_shows_only_the_players_own_cards() -> None:
    game = load()
    private = pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    observer = game.make_py_observer(private)
    state = _midgame(game, 3, 10)
    g: GameState = state.game_state
    observer.set_from(state, 1)
    hand = np.flatnonzero(observer.dict["hand"]).tolist()
    assert hand == sorted(enc.card_index(c, game.rules) for c in g.hands[1])
    assert not np.any(observer.dict["discard"]) and not np.any(observer.dict["seats"])
    assert not np.any(observer.dict["table_attack"])
    text = observer.string_from(state, 1)
    assert text.startswith("p1: hand ") and "table" not in text
    with pytest.raises(ValueError, match="public"):
        game.make_py_observer(pyspiel.IIGObservationType(public_info=False, perfect_recall=True))


def test_library_bot_refuses_chance_nodes() -> None:
    from durak.rl.openspiel_game import LibraryBot

    game = load()
    with pytest.raises(ValueError, match="chance"):
        LibraryBot("rule", 0).step(game.new_initial_state())
    with pytest.raises(ValueError, match="unknown bot"):
        LibraryBot("nobody")


def test_importing_the_module_registers_the_game_and_durak_rl_imports_no_framework() -> None:
    import subprocess
    import sys

    code = (
        "import sys, durak.rl\n"
        "assert not {'pyspiel', 'gymnasium', 'pettingzoo', 'numpy'} & set(sys.modules)\n"
        "import durak.rl.openspiel_game, pyspiel\n"
        "game = pyspiel.load_game('python_durak', {'preset': 'german-classic'})\n"
        "print(game.num_distinct_actions())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["462"]
