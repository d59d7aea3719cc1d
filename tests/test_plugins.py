"""Rule modules added from outside the package (issue: pluggability)."""

from __future__ import annotations

import random

import pytest

from durak import (
    Beat,
    GameState,
    IllegalActionError,
    Lead,
    Rank,
    Rules,
    RulesError,
    Suit,
    Take,
    apply,
    is_legal,
    legal_actions,
    new_game,
    new_position,
    next_actor,
)
from durak.actions import Action
from durak.cards import Card
from durak.rules.beating import beats
from durak.rules.modules import RuleModule, register


class HeartsByHearts(RuleModule):
    name = "test-hearts-by-hearts"
    description = "a heart is beaten only by a higher heart"
    rule = "house:hearts-by-hearts"

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        if attack.suit == Suit.HEARTS:
            return default and card.suit == Suit.HEARTS
        return default


class NoAceLead(RuleModule):
    name = "test-no-ace-lead"
    description = "an ace may not lead while the attacker holds another rank"
    rule = "house:no-ace-lead"

    def check(self, state: GameState, action: Action) -> tuple[str, str] | None:
        hand = state.hands[action.player]
        if (
            isinstance(action, Lead)
            and action.cards[0].rank == Rank.ACE
            and any(c.rank != Rank.ACE for c in hand)
        ):
            return self.rule, "an ace may not lead"
        return None


register(HeartsByHearts())
register(NoAceLead())

RULES = Rules(players=2, deck_size=24, house_rules=["test-hearts-by-hearts", "test-no-ace-lead"])


def _position() -> GameState:
    return new_position(
        RULES,
        hands=["Ah 9c Tc", "Kh Js Qs"],
        stock="",
        trump="s",
        attacker=0,
        discard="Jc Qc Kc Ac 9d Td Jd Qd Kd Ad 9h Th Jh Qh 9s Ts Ks As",
    )


def test_house_rule_beats_hook_forbids_trump_on_hearts() -> None:
    state = _position()
    state = apply(state, Lead(0, ["9c"]))
    # 9c can be beaten by the spade trumps, as usual.
    assert set(legal_actions(state, 1)) >= {Beat(1, "9c", "Js"), Beat(1, "9c", "Qs")}
    assert beats(Card.parse("Js"), Card.parse("Ah"), Suit.SPADES, RULES) is False
    assert beats(Card.parse("Js"), Card.parse("Ah"), Suit.SPADES, Rules()) is True


def test_house_rule_check_hook_forbids_ace_lead_with_a_reason() -> None:
    state = _position()
    assert Lead(0, ["Ah"]) not in legal_actions(state, 0)
    assert not is_legal(state, Lead(0, ["Ah"]))
    with pytest.raises(IllegalActionError) as err:
        apply(state, Lead(0, ["Ah"]))
    assert err.value.rule == "house:no-ace-lead"
    assert state == _position()


def test_house_rule_beat_error_names_the_module() -> None:
    rules = RULES
    state = new_position(
        rules,
        hands=["9h Tc", "Js Qs"],
        stock="",
        trump="s",
        attacker=0,
        discard="9c Jc Qc Kc Ac 9d Td Jd Qd Kd Ad Th Jh Qh Kh Ah 9s Ts Ks As",
    )
    state = apply(state, Lead(0, ["9h"]))
    assert legal_actions(state, 1) == (Take(1),)
    with pytest.raises(IllegalActionError) as err:
        apply(state, Beat(1, "9h", "Js"))
    assert err.value.rule == "house:hearts-by-hearts"


def test_unknown_house_rule_is_rejected_naming_the_setting() -> None:
    with pytest.raises(RulesError) as err:
        Rules(house_rules=["no-such-rule"])
    assert err.value.setting == "house_rules"


def test_games_with_house_rules_play_to_the_end_and_honour_them() -> None:
    rules = Rules(players=3, house_rules=["test-hearts-by-hearts", "test-no-ace-lead"])
    for seed in range(30):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            action = rng.choice(legal_actions(state, next_actor(state)))
            if isinstance(action, Beat) and action.attack.suit == Suit.HEARTS:
                assert action.card.suit == Suit.HEARTS
            if isinstance(action, Lead) and action.cards[0].rank == Rank.ACE:
                assert all(c.rank == Rank.ACE for c in state.hands[action.player])
            state = apply(state, action)
        assert state.result is not None
