"""House rules the library does not ship, written from outside the package, and played.

Three rule modules, each using only the public hooks of :class:`durak.rules.modules.RuleModule`:

- "spades-by-spades" (the ``beats`` hook): a spade is beaten only by a higher spade, even by a
  trump;
- "no-six-lead" (the ``check`` hook): a six may not lead a bout while the attacker holds any
  other rank;
- "concede" (a new action kind, with its own candidates, legality and effect): once the stock
  is empty, a defender facing an attack may concede the game instead of taking; he picks up the
  table and is the durak at once.

A module must leave every player who has to act at least one legal action: that is why the
attacker who holds nothing but sixes may still lead one.

Run: python examples/house_rule.py
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, cast

import attrs

from durak import (
    Beat,
    GameState,
    Lead,
    Rank,
    Result,
    Rules,
    Suit,
    apply,
    legal_actions,
    new_game,
    next_actor,
)
from durak.actions import Action, register_action
from durak.cards import Card, sort_cards
from durak.rules.bout import Bout
from durak.rules.modules import RuleModule, Violation, register


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

    def check(self, state: GameState, action: Action) -> Violation | None:
        if isinstance(action, Lead) and any(c.rank == Rank.SIX for c in action.cards):
            hand = state.hands[action.player]
            if any(c.rank != Rank.SIX for c in hand):
                return self.rule, "a six may not lead while the attacker holds another rank"
        return None


def _seat(_instance: object, _attribute: object, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TypeError(f"a player is a seat number, not {value!r}")


@register_action
@attrs.frozen
class Concede:
    """The defender gives up the game: ``p1 concede``."""

    player: int = attrs.field(validator=_seat)
    kind: ClassVar[str] = "concede"

    def describe(self) -> str:
        return "concede the game"

    def __str__(self) -> str:
        return f"p{self.player} concede"


class Conceding(RuleModule):
    name = "concede"
    description = "with the stock empty, the defender may concede: he is the durak at once"
    rule = "house:concede"
    kinds = (Concede,)

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if s.stock or player != s.defender or not bout.unbeaten or s.taken:
            return ()
        return (cast(Action, Concede(player)),)  # a registered kind, outside the Action union

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        s = bout.s
        if action.player != s.defender or not bout.unbeaten or s.taken:
            return self.rule, "only the defender facing an unbeaten card may concede"
        if s.stock:
            return self.rule, "no concession while the stock lasts"
        return None

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        s, p = bout.s, action.player
        n = s.players
        table = [c for pair in s.table for c in pair if c is not None]
        hands = list(s.hands)
        hands[p] = sort_cards([*hands[p], *table])
        # A game without teams: everyone else has won, sharing the first free place.
        free = 1 + sum(place is not None for place in s.places)
        places = tuple(n if q == p else s.places[q] or free for q in range(n))
        result = Result(
            durak=p,
            draw=False,
            places=places,
            winners=tuple(q for q in range(n) if q != p),
            losers=(p,),
        )
        return {"hands": tuple(hands), "table": (), "places": places, "result": result}


register(SpadesBySpades())
register(NoSixLead())
register(Conceding())


def play(seed: int) -> tuple[GameState, bool]:
    """One random game under Podkidnoy plus the three house rules; whether someone conceded."""
    rules = Rules(players=3, house_rules=["spades-by-spades", "no-six-lead", "concede"])
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    conceded = False
    while not state.is_over:
        action = rng.choice(legal_actions(state, next_actor(state)))
        if isinstance(action, Lead) and action.cards[0].rank == Rank.SIX:
            assert all(c.rank == Rank.SIX for c in state.hands[action.player])
        if isinstance(action, Beat) and action.attack.suit == Suit.SPADES:
            assert action.card.suit == Suit.SPADES
        if isinstance(action, Concede):
            assert not state.stock and action.player == state.defender
            conceded = True
        state = apply(state, action)
    return state, conceded


if __name__ == "__main__":
    concessions = 0
    for seed in range(20):
        end, conceded = play(seed)
        result = end.result
        assert result is not None
        assert end.places == result.places
        concessions += conceded
        how = "conceded" if conceded else "played out"
        print(f"game {seed}: durak {result.durak}, places {result.places} ({how})")
    print(f"{concessions} of 20 games ended by a concession")
