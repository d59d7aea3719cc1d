"""Strength levels: how hard the computer plays, by name, for front-ends.

A player picks a level (``durak play --level hard``, the web set-up page) rather than a bot and
its budget. Each :class:`Level` names a bot spec that :func:`durak.bots.make_bot` reads and the
seconds it may think about a move:

========  =====================================  ==============================================
level     bot                                    per move
========  =====================================  ==============================================
easy      the rule of thumb, 30% random moves     no search (a fraction of a millisecond)
normal    the rule of thumb (:class:`RuleBot`)   no search
hard      the search bot (:class:`SearchBot`)    50 ms
best      the search bot with learned leaf       the front-end's budget (0.5 s by default: the
          values (:class:`~durak.leaf.LeafBot`)  web server's ``move_budget``)
========  =====================================  ==============================================

:data:`LEVELS` is the one table: changing a level's bot is a change of its row. Each level
beats the one below it in two-player games (``benchmarks/bench_levels.py``; the figures are in
the research notes, "Strength levels").

A level without a time budget (``easy``, ``normal``) is deterministic for a seed; the search
levels think for a wall-clock time, so how many playouts fit in depends on the machine, unless
:func:`make_level_bot` is given a ``steps`` budget (tests) or a CPU clock (benchmarks).

>>> [level.name for level in LEVELS.values()]
['easy', 'normal', 'hard', 'best']
>>> bot = make_level_bot("hard", seed=1)
>>> type(bot).__name__, bot.time_limit
('SearchBot', 0.05)
>>> make_level_bot("best", seed=1, budget=0.2).time_limit
0.2
"""

from __future__ import annotations

from typing import Literal

import attrs

from durak._input import brief, nearest
from durak.bots import Bot, bot_names, make_bot
from durak.errors import DurakError
from durak.i18n import N_
from durak.messages import message

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_MOVE_BUDGET",
    "LEVELS",
    "Level",
    "LevelError",
    "get_level",
    "level_names",
    "level_spec",
    "make_level_bot",
    "make_player",
]

#: Seconds per move of the hardest level when the front-end names no budget: the web server's
#: default per-move budget (:attr:`durak.web.config.ServerConfig.move_budget`).
DEFAULT_MOVE_BUDGET = 0.5


@attrs.frozen
class Level:
    """One strength level.

    Attributes:
        name: the level's name (lower case), as front-ends take it.
        spec: the bot, as :func:`durak.bots.make_bot` reads it (``"rule"``,
            ``"search:time_limit=0.05"``). For a level with a ``budget`` the bot must take the
            options ``time_limit`` (set from ``budget``), ``steps`` and ``clock`` as
            :class:`~durak.bots.SearchBot` does (:func:`level_spec` adds them).
        budget: the seconds the bot may think about a move, or ``None`` for a bot that does
            not search (it answers at once).
        description: one line in English (the message catalogs translate it:
            ``durak.i18n.language("de").gettext(level.description)``).
        full_budget: whether the level thinks for the whole per-move budget a front-end allows
            (the hardest level) instead of at most its own ``budget``.
    """

    name: str
    spec: str
    budget: float | None
    description: str
    full_budget: bool = False


#: The levels, weakest first: the one table to change to give a level another bot.
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "rule:blunder=0.3",
            None,
            N_("Easy: the rule of thumb, with a random move three times in ten"),
        ),
        Level("normal", "rule", None, N_("Normal: plays by the rule of thumb (the rule bot)")),
        Level(
            "hard",
            "search",
            0.05,
            N_("Hard: plays every candidate move out in sampled deals for 50 ms a move"),
        ),
        Level(
            "best",
            "leaf",
            DEFAULT_MOVE_BUDGET,
            N_("Best: the strongest bot, thinking as long as a move may take"),
            full_budget=True,
        ),
    )
}

#: The level of a front-end that names none: the rule of thumb, as the terminal game's default
#: opponent always was.
DEFAULT_LEVEL = "normal"


class LevelError(DurakError):
    """An unknown level name. Like every error of the library it is a
    :class:`~durak.errors.DurakError`, and so a :class:`ValueError`; its message
    (``input.unknown-level`` or ``input.unknown-level-near``, with ``given``, ``known`` and
    ``near``) names the known levels and, for a near miss, the nearest one."""


def level_names() -> tuple[str, ...]:
    """The levels' names, weakest first."""
    return tuple(LEVELS)


def get_level(name: str) -> Level:
    """The level called ``name`` (any case, surrounding spaces ignored).

    >>> get_level(" Hard ").spec
    'search'

    Raises:
        LevelError: no such level; the message suggests the nearest name
            (``"unknown level 'hrad'; did you mean hard? (known: easy, normal, hard, best)"``).
    """
    key = name.strip().lower() if isinstance(name, str) else name
    found = LEVELS.get(key) if isinstance(key, str) else None
    if found is not None:
        return found
    known = ", ".join(LEVELS)
    near = nearest(key, LEVELS)
    if near is not None:
        raise LevelError(
            message("input.unknown-level-near", given=brief(name), near=near, known=known)
        )
    raise LevelError(message("input.unknown-level", given=brief(name), known=known))


Clock = Literal["wall", "cpu"]


def level_spec(
    name: str,
    *,
    budget: float | None = None,
    steps: int | None = None,
    clock: Clock | None = None,
) -> str:
    """The :func:`durak.bots.make_bot` spec of the level ``name`` under a front-end's budget.

    Args:
        name: a level's name.
        budget: the seconds per move the front-end allows (the web server's ``move_budget``),
            or ``None`` for the level's own. The hardest level (``full_budget``) thinks that
            long; the others at most that long (their own budget when it is shorter).
        steps: think by engine steps instead of seconds (a search level with no time limit:
            deterministic for a seed, for tests); ignored by levels that do not search.
        clock: measure a search level's time on ``"cpu"`` (the thinking thread's CPU time: for
            benchmarks on a busy machine) or ``"wall"`` (the default).

    >>> level_spec("hard"), level_spec("best", budget=1.5), level_spec("hard", budget=0.01)
    ('search:time_limit=0.05', 'leaf:time_limit=1.5', 'search:time_limit=0.01')
    >>> level_spec("best", steps=200), level_spec("normal", budget=0.1)
    ('leaf:time_limit=none,steps=200', 'rule')

    Raises:
        LevelError: no such level.
        ValueError: a budget or steps that is not positive.
    """
    level = get_level(name)
    if budget is not None and not budget > 0:
        raise ValueError(f"a level's budget must be positive seconds, not {budget!r}")
    if steps is not None and steps < 1:
        raise ValueError(f"a level's steps must be at least 1, not {steps!r}")
    if level.budget is None:
        return level.spec
    if steps is not None:
        options = [f"time_limit=none,steps={steps}"]
    else:
        seconds = level.budget
        if budget is not None:
            seconds = budget if level.full_budget else min(seconds, budget)
        options = [f"time_limit={seconds:g}"]
        if clock is not None:
            options.append(f"clock={clock}")
    head, sep, rest = level.spec.partition(":")
    if sep and rest:
        options.insert(0, rest)
    return f"{head}:{','.join(options)}"


def make_level_bot(
    name: str,
    seed: int | str | None = None,
    *,
    budget: float | None = None,
    steps: int | None = None,
    clock: Clock | None = None,
) -> Bot:
    """A bot playing at the level ``name``, seeded with ``seed``: ``make_bot(level_spec(...))``
    (see :func:`level_spec` for ``budget``, ``steps`` and ``clock``).

    >>> type(make_level_bot("easy", seed=3)).__name__, make_level_bot("easy", seed=3).blunder
    ('RuleBot', 0.3)

    Raises:
        LevelError: no such level.
        ValueError: a budget or steps that is not positive.
    """
    return make_bot(level_spec(name, budget=budget, steps=steps, clock=clock), seed)


def make_player(name: str, seed: int | str | None = None) -> Bot:
    """A computer player by name for tournaments and the command line: a level's bot
    (:func:`make_level_bot`, at the level's own budget) when ``name`` is a level, else
    :func:`durak.bots.make_bot`'s bot (``rule``, ``search:steps=100``, ``module:Class``).

    >>> type(make_player("normal", 1)).__name__, type(make_player("random", 1)).__name__
    ('RuleBot', 'RandomBot')

    Raises:
        LevelError: an unknown name that is not ``module:Class`` (the message,
            ``input.unknown-bot`` or ``input.unknown-bot-near``, lists the levels and bots and
            suggests the nearest: ``"unknown bot 'hrad'; did you mean hard? ..."``).
        ValueError: a bot :func:`durak.bots.make_bot` cannot make (bad options, a module
            that cannot be imported ...).
    """
    if not isinstance(name, str):
        raise LevelError(message("input.unknown-bot", given=brief(name), known=_known()))
    key = name.strip().lower()
    if key in LEVELS:
        return make_level_bot(key, seed)
    if ":" not in name and key not in bot_names():
        known = _known()
        near = nearest(key, [*LEVELS, *bot_names()])
        if near is not None:
            raise LevelError(
                message("input.unknown-bot-near", given=brief(name), near=near, known=known)
            )
        raise LevelError(message("input.unknown-bot", given=brief(name), known=known))
    return make_bot(name, seed)


def _known() -> str:
    """The names :func:`make_player` takes, for its error messages."""
    return ", ".join([*LEVELS, *bot_names()]) + "; or module:Class"
