"""The rule of thumb as a JAX policy (durak.jax.policy) held equal to durak.bots' rule of thumb.

Needs the ``jax`` extra (CI installs it). Every state of random games of one variant per family
of the differential test is put into a batch; the JAX policy's action for the current player
must be the one the rule of thumb of :mod:`durak.bots` picks seeing every hand (the search bot's
playout policy), which is R4-R9 as the bots read them.
"""

from __future__ import annotations

import random
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_differential import FAMILIES

from durak import Rules, apply, legal_actions, new_game, next_actor
from durak.bots import RuleWeights, _decide, _Game, _state_ctx
from durak.errors import RulesError
from durak.jax import Env
from durak.jax.policy import rule_policy
from durak.rl import encoding
from durak.state import GameState

#: Per family, the variants checked (indices into FAMILIES[name]).
VARIANTS: dict[str, tuple[int, ...]] = {
    "podkidnoy": (0, 4),
    "perevodnoy": (1, 5),
    "decks": (0, 5),
    "limits": (1, 5),
    "endings": (3, 4),
}


def _states(rules: Rules, games: int) -> list[GameState]:
    rng = random.Random(7)
    out = []
    for seed in range(games):
        s = new_game(rules, seed=seed)
        while s.result is None:
            out.append(s)
            actor = next_actor(s)
            assert actor is not None
            s = apply(s, rng.choice(legal_actions(s, actor)))
    return out


def _rule_of_thumb(s: GameState, weights: RuleWeights) -> int:
    actor = next_actor(s)
    assert actor is not None
    game = _Game(s, weights)
    action = _decide(_state_ctx(s, actor, game, True), legal_actions(s, actor))
    return encoding.encode(action, s)


def _check(rules: Rules, weights: RuleWeights, games: int) -> int:
    env = Env(rules, observe_on_step=False)
    states = _states(rules, games)
    batch = env.from_states(states)
    got = np.asarray(jax.jit(jax.vmap(rule_policy(rules, weights)))(batch))
    wrong = [
        (s, int(g), _rule_of_thumb(s, weights))
        for s, g in zip(states, got, strict=True)
        if int(g) != _rule_of_thumb(s, weights)
    ]
    if wrong:
        s, mine, theirs = wrong[0]
        pytest.fail(
            f"{len(wrong)} of {len(states)} states differ; first: JAX "
            f"{encoding.describe(mine, rules)}, rule of thumb {encoding.describe(theirs, rules)}"
            f" in {s}"
        )
    return len(states)


@pytest.mark.parametrize(
    "settings",
    [FAMILIES[name][i] for name, chosen in VARIANTS.items() for i in chosen],
    ids=[f"{name}-{i}" for name, chosen in VARIANTS.items() for i in chosen],
)
def test_R4_R9_rule_policy_picks_what_the_rule_of_thumb_picks(settings: dict[str, Any]) -> None:
    checked = _check(Rules(**settings), RuleWeights(), games=12)
    assert checked > 200  # real games were played


def test_rule_policy_reads_the_weights() -> None:
    # Taking always cheaper than beating: the defender takes wherever he may.
    weights = RuleWeights(take_base=-100.0, take_end=-100.0, take_late=0.0, take_card=0.0)
    rules = Rules()
    assert _check(rules, weights, games=4) > 50
    env = Env(rules, observe_on_step=False)
    states = [s for s in _states(rules, 4) if encoding.legal_mask(s, next_actor(s))[0]]
    got = np.asarray(jax.vmap(rule_policy(rules, weights))(env.from_states(states)))
    assert (got == 0).all()  # id 0 is take


def test_rule_policy_beats_random_play_inside_jax() -> None:
    # Two players, 256 games in one compiled loop: the rule of thumb against random legal
    # moves, seats alternating; it is the durak far less often than half the time.
    rules = Rules()
    env = Env(rules, observe_on_step=False)
    policy = jax.vmap(rule_policy(rules))
    games = 256
    rule_seat = jnp.arange(games) % 2

    @jax.jit
    def play(key: jax.Array) -> jax.Array:
        state = jax.vmap(env.init)(jax.random.split(key, games))

        def body(carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            s, k = carry
            k, pick = jax.random.split(k)
            noise = jax.random.uniform(pick, s.legal_action_mask.shape)
            random_id = jnp.argmax(jnp.where(s.legal_action_mask, noise, -1.0), axis=-1)
            action = jnp.where(s.current_player == rule_seat, policy(s), random_id)
            return jax.vmap(env.step)(s, action.astype(jnp.int32)), k

        def going(carry: tuple[Any, jax.Array]) -> jax.Array:
            return (~carry[0].terminated).any()

        final, _ = jax.lax.while_loop(going, body, (state, key))
        return final.core.durak == rule_seat

    durak = np.asarray(play(jax.random.PRNGKey(3)))
    assert durak.mean() < 0.2


def test_rule_policy_refuses_rules_the_jax_engine_does_not_play() -> None:
    with pytest.raises(RulesError, match="decks"):
        rule_policy(Rules(decks=2))
