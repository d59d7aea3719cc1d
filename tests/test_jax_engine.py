"""The JAX engine (durak.jax) held equal to the reference engine.

Needs the ``jax`` extra. CI installs it, so there a missing library fails the run instead of
skipping it.

The differential test (R13.2, R13.4) plays seeded games in lockstep in both engines and checks,
at every step, the actor, the legal mask, the observation and the state converted back, and at
the end the rewards: a few hundred games per setting family here, two variants of each family
(each set of rules compiles once); ``tests/jax_differential.py`` runs every variant, 10,000
games per family, for the long run that docs/performance.md reports.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_differential import FAMILIES, family
from optional_parts import examples

from durak import Rules, apply, legal_actions, new_game, next_actor
from durak.engine import validate_state
from durak.errors import RulesError
from durak.jax import Env, put
from durak.rl import encoding

#: Per family, the variant CI plays (an index into FAMILIES[name]: each set of rules compiles
#: once) and how many games (200 at full size, a quarter in the fast run); the long run plays
#: every variant.
CI_VARIANTS: dict[str, int] = {
    "podkidnoy": 6,
    "perevodnoy": 1,
    "decks": 3,
    "limits": 1,
    "endings": 4,
}
CI_GAMES = examples(200)


@pytest.mark.parametrize("name", list(CI_VARIANTS))
def test_R13_2_differential_lockstep_agrees_with_the_reference(name: str) -> None:
    games, steps = family(name, CI_GAMES, variants=[CI_VARIANTS[name]], batch=CI_GAMES)
    assert games == CI_GAMES
    assert steps > 20 * CI_GAMES  # real games were played, not empty ones


def test_every_family_variant_is_covered_rules() -> None:
    for variants in FAMILIES.values():
        for settings in variants:
            Env(Rules(**settings))  # no RulesError: covered


@pytest.mark.parametrize(
    ("settings", "setting"),
    [
        ({"decks": 2}, "decks"),
        ({"lead": "same_rank"}, "lead"),
        ({"transfer_by_card": True, "transfer_several": True}, "transfer_several"),
        ({"players": 4, "teams": [[0, 2], [1, 3]]}, "teams"),
        ({"trump_six_exchange": True}, "trump_six_exchange"),
        ({"misdeal_suit_count": 5}, "misdeal_suit_count"),
        ({"deck_size": 52, "jokers": 1}, "jokers"),
        ({"throw_in_by_suit": True}, "throw_in_by_suit"),
        ({"pogony": True}, "pogony"),
        ({"cheating": True}, "cheating"),
        ({"no_trump_lead": "redeal"}, "no_trump_lead"),
    ],
)
def test_uncovered_settings_are_refused_naming_the_setting(
    settings: dict[str, object], setting: str
) -> None:
    with pytest.raises(RulesError) as caught:
        Env(Rules(**settings))
    assert caught.value.setting == setting
    assert setting in str(caught.value)


@pytest.mark.parametrize(
    "settings",
    [{"players": 6}, {"players": 4, "deck_size": 52}],
)
def test_R2_R3_deal_equals_new_game_of_the_same_deck(settings: dict[str, object]) -> None:
    rules = Rules(**settings)
    env = Env(rules)
    deal = jax.jit(jax.vmap(env.deal))
    rng = np.random.default_rng(7)
    orders = np.stack([rng.permutation(env.spec.n) for _ in range(40)])
    host = jax.device_get(deal(jnp.asarray(orders)))
    for g, order in enumerate(orders):
        deck = [env.spec.deck[i] for i in order]
        reference = new_game(rules, deck=deck)
        assert env.to_state(host, g) == reference
        assert int(host.current_player[g]) == next_actor(reference)
        mask = encoding.legal_mask(reference, next_actor(reference) or 0)
        assert np.array_equal(host.legal_action_mask[g], mask)


@pytest.mark.parametrize(
    "settings",
    [{}, {"deck_size": 52, "strict_suits": ["c"]}, {"deck_size": 24, "strict_suits": ["c", "s"]}],
)
def test_R4_7_R8_1_beating_by_suit_and_rank_equals_the_rule_books_table(
    settings: dict[str, Any],
) -> None:
    # the engine computes which cards beat an attack card from suits and ranks; the table
    # is the rule book's beats() for every trump, attack card and card
    from durak.jax._core import _beats_rows

    env = Env(Rules(**settings))
    spec = env.spec
    attacks = jnp.arange(spec.n)
    for trump in range(4):
        rows = jax.jit(lambda a, t=trump: _beats_rows(spec, jnp.int32(t), a))(attacks)
        assert np.array_equal(np.asarray(rows), spec.beats[trump])


def test_init_deals_valid_games_that_play_to_the_end() -> None:
    rules = Rules(**FAMILIES["perevodnoy"][1])
    env = Env(rules)
    keys = jax.random.split(jax.random.PRNGKey(3), 16)
    state = jax.jit(jax.vmap(env.init))(keys)
    assert state.legal_action_mask.shape == (16, encoding.action_space_size(rules))
    assert state.observation.shape == (16, encoding.observation_size(rules))
    host = jax.device_get(state)
    for g in range(16):
        validate_state(env.to_state(host, g))
    # random legal actions, to the end: every game ends with a result
    key = jax.random.PRNGKey(4)
    for _ in range(1000):
        key, sub = jax.random.split(key)
        action = jax.random.categorical(sub, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        state = env.batch_step(state, action)
        if bool(state.terminated.all()):
            break
    assert bool(state.terminated.all())
    host = jax.device_get(state)
    for g in range(16):
        s = env.to_state(host, g)
        assert s.result is not None
        validate_state(s)


def test_conversions_round_trip_a_mid_game_position_into_a_batch_slot() -> None:
    rules = Rules(**FAMILIES["perevodnoy"][1])
    env = Env(rules)
    s = new_game(rules, seed=11)
    for _ in range(9):  # a few moves into the game
        actor = next_actor(s)
        assert actor is not None
        s = apply(s, legal_actions(s, actor)[-1])
    batch = env.from_states([new_game(rules, seed=k) for k in range(4)])
    batch = put(batch, 2, env.from_state(s))
    host = jax.device_get(batch)
    assert env.to_state(host, 2, seed=s.seed, shuffles=s.shuffles) == s
    assert int(host.current_player[2]) == next_actor(s)
    assert np.array_equal(host.observation[2], encoding.observe(s, next_actor(s) or 0))


def test_pgx_rules_illegal_action_and_finished_games() -> None:
    rules = Rules(**FAMILIES["podkidnoy"][6])
    env = Env(rules)
    assert env.num_players == 4
    assert env.num_actions == encoding.action_space_size(rules)
    assert env.observation_shape == (encoding.observation_size(rules),)
    state = env.from_states([new_game(rules, seed=5)])
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask[0]))[0])
    player = int(state.current_player[0])
    after = env.batch_step(state, jnp.asarray([illegal]))
    assert bool(after.terminated[0])
    expected = np.ones(4, dtype=np.float32)
    expected[player] = -1.0
    assert np.array_equal(after.rewards[0], expected)
    again = env.batch_step(after, jnp.asarray([0]))  # a finished game: nothing changes
    assert np.array_equal(again.rewards[0], np.zeros(4, dtype=np.float32))
    assert env.to_state(jax.device_get(again), 0) == env.to_state(jax.device_get(after), 0)
    # it stays finished, with the same player and an all-true mask (Pgx's rule)
    assert bool(again.terminated[0])
    assert int(again.current_player[0]) == player
    assert bool(again.legal_action_mask[0].all())
    assert int(again._step_count[0]) == int(after._step_count[0])


def test_pgx_auto_reset_runs_the_environment() -> None:
    # Pgx is no dependency of the jax extra; CI installs it for this test (a missing Pgx
    # fails there, as a missing extra does), elsewhere the test needs it installed.
    if os.environ.get("CI"):
        import pgx.experimental as experimental
    else:
        experimental = pytest.importorskip("pgx.experimental", reason="needs pgx (optional)")
    env = Env(Rules())
    step = jax.jit(jax.vmap(experimental.auto_reset(env.step, env.init)))
    keys = jax.random.split(jax.random.PRNGKey(0), 2)
    state = jax.vmap(env.init)(keys)
    for k in range(300):
        keys = jax.random.split(jax.random.PRNGKey(k + 1), 2)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(keys[0], logits)
        state = step(state, action, keys)
    assert int(state._step_count.max()) < 300  # games ended and restarted
    assert state.legal_action_mask.any(axis=1).all()


def test_observations_on_request_equal_the_encoding() -> None:
    rules = Rules(**FAMILIES["podkidnoy"][6])
    env = Env(rules, observe_on_step=False)
    s = new_game(rules, seed=21)
    state = env.from_states([s])
    assert state.observation.shape == (1, 0)
    actor = next_actor(s)
    assert actor is not None
    one = jax.tree_util.tree_map(lambda x: x[0], state)
    for seat in range(rules.players):
        ours = np.asarray(env.observe(one, seat))
        assert np.array_equal(ours, encoding.observe(s, seat))
    assert np.array_equal(np.asarray(env.observe(one)), encoding.observe(s, actor))


def test_the_jax_page_code_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/jax.md's blocks need jax, so test_docs.py leaves them (<!-- no-run -->) to this test
    from test_docs import python_blocks

    page = Path(__file__).resolve().parents[1] / "docs" / "jax.md"
    blocks = python_blocks(page.read_text(encoding="utf-8"))
    assert len(blocks) == 3
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "docs_jax"}
    for line, code, _ in blocks:
        exec(compile(code, f"docs/jax.md:{line}", "exec"), namespace)
