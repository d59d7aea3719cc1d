"""Add house rules the library does not ship, from outside the package, and play with them.

Two rule modules:

- "spades-by-spades": a spade is beaten only by a higher spade, even by a trump;
- "no-six-lead": a six may not lead a bout while the attacker holds any other rank.

A check hook must leave every player who has to act at least one legal action: that is why the
attacker who holds nothing but sixes may still lead one.

Run: python examples/house_rule.py
"""

from __future__ import annotations

import random

from durak import (
    Beat,
    GameState,
    Lead,
    Rank,
    Rules,
    Suit,
    apply,
    legal_actions,
    new_game,
    next_actor,
)
from durak.actions import Action
from durak.cards import Card
from durak.rules.modules import RuleModule, register


class SpadesBySpades(RuleModule):
    name = "spades-by-spades"
    description = "a spade is beaten only by a higher spade, even by a trump"
    rule = "house:spades-by-spades"

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        if attack.suit == Suit.SPADES:
            return default and card.suit == Suit.SPADES
        return default


class NoSixLead(RuleModule):
    name = "no-six-lead"
    description = "a six may not lead a bout while the attacker holds another rank"
    rule = "house:no-six-lead"

    def check(self, state: GameState, action: Action) -> tuple[str, str] | None:
        if isinstance(action, Lead) and any(c.rank == Rank.SIX for c in action.cards):
            hand = state.hands[action.player]
            if any(c.rank != Rank.SIX for c in hand):
                return self.rule, "a six may not lead while the attacker holds another rank"
        return None


register(SpadesBySpades())
register(NoSixLead())


def play(seed: int) -> GameState:
    """One random game under Podkidnoy plus both house rules."""
    rules = Rules(players=3, house_rules=["spades-by-spades", "no-six-lead"])
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        action = rng.choice(legal_actions(state, next_actor(state)))
        if isinstance(action, Lead) and action.cards[0].rank == Rank.SIX:
            assert all(c.rank == Rank.SIX for c in state.hands[action.player])
        if isinstance(action, Beat) and action.attack.suit == Suit.SPADES:
            assert action.card.suit == Suit.SPADES
        state = apply(state, action)
    return state


if __name__ == "__main__":
    for seed in range(20):
        result = play(seed).result
        assert result is not None
        print(f"game {seed}: durak {result.durak}, places {result.places}")
