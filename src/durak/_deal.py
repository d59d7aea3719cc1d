"""The deal (R2.3-R2.5, R3): the frozen shuffle stream, dealing, fixing trump and the first
attacker, and a redeal (R3.3, R12.2).

Below the step (:mod:`durak._step`): a rule module that wants a new deal returns
:data:`~durak.rules.hooks.REDEAL` from its effect, and the step deals again here. The public
calls are :func:`durak.new_game` and :func:`durak.shuffled_deck` in :mod:`durak.engine`.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import Any

from durak.cards import Card, sort_cards
from durak.errors import RulesError
from durak.rules.modules import plan_for
from durak.rules.settings import Rules
from durak.state import GameState

__all__ = ["EMPTY", "NO_BOUT", "NO_CARDS", "Stream", "deal", "deal_state", "redeal"]

EMPTY: frozenset[int] = frozenset()
NO_CARDS: frozenset[Card] = frozenset()
#: The bout fields of a state between bouts.
NO_BOUT: dict[str, Any] = {
    "table": (),
    "joined": (),
    "defender_hand": 0,
    "taken": False,
    "passed": EMPTY,
    "shown": NO_CARDS,
}

_TWO_64 = 1 << 64
_FOUR_64 = struct.Struct(">4Q").unpack  # a SHA-256 digest as four big-endian 64-bit numbers


class Stream:
    """The frozen shuffle stream of R2.5: SHA-256 of ``"durak-shuffle-v1:<seed>:<counter>"``,
    read as big-endian 64-bit numbers."""

    def __init__(self, seed: int | str) -> None:
        self._prefix = f"durak-shuffle-v1:{seed}:".encode()
        self._counter = 0
        self._buffer: list[int] = []

    def _refill(self) -> list[int]:
        # The digest's four 64-bit numbers, kept last first so that pop() gives them in order.
        digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
        self._counter += 1
        self._buffer = buffer = list(_FOUR_64(digest))
        buffer.reverse()
        return buffer

    def shuffle(self, cards: list[Card]) -> None:
        """Fisher-Yates, from the last position down. Position ``i`` swaps with a uniform
        ``j`` in ``0 .. i``: the stream's next number below the largest multiple of ``i + 1``
        under ``2**64`` (the others are skipped, so there is no modulo bias), modulo ``i + 1``."""
        for i in range(len(cards) - 1, 0, -1):
            n = i + 1
            limit = _TWO_64 - _TWO_64 % n
            while True:
                x = (self._buffer or self._refill()).pop()
                if x < limit:
                    break
            j = x % n
            cards[i], cards[j] = cards[j], cards[i]


def deal(
    rules: Rules, order: Sequence[Card], dealer: int
) -> tuple[list[list[Card]], tuple[Card, ...], Card]:
    """Deal per R2.3 and fix trump per R2.4.

    Returns hands, the stock (top first, trump card last) and the trump card."""
    n, size = rules.players, rules.hand_size
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(size):
        for step in range(1, n + 1):
            hands[(dealer + step) % n].append(order[pos])
            pos += 1
    stock, trump_card = plan_for(rules).turn_trump(rules, tuple(order[pos:]), tuple(order[:pos]))
    return hands, stock, trump_card


def deal_state(
    rules: Rules,
    dealer: int,
    order: list[Card] | None,
    seed: int | str | None,
    prior: int,
    leader: int | None = None,
) -> GameState:
    """Deal from the explicit ``order``, or from the seed's stream after ``prior`` earlier
    shuffles of it (R2.5; a redeal continues the stream, R3.3, R12.2). ``leader`` overrides R3
    (R11.2)."""
    n = rules.players
    plan = plan_for(rules)
    stream: Stream | None = None
    shuffles = 0
    if order is None:
        assert seed is not None
        stream = Stream(seed)
        order = list(plan.deck)
        for _ in range(prior + 1):
            stream.shuffle(order)
        shuffles = prior + 1
    while True:
        hands, stock, trump_card = deal(rules, order, dealer)
        trump = trump_card.suit
        found = plan.first_attacker(rules, hands, trump, dealer) if leader is None else leader
        if found is not None:
            attacker: int = found
            break
        if stream is None:
            raise RulesError(
                "no_trump_lead",
                "no player holds a trump and the rules ask for a redeal, "
                "which an explicit deck order cannot give (R3.3)",
            )
        stream.shuffle(order)
        shuffles += 1
    known = [NO_CARDS] * n
    if not stock or stock[-1] != trump_card:
        # R2.4: the shown dealt card (the dealer's last, unless a module picks another); with
        # R15.1 also when the stock holds jokers alone
        holder = next((p for p in range(n) if trump_card in hands[p]), dealer)
        known[holder] = frozenset({trump_card})
    if leader is None:
        # R3.1: the leader shows his lowest trump, compared by rank (never by the card's value,
        # which holds the copy number: 6d#2 is lower than Kd); of two copies, the first.
        shown = min(
            (c for c in hands[attacker] if not c.special and c.suit == trump),
            key=lambda c: (c & 15, c >> 6),
            default=None,
        )
        if shown is not None:
            known[attacker] = known[attacker] | {shown}
    fields: dict[str, Any] = {
        "rules": rules,
        "hands": tuple(sort_cards(h) for h in hands),
        "stock": stock,
        "trump": trump,
        "trump_card": trump_card,
        "discard": (),
        "dealer": dealer,
        "attacker": attacker,
        "defender": plan.next_opponent(rules, [True] * n, attacker) or 0,
        "leader": attacker,
        **NO_BOUT,
        "bouts": 0,
        "defences": 0,
        "places": (None,) * n,
        "result": None,
        "exchange": NO_CARDS,
        "seed": seed,
        "shuffles": shuffles,
        "appointed": leader,
        "known": tuple(known),
    }
    for module in plan.dealers:
        module.dealt(rules, fields)
    return GameState(**fields)


def redeal(state: GameState) -> GameState:
    """The same dealer deals again from the next shuffle of the seed's stream (R3.3, R12.2)."""
    return deal_state(state.rules, state.dealer, None, state.seed, state.shuffles, state.appointed)
