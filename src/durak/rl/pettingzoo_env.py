"""The PettingZoo AEC environment ``durak_v1`` (extra ``rl``: ``pip install 'durak-engine[rl]'``).

>>> from durak.rl.pettingzoo_env import env
>>> e = env(preset="podkidnoy", players=3)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((916,), (363,))
>>> while e.agents:
...     obs, reward, terminated, truncated, info = e.last()
...     mask = None if terminated or truncated else obs["action_mask"]
...     e.step(None if mask is None else e.action_space(e.agent_selection).sample(mask))
>>> e.reset(options={"deal_seed": 7})  # the deal of durak.new_game(rules, seed=7)
>>> e.agent_selection
'player_1'

Agents and turns
----------------
Agents are ``"player_0" .. "player_{n-1}"``, seat ``i`` being ``"player_i"``. Durak lets several
players act at once (R13.1); the environment asks one at a time, the player
:func:`durak.next_actor` names (R13.2): the defender while he faces an unbeaten card and has not
taken, else the main attacker, else the other throwers clockwise. Actions that another player
could take at the same time (a throw-in while the defender thinks, a trump-six exchange, R12.1)
are offered when he is the next actor; so a misdeal redeal (R12.2), legal only before the first
lead, can be demanded only by the first attacker, the one player who acts before it.

The version suffix ``_v0`` stands: the ids and observations of every rule set the environment
took before are unchanged; rules with several-card leads or transfers, refused before, have
group ids after the single cards (:mod:`durak.rl.encoding`).

Spaces
------
- action space: ``Discrete(A)``, the ids of :mod:`durak.rl.encoding` (``A = 3 + N * (S + 4)``,
  363 for 36 cards; 462 for german-classic's several-card leads).
- observation space: ``Dict({"observation": Box(0, 1, (L,), float32),
  "action_mask": Box(0, 1, (A,), int8)})``. ``observation`` is
  :func:`durak.rl.encoding.observation` of ``view(state, agent)`` (layout:
  :func:`durak.rl.encoding.observation_layout`; ``L = N * (n + 2*S + 9) + 13*n + 13``, 867 for two
  players and 36 cards), so it holds only what that player may know. ``action_mask`` is 1 at the
  ids of the agent's legal actions while it is the agent to act, else all 0.
- state space (``state()``, for centralised training): ``Box(0, 1, (n * L,), float32)``, every
  seat's observation from his own view, seat 0 first.

Rewards and the end
-------------------
Rewards come only when the game ends (R7.3, R7.4): +1 to every winner, -1 to every loser, 0 to
everyone in a draw. Under ``objective = durak`` every player but the durak has won (R7.3); under
``objective = first_out`` the players out at the end win and all others lose. With teams a
player's result is his team's (R10.3), also when a team loses without naming a durak. At the end
``infos[agent]`` holds ``{"place": ..., "durak": ..., "draw": ...}``.

A Durak game need not end (players can take forever), so after ``max_moves`` actions (default
2,000; random games of every preset take under 400) every agent is truncated with reward 0.

Illegal actions
---------------
:func:`env` wraps :class:`raw_env` in PettingZoo's usual wrappers: an action outside the mask
ends the game for everyone, the offending agent getting -1 and the others 0
(``TerminateIllegalWrapper``, the convention of PettingZoo's classic games); an id outside the
action space fails an assertion. :class:`raw_env` itself raises
:class:`~durak.IllegalActionError` (a ``ValueError``) and leaves the game unchanged.

Seeding
-------
``reset(seed=s)`` seeds the environment's generator (``numpy.random.default_rng(s)``); each reset
draws the deal's seed from it, so the same reset seed gives the same deal and game, and resets
without a seed continue the sequence. ``reset(options={"deal_seed": x})`` plays the deal of
:func:`durak.new_game` with seed ``x`` (an int or a string) instead.

Rules
-----
``env(preset="podkidnoy", players=None, **overrides)``: the rules of a preset
(:func:`durak.presets.get_preset`; ``players=None`` keeps the preset's number, 2 unless it says
otherwise, so ``env("pairs")`` has four players) with any setting overridden, e.g.
``env("perevodnoy", players=4, deck_size=52)``, or ``env(rules=Rules(...))``. Every preset
plays, ``german-classic``'s several-card leads included; rules
:func:`~durak.rl.encoding.check_supported` refuses raise
:class:`~durak.rl.encoding.UnsupportedRulesError`. ``render_mode="ansi"`` makes
:meth:`raw_env.render` return a text of the whole table, every hand included, and
``render_mode="human"`` prints it after every step (for onlookers and
debugging, not for agents).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from durak.engine import apply, new_game, next_actor
from durak.rl._common import RENDER_MODES, check_options, env_rules, observation_space, table_text
from durak.rl.encoding import (
    action_space_size,
    decode,
    observation,
    observation_size,
    view_mask,
)
from durak.rules.settings import Rules
from durak.state import GameState
from durak.views import view

__all__ = ["DEFAULT_MAX_MOVES", "env", "raw_env"]

#: Actions after which a game is truncated.
DEFAULT_MAX_MOVES = 2000

#: An observation: ``{"observation": float32 array, "action_mask": int8 array}``.
Obs = dict[str, Any]
#: An action: an id ``0 .. A-1`` (an ``int`` or a numpy integer), or ``None`` for a done agent.
Act = Any


class raw_env(AECEnv[str, Obs, Act]):
    """The unwrapped ``durak_v1`` environment (see the module docs).

    Args:
        preset: a preset name or alias (R14); ignored when ``rules`` is given.
        players: the number of players; the preset's own (2 unless it says otherwise) if
            omitted; ignored when ``rules`` is given.
        render_mode: ``None`` or ``"ansi"``.
        max_moves: actions after which the game is truncated.
        rules: the rules to play, instead of a preset.
        **overrides: settings that replace the preset's.

    Raises:
        RulesError: an unknown preset or setting, or an invalid value.
        UnsupportedRulesError: rules the encoding refuses
            (:func:`~durak.rl.encoding.check_supported`).
        ValueError: an unknown render mode or a ``max_moves`` below 1.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "durak_v1",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        preset: str = "podkidnoy",
        players: int | None = None,
        *,
        render_mode: str | None = None,
        max_moves: int = DEFAULT_MAX_MOVES,
        rules: Rules | None = None,
        **overrides: Any,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        rules = env_rules(preset, players, rules, overrides)
        check_options(render_mode, max_moves)
        self.rules = rules
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.possible_agents = [f"player_{i}" for i in range(rules.players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        size = action_space_size(rules)
        obs_space = observation_space(rules)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(size) for agent in self.possible_agents
        }
        self.state_space = gymnasium.spaces.Box(
            0.0, 1.0, (rules.players * observation_size(rules),), dtype=np.float32
        )
        self._rng: np.random.Generator | None = None
        self.state_: GameState | None = None
        self.moves = 0

    # -- the PettingZoo API ------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Obs]:
        """The same ``Dict`` space object for every agent (see the module docs)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Act]:
        """The same ``Discrete(A)`` space for every agent."""
        return self.action_spaces[agent]

    @property
    def game(self) -> GameState:
        """The current :class:`~durak.GameState` (the whole truth: for onlookers and tests).

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; see the module docs on seeding."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        deal_seed: int | str = int(self._rng.integers(0, 2**63 - 1))
        if options and "deal_seed" in options:
            deal_seed = options["deal_seed"]
        self.state_ = new_game(self.rules, seed=deal_seed)
        self.moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self._actor_name()

    def state(self) -> npt.NDArray[np.float32]:
        """The global state for centralised training (:attr:`state_space`): every seat's
        observation tensor from his own view, seat 0 first, concatenated (``n * L`` floats).
        It holds every hand; only the order of the stock below the face-up card stays hidden.

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        state = self.game
        return np.concatenate([observation(view(state, seat)) for seat in range(len(state.hands))])

    def observe(self, agent: str) -> Obs:
        """``{"observation": ..., "action_mask": ...}`` of ``agent`` (see the module docs)."""
        state = self.game
        seat = self._seat[agent]
        v = view(state, seat)
        if v.next_actor == seat:
            mask = view_mask(v).astype(np.int8)
        else:
            mask = np.zeros(action_space_size(self.rules), dtype=np.int8)
        return {"observation": observation(v), "action_mask": mask}

    def step(self, action: Act) -> None:
        """Play action id ``action`` for :attr:`agent_selection`.

        Raises:
            ValueError: an id outside the action space (``None`` for a live agent included).
            IllegalActionError: an id that is not legal now (the mask is 0 there); nothing
                changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: None is no action")
        seat = self._seat[agent]
        state = apply(self.game, decode(int(action), self.game, seat))
        self.state_ = state
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        result = state.result
        if result is not None:
            for other in self.agents:
                i = self._seat[other]
                reward = 0.0 if result.draw else (1.0 if i in result.winners else -1.0)
                self.rewards[other] = reward
                self.infos[other] = {
                    "place": result.places[i],
                    "durak": result.durak == i,
                    "draw": result.draw,
                }
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._actor_name()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: a text of the whole table, every hand included. With
        ``"human"``: that text printed to standard output (after every :meth:`step` too), and
        ``None`` returned."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing to show")
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text, end="\n\n", flush=True)
            return None
        return text

    def _text(self) -> str:
        return table_text(self.game, self.moves)

    def close(self) -> None:
        """Nothing to release."""

    # -- helpers -----------------------------------------------------------------------------

    def _actor_name(self) -> str:
        actor = next_actor(self.game)
        assert actor is not None
        return self.possible_agents[actor]


def env(
    preset: str = "podkidnoy",
    players: int | None = None,
    *,
    render_mode: str | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    rules: Rules | None = None,
    **overrides: Any,
) -> AECEnv[str, Obs, Act]:
    """``durak_v1`` with PettingZoo's standard wrappers: an illegal action ends the game with -1
    for the agent that played it (see the module docs); the arguments are :class:`raw_env`'s."""
    inner: AECEnv[str, Obs, Act] = raw_env(
        preset, players, render_mode=render_mode, max_moves=max_moves, rules=rules, **overrides
    )
    inner = wrappers.TerminateIllegalWrapper(inner, illegal_reward=-1)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(inner)
