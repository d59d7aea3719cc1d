"""The computer players of ``durak play`` and ``durak simulate``: the kinds ``--bots`` accepts
(bots and strength levels, :mod:`durak.levels`), making and seating them, and asking a bot of
either protocol (``choose(view)`` or ``choose(state, player)``) for its move.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import durak.bots as bots_module
from durak.actions import Action
from durak.engine import legal_actions
from durak.levels import level_names, make_player
from durak.state import GameState
from durak.views import PlayerView
from durak.views import view as player_view

#: A computer player: any object with a ``choose`` method, either ``choose(view) -> Action``
#: (the protocol of :mod:`durak.bots`: it sees only a :class:`~durak.views.PlayerView`) or the
#: older ``choose(state, player) -> Action``. :func:`_bot_move` asks either kind.
BotLike = Any

_TAKES_VIEW: dict[type, bool] = {}


def _takes_view(bot: BotLike) -> bool:
    """Whether ``bot.choose`` takes one argument (a view) rather than ``(state, player)``;
    decided once per bot class from the method's signature."""
    kind = type(bot)
    known = _TAKES_VIEW.get(kind)
    if known is None:
        try:
            params = list(inspect.signature(bot.choose).parameters.values())
        except (TypeError, ValueError):  # no signature to read: assume the view protocol
            params = []
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        required = [p for p in params if p.kind in positional and p.default is p.empty]
        known = _TAKES_VIEW[kind] = len(required) < 2
    return known


def _bot_move(bot: BotLike, state: GameState, actor: int) -> Action:
    """The action ``bot`` chooses for seat ``actor`` in ``state``: ``bot.choose(view)`` with
    ``actor``'s :func:`~durak.views.view` for bots of the view protocol, else
    ``bot.choose(state, actor)``.

    Raises:
        ValueError: the bot has nothing to choose from (``actor`` has no legal action).
    """
    quick = getattr(bot, "choose_legal", None)
    if quick is not None:  # it needs the legal actions alone (durak.bots.Bot)
        action: Action = quick(actor, legal_actions(state, actor))
    elif _takes_view(bot):
        action = bot.choose(player_view(state, actor))
    else:
        action = bot.choose(state, actor)
    return action


def bot_kinds() -> tuple[str, ...]:
    """The named kinds of computer player ``--bots`` accepts: the built-in bots of
    ``durak.bots.BOTS`` (``random``, ``rule``, ``search``) and those installed packages add
    (:func:`durak.bots.installed_bots`). ``module:Class`` names any other bot class."""
    return bots_module.bot_names()


def default_bot() -> str:
    """The default opponent of ``durak play``: the rule-of-thumb player ``rule`` (the
    ``normal`` level, :data:`durak.levels.DEFAULT_LEVEL`)."""
    return "rule"


def level_kinds() -> tuple[str, ...]:
    """The strength levels ``--level`` and ``--bots`` accept (:data:`durak.levels.LEVELS`:
    ``easy``, ``normal``, ``hard``, ``best``)."""
    return level_names()


def make_bot(kind: str, seed: int | str) -> BotLike:
    """A computer player of ``kind`` (a strength level of :func:`level_kinds`, a name of
    :func:`bot_kinds`, or ``module:Class``) with its own seeded random generator:
    :func:`durak.levels.make_player`.

    Raises:
        ValueError: an unknown kind (the message suggests the nearest name), or a
            ``module:Class`` that cannot be loaded.
    """
    return make_player(kind, seed)


def seat_bots(kinds: Sequence[str], seats: Sequence[int]) -> dict[int, str]:
    """Which kind of bot plays each of ``seats``: ``kinds`` given in seat order, repeated as
    often as needed (one kind plays every seat)."""
    return {seat: kinds[i % len(kinds)] for i, seat in enumerate(seats)}


class _MatchSeat:
    """One seat of :func:`durak.match.play_match` played by a bot through :func:`_bot_move`.

    It answers both ways a match may ask, ``choose(state, player)`` and ``choose(view)``, and
    counts the actions played in ``counter``.
    """

    def __init__(self, bot: BotLike, counter: list[int]) -> None:
        self.bot = bot
        self.counter = counter

    def choose(self, state: GameState | PlayerView, player: int | None = None) -> Action:
        """The bot's action (see the class docs).

        Raises:
            TypeError: asked with a view, but the bot needs the whole state; or asked with a
                state but no player.
        """
        self.counter[0] += 1
        if isinstance(state, PlayerView):
            if not _takes_view(self.bot):
                raise TypeError(f"{type(self.bot).__name__} needs the state, not a view")
            action: Action = self.bot.choose(state)
            return action
        if player is None:
            raise TypeError("choose(state, player) needs the player")
        return _bot_move(self.bot, state, player)
