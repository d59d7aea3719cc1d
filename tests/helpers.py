"""Helpers for the rule-book scenario tests: the one way the scenario suites build a position and
play it on.

* :func:`position` builds a position through :func:`durak.new_position`, the public constructor,
  which validates every field it is given (R13.4): a position the engine could never reach is
  refused there, not played. The helper only fills the discard pile with the cards a scenario
  does not name.
* :func:`play` applies actions one after the other through :func:`durak.apply`, which refuses an
  illegal action (R13.3); :func:`durak.is_legal` must agree before each one is applied.
* :func:`legal`, :func:`throwers_able`, :func:`assert_illegal` and :func:`discard_added` read the
  outcome; :func:`cards`, :func:`hands` and :func:`deck_for` write the expected cards and deck
  orders.

A test that needs a finished game or a bout in the middle builds it with :func:`position` (every
field of ``new_position``: ``table="7h:9h 8h"``, ``taken``, ``passed``, ``shown``, ``bouts``, ...)
or reaches it with :func:`play`; none builds a ``GameState`` by hand.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from durak import (
    Card,
    GameState,
    IllegalActionError,
    Rules,
    ThrowIn,
    apply,
    build_deck,
    check,
    is_legal,
    legal_actions,
    new_position,
    parse_cards,
)
from durak.cards import sort_cards

#: The small deck used by most scenarios: 9 T J Q K A of each suit, two players; variants are
#: ``D24.replace(players=3, transfer_by_card=True)`` and so on.
D24 = Rules(deck_size=24)

#: Every R15 extension on (with the transfers they change): ``Rules(players=3, **ALL_ON)``.
ALL_ON: dict[str, Any] = {
    "deck_size": 52,
    "jokers": 2,
    "throw_in_by_suit": True,
    "transfer_by_card": True,
    "transfer_by_showing_trump": True,
    "show_sends_back": True,
    "pogony": True,
    "cheating": True,
}


# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------


def cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards in the order a state keeps a hand: display order (suit, rank, copy; R1.1)."""
    return sort_cards(parse_cards(text))


def hands(*texts: str) -> tuple[tuple[Card, ...], ...]:
    """The expected ``state.hands``, one text per seat."""
    return tuple(cards(t) for t in texts)


def deck_for(
    rules: Rules,
    hand_texts: Sequence[str],
    rest: str | Iterable[str | Card] = "",
    dealer: int | None = None,
) -> list[Card]:
    """An explicit deck order (top card first) for ``new_game(rules, deck=...)``: it deals
    ``hand_texts`` under R2.3 (one card at a time, clockwise from the dealer's left neighbour;
    the dealer is seat ``n - 1`` unless given), then ``rest`` follows (the face-up card first,
    then the stock), then every other card of the deck(s) in canonical order."""
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    parsed = [list(parse_cards(h)) for h in hand_texts]
    order = [parsed[(dealer + k) % n][i] for i in range(rules.hand_size) for k in range(1, n + 1)]
    order += parse_cards(rest)
    named = set(order)
    return order + [c for c in build_deck(rules.deck_size, rules.decks) if c not in named]


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------


def _table_cards(table: Any) -> list[Card]:
    """The cards of a ``table`` argument of ``new_position``: text or pairs."""
    if isinstance(table, str):
        return list(parse_cards(table.replace(":", " ")))
    return [c for pair in table for c in parse_cards([x for x in pair if x is not None])]


def position(
    rules: Rules,
    hand_texts: Sequence[str],
    *,
    stock: str = "",
    trump: str | None = None,
    attacker: int = 0,
    table: Any = (),
    discard: Any = None,
    **fields: Any,
) -> GameState:
    """A position built by :func:`durak.new_position`, which validates it.

    ``hand_texts`` holds one hand per seat; ``attacker`` leads the next bout (or, with a
    ``table``, attacks in this one). Every other keyword is a field of ``new_position``
    (``first_bout``, ``exchange``, ``taken``, ``passed``, ``bouts``, ``defences``, ...). Unless
    ``discard`` is given, every card of the deck(s) in no hand, not in the stock and not on the
    table lies in the discard pile, in canonical deck order."""
    if discard is None:
        used = {c for h in hand_texts for c in parse_cards(h)}
        used |= set(parse_cards(stock)) | set(_table_cards(table))
        discard = [c for c in build_deck(rules.deck_size, rules.decks) if c not in used]
    return new_position(
        rules,
        hands=list(hand_texts),
        stock=stock,
        trump=trump,
        attacker=attacker,
        table=table,
        discard=discard,
        **fields,
    )


# ---------------------------------------------------------------------------------------------
# Playing on, and reading the outcome
# ---------------------------------------------------------------------------------------------


def play(state: GameState, *actions: Any) -> GameState:
    """Apply ``actions`` one after the other through :func:`durak.apply`. Each must be legal:
    ``is_legal`` says so, and ``apply`` would raise :class:`IllegalActionError` otherwise."""
    for action in actions:
        assert is_legal(state, action), f"{action} should be legal: {check(state, action)}"
        state = apply(state, action)
    return state


def legal(state: GameState, player: int | None = None) -> set[Any]:
    """The legal actions (of ``player``, or of everybody) as a set; each is listed once."""
    actions = legal_actions(state, player)
    assert len(set(actions)) == len(actions), "legal_actions lists an action twice"
    return set(actions)


def throwers_able(state: GameState) -> set[int]:
    """The players who may throw a card in right now."""
    return {a.player for a in legal_actions(state) if isinstance(a, ThrowIn)}


def assert_illegal(state: GameState, action: Any, rule: str | set[str]) -> IllegalActionError:
    """``action`` is refused for breaking ``rule`` (one id, or a set of ids that are each a fair
    citation) by ``apply``, ``is_legal``, ``check`` and ``legal_actions`` alike, and the input
    state is left exactly as it was (R13.3). Returns the error, to check its text."""
    accepted = {rule} if isinstance(rule, str) else rule
    before = pickle.loads(pickle.dumps(state))
    assert before == state
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.rule in accepted, f"expected {sorted(accepted)}, got {err.rule}: {err}"
    assert err.player == action.player
    assert state == before
    assert hash(state) == hash(before)
    assert not is_legal(state, action)
    found = check(state, action)
    assert found is not None and found[0] == err.rule
    assert action not in legal_actions(state)
    return err


def discard_added(before: GameState, after: GameState) -> list[Card]:
    """The cards added to the discard pile between two states, sorted (the pile keeps its old
    cards)."""
    assert after.discard[: len(before.discard)] == before.discard
    return sorted(after.discard[len(before.discard) :])
