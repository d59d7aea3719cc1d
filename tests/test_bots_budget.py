"""The search bot's time budget, checked through injected clocks (no test measures real time)."""

from __future__ import annotations

import pytest

from durak import GameState, Rules, new_game, view
from durak.bots import CLOCKS, PLAYOUT_CHECK, RuleBot, SearchBot, make_bot
from durak.views import PlayerView


class StepClock:
    """A fake clock that advances ``tick`` seconds at every reading and keeps its readings."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.now = 100.0
        self.readings: list[float] = []

    def __call__(self) -> float:
        self.now += self.tick
        self.readings.append(self.now)
        return self.now


class JumpClock:
    """A fake clock that stands still for ``before`` readings, then jumps ``jump`` seconds."""

    def __init__(self, before: int, jump: float) -> None:
        self.before = before
        self.jump = jump
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 0.0 if self.reads <= self.before else self.jump


def opening() -> tuple[GameState, PlayerView]:
    state = new_game(Rules(), seed=3)
    return state, view(state, state.attacker)


def test_search_bot_stops_at_its_time_limit() -> None:
    _, seen = opening()
    clock = StepClock(0.001)
    bot = SearchBot(0, time_limit=0.05, clock=clock)
    assert bot.choose(seen) in seen.legal_actions
    start, last = clock.readings[0], clock.readings[-1]
    # The clock was read until the limit, and not once more after it was found passed.
    assert last >= start + 0.05
    assert [r for r in clock.readings if r >= start + 0.05] == [last]
    assert bot.last_playouts >= 1


def test_search_bot_reads_its_clock_within_every_few_actions() -> None:
    _, seen = opening()
    clock = StepClock(0.0)  # time stands still: the steps budget ends the search
    bot = SearchBot(0, time_limit=1.0, steps=600, clock=clock)
    bot.choose(seen)
    assert bot.last_steps > 0
    # Every playout reads the clock when it starts and every PLAYOUT_CHECK actions.
    assert len(clock.readings) * PLAYOUT_CHECK >= bot.last_steps


def test_search_bot_out_of_time_at_once_plays_the_rule_of_thumb() -> None:
    _, seen = opening()
    clock = JumpClock(before=1, jump=10.0)  # past the limit from the second reading on
    bot = SearchBot(0, time_limit=0.02, clock=clock)
    assert bot.choose(seen) == RuleBot(0).choose(seen)
    assert bot.last_playouts == 0
    assert clock.reads == 2


def test_search_bot_cut_off_in_a_playout_drops_that_playout() -> None:
    _, seen = opening()
    clock = JumpClock(before=5, jump=10.0)
    bot = SearchBot(0, time_limit=0.02, clock=clock)
    assert bot.choose(seen) in seen.legal_actions
    assert clock.reads == 6  # stopped at the first reading past the limit
    # Five readings before the jump: the move, the round and at most three playouts.
    assert bot.last_playouts <= 3


def test_search_bot_on_a_fake_clock_is_deterministic() -> None:
    _, seen = opening()
    picks = {SearchBot(7, time_limit=0.04, clock=StepClock(0.0005)).choose(seen) for _ in "ab"}
    assert len(picks) == 1


def test_search_bot_clocks_by_name() -> None:
    assert set(CLOCKS) == {"wall", "cpu"}
    bot = make_bot("search:time_limit=0.01,clock=cpu", 1)
    assert isinstance(bot, SearchBot) and bot.clock == "cpu"
    _, seen = opening()
    assert bot.choose(seen) in seen.legal_actions
    with pytest.raises(ValueError, match="unknown clock 'sundial'"):
        SearchBot(0, clock="sundial")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown clock"):
        SearchBot(0, clock=3)  # type: ignore[arg-type]
