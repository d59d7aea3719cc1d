"""Property tests of the R15 extensions against the rule book's text, over random games with
each extension on alone and all on at once.

An independent judge, written from RULES.md and not from the engine's modules, follows every
game: at every step every listed beat, throw-in, transfer, show and catch must be legal by the
text of R4.3, R4.7, R8, R9, R15.1, R15.2 and R15.5; the judge keeps its own account of the
cheats on the table (R15.5), which must equal the state's; and every state must round-trip
through JSON and be accepted again (R13.4).
"""

from __future__ import annotations

import json
import random
from typing import Any

from helpers import ALL_ON
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional_parts import examples

from durak import (
    Beat,
    Card,
    GameState,
    Lead,
    Rules,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    apply,
    legal_actions,
    new_game,
    validate_state,
)
from durak.rules.extensions import Catch, cheats_on_table, is_joker
from durak.serialize import state_from_dict, state_to_dict

#: Each extension alone (with what it needs), and all of them at once.
EXTENSION_RULES: dict[str, dict[str, Any]] = {
    "jokers": {"deck_size": 52, "jokers": 2, "transfer_by_card": True},
    "throw_in_by_suit": {"throw_in_by_suit": True, "transfer_by_card": True},
    "show_sends_back": {"transfer_by_showing_trump": True, "show_sends_back": True},
    "pogony": {"pogony": True},
    "cheating": {"cheating": True, "transfer_by_card": True},
    "jokers+cheating": {"deck_size": 52, "jokers": 1, "cheating": True},
    "all": ALL_ON,
}

STEPS = 2_000


def text_beats(card: Card, attack: Card, state: GameState) -> bool:
    """R4.7, R8 and R15.1 as the rule book words them."""
    if is_joker(attack):
        return False  # nothing beats a joker, not even another joker (R15.1)
    if is_joker(card):
        return True  # a joker beats any attack card, trumps and strict suits included
    trump = state.trump
    if attack.suit in state.rules.strict_suits and attack.suit != trump:
        return card.suit == attack.suit and card.rank > attack.rank  # R8.1
    if card.suit == attack.suit:
        return card.rank > attack.rank
    return card.suit == trump and attack.suit != trump


def text_matches(card: Card, state: GameState) -> bool:
    """R4.3 with R15.1 and R15.2: the card's rank (a joker's is its own) or, with suit
    throw-ins, its suit is on the table, attack or beating card."""
    on_table = [c for pair in state.table for c in pair if c is not None]
    if is_joker(card):
        return any(is_joker(c) for c in on_table)
    if any(not is_joker(c) and c.rank == card.rank for c in on_table):
        return True
    by_suit = state.rules.throw_in_by_suit
    return by_suit and any(not is_joker(c) and c.suit == card.suit for c in on_table)


def judge(state: GameState, action: Any, cheats: dict[Card, int]) -> str | None:
    """Why the rule book's text forbids ``action`` (listed in ``state``), or ``None``."""
    rules = state.rules
    attacks = [a for a, _ in state.table]
    if isinstance(action, Beat):
        if is_joker(action.attack):
            return "R15.1: no card beats a joker"
        if action.player != state.defender:
            return "R4.7: only the defender beats"
        if not rules.cheating and not text_beats(action.card, action.attack, state):
            return "R4.7/R8: the card does not beat"
    elif isinstance(action, ThrowIn):
        if action.player == state.defender:
            return "R4.4: the defender does not throw in"
        if not rules.cheating and not text_matches(action.card, state):
            return "R4.3/R15.2: the card matches nothing on the table"
    elif isinstance(action, Transfer):
        if any(is_joker(c) for c in action.cards):
            return "R15.1: a joker is never a transfer card"
        ranks = {c.rank for c in attacks if not is_joker(c)}
        if any(is_joker(c) for c in attacks) or len(ranks) != 1:
            return "R9.1/R15.2: the attack cards must share one rank"
        if any(c.rank not in ranks for c in action.cards):
            return "R9.1: a transfer card has the attack rank"
    elif isinstance(action, ShowTrump):
        card = action.card
        if is_joker(card) or card.suit != state.trump:
            return "R9.5: only a trump is shown"
        if any(is_joker(c) or c.rank != card.rank for c in attacks):
            return "R9.5: the shown trump has the attack rank"
    elif isinstance(action, Catch):
        if action.card not in cheats:
            return "R15.5: only a cheat is caught"
        if cheats[action.card] == action.player:
            return "R15.5: the owner does not catch his own cheat"
        if not state.is_active(action.player):
            return "R15.5: only an active player catches"
    return None


def account(state: GameState, action: Any, after: GameState, cheats: dict[Card, int]) -> None:
    """The judge's own account of the cheats on the table after ``action`` (R15.5)."""
    if not after.table or after.bouts != state.bouts:
        cheats.clear()  # the bout ended: what stands, stands
        return
    cheat_throw = isinstance(action, ThrowIn) and not text_matches(action.card, state)
    cheat_beat = isinstance(action, Beat) and not text_beats(action.card, action.attack, state)
    if cheat_throw or cheat_beat:
        cheats[action.card] = action.player
    elif isinstance(action, Catch):
        del cheats[action.card]
        beaten = dict((a, b) for a, b in state.table if b is not None).get(action.card)
        if beaten is not None:
            cheats.pop(beaten, None)  # its beating card went back to the defender


def round_trips(state: GameState) -> None:
    text = json.dumps(state_to_dict(state))
    back = state_from_dict(json.loads(text))
    assert back == state
    validate_state(back)


def play_and_judge(rules: Rules, seed: int, choices: int) -> None:
    rng = random.Random(choices)
    state = new_game(rules, seed=seed)
    cheats: dict[Card, int] = {}
    for _ in range(STEPS):
        round_trips(state)
        assert dict(cheats_on_table(state)) == cheats, "the cheats on the table (R15.5)"
        if state.is_over:
            return
        actions = legal_actions(state)
        assert len(set(actions)) == len(actions), "an action is listed twice"
        for action in actions:
            reason = judge(state, action, cheats)
            assert reason is None, f"{action} is listed, but {reason}: {state}"
        # Favour the actions that test the extensions: catches, cheats, jokers.
        rare = [a for a in actions if isinstance(a, Catch | Transfer | ShowTrump)]
        pick = rare if rare and rng.random() < 0.5 else actions
        if not rare and rng.random() < 0.3:
            pick = [a for a in actions if not isinstance(a, Take | Lead)] or actions
        action = pick[rng.randrange(len(pick))]
        after = apply(state, action)
        account(state, action, after, cheats)
        state = after
    raise AssertionError("the game did not end")


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(EXTENSION_RULES)),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
)
def test_R15_every_listed_action_is_legal_by_the_rule_books_text(
    name: str, players: int, seed: int, choices: int
) -> None:
    play_and_judge(Rules(players=players, **EXTENSION_RULES[name]), seed, choices)


def test_R15_every_extension_alone_and_all_at_once_over_fixed_games() -> None:
    # Every family at least a few times, whatever Hypothesis draws.
    for name, settings_ in sorted(EXTENSION_RULES.items()):
        for players in (2, 3):
            play_and_judge(Rules(players=players, **settings_), seed=players, choices=len(name))
