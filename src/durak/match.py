"""Matches: a series of games with the same players, and their scoring (R11).

A :class:`Match` is a frozen value: the rules, the seed and the results so far. It says who
deals and who leads the next game (R11.1, R11.2); :func:`play_match` plays one with any
players. Scoring is a plain function of the list of game results (R11.3): :func:`losses`,
:func:`streaks`, :func:`vodka`, :func:`vodka_first_out`, :func:`epaulettes` (R15.4), or your
own.

>>> from durak import Rules
>>> from durak.bots import RandomBot
>>> match = play_match(Rules(players=3), [RandomBot(s) for s in range(3)], games=4, seed=1)
>>> len(match.results), sum(losses(match.results).values()) <= 4
(4, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import attrs

from durak._input import brief
from durak.actions import Action
from durak.engine import apply, new_game, next_actor
from durak.errors import InvalidError, RulesError
from durak.rules.settings import NextLeader, Rules
from durak.state import GameState, Result
from durak.views import PlayerView, view

__all__ = [
    "Match",
    "Player",
    "Scoring",
    "Streak",
    "epaulettes",
    "losses",
    "play_match",
    "streak_name",
    "streaks",
    "team_losses",
    "vodka",
    "vodka_first_out",
]

#: A scoring function: the results of a match's games, in order, to a score per seat.
Scoring = Callable[[Sequence[Result]], Mapping[int, int]]


class Player(Protocol):
    """Anything that picks an action for a seat from what that seat may see (R13):
    ``choose(view) -> action``, such as the bots of :mod:`durak.bots`."""

    def choose(self, view: PlayerView) -> Action: ...


@attrs.frozen
class Match:
    """A series of games with the same players (R11).

    Attributes:
        rules: the rules of every game.
        seed: the match seed; game ``i`` is dealt with seed ``f"{seed}:{i}"``.
        results: the finished games' results, in order.
        dealers: who dealt each finished game.
    """

    rules: Rules
    seed: int | str = 0
    results: tuple[Result, ...] = ()
    dealers: tuple[int, ...] = ()

    def next_dealer(self) -> int:
        """R11.1: the durak deals; after a game without a durak the deal passes to the previous
        dealer's left neighbour. The first game's dealer is the last seat (R2.3)."""
        n = self.rules.players
        if not self.results:
            return n - 1
        last = self.results[-1]
        if last.durak is not None:
            return last.durak
        return (self.dealers[-1] + 1) % n

    def next_leader(self) -> int | None:
        """R11.2: who leads the next game, or ``None`` when R3 (the lowest trump) decides: the
        first game, after a game without a durak, and under ``next_leader = lowest_trump``."""
        n = self.rules.players
        if not self.results or self.results[-1].durak is None:
            return None
        durak = self.results[-1].durak
        policy = self.rules.next_leader
        if policy is NextLeader.ATTACK_DURAK:
            # His right neighbour (the seat before him clockwise) leads against him; with teams
            # that seat is an opponent because seats alternate (R10.1).
            return (durak - 1) % n
        if policy is NextLeader.LEFT_OF_DURAK:
            return (durak + 1) % n
        if policy is NextLeader.DURAK_LEADS:
            return durak
        return None

    def seed_for(self, index: int) -> str:
        """The deal seed of game ``index`` (0-based): ``f"{seed}:{index}"``."""
        return f"{self.seed}:{index}"

    def new_game(self) -> GameState:
        """Deal the next game with the dealer and leader of R11.1 and R11.2."""
        return new_game(
            self.rules,
            seed=self.seed_for(len(self.results)),
            dealer=self.next_dealer(),
            attacker=self.next_leader(),
        )

    def record(self, state: GameState) -> Match:
        """The match with the finished game ``state`` added.

        Raises:
            RulesError: the game is not over, or was played under other rules.
        """
        if state.result is None:
            raise RulesError("match", "only a finished game can be recorded")
        if state.rules != self.rules:
            raise RulesError("match", "the game was played under other rules than the match")
        return attrs.evolve(
            self, results=(*self.results, state.result), dealers=(*self.dealers, state.dealer)
        )


def play_match(
    rules: Rules, players: Sequence[Player], games: int, seed: int | str = 0
) -> Match:
    """Play ``games`` games of a match, seat ``i`` played by ``players[i]``.

    Each player is asked only when he is the next actor (R13.2), and sees only his view of the
    game (:func:`~durak.views.view`).

    Raises:
        RulesError: the number of players does not match ``rules.players``.
    """
    if len(players) != rules.players:
        raise RulesError("players", f"{len(players)} players given for {rules.players} seats")
    match = Match(rules, seed)
    for _ in range(games):
        state = match.new_game()
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, players[actor].choose(view(state, actor)))
        match = match.record(state)
    return match


def _results(results: Sequence[Result], where: str) -> tuple[tuple[Result, ...], int]:
    """The results as a tuple and their number of seats, checked: a sequence of
    :class:`~durak.state.Result` (not a mapping or text), every one with as many places as the
    first and a durak (if any) among those seats.

    Raises:
        TypeError: ``results`` is not a sequence of results.
        InvalidError: the results disagree on the number of seats, or name a durak who has no
            seat.
    """
    if isinstance(results, str | bytes | bytearray | Mapping) or not isinstance(
        results, Sequence
    ):
        raise TypeError(
            f"{where}() takes a sequence of durak.state.Result (a match's results), "
            f"not {type(results).__name__}"
        )
    out = tuple(results)
    for index, r in enumerate(out):
        if type(r) is not Result:
            raise TypeError(
                f"{where}() takes a sequence of durak.state.Result; item {index} is "
                f"{type(r).__name__}: {brief(r)}"
            )
    seats = len(out[0].places) if out else 0
    for index, r in enumerate(out):
        if len(r.places) != seats:
            raise InvalidError(
                f"{where}(): result {index} has {len(r.places)} places, but result 0 has {seats}"
            )
        if r.durak is not None and (
            isinstance(r.durak, bool) or not isinstance(r.durak, int) or not 0 <= r.durak < seats
        ):
            raise InvalidError(
                f"{where}(): result {index} names durak {brief(r.durak)}, "
                f"not one of the seats 0-{seats - 1}"
            )
    return out, seats


def losses(results: Sequence[Result]) -> dict[int, int]:
    """How many games each seat lost (was among the losers, R11.3)."""
    results, seats = _results(results, "losses")
    return {p: sum(p in r.losers for r in results) for p in range(seats)}


def team_losses(results: Sequence[Result], teams: Sequence[Sequence[int]]) -> dict[int, int]:
    """How many games each team (by index in ``teams``) lost: all its members among the
    losers (R11.3)."""
    results, _ = _results(results, "team_losses")
    return {
        t: sum(all(p in r.losers for p in team) for r in results) for t, team in enumerate(teams)
    }


@attrs.frozen
class Streak:
    """A seat's losing streaks (R11.3): ``current`` ends with any game he does not lose."""

    current: int
    longest: int


def streaks(results: Sequence[Result]) -> dict[int, Streak]:
    """Each seat's current and longest losing streak (R11.3)."""
    results, seats = _results(results, "streaks")
    out = {}
    for p in range(seats):
        current = longest = 0
        for r in results:
            current = current + 1 if p in r.losers else 0
            longest = max(longest, current)
        out[p] = Streak(current, longest)
    return out


def streak_name(length: int) -> str | None:
    """The German article's names: 2 losses in a row make a *Doppeldurak*, 3 or more a
    *Dauerdurak* (R11.3)."""
    if length >= 3:
        return "Dauerdurak"
    if length == 2:
        return "Doppeldurak"
    return None


def vodka(results: Sequence[Result]) -> dict[int, int]:
    """The German article's vodka scoring (R11.3): after each game the durak owes as many shots
    as his current losing streak; a game without a durak costs no shots."""
    results, seats = _results(results, "vodka")
    shots = dict.fromkeys(range(seats), 0)
    run = dict.fromkeys(range(seats), 0)
    for r in results:
        for p in range(seats):
            run[p] = run[p] + 1 if p in r.losers else 0
        if r.durak is not None:
            shots[r.durak] += run[r.durak]
    return shots


def vodka_first_out(results: Sequence[Result]) -> dict[int, int]:
    """The vodka variant (R11.3): the first player out owes one shot; players sharing first
    place each owe one. A game that names no durak costs no shots. With teams
    (``team_win = all_out``) the first player out may be on the losing team; he owes his
    shot all the same, as the rule names the first out and nobody else."""
    results, seats = _results(results, "vodka_first_out")
    shots = dict.fromkeys(range(seats), 0)
    for r in results:
        if r.durak is None:
            continue
        for p in range(seats):
            if r.places[p] == 1:
                shots[p] += 1
    return shots


def epaulettes(results: Sequence[Result]) -> dict[int, int]:
    """Pogony (R15.4): the epaulettes each seat was given as a durak, over the games (the
    result's fact ``epaulettes``, set where the ``pogony`` setting is on; 0 elsewhere)."""
    results, seats = _results(results, "epaulettes")
    out = dict.fromkeys(range(seats), 0)
    for r in results:
        count = r.fact("epaulettes", 0)
        if r.durak is not None and isinstance(count, int) and not isinstance(count, bool):
            out[r.durak] += count
    return out
