"""A single-agent Gymnasium environment: one seat against the library's bots or any callable
(extra ``rl``: ``pip install 'durak-engine[rl]'``).

Importing this module registers the environment with Gymnasium as ``durak/Durak-v0``;
``gymnasium.make`` can import it by itself with the module path before the id:

>>> import gymnasium
>>> env = gymnasium.make("durak.rl.gymnasium_env:durak/Durak-v0", opponents="rule")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].shape, info["seat"] in (0, 1)
((867,), (363,), True)
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> done = False
>>> while not done:
...     action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> reward in (-1.0, 0.0, 1.0)
True

The agent
---------
The agent plays seat ``seat`` (an int), or a seat drawn at each reset (``seat=None``, the
default: every seat equally often). The other seats are played by ``opponents``:

- a bot name with options, as :func:`durak.bots.make_bot` takes it (``"random"``, ``"rule"``,
  ``"search:time_limit=0.02"``): a fresh bot each reset, seeded from the environment's
  generator;
- a :class:`~durak.bots.Bot` (anything with ``choose(view) -> action``), used as it is;
- any callable ``f(view) -> action`` of :class:`~durak.PlayerView` to
  :class:`~durak.actions.Action`;
- a list of these, one per other seat in seat order.

Each opponent sees only its own view (R13). Durak lets several players act at once (R13.1); as
in the other adapters the environment asks one at a time, the player :func:`durak.next_actor`
names (R13.2). :meth:`DurakEnv.step` applies the agent's action, then lets the opponents act
until it is the agent's turn again or the game is over.

Spaces, masks, rewards
----------------------
The spaces are those of the PettingZoo environment (:mod:`durak.rl.pettingzoo_env`): action
space ``Discrete(A)`` (the ids of :mod:`durak.rl.encoding`), observation space
``Dict({"observation": Box(0, 1, (L,), float32), "action_mask": Box(0, 1, (A,), int8)})``; the
mask is 1 at the agent's legal ids (all 0 once the game is over). :meth:`DurakEnv.action_masks`
returns the mask as booleans (the method masked-policy libraries call). The reward is 0 until
the end, then +1 if the agent won, -1 if he lost (the durak, or a loser under ``first_out`` or
in a losing team, R7.3, R10.3), 0 in a draw; ``info`` then holds ``place``, ``durak`` and
``draw``. After ``max_moves`` actions (all seats together; default 2,000) the episode is
truncated with reward 0.

An action outside the mask ends the episode with reward -1 and ``info["illegal"] = True``
(``illegal="lose"``, the default, as PettingZoo's classic games do); with ``illegal="raise"``
it raises :class:`~durak.IllegalActionError` and nothing changes.

Seeding
-------
``reset(seed=s)`` seeds the environment's generator (``numpy.random.default_rng(s)``); each
reset draws from it the deal's seed, the agent's seat (``seat=None``) and the seeds of named
opponents, so the same reset seed gives the same game for the same actions.
``reset(options={"deal_seed": x})`` deals as :func:`durak.new_game` with seed ``x``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt

from durak.actions import Action
from durak.bots import make_bot
from durak.engine import apply, new_game, next_actor
from durak.rl._common import RENDER_MODES, check_options, env_rules, observation_space, table_text
from durak.rl.encoding import (
    action_space_size,
    decode,
    observation,
    view_mask,
)
from durak.rules.settings import Rules
from durak.state import GameState
from durak.views import PlayerView, view

__all__ = ["DEFAULT_MAX_MOVES", "ENV_ID", "DurakEnv", "Opponent"]

#: The id the environment is registered under.
ENV_ID = "durak/Durak-v0"

#: Actions (all seats) after which an episode is truncated.
DEFAULT_MAX_MOVES = 2000

#: An opponent: a bot name, a bot (``choose(view)``) or a callable ``f(view) -> action``.
Opponent = str | Callable[[PlayerView], Action] | Any

Obs = dict[str, Any]


def _player(opponent: Opponent, seed: int) -> Callable[[PlayerView], Action]:
    """The move function of one opponent."""
    if isinstance(opponent, str):
        return make_bot(opponent, seed).choose
    choose = getattr(opponent, "choose", None)
    if callable(choose):
        return choose  # type: ignore[no-any-return]
    if callable(opponent):
        return opponent
    raise TypeError(
        f"an opponent is a bot name, a bot with choose(view) or a callable, not {opponent!r}"
    )


class DurakEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of Durak against ``opponents`` (see the module docs).

    Args:
        preset: a preset name or alias (R14); ignored when ``rules`` is given.
        players: the number of players; the preset's own if omitted.
        seat: the agent's seat, or ``None`` for a seat drawn at each reset.
        opponents: one opponent for every other seat, or a list of one per other seat.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the whole table as text) or
            ``"human"`` (printed after each step).
        max_moves: actions after which an episode is truncated.
        illegal: ``"lose"`` (an action outside the mask ends the episode with -1) or
            ``"raise"``.
        rules: the rules to play, instead of a preset.
        **overrides: settings that replace the preset's.

    Raises:
        RulesError: an unknown preset or setting, or an invalid value.
        UnsupportedRulesError: rules the encoding refuses
            (:func:`~durak.rl.encoding.check_supported`).
        ValueError: a seat that is not one, a list of opponents of the wrong length, an unknown
            render mode, ``illegal`` value or bot name, or ``max_moves`` below 1.
        TypeError: an opponent that is neither a name, a bot nor a callable.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium reads it from the class
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    def __init__(
        self,
        preset: str = "podkidnoy",
        players: int | None = None,
        *,
        seat: int | None = None,
        opponents: Opponent | Sequence[Opponent] = "random",
        render_mode: str | None = None,
        max_moves: int = DEFAULT_MAX_MOVES,
        illegal: Literal["lose", "raise"] = "lose",
        rules: Rules | None = None,
        **overrides: Any,
    ) -> None:
        rules = env_rules(preset, players, rules, overrides)
        check_options(render_mode, max_moves)
        n = rules.players
        if seat is not None and (isinstance(seat, bool) or seat not in range(n)):
            raise ValueError(f"seat must be None or a seat 0-{n - 1}, not {seat!r}")
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            listed: list[Opponent] = [opponents] * (n - 1)
        else:
            listed = list(opponents)
            if len(listed) != n - 1:
                raise ValueError(f"{len(listed)} opponents given for the {n - 1} other seats")
        for opponent in listed:
            if isinstance(opponent, str):
                make_bot(opponent, 0)  # fail early on an unknown name
            else:
                _player(opponent, 0)
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.rules = rules
        self.fixed_seat = seat
        self.opponents = listed
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.illegal = illegal
        size = action_space_size(rules)
        #: ``A``, the number of action ids.
        self.actions = size
        self.action_space = gymnasium.spaces.Discrete(size)
        self.observation_space = observation_space(rules)
        #: The agent's seat in the current episode.
        self.seat = seat if seat is not None else 0
        #: Actions played in the current episode, all seats together.
        self.moves = 0
        self._state: GameState | None = None
        self._done = False
        self._players: dict[int, Callable[[PlayerView], Action]] = {}

    @property
    def game(self) -> GameState:
        """The current :class:`~durak.GameState` (the whole truth: for onlookers and tests).

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game, let the opponents act up to the agent's first turn; returns the
        agent's observation and ``{"seat": ...}`` (see the module docs on seeding)."""
        super().reset(seed=seed)
        rng = self.np_random
        deal_seed: int | str = int(rng.integers(0, 2**63 - 1))
        if options and "deal_seed" in options:
            deal_seed = options["deal_seed"]
        n = self.rules.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
        others = [p for p in range(n) if p != self.seat]
        self._players = {
            p: _player(opponent, int(rng.integers(0, 2**63 - 1)))
            for p, opponent in zip(others, self.opponents, strict=True)
        }
        self._state = new_game(self.rules, seed=deal_seed)
        self.moves = 0
        self._opponents_play()
        # A game can end or run out of moves before the agent's first turn.
        self._done = self.game.result is not None or self.moves >= self.max_moves
        info = self._info()
        if self.render_mode == "human":
            self.render()
        return self._observe(), info

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play action id ``action`` for the agent, then the opponents until the agent's turn.

        Raises:
            RuntimeError: before :meth:`reset`, or after the episode ended.
            IllegalActionError: under ``illegal="raise"``, an id that is not legal now (a
                ``ValueError``; a beat id of an empty table slot raises a plain one).
            ValueError: an id outside the action space.
        """
        state = self.game
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        if not 0 <= index < self.actions:
            raise ValueError(f"action {action!r} is outside 0-{self.actions - 1}")
        mask = view_mask(view(state, self.seat))
        if not mask[index]:
            if self.illegal == "raise":
                # The engine refuses it, naming the rule (IllegalActionError).
                apply(state, decode(index, state, self.seat))
                raise AssertionError(f"action id {index} is outside the mask but legal")
            # The episode ends here: the agent loses, the game stays where it was.
            self._done = True
            return self._observe(), -1.0, True, False, {**self._info(), "illegal": True}
        self._state = apply(state, decode(index, state, self.seat))
        self.moves += 1
        self._opponents_play()
        reward, terminated, truncated = 0.0, False, False
        result = self.game.result
        info = self._info()
        if result is not None:
            terminated = True
            reward = 0.0 if result.draw else (1.0 if self.seat in result.winners else -1.0)
            info.update(
                place=result.places[self.seat], durak=result.durak == self.seat, draw=result.draw
            )
        elif self.moves >= self.max_moves:
            truncated = True
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The agent's legal ids as a boolean vector of length ``A`` (all false once over).

        Raises:
            RuntimeError: before :meth:`reset`.
        """
        mask: npt.NDArray[np.bool_] = self._observe()["action_mask"].astype(np.bool_)
        return mask

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the whole table as text, every hand included; with
        ``"human"``: that text printed, and ``None`` returned."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing to show")
            return None
        text = table_text(self.game, self.moves)
        if self.render_mode == "human":
            print(f"(the agent is player_{self.seat})\n{text}", end="\n\n", flush=True)
            return None
        return text

    # -- helpers -----------------------------------------------------------------------------

    def _opponents_play(self) -> None:
        """Let the opponents act until it is the agent's turn, the game is over or the episode
        reaches ``max_moves``."""
        state = self.game
        while state.result is None and self.moves < self.max_moves:
            actor = next_actor(state)
            assert actor is not None
            if actor == self.seat:
                break
            state = apply(state, self._players[actor](view(state, actor)))
            self.moves += 1
        self._state = state

    def _observe(self) -> Obs:
        v = view(self.game, self.seat)
        if not self._done and v.next_actor == self.seat:
            mask = view_mask(v).astype(np.int8)
        else:
            mask = np.zeros(self.actions, dtype=np.int8)
        return {"observation": observation(v), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat}


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=DurakEnv)
