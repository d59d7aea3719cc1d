"""Support for the variant scenario tests (R4 variants, R7.3, R8, R9, R10, R12, R14, multi-deck).

Every position is built through the public constructors (``new_position``, ``new_game``); these
helpers only fill the discard pile with the cards a scenario does not use and compare results.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from helpers import position

from durak import (
    Card,
    GameState,
    IllegalActionError,
    Rules,
    ThrowIn,
    apply,
    check,
    is_legal,
    legal_actions,
    parse_cards,
)
from durak.cards import sort_cards


def small(**settings: Any) -> Rules:
    """Rules on the 24-card deck (9 T J Q K A) with ``settings`` on top."""
    settings.setdefault("deck_size", 24)
    return Rules(**settings)


def cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards in the order a state keeps a hand (display order: suit, rank, copy)."""
    return sort_cards(parse_cards(text))


def setup(
    rules: Rules,
    hands: Sequence[str],
    *,
    stock: str = "",
    trump: str | None = None,
    attacker: int = 0,
    first_bout: bool = False,
    exchange: str = "",
) -> GameState:
    """The state before ``attacker`` leads; every card in no hand and not in the stock lies in the
    discard pile (:func:`helpers.position`)."""
    return position(
        rules,
        hands,
        stock=stock,
        trump=trump,
        attacker=attacker,
        first_bout=first_bout,
        exchange=exchange,
    )


def run(state: GameState, *actions: Any) -> GameState:
    """Apply ``actions`` in turn, each one checked legal first."""
    for action in actions:
        assert is_legal(state, action), f"{action} should be legal: {check(state, action)}"
        state = apply(state, action)
    return state


def legal(state: GameState, player: int | None = None) -> set[Any]:
    """The legal actions as a set (each listed once)."""
    actions = legal_actions(state, player)
    assert len(set(actions)) == len(actions), "an action is listed twice"
    return set(actions)


def throwers_able(state: GameState) -> set[int]:
    """The players who may throw a card in right now."""
    return {a.player for a in legal_actions(state) if isinstance(a, ThrowIn)}


def refused(state: GameState, action: Any, rule: str | set[str]) -> IllegalActionError:
    """``action`` is rejected by ``apply`` for breaking ``rule`` (one id or a set of accepted
    ids), agrees with ``is_legal``, ``check`` and ``legal_actions``, and leaves ``state`` as it
    was (R13.3)."""
    accepted = {rule} if isinstance(rule, str) else rule
    before = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    err = info.value
    assert err.rule in accepted, f"expected {sorted(accepted)}, got {err.rule}: {err}"
    assert err.player == action.player
    assert state == before
    assert not is_legal(state, action)
    found = check(state, action)
    assert found is not None and found[0] == err.rule
    assert action not in legal_actions(state)
    return err


def deck_order(
    rules: Rules, hands: Sequence[str], rest: str, dealer: int | None = None
) -> list[Card]:
    """An explicit deck order (top first) that deals ``hands`` by R2.3 (one card at a time,
    clockwise from the dealer's left neighbour), then ``rest``: the face-up card first, then
    the stock."""
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    parsed = [list(parse_cards(h)) for h in hands]
    order = [parsed[(dealer + k) % n][i] for i in range(rules.hand_size) for k in range(1, n + 1)]
    return order + list(parse_cards(rest))
