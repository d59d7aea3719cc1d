"""Leaf values: a network that scores a full (sampled) position for one seat, and the search
bot that uses it to cut its playouts short (issue 29's item 3: the learned value as the
search's leaf value). Needs numpy (the ``cli`` or the ``rl`` extra); training needs the
``train`` extra (:mod:`durak.learn_leaf`).

The search bot (:class:`~durak.bots.SearchBot`) scores a candidate action by sampling the
hidden cards, applying the candidate and playing the game out with the rule of thumb on every
seat, each seat seeing the sampled hands: one playout, one 0-or-1 sample of the candidate's
worth, about a millisecond of CPU from the opening. :class:`LeafBot` plays the candidate and
``depth`` more actions of that rule of thumb, then asks a value network for the expected
outcome of the rest of that play-out: one evaluation of a few microseconds, without the 0-or-1
noise. In the same time it scores every candidate in five to nine times as many sampled
worlds, and at equal time it beats the search bot with two players and with four
(docs/research.md, "Leaf values"); it is the bot of the ``best`` level (:mod:`durak.levels`).

The network reads :func:`features` of a full state (where every card lies, the stock's order,
the bout, the roles, relative to the seat it scores) and gives one number in (0, 1): the
expected :func:`~durak.bots.outcome` of that seat (1 a win, 0 the durak, 0.5 a draw) when every
seat goes on by the rule of thumb seeing every hand. It is trained by regression on such
play-outs from positions of random deals (:mod:`durak.learn_leaf`).

Weights ship for the rules of :data:`COVERED` (Podkidnoy, 36 cards, two and four players);
under other rules :class:`LeafBot` is the search bot. The weights' file is the archive of
:mod:`durak.agent` (the same fields, float16 arrays) with ``format`` ``"durak-leaf"``: ``w0``
has :func:`feature_size` rows and the last layer one column; the network is
``x = relu(x @ w_k + b_k)`` for every layer but the last, then the logistic function.

>>> from durak import Rules, new_game, next_actor, view
>>> bot = LeafBot(seed=1, playouts=64, time_limit=None)
>>> state = new_game(Rules(), seed=3)
>>> v = view(state, next_actor(state))
>>> bot.choose(v) in v.legal_actions
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from durak.actions import Action
from durak.agent import (
    WeightsError,
    _uncovered,
    check_layers,
    dense,
    read_layers,
    write_layers,
)
from durak.bots import (
    RuleWeights,
    SearchBot,
    _Game,
    _rule_apply,
    outcome,
)
from durak.cards import DECK_SIZES
from durak.engine import apply, next_actor
from durak.errors import IllegalActionError
from durak.rules.objective import out_wins
from durak.rules.settings import Rules
from durak.state import GameState
from durak.views import PlayerView, determinize

__all__ = [
    "COVERED",
    "FORMAT",
    "LeafBot",
    "ValueNetwork",
    "feature_size",
    "features",
    "load_value_network",
    "rule_steps",
    "save_value_network",
    "value_network_for",
]

Array = npt.NDArray[np.float32]

#: The ``format`` field of a leaf-value weights file.
FORMAT = "durak-leaf"
#: The rules with shipped leaf values, and their files in ``durak/data``.
COVERED: dict[Rules, str] = {
    Rules(players=2): "leaf-podkidnoy-2p.npz",
    Rules(players=4): "leaf-podkidnoy-4p.npz",
}

#: Channels per card besides the ``n`` hands: stock, stock depth, discard pile, attack card on
#: the table, beating card on the table, attack card beaten.
_CARD_EXTRA = 6


def feature_size(players: int, deck_size: int = 36) -> int:
    """The length of :func:`features` for ``players`` seats and a ``deck_size``-card deck."""
    return deck_size * (players + _CARD_EXTRA) + 5 + 5 * players


_INDEX: dict[tuple[int, int], tuple[int, ...]] = {}


def _index(trump: int, deck_size: int) -> tuple[int, ...]:
    """Per card code (``suit * 16 + rank``, below 64), the card's feature index: the trump suit
    first, the other suits in their order, each by rank from the lowest of the deck."""
    key = (trump, deck_size)
    table = _INDEX.get(key)
    if table is None:
        low = DECK_SIZES[deck_size]
        ranks = 15 - low
        order = [trump] + [s for s in range(4) if s != trump]
        codes = [-1] * 64
        for pos, suit in enumerate(order):
            for r in range(low, 15):
                codes[suit * 16 + r] = pos * ranks + (r - low)
        table = _INDEX[key] = tuple(codes)
    return table


def features(s: GameState, me: int) -> Array:
    """The full position ``s`` seen from seat ``me``: ``float32[feature_size(n, deck)]``.

    Per card (trump suit first): in the hand of the seat ``k`` places after ``me`` (``n``
    channels, ``me`` first), in the stock, its depth in the stock (``(j + 1) / deck`` for the
    ``j``-th card drawn), in the discard pile, on the table as an attack card, as a beating
    card, and whether the attack card is beaten. Then: the stock's size and each hand's size
    (over the deck's size), the attacker, the defender, the seats whose pass stands and the
    seats that are out (one-hot by relative seat), whether the defender took, whether a
    defence has succeeded yet (R4.6's first-bout cap), the table's pairs over 6 and the
    defender's hand size when the bout began over the deck's size.
    """
    n = len(s.hands)
    deck = s.rules.deck_size
    width = n + _CARD_EXTRA
    row = np.zeros(feature_size(n, deck), dtype=np.float32)
    ix = _index(int(s.trump), deck)
    ones: list[int] = []
    for k in range(n):
        for c in s.hands[(me + k) % n]:
            ones.append(ix[c & 63] * width + k)
    stock = n
    for j, c in enumerate(s.stock):
        i = ix[c & 63] * width + stock
        ones.append(i)
        row[i + 1] = (j + 1) / deck
    for c in s.discard:
        ones.append(ix[c & 63] * width + n + 2)
    for a, b in s.table:
        i = ix[a & 63] * width
        ones.append(i + n + 3)
        if b is not None:
            ones.append(ix[b & 63] * width + n + 4)
            ones.append(i + n + 5)
    g = deck * width
    row[g] = len(s.stock) / deck
    for k in range(n):
        row[g + 1 + k] = len(s.hands[(me + k) % n]) / deck
    g += 1 + n
    ones.append(g + (s.attacker - me) % n)
    ones.append(g + n + (s.defender - me) % n)
    for p in s.passed:
        ones.append(g + 2 * n + (p - me) % n)
    for seat, place in enumerate(s.places):
        if place is not None:
            ones.append(g + 3 * n + (seat - me) % n)
    g += 4 * n
    row[g] = float(s.taken)
    row[g + 1] = float(s.defences > 0)
    row[g + 2] = len(s.table) / 6
    row[g + 3] = s.defender_hand / deck
    row[ones] = 1.0
    return row


@attrs.frozen(eq=False)
class ValueNetwork:
    """A trained leaf-value network (see the module's docstring for the format).

    Attributes:
        rules: the rules it was trained on (it scores only these).
        weights: per layer ``(w, b)``, ``float32``; the last layer has one output.
        meta: how it was made (JSON values).
    """

    rules: Rules
    weights: tuple[tuple[Array, Array], ...]
    meta: dict[str, Any] = attrs.field(factory=dict)

    def values(self, rows: npt.ArrayLike) -> Array:
        """The expected outcomes of a batch of :func:`features` rows ``float32[B, F]``:
        ``float32[B]``, each in (0, 1)."""
        x = dense(self.weights, rows)[:, 0]
        out: Array = (1.0 / (1.0 + np.exp(-x))).astype(np.float32)
        return out

    def value(self, s: GameState, me: int) -> float:
        """The expected outcome of seat ``me`` in the full position ``s``."""
        return float(self.values(features(s, me)[None, :])[0])


def _check_shapes(rules: Rules, weights: Sequence[tuple[Array, Array]]) -> None:
    check_layers(weights, feature_size(rules.players, rules.deck_size), 1, "the value")


def save_value_network(path: str | Path, network: ValueNetwork) -> None:
    """Write ``network`` to ``path`` (the format of this module, float16 arrays).

    Raises:
        WeightsError: the arrays do not fit the rules' feature size or end in more than one
            output.
    """
    weights = [(np.asarray(w), np.asarray(b)) for w, b in network.weights]
    _check_shapes(network.rules, weights)
    write_layers(path, FORMAT, network.rules, network.meta, weights)


def load_value_network(path: str | Path) -> ValueNetwork:
    """Read a leaf-value weights file (the format of this module).

    Raises:
        WeightsError: not a file of this format and version, a field missing or of the wrong
            type, or an array of the wrong shape (the field is named).
        OSError: the file cannot be read.
    """
    rules, meta, weights = read_layers(path, FORMAT)
    if rules.deck_size not in DECK_SIZES or rules.decks != 1 or rules.jokers:
        raise WeightsError("rules", "leaf values read one deck without jokers")
    _check_shapes(rules, weights)
    return ValueNetwork(rules, tuple(weights), meta)


@lru_cache(maxsize=8)
def value_network_for(rules: Rules) -> ValueNetwork:
    """The shipped leaf-value network for ``rules`` (read once, then cached).

    Raises:
        RulesError: no leaf values ship for these rules (the setting is named).
    """
    name = COVERED.get(rules)
    if name is None:
        raise _uncovered(rules, list(COVERED))
    return load_value_network(Path(str(resources.files("durak") / "data" / name)))


def rule_steps(
    s: GameState, game: _Game, me: int | None, depth: int
) -> tuple[GameState, int]:
    """Play at most ``depth`` actions of the rule of thumb on the full state ``s`` (every seat
    seeing the sampled hands, as the search's playouts do); stop early when the game ends or,
    where a seat that is out has won (R7.3), when ``me`` is out (``None``: play on). Returns
    the state reached and the actions played."""
    early = me is not None and out_wins(game.rules)
    for n in range(depth):
        if s.result is not None or (early and me is not None and s.places[me] is not None):
            return s, n
        p = next_actor(s)
        assert p is not None
        s = _rule_apply(s, p, game, True)
    return s, depth


class LeafBot(SearchBot):
    """The search bot with learned leaf values: playouts cut short after ``depth`` actions and
    scored by a value network (see the module's docstring).

    For each move: the search bot's candidates (the rule of thumb's choice first, at most
    ``max_actions``, the trump ace kept while the stock lasts, the exact endgame solver in
    two-player endgames first). Then, in batches of ``worlds`` sampled deals
    (:func:`~durak.views.determinize`), every candidate is applied to each deal, ``depth`` more
    actions of the rule of thumb are played (:func:`rule_steps`), and the position reached is
    scored: its outcome if the game is over (or 1 where ``me`` is out and out wins), else the
    network's value for ``me``, all of a batch in one evaluation. Every candidate is scored in
    the same deals (common random numbers). It plays the candidate with the best mean score, the
    rule of thumb's choice getting ``prior`` as with the search bot. Under rules without shipped
    leaf values (:data:`COVERED`) and no ``weights`` of its own it is the search bot.

    Args:
        seed: seeds the bot's own generator.
        depth: the rule of thumb's actions played after a candidate before the value is read.
        worlds: the sampled deals per batch (one network evaluation per batch).
        weights: a leaf-value weights file to use instead of the shipped ones (experiments);
            under other rules than the file's the bot refuses to move. Or the rule of thumb's
            constants (a :class:`~durak.bots.RuleWeights`, as ``make_bot`` passes them).
        leaf: use the leaf values (``False``: the plain search bot with these options).
        **options: the search bot's options (``time_limit``, ``playouts``, ``steps``,
            ``max_actions``, ``prior``, ``cheats``, ``clock``, ``endgame``), as for
            :class:`~durak.bots.SearchBot`; ``policy`` and ``schedule`` apply only where it is
            the search bot. ``playouts`` counts the scored (deal, candidate) pairs, ``steps``
            the engine actions; both are checked after each sampled deal, so a move may
            exceed them by one deal's worth. The time limit is checked before each deal, and
            a batch is not begun when one like the last would overrun it.

    Raises:
        ValueError: as :class:`~durak.bots.SearchBot`; ``depth`` not a whole number of at
            least 0, ``worlds`` not one of at least 1, ``leaf`` not a truth value.
        WeightsError: ``weights`` is not a leaf-value weights file.
        OSError: ``weights`` cannot be read.
    """

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        depth: int = 3,
        worlds: int = 4,
        weights: str | RuleWeights | None = None,
        leaf: bool = True,
        **options: Any,
    ) -> None:
        rule_weights = weights if isinstance(weights, RuleWeights) else None
        super().__init__(seed, weights=rule_weights, **options)
        for name, value, least in (("depth", depth, 0), ("worlds", worlds, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(
                    f"{name} must be a whole number of at least {least}, not {value!r}"
                )
        if not isinstance(leaf, bool):
            raise ValueError(f"leaf must be true or false, not {leaf!r}")
        self.depth = depth
        self.worlds = worlds
        self.leaf = leaf
        self.weights_file = None if rule_weights is not None else weights
        self._network = None
        if self.weights_file is not None:
            self._network = load_value_network(str(self.weights_file))

    def _net(self, rules: Rules) -> ValueNetwork | None:
        """The values this bot reads under ``rules``, or ``None`` where it is the search bot.

        Raises:
            RulesError: a weights file of its own, for other rules (the setting is named).
        """
        if not self.leaf:
            return None
        if self._network is not None:
            if self._network.rules != rules:
                raise _uncovered(rules, [self._network.rules])
            return self._network
        return value_network_for(rules) if rules in COVERED else None

    def choose(self, view: PlayerView) -> Action:
        """As :meth:`durak.bots.SearchBot.choose`, scoring with the leaf values.

        Raises:
            ValueError: the view has no legal action.
            RulesError: a weights file of its own, for other rules than the view's.
        """
        if view.legal_actions:
            self._net(view.rules)
        return super().choose(view)

    def check_rules(self, rules: Rules) -> None:
        """Raise unless this bot can play ``rules`` (a front-end asks before the game starts):
        only a weights file of its own, for other rules, is refused.

        Raises:
            RulesError: the file's rules differ (the first setting that differs is named).
        """
        self._net(rules)

    def _search(
        self,
        view: PlayerView,
        game: _Game,
        candidates: list[Action],
        start_time: float,
        bonus: list[float] | None = None,
    ) -> Action:
        net = self._net(view.rules)
        if net is None:
            return super()._search(view, game, candidates, start_time, bonus)
        me = view.player
        assert me is not None
        rng, clock, depth = self._rng, self._clock, self.depth
        early = out_wins(view.rules)
        n = len(candidates)
        totals = [0.0] * n
        counts = [0] * n
        end = None if self.time_limit is None else start_time + self.time_limit
        used = batches = 0
        done = False
        while not done:
            rows: list[Array] = []
            owners: list[int] = []
            for _ in range(self.worlds):
                if end is not None and clock() >= end:
                    done = True
                    break
                world = determinize(view, rng)
                for i, candidate in enumerate(candidates):
                    try:
                        after = apply(world, candidate)
                    except IllegalActionError:  # pragma: no cover - the view listed it as legal
                        continue
                    s, length = rule_steps(after, game, me, depth)
                    used += length + 1
                    if s.result is not None:
                        totals[i] += outcome(s.result, me)
                        counts[i] += 1
                    elif early and s.places[me] is not None:
                        totals[i] += 1.0
                        counts[i] += 1
                    else:
                        rows.append(features(s, me))
                        owners.append(i)
                if self.playouts is not None and sum(counts) + len(rows) >= self.playouts:
                    done = True
                    break
                if self.steps is not None and used >= self.steps:
                    done = True
                    break
            if rows:
                for i, v in zip(owners, net.values(np.stack(rows)), strict=True):
                    totals[i] += float(v)
                    counts[i] += 1
            batches += 1
            if end is not None and not done:
                now = clock()
                if now + (now - start_time) / batches > end:
                    break
        self.last_playouts = sum(counts)
        self.last_steps = used

        def mean(i: int) -> float:
            if not counts[i]:
                return -1.0
            extra = bonus[i] if bonus is not None else 0.0
            return totals[i] / counts[i] + (self.prior if i == 0 else 0.0) + extra

        return candidates[max(range(n), key=lambda i: (mean(i), -i))]
