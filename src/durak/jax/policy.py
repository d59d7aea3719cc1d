"""The rule bot's rule of thumb as a JAX policy: an opponent and a baseline that steps inside the
compiled batch, for training against and for evaluating at scale.

:func:`rule_policy` gives, for one game's :class:`~durak.jax.State`, the action id that
:class:`durak.bots.RuleBot`'s rule of thumb chooses for the current player when it sees every
hand: the choice the search bot's playouts make (``SearchBot(policy="peek")``). It reads the
same constants (:class:`durak.bots.RuleWeights`) and follows the same steps:

- a lead: the lowest card, a rank the hand holds again first, a card the defender cannot beat
  first of all (R4.7, R8.1), trumps last;
- a defence: the cheapest way found to beat every card on the table (the attack cards with the
  fewest answers first), a transfer (R9.1) or a show (R9.5) where cheaper, else take, taking
  dearer as the stock runs out (R6, R7);
- a throw-in (R4.3): low plain cards while the stock lasts, everything but the last trump
  once it is empty, every card when the hand can go out at once; else pass.

``tests/test_jax_policy.py`` holds it equal to the rule of thumb of :mod:`durak.bots` on every
state of random games of each setting family of the differential test.

>>> import jax
>>> from durak import Rules
>>> from durak.jax import Env
>>> from durak.jax.policy import rule_policy
>>> env = Env(Rules(), observe_on_step=False)
>>> state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 4))
>>> actions = jax.jit(jax.vmap(rule_policy(env.rules)))(state)
>>> actions.shape
(4,)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

import jax
import jax.numpy as jnp

from durak.bots import RuleWeights
from durak.jax._core import _beats_rows, _rank_of, _suit_of, attack_cap, spec_of
from durak.rules.settings import Rules

if TYPE_CHECKING:
    from durak.jax import State

__all__ = ["rule_policy"]

Array: TypeAlias = jax.Array

#: A cost no legal choice reaches.
_NONE = 1e9


def rule_policy(rules: Rules, weights: RuleWeights | None = None) -> Callable[[State], Array]:
    """The rule of thumb for ``rules`` as a function of one game's :class:`~durak.jax.State`
    (``jax.vmap`` it for a batch, ``jax.jit`` it or call it inside compiled code): it returns
    the ``int32`` action id the current player's rule of thumb picks, seeing every hand. A
    choice that is not legal (never met in the tests) falls back to pass, then take, then the
    first legal id; on a finished game the id means nothing.

    Args:
        rules: the rules (the JAX engine's covered settings).
        weights: the rule of thumb's constants (default :class:`~durak.bots.RuleWeights()`).

    Raises:
        RulesError: ``rules`` hold a setting the JAX engine does not play (named).
    """
    spec = spec_of(rules)
    w = weights if weights is not None else RuleWeights()
    n, s, r, p = spec.n, spec.s, spec.r, spec.p
    rank = jnp.asarray(spec.rank, jnp.int32)
    rankf = rank.astype(jnp.float32)
    suit = jnp.asarray(spec.suit, jnp.int32)
    stock_start = max(1, rules.cards - p * spec.hand)
    span = float(r - 1)
    cards = jnp.arange(n)
    ids = jnp.arange(spec.a)
    transfers = rules.transfer_by_card or rules.transfer_by_showing_trump
    strict_suits = [int(x) for x in rules.strict_suits]

    def policy(state: State) -> Array:
        c = state.core
        mask = state.legal_action_mask
        me = state.current_player
        seats = jnp.arange(p)
        hand = (c.hands & (seats == me)[:, None]).any(axis=0)
        theirs = (c.hands & (seats == c.defender)[:, None]).any(axis=0)
        trump = suit == c.trump
        value = rankf + jnp.where(trump, 16.0, 0.0)  # the rank, trumps above every plain card
        spend = jnp.where(trump, w.trump_base + w.trump_step * rankf, w.plain * rankf)
        stock_n = c.stock_end - c.stock_top
        drawn = 1.0 - jnp.minimum(1.0, stock_n.astype(jnp.float32) / stock_start)
        end = stock_n == 0
        # Per card, whether the defender's hand beats it (R4.7, R8.1): his highest rank in
        # its suit, or any trump where a trump may beat it.
        highest = jnp.where(theirs, rank, -1).reshape(4, r).max(axis=1)
        has_trump = ((jnp.arange(4) == c.trump) & (highest >= 0)).any()
        strict = jnp.zeros(n, dtype=jnp.bool_)
        for x in strict_suits:
            strict = strict | (suit == x)
        beatable = (rank < jnp.repeat(highest, r)) | (~trump & ~strict & has_trump)
        attack_ids = mask[3 : 3 + n]

        # -- a lead
        # per card, how many cards of its rank the hand holds
        pairs = jnp.tile(hand.reshape(4, r).sum(axis=0), 4)
        bonus = jnp.where(end, w.unbeatable_end, w.unbeatable)
        lead_cost = value - w.pair * jnp.minimum(pairs - 1, 2) - jnp.where(beatable, 0.0, bonus)
        lead = 3 + jnp.argmin(jnp.where(attack_ids, lead_cost, _NONE))

        # -- a defence: plan every unbeaten card, fewest answers first
        slot = jnp.arange(s)
        on = slot < c.table_n
        unbeaten = on & (c.beat < 0)
        beaten_n = (on & (c.beat >= 0)).sum()
        answers = _beats_rows(spec, c.trump, c.attack) & hand[None, :]  # [S, N]
        attack_value = _rank_of(spec, c.attack) + jnp.where(
            _suit_of(spec, c.attack) == c.trump, 16, 0
        )
        order = jnp.where(
            unbeaten,
            answers.sum(axis=1) * 10_000 + (100 - attack_value) * 100 + c.attack,
            1 << 30,
        )
        on_table = (c.table_n + beaten_n).astype(jnp.float32)
        take_cost = jnp.where(
            end,
            w.take_end + on_table,
            w.take_base + w.take_card * on_table + w.take_late * drawn,
        )
        used = jnp.zeros(n, dtype=jnp.bool_)
        handled = ~unbeaten
        possible = jnp.bool_(True)
        plan_cost = jnp.float32(0.0)
        first_slot = jnp.zeros(s, dtype=jnp.bool_)
        first_card = jnp.int32(0)
        # Without transfers a defender meets one unbeaten card at a time (R4.3).
        for k in range(s if transfers else 1):
            now = (order == jnp.where(handled, 1 << 30, order).min()) & ~handled
            live = now.any()
            cost = jnp.where((answers & now[:, None]).any(axis=0) & ~used, spend, _NONE)
            card = jnp.argmin(cost).astype(jnp.int32)
            found = cost.min() < _NONE
            possible = possible & (~live | found)
            plan_cost = plan_cost + jnp.where(live & found, cost.min(), 0.0)
            used = used | ((cards == card) & live & found)
            handled = handled | now
            if k == 0:
                first_slot, first_card = now, card
        beat = spec.beat_offset + jnp.argmax(first_slot) * n + first_card
        beats = possible & unbeaten.any() & (plan_cost <= take_cost)
        best = jnp.where(beats, plan_cost, take_cost)
        defence = jnp.where(beats, beat, 0)
        fresh = beaten_n == 0  # a transfer only before any card is beaten (R9.1)
        to, so = spec.transfer_offset, spec.show_offset
        transfer_cost = jnp.where(mask[to : to + n], w.transfer + spend, _NONE)
        cheaper = fresh & (transfer_cost.min() < best)
        best = jnp.where(cheaper, transfer_cost.min(), best)
        defence = jnp.where(cheaper, to + jnp.argmin(transfer_cost), defence)
        show_cost = jnp.where(mask[so : so + n], w.show, _NONE)
        cheaper = fresh & (show_cost.min() < best)
        defence = jnp.where(cheaper, so + jnp.argmin(show_cost), defence)

        # -- a throw-in
        cards_n = hand.sum()
        room = jnp.minimum(attack_cap(spec, c), c.defender_hand) - c.table_n  # R4.6
        all_out = end & (attack_ids.sum() == cards_n) & (room >= cards_n)
        trumps = (hand & trump).sum()
        top = jnp.where(drawn < 0.5, w.throw_early, w.throw_mid)
        trump_ok = end & ~((trumps <= 1) & (cards_n > 1))
        too_high = ~end & (rankf > top * span) & (c.taken | beatable)
        allowed = attack_ids & jnp.where(trump, trump_ok, ~too_high)
        allowed = jnp.where(all_out, attack_ids, allowed)
        throw = jnp.where(allowed.any(), 3 + jnp.argmin(jnp.where(allowed, value, _NONE)), 1)

        defending = (me == c.defender) & ~c.taken
        action = jnp.where(c.table_n == 0, lead, jnp.where(defending, defence, throw))
        action = action.astype(jnp.int32)
        legal = (mask & (ids == action)).any()
        fallback = jnp.where(mask[1], 1, jnp.where(mask[0], 0, jnp.argmax(mask)))
        return jnp.where(legal, action, fallback.astype(jnp.int32))

    return policy
