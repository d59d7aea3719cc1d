"""Durak as pure JAX functions: a jit-compiled, vmapped accelerator held equal to the reference
engine (needs the ``jax`` extra: ``pip install 'durak-engine[jax]'``).

The reference engine (:func:`durak.new_game`, :func:`durak.legal_actions`, :func:`durak.apply`,
:func:`durak.next_actor`) stays the one source of the rules; this package plays the same games
with fixed-shape arrays, so that thousands of games step at once on a CPU, a GPU or a TPU, and a
differential test holds the two equal move by move.

:class:`Env` follows the Pgx ``Env`` interface: ``init(key)``, ``step(state, action, key)``,
``observe(state)``, and a :class:`State` with ``current_player``, ``observation``,
``legal_action_mask``, ``rewards``, ``terminated`` and ``truncated``. One actor moves per step:
the actor of R13.2 (:func:`durak.next_actor`). Action ids and the observation tensor are those
of :mod:`durak.rl.encoding`, so a policy trained here runs unchanged in the PettingZoo,
Gymnasium and OpenSpiel adapters and as a bot.

>>> import jax
>>> from durak import Rules
>>> from durak.jax import Env
>>> env = Env(Rules(players=3))
>>> keys = jax.random.split(jax.random.PRNGKey(0), 8)
>>> state = jax.jit(jax.vmap(env.init))(keys)
>>> state.legal_action_mask.shape, state.observation.shape
((8, 363), (8, 916))

:func:`from_state` and :func:`to_state` convert between a reference :class:`~durak.GameState` and
one game (or one slot of a batch, :func:`put`), so a search can start from a real position.
Rules outside the covered settings (:func:`check_covered`) raise
:class:`~durak.errors.RulesError` naming the setting.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

from durak.jax import _core
from durak.jax._convert import host_core as _host_core
from durak.jax._convert import to_state as _core_to_state
from durak.jax._core import Core, Spec, check_covered, spec_of
from durak.rules.settings import Rules
from durak.state import GameState

__all__ = [
    "Core",
    "Env",
    "Spec",
    "State",
    "check_covered",
    "put",
    "spec_of",
]

Array: TypeAlias = jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    """One game (or, vmapped, a batch) in the Pgx ``State`` form.

    Attributes:
        core: the game itself (:class:`Core`).
        current_player: ``int32``: the actor of R13.2; after the end, the last actor.
        observation: ``float32[L]``: the current player's observation tensor
            (:func:`durak.rl.encoding.observation`).
        rewards: ``float32[P]``: +1 for a winner, -1 for a loser, 0 in a draw, on the step that
            ends the game, else 0 (the RL adapters' rewards); an illegal action ends the game
            with -1 for its player and +1 for every other (Pgx's rule).
        terminated: ``bool``: the game is over; truncated: ``bool`` (never set here: wrap with a
            step limit).
        legal_action_mask: ``bool[A]``: the current player's legal action ids
            (:func:`durak.rl.encoding.legal_mask`); all true once terminated (Pgx's rule).
    """

    core: Core
    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array

    @property
    def env_id(self) -> str:
        """``"durak"``."""
        return "durak"

    def replace(self, **changes: Any) -> State:
        """A copy with the given fields replaced (as Pgx states allow)."""
        return dataclasses.replace(self, **changes)


class Env:
    """The game under ``rules`` with the Pgx ``Env`` interface (pure functions of a
    :class:`State`; wrap them in ``jax.jit`` and ``jax.vmap``).

    It mirrors Pgx's interface rather than subclassing ``pgx.Env``, so the ``jax`` extra does
    not need Pgx; Pgx's utilities (``pgx.experimental.auto_reset``), its examples and mctx read
    only these attributes.

    With ``observe_on_step = False`` :meth:`init` and :meth:`step` leave ``observation``
    empty (shape ``(0,)``) and a caller asks :meth:`observe` when he needs one: the observation
    is more than half the cost of a step on a CPU, so searches, self-play that reads few
    observations and benchmarks of the game alone leave it out.

    Raises:
        RulesError: ``rules`` hold a setting this engine does not play (named).
    """

    def __init__(self, rules: Rules | None = None, *, observe_on_step: bool = True) -> None:
        self.rules = rules if rules is not None else Rules()
        self.spec: Spec = spec_of(self.rules)
        self.observe_on_step = observe_on_step

    # -- the Pgx interface ----------------------------------------------------------------

    @property
    def id(self) -> str:
        """The environment's id, ``"durak"``."""
        return "durak"

    @property
    def version(self) -> str:
        """The environment's version."""
        return "v1"

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.spec.p

    @property
    def num_actions(self) -> int:
        """``A``, the action space size (:func:`durak.rl.encoding.action_space_size`)."""
        return self.spec.a

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(L,)`` (:func:`durak.rl.encoding.observation_size`)."""
        return (self.spec.obs,)

    def init(self, key: Array) -> State:
        """A new game from a shuffle of the deck by ``key``: dealt by seat ``P - 1`` (R2.3),
        trump per R2.4, the first attacker per R3."""
        # a uniform shuffle: the order of n random 32-bit keys (one sort)
        order = jnp.argsort(jax.random.bits(key, (self.spec.n,), dtype=jnp.uint32))
        return self._wrap(_core.deal(self.spec, order), jnp.int32(0))

    def deal(self, order: Array, dealer: int | None = None) -> State:
        """A new game dealt from ``order`` (card indices, top card first), as
        :func:`durak.new_game` deals an explicit deck."""
        return self._wrap(_core.deal(self.spec, jnp.asarray(order), dealer), jnp.int32(0))

    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """The state after the current player plays ``action`` (``key`` is unused: the game
        has no chance after the deal). On a terminated state nothing changes but the rewards,
        which are 0."""
        del key
        spec = self.spec
        action = jnp.asarray(action, dtype=jnp.int32)
        c = state.core
        player = state.current_player
        illegal = ~state.legal_action_mask[action]
        done = state.terminated | state.truncated
        new, f = _core.step_with_facts(spec, c, player, action)
        out = self._wrap(new, state._step_count + 1, player, f)
        won = new.winners.astype(jnp.float32) * 2 - 1
        rewards = jnp.where(out.terminated & ~new.draw, won, 0.0).astype(jnp.float32)
        penalty = jnp.where(jnp.arange(spec.p) == player, -1.0, 1.0).astype(jnp.float32)
        rewards = jnp.where(illegal, penalty, rewards)
        mask = jnp.where(illegal, True, out.legal_action_mask)
        out = out.replace(
            rewards=rewards, terminated=out.terminated | illegal, legal_action_mask=mask
        )
        # Pgx's rule: a finished game stays as it is, with rewards 0
        kept = state.replace(rewards=jnp.zeros_like(state.rewards))
        same: State = jax.tree_util.tree_map(lambda a, b: jnp.where(done, a, b), kept, out)
        return same

    def observe(self, state: State, player_id: Array | None = None) -> Array:
        """``float32[L]``: the observation tensor of ``player_id`` (default: the current
        player), equal to :func:`durak.rl.encoding.observe`."""
        player = state.current_player if player_id is None else jnp.asarray(player_id)
        return _core.observe(self.spec, state.core, player)

    # -- conversions ----------------------------------------------------------------------

    def from_state(self, state: GameState) -> State:
        """One game holding the reference position ``state`` (its rules must be this
        environment's).

        Raises:
            ValueError: ``state`` is played under other rules.
            RulesError: a setting this engine does not play.
        """
        return self.from_states([state], batch=False)

    def from_states(self, states: list[GameState], batch: bool = True) -> State:
        """A batch holding the reference positions ``states``, slot ``i`` holding
        ``states[i]`` (``batch = False``: one game, ``states`` holding one).

        Raises:
            ValueError: a state is played under other rules.
            RulesError: a setting this engine does not play.
        """
        if any(s.rules != self.rules for s in states):
            raise ValueError("a state's rules are not this environment's rules")
        cores = [_host_core(s) for s in states]
        stacked = jax.tree_util.tree_map(lambda *xs: jnp.asarray(np.stack(xs)), *cores)
        out: State = _batch_wrap(self.rules, self.observe_on_step)(stacked)
        if not batch:
            one: State = jax.tree_util.tree_map(lambda x: x[0], out)
            return one
        return out

    def batch_step(self, state: State, action: Array) -> State:
        """``jax.jit(jax.vmap(self.step))``, compiled once per environment and batch shape."""
        out: State = _batch_step(self.rules, self.observe_on_step)(state, action)
        return out

    def to_state(
        self,
        state: State,
        index: int | None = None,
        *,
        seed: int | str | None = None,
        shuffles: int = 0,
    ) -> GameState:
        """The reference :class:`~durak.GameState` of ``state`` (slot ``index`` of a batch).
        The deal's ``seed`` and ``shuffles`` are not held by the arrays: pass them to get a
        state equal to the reference's. Fetch a batch to the host once
        (``jax.device_get(state)``) before converting many of its slots.

        Raises:
            IndexError: ``index`` is outside the batch.
        """
        return _core_to_state(state.core, self.rules, index, seed=seed, shuffles=shuffles)

    # -- helpers --------------------------------------------------------------------------

    def _wrap(
        self, c: Core, count: Array, last: Array | None = None, f: _core.Facts | None = None
    ) -> State:
        spec = self.spec
        if f is None:
            f = _core.facts(spec, c)
        actor = _core.next_actor(spec, c, f)
        player = actor if last is None else jnp.where(c.over, last, actor)
        player = jnp.maximum(player, 0).astype(jnp.int32)
        mask = _core.legal_mask(spec, c, player, f)
        mask = jnp.where(c.over, True, mask)
        if self.observe_on_step:
            obs = _core.observe(spec, c, player, f)
        else:
            obs = jnp.zeros(0, dtype=jnp.float32)
        return State(
            core=c,
            current_player=player,
            observation=obs,
            rewards=jnp.zeros(spec.p, dtype=jnp.float32),
            terminated=c.over,
            truncated=jnp.bool_(False),
            legal_action_mask=mask,
            _step_count=count,
        )


@lru_cache(maxsize=32)
def _batch_wrap(rules: Rules, observe_on_step: bool) -> Any:
    """The compiled function that makes a batch of :class:`State` from a batch of
    :class:`Core` (the actor, the legal mask and the observation of each), shared by every
    :class:`Env` of these rules."""
    env = Env(rules, observe_on_step=observe_on_step)
    return jax.jit(jax.vmap(lambda c: env._wrap(c, jnp.int32(0))))


@lru_cache(maxsize=32)
def _batch_step(rules: Rules, observe_on_step: bool) -> Any:
    """The compiled batch step of ``rules``' environment, shared by every :class:`Env` of
    these rules (compiling takes seconds)."""
    return jax.jit(jax.vmap(Env(rules, observe_on_step=observe_on_step).step))


def put(batch: State, index: int, state: State) -> State:
    """``batch`` with slot ``index`` replaced by the single game ``state`` (for example
    :meth:`Env.from_state` of a reference position)."""
    out: State = jax.tree_util.tree_map(lambda b, s: b.at[index].set(s), batch, state)
    return out
