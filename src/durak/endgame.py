"""Exact two-player endgames: once the stock is empty and two players are left, every card is
known and Durak is a game of perfect information. :func:`solve` plays it perfectly.

The rules come from the engine alone (:func:`~durak.engine.legal_actions`,
:func:`~durak.engine.apply`, :func:`~durak.engine.next_actor`): the solver has no rules of its
own, so it covers every setting the engine plays with two players (transfers by card and by
showing a trump, several transfer cards, strict suits, jokers, suit throw-ins, the reverse show,
pogony, cheating and catching, ``objective = first_out``). It refuses, with a
:class:`~durak.errors.PositionError`, what is not a two-player perfect-information game: a stock
that is not empty, more than two players in play, teams, a misdeal redeal still
possible (a new shuffle is chance), and house rules from plug-ins (they may read anything in the
state, the bout count included, which the solver's table of positions leaves out).

The game it solves:

- Turns follow R13.2's one-actor order (:func:`~durak.engine.next_actor`), as every game loop
  of the library plays.
- The value is for ``seat``: +1 a win, 0 a draw, -1 a loss (R7.3: the durak loses, the other
  wins; ``on_last_cleared`` decides the last clearing; under ``objective = first_out`` a player
  out at the end wins and the other loses). It is read from the engine's
  :class:`~durak.state.Result`.
- Transfers can make play go round in a circle (each player transfers back and the other
  takes); a line of play that comes back to a position already on it is scored a draw: a game
  that never ends has no loser. A player who can win wins without repeating a position, so this
  changes no won or lost value.
- Where play cannot circle, every move that keeps a win ends the game in a win. Where it can
  (the search met a repetition), the solver searches again with a win scored by how soon it
  comes, and plays the quickest win (the loser the slowest loss), so its play never circles in
  a won position.

The search: alpha-beta over the tree of R13.2's turns, deepening in two passes (a shallow one
whose best moves order the full one, and which answers should the budget end first), a
transposition table keyed by the position (it stores a bound only when no repetition and no
depth limit touched it, or when it proves a win or a loss, so every stored bound is true
whatever line leads there), move ordering (the table's move, then cheap cards first),
and one Durak-specific merge: positions that differ only in the order of the discard pile, in
which cards are known to be held, or in the count of bouts and defences past the first are the
same position (nothing the rules decide reads them, R4.6 and R9.6 only ask whether the first
bout or the first discard is still to come).

>>> from durak import Rules, build_deck, new_position, parse_cards
>>> hands = [parse_cards("6h 9c"), parse_cards("7s")]
>>> rest = [c for c in build_deck(36) if c not in hands[0] + hands[1]]
>>> s = new_position(Rules(), hands=hands, trump="s", attacker=0, discard=rest)
>>> found = solve(s, 0)  # any lead is beaten by the trump seven, and seat 1 is out first
>>> found.value, found.exact
(-1, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import attrs

from durak.actions import Action, Beat, Pass, Redeal, Take, Transfer
from durak.engine import apply, legal_actions, next_actor
from durak.errors import PositionError, check_seat
from durak.messages import Message, message
from durak.state import GameState, Result

__all__ = ["Solution", "is_endgame", "minimax", "solve", "value_of"]

#: The score of a win on the spot; a win ``n`` actions away scores ``WIN - n`` (a loss the
#: negative), so the search prefers quick wins and slow losses.
WIN = 1_000_000

#: The budget is checked every this many nodes.
_CHECK = 256

#: The depth of the first, shallow pass (in actions); the second has no limit.
FIRST_PASS = 8

_NO_LIMIT = 1 << 30


@attrs.frozen
class Solution:
    """What :func:`solve` found.

    Attributes:
        value: the result for the seat asked about under perfect play by both: +1 a win, 0 a
            draw (or endless play), -1 a loss. When ``exact`` is false it is only the best
            guess of the deepest finished pass (0 where nothing was proved).
        best_action: the acting player's best action (:func:`~durak.engine.next_actor`): one
            that keeps the value (where play can circle, the quickest win or the slowest
            loss); ``None`` once the game is over, or when the budget ended before a first
            pass.
        nodes: positions searched.
        exact: whether ``value`` and ``best_action`` are proved (the budget sufficed).
    """

    value: int
    best_action: Action | None
    nodes: int
    exact: bool


class _OutOfBudget(Exception):
    """The node or time budget ran out in the middle of a pass."""


def value_of(result: Result, seat: int) -> int:
    """A finished game's value for ``seat``: +1 a win, 0 a draw, -1 a loss (R7.3, R7.4).

    >>> value_of(Result(durak=1, draw=False, places=(1, 2), winners=(0,), losers=(1,)), 0)
    1
    """
    if result.draw:
        return 0
    if seat in result.winners:
        return 1
    return -1 if seat in result.losers else 0


def _refusal(state: GameState) -> Message | None:
    """Why ``state`` is not a two-player endgame the solver covers, or ``None``."""
    if state.result is not None:
        return None
    if state.stock:
        return message("position.endgame-stock", n=len(state.stock))
    if state.rules.teams is not None:
        return message("position.endgame-teams")
    if state.rules.house_rules:
        return message("position.endgame-house-rules", given=", ".join(state.rules.house_rules))
    active = sum(state.is_active(p) for p in range(state.players))
    if active > 2:
        return message("position.endgame-players", n=active)
    if any(type(a) is Redeal for a in legal_actions(state)):
        return message("position.endgame-redeal")
    return None


def is_endgame(state: GameState) -> bool:
    """Whether :func:`solve` covers ``state``: at most two players in play, the stock empty,
    no teams, no plug-in house rules, no misdeal redeal possible (or the game is over).

    Raises:
        TypeError: ``state`` is not a state.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {type(state).__name__}")
    return _refusal(state) is None


def _check(state: GameState, seat: int) -> None:
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {type(state).__name__}")
    check_seat(seat, state.players)
    reason = _refusal(state)
    if reason is not None:
        raise PositionError(reason)


def _key(s: GameState) -> tuple[Any, ...]:
    """The position as the rules see it (see the module's text for what is left out)."""
    return (
        s.hands,
        s.table,
        s.attacker,
        s.defender,
        s.leader,
        s.joined,
        s.defender_hand,
        s.taken,
        s.passed,
        s.shown,
        min(s.bouts, 1),
        min(s.defences, 1),
        s.places,
        s.left,
        s.exchange,
        s.extra,
    )


def _worth(card: int, trump: int) -> int:
    """A card's cost for move ordering, from its integer value (R1: copy * 64 + suit * 16 +
    rank); a card outside the 52 (rank slot 15 or 1) counts as dearest."""
    suit, rank = (card // 16) % 4, card % 16
    if rank in (1, 15):
        return 64
    return rank + (32 if suit == trump else 0)


def _cost(action: Action, trump: int) -> tuple[int, int]:
    """Move ordering: beats and transfers, then leads and throw-ins, then take or pass; cheap
    cards first."""
    if isinstance(action, Take | Pass):
        return (2, 0)
    cards = getattr(action, "cards", ())
    kind = 0 if isinstance(action, Beat | Transfer) else 1
    return (kind, sum(_worth(int(c), trump) for c in cards))


def _terminal(result: Result, seat: int, ply: int, dist: bool) -> int:
    v = value_of(result, seat)
    return v * (WIN - ply) if dist else v * WIN


def _to_table(score: int, ply: int) -> int:
    """A score counted from the root as one counted from the node ``ply`` deep."""
    if score > WIN // 2:
        return score + ply
    if score < -WIN // 2:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > WIN // 2:
        return score - ply
    if score < -WIN // 2:
        return score + ply
    return score


class _Search:
    def __init__(
        self,
        seat: int,
        nodes: int | None,
        deadline: float | None,
        clock: Callable[[], float],
        dist: bool,
    ) -> None:
        self.seat = seat
        #: Whether a win counts the actions to it (else every win scores WIN).
        self.dist = dist
        #: Whether a line of play came back to a position on it.
        self.repeated = False
        self.max_nodes = nodes
        self.deadline = deadline
        self.clock = clock
        self.nodes = 0
        #: key -> (lower, upper) bounds, counted from that node: true values only.
        self.table: dict[tuple[Any, ...], tuple[int, int]] = {}
        #: key -> the best action met there (ordering only, from any pass).
        self.hints: dict[tuple[Any, ...], Action] = {}
        self.path: set[tuple[Any, ...]] = set()
        self.limit = 0
        self.cut = False

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % _CHECK == 0:
            if self.max_nodes is not None and self.nodes >= self.max_nodes:
                raise _OutOfBudget
            if self.deadline is not None and self.clock() >= self.deadline:
                raise _OutOfBudget

    def search(
        self, s: GameState, ply: int, alpha: int, beta: int
    ) -> tuple[int, bool, Action | None]:
        """The score of ``s`` for the seat within (alpha, beta), whether a repetition or the
        depth limit touched it, and the best action."""
        self._tick()
        if s.result is not None:
            return _terminal(s.result, self.seat, ply, self.dist), False, None
        key = _key(s)
        if key in self.path:
            self.repeated = True
            return 0, True, None
        entry = self.table.get(key)
        if entry is not None:
            low, high = _from_table(entry[0], ply), _from_table(entry[1], ply)
            if low == high or low >= beta or high <= alpha:
                return (low if low >= beta or low == high else high), False, self.hints.get(key)
            alpha, beta = max(alpha, low), min(beta, high)
        if ply >= self.limit:
            self.cut = True
            return 0, True, None
        # No result can beat a win on the next action or lose faster than one.
        if self.dist:
            alpha, beta = max(alpha, -(WIN - ply - 1)), min(beta, WIN - ply - 1)
            if alpha >= beta:
                return alpha, False, None
        actor = next_actor(s)
        assert actor is not None
        trump = int(s.trump)
        actions = sorted(legal_actions(s, actor), key=lambda a: _cost(a, trump))
        hint = self.hints.get(key)
        if hint is not None and hint in actions:
            actions.remove(hint)
            actions.insert(0, hint)
        maximize = actor == self.seat
        a0, b0 = alpha, beta
        best: int | None = None
        best_action: Action | None = None
        touched = False
        self.path.add(key)
        try:
            for action in actions:
                score, t, _ = self.search(apply(s, action), ply + 1, alpha, beta)
                touched = touched or t
                if best is None or (score > best if maximize else score < best):
                    best, best_action = score, action
                if maximize:
                    alpha = max(alpha, score)
                else:
                    beta = min(beta, score)
                if alpha >= beta:
                    break
        finally:
            self.path.discard(key)
        assert best is not None and best_action is not None
        self.hints[key] = best_action
        low, high = entry if entry is not None else (-WIN, WIN)
        low, high = _from_table(low, ply), _from_table(high, ply)
        if not touched:
            if best <= a0:
                high = min(high, best)
            elif best >= b0:
                low = max(low, best)
            else:
                low = high = best
        elif best > max(a0, 0):
            # A proved win rests on no repetition and no depth limit (both score 0): a true
            # lower bound, whatever touched the rest of the search.
            low = max(low, best)
        elif best < min(b0, 0):
            high = min(high, best)  # a proved loss likewise: a true upper bound
        else:
            return best, touched, best_action
        self.table[key] = (_to_table(low, ply), _to_table(high, ply))
        return best, touched, best_action


def solve(
    state: GameState,
    seat: int,
    *,
    nodes: int | None = None,
    seconds: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """Solve a two-player endgame: its value for ``seat`` under perfect play and the acting
    player's best action (the module's text says which game exactly).

    Args:
        state: a position with the stock empty and at most two players in play
            (:func:`is_endgame`).
        seat: whose value (any seat of the game).
        nodes: the most positions to search, or ``None``.
        seconds: the most time to spend on ``clock``, or ``None``.
        clock: what ``seconds`` is measured on (seconds as a float).

    Returns:
        A :class:`Solution`; when a budget runs out first its ``exact`` is false and it holds
        the deepest finished pass's guess.

    Raises:
        TypeError: ``state`` is not a state.
        SeatError: ``seat`` is not a seat of the game.
        PositionError: the position is not covered (codes ``position.endgame-stock``,
            ``position.endgame-players``, ``position.endgame-teams``,
            ``position.endgame-house-rules``, ``position.endgame-redeal``).
        ValueError: a budget that is not positive.
    """
    _check(state, seat)
    if any(b is not None and b <= 0 for b in (nodes, seconds)):
        raise ValueError("nodes and seconds must be positive")
    if state.result is not None:
        return Solution(value_of(state.result, seat), None, 0, True)
    deadline = None if seconds is None else clock() + seconds
    first = _deepen(state, _Search(seat, nodes, deadline, clock, dist=False))
    if not first.exact or first.value == 0 or not first.repeated:
        return first.solution
    # Play can go round in a circle here: a move that merely keeps the win might circle for
    # ever. Search again, counting the actions to the end, for the quickest win.
    left = None if nodes is None else nodes - first.solution.nodes
    if left is not None and left <= 0:
        return first.solution
    second = _deepen(state, _Search(seat, left, deadline, clock, dist=True))
    if not second.exact:
        return first.solution
    return attrs.evolve(second.solution, nodes=first.solution.nodes + second.solution.nodes)


@attrs.frozen
class _Passes:
    solution: Solution
    exact: bool
    value: int
    repeated: bool


def _deepen(state: GameState, search: _Search) -> _Passes:
    """Deepening in two passes: :data:`FIRST_PASS` actions deep (a first guess, should the
    budget end, and the move ordering of the next pass), then without a limit. Doubling the
    depth pass after pass cost more: a pass the limit cuts stores little but proved wins and
    losses in the table, so each pass searches the drawn-looking lines anew."""
    found: tuple[int, Action | None] | None = None
    limit = FIRST_PASS
    while True:
        search.limit, search.cut = limit, False
        try:
            score, _, action = search.search(state, 0, -WIN, WIN)
        except _OutOfBudget:
            break
        found = (score, action)
        value = (score > 0) - (score < 0)
        if not search.cut or value:
            # No depth limit met, or a win or loss proved within it (every line of the loser
            # ends inside the limit; counting actions, the quickest win is found too).
            solution = Solution(value, action, search.nodes, True)
            return _Passes(solution, True, value, search.repeated)
        limit = _NO_LIMIT
    if found is None:
        return _Passes(Solution(0, None, search.nodes, False), False, 0, search.repeated)
    score, action = found
    value = (score > 0) - (score < 0)
    return _Passes(Solution(value, action, search.nodes, False), False, value, search.repeated)


def minimax(state: GameState, seat: int, *, nodes: int = 1_000_000) -> int:
    """The value of a two-player endgame for ``seat`` by plain exhaustive minimax: every line of
    play to its end, no pruning, no table; a position repeated on the line is a draw. The
    reference :func:`solve` is checked against (small positions only).

    Raises:
        TypeError, SeatError, PositionError: as :func:`solve`.
        RuntimeError: more than ``nodes`` positions.
    """
    _check(state, seat)
    count = 0

    def value(s: GameState, path: frozenset[tuple[Any, ...]]) -> int:
        nonlocal count
        count += 1
        if count > nodes:
            raise RuntimeError(f"more than {nodes} positions")
        if s.result is not None:
            return value_of(s.result, seat)
        key = _key(s)
        if key in path:
            return 0
        actor = next_actor(s)
        assert actor is not None
        inner = path | {key}
        values = [value(apply(s, a), inner) for a in legal_actions(s, actor)]
        return max(values) if actor == seat else min(values)

    return value(state, frozenset())
