"""Computer players.

A bot answers one question: which action does ``player`` take in ``state``? The game loop asks
the actor of :func:`durak.next_actor` and applies the answer.

>>> from durak import Rules, new_game, next_actor, apply
>>> state = new_game(Rules(players=2), seed=1)
>>> bot = RandomBot(seed=7)
>>> action = bot.choose(state, next_actor(state))
>>> apply(state, action).table != ()
True
"""

from __future__ import annotations

import random

from durak.actions import Action
from durak.engine import legal_actions
from durak.state import GameState

__all__ = ["RandomBot"]


class RandomBot:
    """A player who picks uniformly at random among his legal actions.

    Each bot owns its own :class:`random.Random`, so a game played by bots with fixed seeds is
    reproducible and never touches the global random state.

    Args:
        seed: seeds the bot's generator (an integer or a string); ``None`` for a random seed.
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: GameState, player: int) -> Action:
        """One of ``player``'s legal actions in ``state``, each equally likely.

        Raises:
            ValueError: ``player`` has no legal action (the game is over, or it is not his turn
                to do anything).
        """
        actions = legal_actions(state, player)
        if not actions:
            raise ValueError(f"player {player} has no legal action in this state")
        return self._rng.choice(actions)
