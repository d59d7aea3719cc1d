"""Computer players: a random player, a rule-of-thumb player and a search player.

A bot answers one question: given what its seat may see (a :class:`~durak.views.PlayerView`,
R13), which action does it take? The game loop asks the actor of :func:`durak.next_actor`
(R13.2) and applies the answer. Every bot picks from ``view.legal_actions`` only, so it never
makes an illegal move, whatever the rules (every preset, 2-6 players, teams, transfers, strict
suits, several decks, the trump-six exchange, misdeal redeals).

- :class:`RandomBot`: uniform among the legal actions.
- :class:`RuleBot`: the strategy tips of the German help page of an online Podkidnoy game
  ("Strategie-Tipps"): save trumps, lead low, take early small cards rather than spend a high
  trump, count the cards, play hard at the end.
- :class:`SearchBot`: determinized Monte-Carlo search: samples the hidden cards
  (:func:`~durak.views.determinize`), plays every candidate action out to the end of the game
  with fast rule-of-thumb players, and keeps the action with the best mean result.

Every bot owns a seeded :class:`random.Random`: bots with fixed seeds replay the same game and
never touch the global random state (a :class:`SearchBot` under a time limit is the exception:
how many playouts fit in depends on the machine).

>>> from durak import Rules, new_game, next_actor, apply, view
>>> state = new_game(Rules(players=2), seed=1)
>>> bots = [RuleBot(seed=0), SearchBot(seed=0, playouts=8, time_limit=None)]
>>> while state.result is None:
...     actor = next_actor(state)
...     state = apply(state, bots[actor].choose(view(state, actor)))
>>> state.result.draw or state.result.durak in (0, 1)
True
"""

from __future__ import annotations

import base64
import binascii
import importlib
import inspect
import math
import random
import re
import struct
import time
import zlib
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import attrs

from durak._input import brief
from durak.actions import (
    Action,
    Beat,
    ExchangeTrump,
    Lead,
    Pass,
    Redeal,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from durak.cards import DECK_SIZES, Card
from durak.endgame import is_endgame, solve
from durak.engine import apply, attack_limit, legal_actions, next_actor
from durak.errors import IllegalActionError
from durak.rules.extensions.cheating import Catch, fair_beat_table, is_cheat
from durak.rules.objective import out_wins
from durak.rules.shared import one
from durak.state import GameState, Result
from durak.views import PlayerView, determinize

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "BOTS",
    "CLOCKS",
    "ENDGAME_NODES_PER_PLAYOUT",
    "ENTRY_POINT_GROUP",
    "LAZY_TARGETS",
    "PLAYOUT_CHECK",
    "Bot",
    "RandomBot",
    "RuleBot",
    "RuleWeights",
    "SearchBot",
    "StatefulBot",
    "bot_names",
    "installed_bots",
    "make_bot",
    "outcome",
]


class Bot(Protocol):
    """Anything that picks an action from what one seat may see (R13): ``choose`` gets the
    acting seat's :class:`~durak.views.PlayerView` and returns one of its ``legal_actions``.

    A bot that needs nothing but the legal actions may also have
    ``choose_legal(player, legal_actions) -> Action``, which must choose as ``choose`` would
    from ``player``'s view with those actions: the library's game loops (``durak simulate``,
    tournaments) then skip building the view (:class:`RandomBot` does this)."""

    def choose(self, view: PlayerView) -> Action: ...


@runtime_checkable
class StatefulBot(Bot, Protocol):
    """A bot whose state can be saved and restored: every built-in bot. :class:`durak.Game`
    saves it with a game and winds it back on an undo; ``isinstance(bot, StatefulBot)`` tells
    (and narrows the type for a type checker).

    ``get_state()`` gives what the bot has changed in itself by playing (its generator, its
    memory of positions) as JSON values; ``set_state(data)`` on a bot made alike (the same
    name, options and seed) continues exactly as the bot it came from would, and raises
    :class:`ValueError` for data that is not such a state."""

    def get_state(self) -> Any: ...

    def set_state(self, data: Any) -> None: ...


def outcome(result: Result, seat: int) -> float:
    """A finished game's outcome for ``seat``: 1 for a win, 0 for a loss (the durak, or under
    ``objective = first_out`` not out in time), 0.5 for a draw (R7.3, R7.4). With teams a
    player's result is his team's (R10.3), as ``Result.winners`` already says.

    >>> outcome(Result(durak=1, draw=False, places=(1, 2), winners=(0,), losers=(1,)), 1)
    0.0
    """
    if result.draw:
        return 0.5
    return 1.0 if seat in result.winners else 0.0


def _no_action(view: PlayerView) -> ValueError:
    return ValueError(f"player {view.player} has no legal action in this view")


#: The Mersenne Twister's block: the words it makes at each twist.
_BLOCK = 624

#: The most blocks :func:`_draws_between` steps through before it gives up (about 62 million
#: words: far more than a game of any bot draws).
_MOST_BLOCKS = 100_000


class _SeededRandom(random.Random):
    """A :class:`random.Random` that remembers the state its seed gave, so that its state can be
    written as the number of 32-bit words drawn since (:func:`_rng_state`): a few digits instead
    of the generator's 625 numbers. Draws as :class:`random.Random` does."""

    _origin: Any = None
    _known: tuple[int, Any] | None = None
    _checkpoints: dict[int, Any] | None = None

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed)
        if seed is not None:
            self._origin = self.getstate()
            self._known = (0, self._origin)
            self._checkpoints = {0: self._origin}

    @property
    def mark(self) -> str:
        """Eight hex digits that tell generators seeded otherwise apart (a CRC-32 of the
        state the seed gave)."""
        words = self._origin[1] if self._origin is not None else ()
        return f"{zlib.crc32(struct.pack(f'<{len(words)}I', *words)):08x}"

    def _remember(self, draws: int, state: Any) -> None:
        """Keep ``state`` as the one ``draws`` words after the seed: the last known, and a
        checkpoint a later restore may start from (at most 4,096 of them)."""
        self._known = (draws, state)
        if self._checkpoints is not None and len(self._checkpoints) < 4096:
            self._checkpoints[draws] = state

    def _restore(self, draws: int) -> None:
        """Go to the state ``draws`` words after the seed, from the nearest checkpoint."""
        assert self._checkpoints is not None
        start = max(n for n in self._checkpoints if n <= draws)
        self.setstate(self._checkpoints[start])
        _jump(self, draws - start)
        self._remember(draws, self.getstate())


def _jump(rng: random.Random, words: int) -> None:
    """Draw ``words`` 32-bit words from ``rng`` (a million at a time), as its methods would."""
    while words > 0:
        step = min(words, 1_000_000)
        rng.getrandbits(32 * step)
        words -= step


def _draws_between(start: Any, end: Any) -> int | None:
    """How many 32-bit words take a generator from the state ``start`` to ``end``
    (:meth:`random.Random.getstate` values), or None when ``end`` is not ahead of ``start``
    within :data:`_MOST_BLOCKS` blocks."""
    if start[0] != end[0] or start[2] is not None or end[2] is not None:
        return None  # another version, or a normal deviate kept back by gauss()
    keys, index = start[1][:-1], int(start[1][-1])
    target_keys, target = end[1][:-1], int(end[1][-1])
    if keys == target_keys and target >= index:
        return target - index
    probe = random.Random()
    probe.setstate(start)
    _jump(probe, _BLOCK - index)  # to the end of the current block
    drawn = _BLOCK - index
    for _ in range(_MOST_BLOCKS):
        probe.getrandbits(32 * _BLOCK)  # the next block, drawn whole
        drawn += _BLOCK
        if probe.getstate()[1][:-1] == target_keys:
            return drawn - (_BLOCK - target)
    return None


def _rng_state(rng: random.Random) -> str:
    """A generator's state as text: ``"N@MARK"``, the number of words drawn since its seed and
    the seed's mark, where it is a :class:`_SeededRandom` (its state follows from the seed),
    else its whole state packed (``"mt3:..."``, :meth:`random.Random.getstate`)."""
    state = rng.getstate()
    if isinstance(rng, _SeededRandom) and rng._known is not None:
        known_draws, known_state = rng._known
        more = _draws_between(known_state, state)
        if more is not None:
            rng._remember(known_draws + more, state)
            return f"{known_draws + more}@{rng.mark}"
    version, internal, gauss = state
    packed = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")
    return f"mt{version}:{packed}" + ("" if gauss is None else f":{gauss!r}")


def _set_rng_state(rng: random.Random, data: Any) -> None:
    """Restore what :func:`_rng_state` gave (or the list ``[version, words, gauss]`` that
    earlier releases wrote).

    Raises:
        ValueError: ``data`` is not such a state, or a number of draws for a generator that
            was not seeded alike.
    """
    try:
        if isinstance(data, str) and "@" in data:
            draws, _, mark = data.partition("@")
            if not (draws.isascii() and draws.isdigit() and len(draws) < 16):
                raise ValueError(f"not a count of draws: {brief(draws)}")
            if not isinstance(rng, _SeededRandom) or rng._checkpoints is None:
                raise ValueError("a count of draws needs a generator seeded as it was")
            if mark != rng.mark:
                raise ValueError("the state of a bot seeded otherwise")
            rng._restore(int(draws))
            return
        if isinstance(data, str):
            head, packed, *gauss = data.split(":")
            if not head.startswith("mt") or len(gauss) > 1:
                raise ValueError("not a packed generator state")
            raw = base64.b64decode(packed, validate=True)
            words = struct.unpack(f"<{len(raw) // 4}I", raw)
            rng.setstate((int(head[2:]), words, float(gauss[0]) if gauss else None))
            return
        version, internal, gauss = data
        rng.setstate((version, tuple(int(i) for i in internal), gauss))
    except (TypeError, ValueError, struct.error, binascii.Error) as exc:
        raise ValueError(f"not a bot's generator state: {exc}") from None


# --------------------------------------------------------------------------------------------
# RandomBot
# --------------------------------------------------------------------------------------------


class RandomBot:
    """A player who picks uniformly at random among his legal actions.

    Args:
        seed: seeds the bot's own generator (an integer or a string); ``None`` for a random
            seed.

    >>> from durak import Rules, new_game, next_actor, apply, view
    >>> state = new_game(Rules(players=2), seed=1)
    >>> action = RandomBot(seed=7).choose(view(state, next_actor(state)))
    >>> apply(state, action).table != ()
    True
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng: random.Random = _SeededRandom(seed)

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal_actions``, each equally likely.

        Raises:
            ValueError: the view has no legal action (the game is over, or the seat has
                nothing to do now).
        """
        if not view.legal_actions:
            raise _no_action(view)
        return self._rng.choice(view.legal_actions)

    def choose_legal(self, player: int, legal_actions: Sequence[Action]) -> Action:
        """One of ``player``'s ``legal_actions``, each equally likely: the choice
        :meth:`choose` makes from his view, which lists them (the same generator draw),
        without the view.

        Raises:
            ValueError: ``legal_actions`` is empty.
        """
        if not legal_actions:
            raise ValueError(f"player {player} has no legal action in this view")
        return self._rng.choice(legal_actions)

    def get_state(self) -> dict[str, Any]:
        """What the bot has changed in itself by playing (its generator), as JSON values:
        :meth:`set_state` on a bot made alike continues exactly as this one would
        (:class:`durak.game.Game` saves it)."""
        return {"rng": _rng_state(self._rng)}

    def set_state(self, data: Any) -> None:
        """Continue from what :meth:`get_state` gave.

        Raises:
            ValueError: ``data`` is not such a state.
        """
        if not isinstance(data, dict):
            raise ValueError("a bot's state is a JSON object")
        _set_rng_state(self._rng, data.get("rng"))


# --------------------------------------------------------------------------------------------
# The rule of thumb, shared by RuleBot and the search's playouts
# --------------------------------------------------------------------------------------------


@attrs.frozen
class RuleWeights:
    """The constants of the rule of thumb, in units of one rank step of a plain card.

    The defaults follow the strategy tips of the German help page; the throw-in thresholds were
    tuned in rule-against-rule tournaments (throwing in every plain card once half the stock is
    drawn won clearly), the other constants proved insensitive there.

    Attributes:
        plain: cost of spending a plain card to beat, per rank above the deck's lowest.
        trump_base: cost of spending the lowest trump to beat ("Spar dir deine Trümpfe").
        trump_step: extra cost per trump rank above the lowest.
        take_base: cost of taking while the whole stock is left ("Aufnehmen ist nicht immer
            schlecht").
        take_card: extra cost of taking per card on the table.
        take_late: extra cost of taking as the stock runs out (times the share of it drawn).
        take_end: cost of taking once the stock is empty ("Spiel am Ende hart").
        transfer: cost of transferring, added to the cost of the card(s) laid (R9.1).
        show: cost of a transfer by showing a trump (R9.5): the card stays in the hand.
        pair: bonus for leading a card whose rank the hand holds again ("Hast du zwei Karten mit
            demselben Wert, leg eine").
        several: bonus per extra card of a several-card lead (R4.2 ``same_rank``).
        unbeatable: bonus for leading a card the defender cannot beat (card counting).
        unbeatable_end: the same bonus once the stock is empty.
        throw_early: highest rank position (share of the deck's rank span) thrown in while more
            than half the stock is left ("Greif mit niedrigen Karten an").
        throw_mid: the same while the stock lasts.
    """

    plain: float = 0.5
    trump_base: float = 4.0
    trump_step: float = 1.0
    take_base: float = 4.0
    take_card: float = 1.0
    take_late: float = 8.0
    take_end: float = 30.0
    transfer: float = -1.0
    show: float = -3.0
    pair: float = 1.5
    several: float = 1.0
    unbeatable: float = 4.0
    unbeatable_end: float = 25.0
    throw_early: float = 0.7
    throw_mid: float = 1.0


_DEFAULT_WEIGHTS = RuleWeights()

#: Added to a trump's rank by :meth:`_Ctx.value`, so that every trump outranks every plain card.
_TRUMP = 16

#: The cards a seat may hold, as the rule of thumb knows them (``None``: nothing known).
_Pool = Collection[Card] | None


class _Game:
    """What stays fixed through a game: the rules, the trump suit, the beating table (R4.7, R8)
    and the rule of thumb's constants. Built once per search, not once per move."""

    __slots__ = ("beat", "low", "rules", "span", "stock_start", "trump", "w")

    def __init__(self, state: GameState | PlayerView, weights: RuleWeights) -> None:
        rules = state.rules
        self.rules = rules
        self.trump = int(state.trump)
        self.beat = fair_beat_table(state.trump, rules)  # never a cheat (R15.5)
        self.low = DECK_SIZES[rules.deck_size]
        self.span = 14 - self.low
        self.stock_start = max(1, rules.cards - rules.players * rules.hand_size)
        self.w = weights


class _Ctx:
    """What the rule of thumb looks at when ``player`` acts: built from a view (:class:`RuleBot`)
    or from a full state (the search's playouts)."""

    __slots__ = (
        "attacker",
        "beat",
        "defender",
        "hand",
        "limit",
        "low",
        "player",
        "pools",
        "rules",
        "shown",
        "source",
        "span",
        "stock",
        "stock_start",
        "table",
        "taken",
        "trump",
        "w",
    )

    def __init__(
        self,
        game: _Game,
        state: GameState | PlayerView,
        player: int,
        hand: tuple[Card, ...],
        stock: int,
        limit: int,
        pools: Callable[[int], _Pool],
    ) -> None:
        self.rules = game.rules
        self.trump = game.trump
        self.beat = game.beat
        self.low = game.low
        self.span = game.span
        self.stock_start = game.stock_start
        self.w = game.w
        self.player = player
        self.hand = hand
        self.table = state.table
        self.stock = stock
        self.attacker = state.attacker
        self.defender = state.defender
        self.taken = state.taken
        self.limit = limit
        self.shown = state.shown
        self.pools = pools
        self.source = state

    def offered(self) -> list[Action]:
        """The player's legal actions in a full state (a view offers none)."""
        if isinstance(self.source, GameState):
            return list(legal_actions(self.source, self.player))
        return []

    def is_trump(self, c: int) -> bool:
        return (c >> 4) & 3 == self.trump

    def value(self, c: int) -> int:
        """Card strength: the rank, plus a bonus for trumps (R4.7)."""
        return (c & 15) + (_TRUMP if (c >> 4) & 3 == self.trump else 0)

    def spend(self, c: int) -> float:
        """The cost of giving up ``c`` to beat or transfer: low plain cards are cheap, trumps
        dear, high trumps dearest ("heb hohe Trümpfe für das Spielende auf")."""
        pos = (c & 15) - self.low
        if (c >> 4) & 3 == self.trump:
            return self.w.trump_base + self.w.trump_step * pos
        return self.w.plain * pos

    def drawn(self) -> float:
        """The share of the stock drawn so far: 0 at the deal, 1 once it is empty."""
        return 1.0 - min(1.0, self.stock / self.stock_start)

    def unbeatable(self, seat: int, cards: Sequence[Card]) -> bool:
        """Card counting ("Zähl die Karten"): whether no card ``seat`` may hold beats any of
        ``cards``. ``False`` when nothing is known."""
        pool = self.pools(seat)
        if pool is None:
            return False
        beat = self.beat
        for a in cards:
            base = (a & 63) * 64
            for c in pool:
                if beat[base + (c & 63)]:
                    return False
        return True


def _decide(ctx: _Ctx, legal: Sequence[Action] | None) -> Action:
    """The rule of thumb's action. With ``legal`` (a bot's view) the answer is one of them;
    without (a playout) it is built from the hand and the engine checks it."""
    p = ctx.player
    if legal is not None:
        for a in legal:
            if type(a) is ExchangeTrump:
                # R12.1: the face-up trump is always higher than the deck's lowest trump.
                return a
            if type(a) is Redeal and _wants_redeal(ctx):
                return a
    if not ctx.table:
        action = _lead(ctx, legal)
    elif p == ctx.defender and not ctx.taken:
        action = _defend(ctx, legal)
    else:
        action = _throw(ctx, legal)
    if legal is not None and action not in legal:
        # A house rule module may forbid what the rule of thumb would do.
        pick = [a for a in legal if type(a) in (Pass, Take)]
        return pick[0] if pick else legal[0]
    return action


def _fair(view: PlayerView, cheats: bool) -> tuple[Action | None, tuple[Action, ...]]:
    """R15.5 for a bot: a catch to make, if any (every cheat on the table is public), and the
    legal actions left to choose from: without catches, and without cheats unless ``cheats``."""
    legal = view.legal_actions
    if not view.rules.cheating:
        return None, legal
    catch = next((a for a in legal if isinstance(a, Catch)), None)
    rest = tuple(
        a for a in legal if not isinstance(a, Catch) and (cheats or not is_cheat(view, a))
    )
    return catch, rest or legal


def _wants_redeal(ctx: _Ctx) -> bool:
    """R12.2: demand a redeal for a misdeal when the hand holds at most one trump."""
    return sum(1 for c in ctx.hand if ctx.is_trump(c)) <= 1


def _lead(ctx: _Ctx, legal: Sequence[Action] | None) -> Action:
    """Lead low plain cards, a rank the hand holds again first; lead what the defender cannot
    beat; trumps last (the German help page's "Greif mit niedrigen Karten an", "Zähl die
    Karten")."""
    p = ctx.player
    hand = ctx.hand
    trump = ctx.trump
    counts: dict[int, int] = {}
    for c in hand:
        counts[c & 15] = counts.get(c & 15, 0) + 1
    leads: list[tuple[Card, ...]]
    if legal is not None:
        leads = [a.cards for a in legal if type(a) is Lead]
        if not leads:
            return legal[0]
    else:
        # A playout: the leads the rule modules offer (R4.2); the engine checks the choice.
        leads = [a.cards for a in ctx.offered() if type(a) is Lead]
    w = ctx.w
    pair, several = w.pair, w.several
    bonus = w.unbeatable_end if ctx.stock == 0 else w.unbeatable
    pool = ctx.pools(ctx.defender)
    beat = ctx.beat
    best_cost = math.inf
    best: tuple[Card, ...] = leads[0]
    for cards in leads:
        top = 0
        for c in cards:
            v = (c & 15) + (_TRUMP if (c >> 4) & 3 == trump else 0)
            if v > top:
                top = v
        cost: float = top - pair * min(counts[cards[0] & 15] - len(cards), 2)
        cost -= several * (len(cards) - 1)
        if pool is not None and cost - bonus <= best_cost:
            # Card counting pays only if it can change the choice.
            beaten = False
            for a in cards:
                base = (a & 63) * 64
                for c in pool:
                    if beat[base + (c & 63)]:
                        beaten = True
                        break
                if beaten:
                    break
            if not beaten:
                cost -= bonus
        if cost < best_cost or (cost == best_cost and cards < best):
            best_cost, best = cost, cards
    return one(Lead, p, best[0]) if len(best) == 1 else Lead(p, best)


def _plan(ctx: _Ctx, unbeaten: Sequence[Card]) -> list[tuple[Card, Card]] | None:
    """The cheapest way found to beat every unbeaten card: the attack cards with the fewest
    answers first, each with the cheapest card that beats it ("Schlag Angriffe wenn möglich mit
    kleinen normalen Karten"). ``None`` if the hand cannot beat them all."""
    left = list(ctx.hand)
    beat = ctx.beat
    spend = ctx.spend
    answers = []
    for a in unbeaten:
        base = (a & 63) * 64
        mine = [c for c in left if beat[base + (c & 63)]]
        if not mine:
            return None
        answers.append((len(mine), -ctx.value(a), a, mine))
    if len(answers) > 1:
        answers.sort(key=lambda t: t[:3])
    plan: list[tuple[Card, Card]] = []
    used: set[Card] = set()
    for _, _, a, mine in answers:
        best: Card | None = None
        best_cost = 0.0
        for c in mine:
            if c not in used:
                cost = spend(c)
                if best is None or cost < best_cost:
                    best, best_cost = c, cost
        if best is None:
            return None
        used.add(best)
        plan.append((a, best))
    return plan


def _defend(ctx: _Ctx, legal: Sequence[Action] | None) -> Action:
    """Beat cheaply, transfer cheaply, or take: "Früh ein paar kleine Karten aufzunehmen ist
    besser, als einen hohen Trumpf für eine Sechs zu opfern"; once the stock is empty taking is
    dear ("Spiel am Ende hart")."""
    p = ctx.player
    w = ctx.w
    unbeaten = [a for a, b in ctx.table if b is None]
    if not unbeaten:  # pragma: no cover - next_actor never asks then
        return _throw(ctx, legal)
    n_table = sum(1 if b is None else 2 for _, b in ctx.table)
    if ctx.stock == 0:
        take_cost = w.take_end + n_table
    else:
        take_cost = w.take_base + w.take_card * n_table + w.take_late * ctx.drawn()
    best: tuple[float, int, Action] = (take_cost, 2, one(Take, p))
    plan = _plan(ctx, unbeaten)
    if plan is not None:
        cost = sum(ctx.spend(c) for _, c in plan)
        a, c = plan[0]
        beat = one(Beat, p, c, a)
        if legal is None or beat in legal:
            best = min(best, (cost, 1, beat), key=lambda t: t[:2])
    if all(b is None for _, b in ctx.table):
        source = legal if legal is not None else ctx.offered()
        options: list[Action] = [a for a in source if type(a) in (Transfer, ShowTrump)]
        for i, option in enumerate(options):
            if type(option) is ShowTrump:
                cost = w.show
            else:
                assert type(option) is Transfer
                cost = w.transfer + sum(ctx.spend(c) for c in option.cards)
            best = min(best, (cost, 3 + i, option), key=lambda t: t[:2])
    return best[2]


def _throw(ctx: _Ctx, legal: Sequence[Action] | None) -> Action:
    """Throw in cheap plain cards; no trumps or high cards while the stock is large; once it is
    empty throw in whatever you can but keep a trump for the end ("Wirf zu, was du kannst, und
    behalte einen Trumpf für den Schluss")."""
    p = ctx.player
    hand = ctx.hand
    if legal is not None:
        cards = [a.card for a in legal if type(a) is ThrowIn]
        if not cards:
            return one(Pass, p) if one(Pass, p) in legal else legal[0]
    else:
        ranks = {c & 15 for pair in ctx.table for c in pair if c is not None}
        cards = [c for c in hand if c & 15 in ranks]
        if not cards:
            return one(Pass, p)
    end = ctx.stock == 0
    room = ctx.limit - len(ctx.table)
    if end and len(cards) == len(hand) and room >= len(hand):
        # Every card left can go: throw them all and be out (R7.1).
        return one(ThrowIn, p, min(cards, key=lambda c: (ctx.value(c), c)))
    trumps = sum(1 for c in hand if ctx.is_trump(c))
    drawn = ctx.drawn()
    top = ctx.w.throw_early if drawn < 0.5 else ctx.w.throw_mid
    best: tuple[int, Card] | None = None
    for c in cards:
        if ctx.is_trump(c):
            if not end or (trumps <= 1 and len(hand) > 1):
                continue
        elif (
            not end
            and (c & 15) - ctx.low > top * ctx.span
            and (ctx.taken or not ctx.unbeatable(ctx.defender, (c,)))
        ):
            continue
        key = (ctx.value(c), c)
        if best is None or key < best:
            best = key
    if best is None:
        return one(Pass, p)
    return one(ThrowIn, p, best[1])


def _view_ctx(v: PlayerView, game: _Game) -> _Ctx:
    """The rule of thumb's context for a view: what each seat may hold is his known cards plus
    the cards nobody can locate (R13 views, "Zähl die Karten")."""
    assert v.player is not None
    unseen: frozenset[Card] | None = None

    def pools(seat: int) -> _Pool:
        nonlocal unseen
        known = v.known[seat]
        if v.hand_sizes[seat] <= len(known):
            return known
        if unseen is None:
            unseen = frozenset(v.unseen())
        return known | unseen

    return _Ctx(game, v, v.player, v.hand, v.stock_size, v.attack_limit, pools)


def _no_pool(seat: int) -> _Pool:
    return None


def _state_ctx(s: GameState, p: int, game: _Game, peek: bool) -> _Ctx:
    """The context for a full (sampled) state: a playout's players either see the sampled
    hands (``peek``) or count nothing."""
    limit = attack_limit(s)
    hands = s.hands
    pools: Callable[[int], _Pool] = hands.__getitem__ if peek else _no_pool
    return _Ctx(game, s, p, hands[p], len(s.stock), limit, pools)


def _state_action(s: GameState, p: int, game: _Game, peek: bool) -> Action:
    """The rule of thumb for ``p`` on a full state, without listing the legal actions; the
    caller lets :func:`~durak.apply` check it."""
    if s.exchange and s.face_up is not None:
        face = s.face_up & 63
        for c in s.hands[p]:
            if c in s.exchange and c & 63 != face:
                return ExchangeTrump(p, c)
    return _decide(_state_ctx(s, p, game, peek), None)


class _Repetition:
    """Notices when a seat sees exactly the same position again.

    Deterministic players can cycle for ever once the stock is empty (the same cards taken and
    led round and round; no rule ends such a game). A bot that meets a position a second time
    plays a random legal action instead, which breaks the cycle. Positions repeat only while the
    discard pile and the stock stay the same, so the memory is cleared whenever they change.
    """

    __slots__ = ("_mark", "_seen")

    def __init__(self) -> None:
        self._mark: tuple[int, int] = (-1, -1)
        self._seen: set[tuple[Any, ...]] = set()

    def repeated(self, v: PlayerView) -> bool:
        mark = (len(v.discard), v.stock_size)
        if mark != self._mark:
            self._mark = mark
            self._seen.clear()
        key = (
            v.player,
            v.hand,
            v.hand_sizes,
            v.table,
            v.attacker,
            v.defender,
            v.taken,
            v.passed,
            v.done,
            v.known,
        )
        if key in self._seen:
            return True
        self._seen.add(key)
        return False

    def to_json(self) -> list[Any]:
        """The memory as JSON values (for a bot's :meth:`RuleBot.get_state`)."""

        def key(k: tuple[Any, ...]) -> list[Any]:
            player, hand, sizes, table, attacker, defender, taken, passed, done, known = k
            return [
                player,
                [int(c) for c in hand],
                list(sizes),
                [[int(a), None if b is None else int(b)] for a, b in table],
                attacker,
                defender,
                taken,
                sorted(passed),
                sorted(done),
                [sorted(int(c) for c in cards) for cards in known],
            ]

        return [list(self._mark), sorted((key(k) for k in self._seen), key=repr)]

    def load_json(self, data: Any) -> None:
        """Restore what :meth:`to_json` gave.

        Raises:
            ValueError: ``data`` is not such a memory.
        """
        try:
            mark, seen = data
            keys: set[tuple[Any, ...]] = set()
            for item in seen:
                player, hand, sizes, table, attacker, defender, taken, passed, done, known = item
                keys.add(
                    (
                        player,
                        tuple(Card(c) for c in hand),
                        tuple(int(n) for n in sizes),
                        tuple((Card(a), None if b is None else Card(b)) for a, b in table),
                        attacker,
                        defender,
                        bool(taken),
                        frozenset(passed),
                        frozenset(done),
                        tuple(frozenset(Card(c) for c in cards) for cards in known),
                    )
                )
            self._mark = (int(mark[0]), int(mark[1]))
            self._seen = keys
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a bot's memory of positions: {exc}") from None


class _Remembering:
    """A bot with a generator and a memory of positions met (the rule and search bots): what
    :class:`durak.game.Game` saves of it."""

    _rng: random.Random
    _repetition: _Repetition

    def get_state(self) -> dict[str, Any]:
        """What the bot has changed in itself by playing (its generator and its memory of
        positions met, which breaks cycles), as JSON values: :meth:`set_state` on a bot made
        alike continues exactly as this one would (:class:`durak.game.Game` saves it)."""
        return {"rng": _rng_state(self._rng), "seen": self._repetition.to_json()}

    def set_state(self, data: Any) -> None:
        """Continue from what :meth:`get_state` gave.

        Raises:
            ValueError: ``data`` is not such a state.
        """
        if not isinstance(data, dict):
            raise ValueError("a bot's state is a JSON object")
        _set_rng_state(self._rng, data.get("rng"))
        self._repetition.load_json(data.get("seen"))

    def _forced(self, view: PlayerView, cheats: bool) -> tuple[Action | None, tuple[Action, ...]]:
        """The move a bot plays without thinking, if any, and the fair legal actions: a caught
        cheat (R15.5), the one legal action, or a random one in a position met before (a
        cycle).

        Raises:
            ValueError: the view has no legal action.
        """
        if not view.legal_actions:
            raise _no_action(view)
        catch, legal = _fair(view, cheats)
        if catch is not None:
            return catch, legal
        if len(legal) == 1:
            return legal[0], legal
        if self._repetition.repeated(view):
            return self._rng.choice(legal), legal
        return None, legal


class RuleBot(_Remembering):
    """A rule-of-thumb player after the German help page's strategy tips ("Strategie-Tipps"):

    - *Spar dir deine Trümpfe*: beat with the cheapest card that works, plain cards before
      trumps; never throw in trumps while the stock lasts.
    - *Greif mit niedrigen Karten an*: lead the lowest plain card, preferring a rank held twice
      (the other card can be thrown in later).
    - *Aufnehmen ist nicht immer schlecht*: take a few small cards early rather than spend a
      high trump; transfer (R9) with a cheap card instead of beating.
    - *Zähl die Karten*: the cards a seat may hold are his known cards plus the unseen ones;
      lead and throw in what the defender cannot beat.
    - *Spiel am Ende hart*: with the stock empty, take only when beating is impossible, throw in
      whatever you can, and keep a trump for the end.

    It also always makes the trump-six exchange (R12.1) and demands a misdeal redeal (R12.2)
    with at most one trump. Where cheating is on (R15.5) it catches every cheat it sees and
    never cheats itself, unless ``cheats`` is set (then a cheat throw-in is as good as any).
    The rule of thumb is deterministic; the bot's seeded generator is used only when it meets
    the same position a second time (a cycle, possible once the stock is empty): then it plays
    a random legal action.

    With ``blunder`` above 0 it plays worse on purpose, for a weaker opponent (the ``easy``
    level of :mod:`durak.levels`): before each choice among several actions it draws from its
    seeded generator and, with that probability, plays a uniformly random legal action
    instead of the rule of thumb's (a catch of a cheat, R15.5, is still always made). With the
    default 0 the generator is not drawn from for it.

    Args:
        seed: seeds the bot's own generator (for breaking cycles, and for blunders).
        weights: the rule of thumb's constants.
        cheats: whether it may cheat where cheating is on (R15.5).
        blunder: the probability of a random action instead of the rule of thumb's, from 0
            (never, the default) to 1.

    Raises:
        ValueError: ``blunder`` is not a number from 0 to 1.
    """

    def __init__(
        self,
        seed: int | str | None = None,
        weights: RuleWeights | None = None,
        cheats: bool = False,
        blunder: float = 0.0,
    ) -> None:
        if isinstance(blunder, bool) or not isinstance(blunder, int | float):
            raise ValueError(f"blunder must be a number from 0 to 1, not {blunder!r}")
        if not 0.0 <= blunder <= 1.0:
            raise ValueError(f"blunder must be from 0 to 1, not {blunder!r}")
        self._rng: random.Random = _SeededRandom(seed)
        self._repetition = _Repetition()
        self.weights = weights if weights is not None else _DEFAULT_WEIGHTS
        self.cheats = cheats
        self.blunder = float(blunder)

    def choose(self, view: PlayerView) -> Action:
        """The rule of thumb's choice among ``view.legal_actions``.

        Raises:
            ValueError: the view has no legal action.
        """
        forced, legal = self._forced(view, self.cheats)
        if forced is not None:
            return forced
        if self.blunder and self._rng.random() < self.blunder:
            return self._rng.choice(legal)
        return _decide(_view_ctx(view, _Game(view, self.weights)), legal)


# --------------------------------------------------------------------------------------------
# SearchBot
# --------------------------------------------------------------------------------------------

Policy = Literal["rule", "peek", "random"]
Schedule = Literal["uniform", "halving"]


#: Actions after which a playout switches to random play: rule-of-thumb players can cycle for
#: ever (see :class:`_Repetition`), random ones end the game.
PLAYOUT_CALM = 300

#: A :class:`SearchBot` with a ``playouts`` budget lets the endgame solver search this many
#: positions per playout (half of them: the solver has half the budget): a playout plays
#: about as many engine actions as the solver visits positions in the same time.
ENDGAME_NODES_PER_PLAYOUT = 40

#: Actions after which a playout is abandoned and scored as a draw.
PLAYOUT_CAP = 3000

#: Under a time limit a playout reads the clock every this many actions (a fraction of a
#: millisecond of play on the development machine), so a search stops within that of its limit.
PLAYOUT_CHECK = 8

Clock = Literal["wall", "cpu"]

#: The clocks a :class:`SearchBot`'s ``time_limit`` may be measured on.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


def _playout(
    state: GameState,
    rng: random.Random,
    policy: Policy,
    game: _Game,
    me: int,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float | None, int]:
    """Play ``state`` out with every seat following ``policy``; returns its score for seat
    ``me`` (:func:`outcome`) and the number of actions played. ``policy``: ``"rule"`` (the rule
    of thumb, counting nothing), ``"peek"`` (the rule of thumb, seeing the sampled hands) or
    ``"random"``. Works on the engine directly: no views are built.

    Without teams under ``objective = durak``, a seat that is out while the game goes on has won
    (R7.3), so the playout stops there. After :data:`PLAYOUT_CALM` actions every seat plays at
    random; a game still running after :data:`PLAYOUT_CAP` actions scores as a draw. With a
    ``deadline``, ``clock`` is read every :data:`PLAYOUT_CHECK` actions and a playout that
    reaches the deadline is abandoned: its score is ``None``."""
    s = state
    calm = 0 if policy == "random" else PLAYOUT_CALM
    peek = policy == "peek"
    early = out_wins(game.rules)
    for n in range(PLAYOUT_CAP):
        if s.result is not None:
            return outcome(s.result, me), n
        if early and s.places[me] is not None:
            return 1.0, n
        if deadline is not None and n % PLAYOUT_CHECK == 0 and clock() >= deadline:
            return None, n
        p = next_actor(s)
        assert p is not None
        if n >= calm:
            s = apply(s, rng.choice(legal_actions(s, p)))
            continue
        s = _rule_apply(s, p, game, peek)
    return (outcome(s.result, me) if s.result is not None else 0.5), PLAYOUT_CAP


def _rule_apply(s: GameState, p: int, game: _Game, peek: bool) -> GameState:
    """``s`` after player ``p``'s rule-of-thumb action (:func:`_state_action`). Where the rule
    of thumb built an action the engine refuses (a transfer beyond R9.2, a house rule), it is
    asked again with the legal actions listed."""
    try:
        return apply(s, _state_action(s, p, game, peek))
    except IllegalActionError:
        return apply(s, _decide(_state_ctx(s, p, game, peek), legal_actions(s, p)))


def _spends_trump_ace(action: Action, ctx: _Ctx) -> bool:
    """Whether ``action`` puts a trump ace (the top trump, R4.7) on the table."""
    if not isinstance(action, Lead | Beat | ThrowIn | Transfer):
        return False
    return any((c & 15) == 14 and ctx.is_trump(c) for c in action.cards)


def _serves_as(action: Action, other: Action) -> bool:
    """Whether ``other`` does what ``action`` does: a lead for a lead, a throw-in for a
    throw-in, a transfer for a transfer, a beat of the same attack card for a beat."""
    if type(action) is not type(other):
        return False
    if isinstance(action, Beat) and isinstance(other, Beat):
        return action.attack == other.attack
    return True


def _spare_trump_ace(legal: Sequence[Action], ctx: _Ctx) -> tuple[Action, ...]:
    """``legal`` without the actions that spend a trump ace where an action that plays lower
    cards serves as well (:func:`_serves_as`): while the stock lasts the top trump is kept for
    the end (issue 29's first bug report: a bot that throws the trump ace early). Playouts
    over a few samples cannot see the ace's worth in the endgame, so the search never weighs
    it."""
    spenders = [a for a in legal if _spends_trump_ace(a, ctx)]
    if not spenders:
        return tuple(legal)
    cheap = [a for a in legal if a not in spenders]
    return tuple(
        a
        for a in legal
        if a in cheap or not any(_serves_as(a, b) for b in cheap)
    )


class SearchBot(_Remembering):
    """Determinized Monte-Carlo search (perfect-information Monte-Carlo).

    For each move: the candidate actions are the legal actions (the rule of thumb's choice
    first; at most ``max_actions`` of them, the cheapest kept). In rounds, it samples the hidden
    cards (:func:`~durak.views.determinize`), applies every candidate still in the race to that
    same sample and plays the game out with fast players on every seat (:func:`_playout`: the
    rule of thumb on the sampled state, no views built), scoring the result for its own seat
    with :func:`outcome` (with teams, the team's result). Sequential halving drops the worse
    half of the candidates after each phase of the budget. It plays the candidate with the best
    mean score; ties and near-ties (``prior``) go to the rule of thumb's choice. A single legal
    action is played at once; the trump-six exchange and a misdeal redeal follow the rule of
    thumb; a position met a second time (a cycle) gets a random legal action, as with
    :class:`RuleBot`.

    While the stock lasts it never spends a trump ace where a lower card does the same (leads
    a lower card, beats the same attack card with a lower one, throws in or transfers a lower
    one): the playouts cannot see what the top trump is worth at the end.

    In a two-player endgame (the stock empty, every card known) it first asks the exact solver
    (:func:`durak.endgame.solve`) with half of its budget, and plays the solver's move when the
    solver proves it within that; otherwise it searches as above with what is left.

    Args:
        seed: seeds the bot's own generator.
        time_limit: seconds per move on ``clock``, or ``None`` for no limit. The limit holds
            for the whole move, the set-up included: the clock is read before each playout and
            every :data:`PLAYOUT_CHECK` actions inside one, a playout cut off by the limit is
            dropped, and when the time is up the best candidate so far is played (the rule of
            thumb's choice if none was played out). A move overshoots by at most
            :data:`PLAYOUT_CHECK` engine actions plus the final pick, well under a millisecond
            on the development machine.
        playouts: the playouts per move (all candidates together; each phase plays at least one
            round, so a tiny budget may be exceeded), or ``None``.
        steps: the engine actions per move, summed over all playouts, or ``None``. Unlike a
            playout count this tracks thinking time closely (early playouts are long, late ones
            short) while staying machine-independent: with a ``playouts`` or ``steps`` budget
            and no time limit the bot is deterministic for a seed. About 2500 steps take 45 ms
            of CPU on the development machine.
        policy: the playout policy (:func:`_playout`): ``"peek"`` (the rule of thumb, every
            seat seeing the sampled hands: the strongest in tournaments), ``"rule"`` (the rule
            of thumb counting nothing) or ``"random"``.
        max_actions: the most candidate actions searched.
        prior: a bonus to the rule of thumb's choice, added to its mean score.
        schedule: how the budget is spread over the candidates: ``"halving"`` (sequential
            halving: the worse half is dropped after each of ``ceil(log2 n)`` phases) or
            ``"uniform"``.
        weights: the rule of thumb's constants (for its choice and the playouts).
        cheats: whether it may cheat where cheating is on (R15.5); like :class:`RuleBot` it
            catches every cheat it sees, and its playouts play fair.
        clock: what ``time_limit`` is measured on: ``"wall"`` (``time.perf_counter``, the
            default: what a player waiting for the move sees), ``"cpu"`` (``time.thread_time``,
            the CPU time of the thinking thread: for experiments on a loaded machine, where
            wall time also counts the other processes) or any callable returning seconds
            (e.g. a fake clock in tests).
        endgame: whether to ask the exact solver in two-player endgames. Its budget is half
            the move's: half of ``time_limit``, and at most half of ``steps`` positions (or
            :data:`ENDGAME_NODES_PER_PLAYOUT` per playout of ``playouts``), so that with no
            time limit the bot stays deterministic for a seed.

    Whichever budget runs out first ends the search.

    Raises:
        ValueError: no budget at all, or a budget that is not positive; an unknown policy,
            schedule or clock.
    """

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        time_limit: float | None = 0.05,
        playouts: int | None = None,
        steps: int | None = None,
        policy: Policy = "peek",
        max_actions: int = 8,
        prior: float = 0.02,
        schedule: Schedule = "halving",
        weights: RuleWeights | None = None,
        cheats: bool = False,
        clock: Clock | Callable[[], float] = "wall",
        endgame: bool = True,
    ) -> None:
        if time_limit is None and playouts is None and steps is None:
            raise ValueError("a SearchBot needs a time_limit, a playouts or a steps budget")
        if any(b is not None and b <= 0 for b in (time_limit, playouts, steps)):
            raise ValueError("time_limit, playouts and steps must be positive")
        if policy not in ("rule", "peek", "random"):
            raise ValueError(f"unknown playout policy {policy!r} (rule, peek, random)")
        if schedule not in ("uniform", "halving"):
            raise ValueError(f"unknown schedule {schedule!r} (uniform, halving)")
        if isinstance(clock, str):
            if clock not in CLOCKS:
                raise ValueError(f"unknown clock {clock!r} (wall, cpu, or a callable)")
            self._clock = CLOCKS[clock]
        elif callable(clock):
            self._clock = clock
        else:
            raise ValueError(f"unknown clock {clock!r} (wall, cpu, or a callable)")
        self.clock = clock
        self._rng: random.Random = _SeededRandom(seed)
        self._repetition = _Repetition()
        self.time_limit = time_limit
        self.playouts = playouts
        self.steps = steps
        self.policy: Policy = policy
        self.max_actions = max(1, max_actions)
        self.prior = prior
        self.schedule: Schedule = schedule
        self.weights = weights if weights is not None else _DEFAULT_WEIGHTS
        self.cheats = cheats
        self.endgame = endgame
        #: Whether the last :meth:`choose` played the exact solver's move.
        self.last_exact = False
        #: Playouts run by the last :meth:`choose` (for benchmarks).
        self.last_playouts = 0
        #: Engine actions played in those playouts.
        self.last_steps = 0

    def _candidates(
        self, legal: Sequence[Action], ctx: _Ctx, rule: Action
    ) -> list[Action]:
        """The rule of thumb's choice first, then the others by how little they give up."""
        others = [a for a in legal if a != rule and type(a) is not Redeal]

        def cost(a: Action) -> tuple[float, str]:
            if isinstance(a, Take | Pass):
                return (0.0, str(a))
            if isinstance(a, Lead | Transfer):
                return (sum(ctx.value(c) for c in a.cards), str(a))
            if isinstance(a, Beat | ThrowIn | ShowTrump | ExchangeTrump):
                return (ctx.value(a.card), str(a))
            return (99.0, str(a))  # pragma: no cover - every action kind is listed above

        others.sort(key=cost)
        return [rule, *others[: self.max_actions - 1]]

    def choose(self, view: PlayerView) -> Action:
        """The candidate with the best mean playout score.

        Raises:
            ValueError: the view has no legal action.
        """
        self.last_playouts = self.last_steps = 0
        self.last_exact = False
        start = self._clock()
        if not view.legal_actions:
            raise _no_action(view)
        catch, legal = _fair(view, self.cheats)
        if catch is not None:
            return catch
        if len(legal) == 1:
            return legal[0]
        assert view.player is not None
        if self._repetition.repeated(view):
            return self._rng.choice(legal)
        game = _Game(view, self.weights)
        ctx = _view_ctx(view, game)
        rule = _decide(ctx, legal)
        if type(rule) in (ExchangeTrump, Redeal):
            return rule
        if self.endgame and view.stock_size == 0:
            exact = self._solve(view, legal, start)
            if exact is not None:
                return exact
        if view.stock_size:
            kept = _spare_trump_ace(legal, ctx)
            if rule not in kept:
                rule = _decide(ctx, kept)
            legal = kept
        candidates = self._candidates(legal, ctx, rule)
        if len(candidates) == 1:
            return rule
        return self._search(view, game, candidates, start, self._bonus(view, candidates))

    def _bonus(self, view: PlayerView, candidates: list[Action]) -> list[float] | None:
        """Per candidate, a bonus added to its mean score on top of ``prior`` (``None``: no
        bonus). A hook for guided subclasses (:class:`durak.agent.GuidedBot`)."""
        return None

    def _solve(self, view: PlayerView, legal: Sequence[Action], start: float) -> Action | None:
        """The exact solver's move in a two-player endgame, or ``None`` when the position is
        not one or the solver's half of the budget does not suffice."""
        me = view.player
        assert me is not None
        # With the stock empty the view locates every card, so the one state it allows is the
        # true one; a generator of its own leaves the bot's own untouched.
        world = determinize(view, random.Random(0))
        if not is_endgame(world):
            return None
        budgets = []
        if self.steps is not None:
            budgets.append(self.steps // 2)
        if self.playouts is not None:
            budgets.append(self.playouts * ENDGAME_NODES_PER_PLAYOUT // 2)
        nodes = max(1, min(budgets)) if budgets else None
        seconds = None
        if self.time_limit is not None:
            seconds = start + self.time_limit / 2 - self._clock()
            if seconds <= 0:
                return None
        found = solve(world, me, nodes=nodes, seconds=seconds, clock=self._clock)
        if not found.exact or found.best_action not in legal:
            return None
        self.last_exact = True
        return found.best_action

    def _search(
        self,
        view: PlayerView,
        game: _Game,
        candidates: list[Action],
        start_time: float,
        bonus: list[float] | None = None,
    ) -> Action:
        """Spend the budget on the candidates and return the best.

        ``schedule = "uniform"``: every round samples one world and plays every candidate in
        it. ``"halving"`` (sequential halving): the budget is split into ``ceil(log2 n)``
        phases; each phase plays rounds over the surviving candidates, then drops the worse
        half. Scores accumulate over phases; the same sampled world serves every candidate of a
        round (common random numbers), so differences between candidates are not drowned in
        the luck of the deal. ``bonus`` (one per candidate) is added to the mean scores.
        """
        me = view.player
        assert me is not None
        rng = self._rng
        clock = self._clock
        n = len(candidates)
        totals = [0.0] * n
        counts = [0] * n
        prior = self.prior
        limit = self.time_limit
        # The hard end of the move: no playout starts or goes on past it.
        end = None if limit is None else start_time + limit
        phases = max(1, math.ceil(math.log2(n))) if self.schedule == "halving" else 1
        alive = list(range(n))
        played = used = 0
        out_of_time = False

        def mean(i: int) -> float:
            if not counts[i]:
                return -1.0
            extra = bonus[i] if bonus is not None else 0.0
            return totals[i] / counts[i] + (prior if i == 0 else 0.0) + extra

        for phase in range(phases):
            share = (phase + 1) / phases
            deadline = None if limit is None else start_time + limit * share
            budget = None if self.playouts is None else self.playouts * share
            step_budget = None if self.steps is None else self.steps * share
            while not out_of_time:
                round_start, round_used = clock(), used
                if end is not None and round_start >= end:
                    out_of_time = True
                    break
                world = determinize(view, rng)
                for i in alive:
                    try:
                        after = apply(world, candidates[i])
                    except IllegalActionError:  # pragma: no cover - the view listed it as legal
                        continue
                    score, length = _playout(after, rng, self.policy, game, me, end, clock)
                    used += length + 1
                    if score is None:  # cut off by the time limit
                        out_of_time = True
                        break
                    totals[i] += score
                    counts[i] += 1
                    played += 1
                if out_of_time:
                    break
                # Stop when another round like this one would overrun a budget.
                if deadline is not None:
                    now = clock()
                    if end is not None and now >= end:
                        out_of_time = True
                        break
                    if 2 * now - round_start > deadline:
                        break
                if budget is not None and played + len(alive) > budget:
                    break
                if step_budget is not None and 2 * used - round_used > step_budget:
                    break
            if out_of_time:
                break
            if phase < phases - 1:
                alive.sort(key=lambda i: (-mean(i), i))
                alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
        self.last_playouts = played
        self.last_steps = used
        return candidates[max(range(n), key=lambda i: (mean(i), -i))]


# --------------------------------------------------------------------------------------------
# Names, for the command line and tournaments
# --------------------------------------------------------------------------------------------

#: The bots of :data:`BOTS` that live above the core, by name: the class each factory imports
#: when first called (``module:Class``), for listings such as ``durak bots``.
LAZY_TARGETS: dict[str, str] = {
    "learned": "durak.agent:LearnedBot",
    "guided": "durak.agent:GuidedBot",
    "leaf": "durak.leaf:LeafBot",
}


def _learned(seed: int | str | None = None, **options: Any) -> Bot:
    """The learned agent: greedy over a self-play network's action values
    (:class:`durak.agent.LearnedBot`, imported when first made: it needs numpy, which the core
    does not)."""
    made: Bot = _import_object(LAZY_TARGETS["learned"])(seed, **options)
    return made


def _guided(seed: int | str | None = None, **options: Any) -> Bot:
    """The search bot guided by the learned values where weights ship
    (:class:`durak.agent.GuidedBot`, imported when first made, as ``learned``)."""
    made: Bot = _import_object(LAZY_TARGETS["guided"])(seed, **options)
    return made


def _has_numpy() -> bool:
    """Whether numpy can be imported (the leaf bot's values need it)."""
    try:
        importlib.import_module("numpy")
    except ImportError:
        return False
    return True


def _leaf(seed: int | str | None = None, **options: Any) -> Bot:
    """The search bot with learned leaf values where they ship: the strongest bot.

    :class:`durak.leaf.LeafBot`, imported when first made, as ``learned``. Without numpy (an
    install of the core alone) it is the search bot, as it is under rules without leaf values:
    the ``best`` level plays everywhere."""
    if not _has_numpy():
        if options.pop("weights", None) is not None:
            raise ValueError("leaf values from a file need numpy (pip install numpy)")
        for name in ("depth", "worlds", "leaf"):
            options.pop(name, None)
        return SearchBot(seed, **options)
    made: Bot = _import_object(LAZY_TARGETS["leaf"])(seed, **options)
    return made


#: The bots by name. ``learned``, ``guided`` and ``leaf`` need numpy (the ``rl`` or ``cli``
#: extra); ``learned`` plays only the rules with shipped weights (:data:`durak.agent.COVERED`),
#: ``guided`` and ``leaf`` are the search bot under other rules.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "rule": RuleBot,
    "search": SearchBot,
    "learned": _learned,
    "guided": _guided,
    "leaf": _leaf,
}


def _option(text: str) -> Any:
    low = text.strip().lower()
    if low in ("none", "null", "off"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(low)
        except ValueError:
            pass
    return text.strip()


#: The entry-point group through which an installed package adds bots: each entry point's
#: name is the bot's name and its object a bot class (or factory), made as :func:`make_bot`
#: makes any bot. In a package's ``pyproject.toml``::
#:
#:     [project.entry-points."durak.bots"]
#:     eager = "eager_bots:EagerBot"
ENTRY_POINT_GROUP = "durak.bots"

_MODULE_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$", re.ASCII)


def installed_bots() -> dict[str, EntryPoint]:
    """The bots installed packages add through the :data:`ENTRY_POINT_GROUP` entry points, by
    their (lower-case) names; a name of a built-in bot (:data:`BOTS`) is left out, so an
    installed package cannot replace one."""
    from importlib.metadata import entry_points  # only asked when a name is not built in

    found: dict[str, EntryPoint] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        name = entry.name.strip().lower()
        if name not in BOTS:
            found.setdefault(name, entry)
    return found


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` knows: the built-in bots, then the installed ones."""
    return (*BOTS, *sorted(installed_bots()))


def _import_object(spec: str) -> Any:
    """The object ``module:Name`` (``Name`` may be dotted: ``Outer.Inner``) names.

    Raises:
        ValueError: the module cannot be imported or has no such attribute.
    """
    module_name, _, attribute = spec.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import the bot module {module_name!r}: {exc}") from None
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise ValueError(f"the module {module_name!r} has no {attribute!r}") from None
        found = getattr(found, part)
    return found


def _factory(name: str) -> tuple[str, Callable[..., Any], str, bool]:
    """``(shown name, factory, options, built in)`` for a :func:`make_bot` name."""
    head, _, rest = name.partition(":")
    key = head.strip().lower()
    if key in BOTS:
        return head, BOTS[key], rest, True
    installed = installed_bots()
    if key in installed:
        entry = installed[key]
        try:
            loaded = entry.load()
        except Exception as exc:  # a broken plug-in is named, not a stack trace
            raise ValueError(
                f"the installed bot {key!r} ({entry.value}) fails to load: {exc}"
            ) from exc
        return head, loaded, rest, False
    attribute, _, options = rest.partition(":")
    if _MODULE_PATH.match(head.strip()) and _MODULE_PATH.match(attribute.strip()):
        spec = f"{head.strip()}:{attribute.strip()}"
        return spec, _import_object(spec), options, False
    known = ", ".join(bot_names())
    raise ValueError(f"unknown bot {head!r} (known: {known}; or module:Class)")


def _takes_seed(factory: Callable[..., Any]) -> bool:
    """Whether ``factory`` can be called with a seed as its first argument."""
    try:
        params = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.kind in positional or p.kind is p.VAR_POSITIONAL for p in params)


def make_bot(name: str, seed: int | str | None = None) -> Bot:
    """The bot called ``name``, seeded with ``seed``. ``name`` is

    - a built-in bot, a key of :data:`BOTS` (``random``, ``rule``, ``search``, ``learned``,
      ``guided``, ``leaf``; the strength levels' names are read by
      :func:`durak.levels.make_player`);
    - a bot an installed package adds (:data:`ENTRY_POINT_GROUP`, :func:`installed_bots`);
    - or ``module:Class`` (``my_bots:GreedyBot``), any importable class or factory.

    Options follow a colon, comma-separated: ``"search:playouts=40,time_limit=none"``,
    ``"my_bots:GreedyBot:depth=2"``. For the rule and search bots, a :class:`RuleWeights`
    field sets that constant (``"rule:take_base=5"``). A bot is made as ``Class(seed,
    **options)`` (``Class(**options)`` for a class that takes no seed) and must have a
    ``choose`` method (:class:`Bot`).

    >>> type(make_bot("rule", 1)).__name__
    'RuleBot'
    >>> make_bot("search:playouts=40,time_limit=none", 1).playouts
    40
    >>> type(make_bot("durak.bots:RandomBot", 1)).__name__
    'RandomBot'

    Raises:
        ValueError: an unknown bot name, a module that cannot be imported or lacks the class,
            a malformed or unknown option, a file named in the options that cannot be read,
            a bot from outside the library that fails to start (the message gives its
            error), or an object made that has no ``choose`` method.
    """
    base, factory, options, built_in = _factory(name)
    kwargs: dict[str, Any] = {}
    weights: dict[str, float] = {}
    fields = {f.name for f in attrs.fields(RuleWeights)} if built_in else set()
    for item in filter(None, (o.strip() for o in options.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"bad bot option {item!r} in {name!r} (expected key=value)")
        if key in fields and base.strip().lower() != "random":
            weights[key] = float(value)
        else:
            kwargs[key] = _option(value)
    if weights:
        kwargs["weights"] = RuleWeights(**weights)
    if not callable(factory):
        raise ValueError(f"bot {base!r} is not a class or a factory: {factory!r}")
    try:
        bot = factory(seed, **kwargs) if _takes_seed(factory) else factory(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {base!r}: {exc}") from None
    except OSError as exc:  # a file named in the options (weights=...) that cannot be read
        raise ValueError(f"bot {base!r} cannot read a file it was given: {exc}") from None
    except Exception as exc:  # another package's bot that fails is named, with the reason
        if built_in:
            raise
        raise ValueError(f"bot {base!r} failed to start: {exc}") from exc
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"bot {base!r} made {type(bot).__name__}, which has no choose method")
    made: Bot = bot
    return made
