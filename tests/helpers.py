"""Small helpers for the rule-book scenario tests.

Positions are built only through the public constructors (``new_position``, ``new_game``);
the helpers just fill in the boring parts (the discard pile, card sorting).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence

import pytest

from durak import (
    Card,
    GameState,
    IllegalActionError,
    Rules,
    apply,
    build_deck,
    check,
    is_legal,
    legal_actions,
    new_position,
    parse_cards,
)

#: The small deck used by most scenarios: 9 T J Q K A of each suit.
D24 = Rules(deck_size=24)


def cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards sorted by card value, the order in which a state keeps a hand."""
    return tuple(sorted(parse_cards(text)))


def hands(*texts: str) -> tuple[tuple[Card, ...], ...]:
    """The expected ``state.hands`` for one text per seat."""
    return tuple(cards(t) for t in texts)


def position(
    rules: Rules,
    hand_texts: Sequence[str],
    *,
    stock: str = "",
    trump: str | None = None,
    attacker: int = 0,
    first_bout: bool = False,
    exchange: str = "",
) -> GameState:
    """A state before ``attacker`` leads; every card not in a hand or the stock is put in the
    discard pile (in canonical deck order)."""
    used = {c for h in hand_texts for c in parse_cards(h)} | set(parse_cards(stock))
    discard = [c for c in build_deck(rules.deck_size, rules.decks) if c not in used]
    return new_position(
        rules,
        hands=list(hand_texts),
        stock=stock,
        trump=trump,
        attacker=attacker,
        discard=discard,
        first_bout=first_bout,
        exchange=exchange,
    )


def play(state: GameState, *actions: object) -> GameState:
    """Apply the actions one after the other."""
    for action in actions:
        state = apply(state, action)  # type: ignore[arg-type]
    return state


def legal(state: GameState, player: int | None = None) -> set[object]:
    """The legal actions as a set."""
    actions = legal_actions(state, player)
    assert len(set(actions)) == len(actions), "legal_actions lists an action twice"
    return set(actions)


def assert_illegal(state: GameState, action: object, rule: str) -> IllegalActionError:
    """``action`` is rejected for breaking ``rule`` by apply, is_legal, check and
    legal_actions alike, and the input state is left exactly as it was (R13.3)."""
    before = pickle.loads(pickle.dumps(state))
    assert before == state
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)  # type: ignore[arg-type]
    err = info.value
    assert isinstance(err, ValueError)
    assert err.rule == rule, f"expected {rule}, got {err.rule}: {err}"
    assert err.player == action.player  # type: ignore[attr-defined]
    assert state == before
    assert hash(state) == hash(before)
    assert not is_legal(state, action)  # type: ignore[arg-type]
    found = check(state, action)  # type: ignore[arg-type]
    assert found is not None and found[0] == rule
    assert action not in legal_actions(state)
    return err


def discard_added(before: GameState, after: GameState) -> list[Card]:
    """The cards added to the discard pile between two states, sorted (the pile keeps its old
    cards)."""
    assert after.discard[: len(before.discard)] == before.discard
    return sorted(after.discard[len(before.discard) :])


def deck_for(
    rules: Rules, hand_texts: Sequence[str], rest: str, dealer: int | None = None
) -> list[Card]:
    """An explicit deck order (top first) that deals ``hand_texts`` under R2.3 (one card at a
    time, clockwise from the dealer's left neighbour), followed by ``rest`` (the face-up card,
    then the stock)."""
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    parsed = [list(parse_cards(h)) for h in hand_texts]
    order: list[Card] = []
    for k in range(rules.hand_size):
        for step in range(1, n + 1):
            order.append(parsed[(dealer + step) % n][k])
    return order + list(parse_cards(rest))
