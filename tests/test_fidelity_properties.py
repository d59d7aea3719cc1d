"""Property tests of the published facts (R3.1, R7.2, R7.3, R10.3) and of the engine's error
contract, over random games of every preset and of random variant settings.

At every step of every game: the state's, every view's and the events' places agree; who is
out and who has left (R10.3) is told apart the same way by state, views and events; once the
game is over every seat has a place, equal to the result's. In multi-deck deals the views
publish exactly the leader's lowest trump, found here by rank (R3.1). Junk given to the engine
functions raises only :class:`~durak.DurakError` subclasses or :class:`TypeError`.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from optional_parts import examples
from test_properties import rules_strategy

from durak import (
    DurakError,
    GameState,
    Rules,
    acting,
    apply,
    apply_with_events,
    attack_limit,
    check,
    is_legal,
    legal_actions,
    new_game,
    new_position,
    next_actor,
    validate_state,
    view,
)
from durak.events import PlayerLeft, PlayerOut
from durak.presets import PRESETS

STEPS = 3_000


def agree(state: GameState) -> None:
    """State and every view agree on places, out and left; they are disjoint and placed."""
    n = state.players
    assert len(state.places) == n
    assert not state.out & state.left
    for p in state.out | state.left:
        assert state.places[p] is not None
    for p in state.left:
        assert state.hands[p], "a player who left holds cards (R10.3)"
    for seat in (*range(n), None):
        v = view(state, seat)
        assert v.places == state.places
        assert v.out == state.out and v.left == state.left
    if state.result is not None:
        assert state.places == state.result.places, "every seat has the result's place (R7.2)"
        assert all(place is not None for place in state.places)
        if state.result.durak is not None:
            assert state.result.durak not in state.out, "the durak is not out (R7.3)"
    else:
        for p, place in enumerate(state.places):
            assert (place is not None) == (p in state.out or p in state.left)


def play(rules: Rules, seed: int, rng: random.Random) -> GameState:
    state = new_game(rules, seed=seed)
    agree(state)
    for _ in range(STEPS):
        if state.is_over:
            return state
        actions = legal_actions(state)
        action = actions[rng.randrange(len(actions))]
        new, events = apply_with_events(state, action)
        outs = {e.player: e.place for e in events if isinstance(e, PlayerOut)}
        lefts = {e.player: e.place for e in events if isinstance(e, PlayerLeft)}
        assert set(outs) == new.out - state.out, f"{action}: PlayerOut events {outs}"
        assert set(lefts) == new.left - state.left, f"{action}: PlayerLeft events {lefts}"
        for p, place in {**outs, **lefts}.items():
            assert new.places[p] == place, f"seat {p}: event place {place}, state {new.places[p]}"
        for e in events:
            if isinstance(e, PlayerLeft):
                assert not new.rules.opponents(e.player, e.partner) and e.partner in new.out
        agree(new)
        state = new
    return state


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_R7_2_R10_3_places_out_and_left_agree_in_every_preset(preset: str) -> None:
    rules = PRESETS[preset].rules()
    rng = random.Random(preset)
    for game in range(3):
        end = play(rules, game, rng)
        assert end.is_over, f"{preset}: game {game} did not end in {STEPS} steps"


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_R7_2_R10_3_places_out_and_left_agree_under_random_settings(
    rules: Rules, seed: int, choices: int
) -> None:
    note(f"rules={rules!r} seed={seed}")
    play(rules, seed, random.Random(choices))


def lowest_trump_by_rank(state: GameState) -> set[str]:
    trumps = [c for c in state.hands[state.attacker] if c.suit == state.trump]
    if not trumps:
        return set()
    low = min(c.rank for c in trumps)
    return {str(min((c for c in trumps if c.rank == low), key=lambda c: c.copy))}


@settings(max_examples=examples(60), deadline=None)
@given(
    decks=st.integers(2, 4),
    players=st.integers(2, 6),
    deck_size=st.sampled_from([24, 32, 36, 52]),
    seed=st.integers(0, 2**32),
)
def test_R3_1_views_publish_exactly_the_shown_lowest_trump_with_several_decks(
    decks: int, players: int, deck_size: int, seed: int
) -> None:
    rules = Rules(players=players, decks=decks, deck_size=deck_size)
    state = new_game(rules, seed=seed)
    shown = lowest_trump_by_rank(state)
    if not state.stock:  # a full deal: the dealer's shown card is public too (R2.4)
        assert state.trump_card is not None
        if state.dealer == state.attacker:
            shown.add(str(state.trump_card))
    for seat in (*range(players), None):
        v = view(state, seat)
        assert {str(c) for c in v.known[state.attacker]} == shown
        for other in range(players):
            if other != state.attacker and other != state.dealer:
                assert v.known[other] == frozenset()


# --------------------------------------------------------------------------------------------
# Junk into the engine functions
# --------------------------------------------------------------------------------------------

JUNK = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True),
        st.text(max_size=12),
        st.binary(max_size=8),
        st.builds(object),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=12,
)

STATE = new_game(Rules(players=3), seed=11)


def only_documented(fn: Any, *args: Any, **kwargs: Any) -> None:
    """Call ``fn``; any exception but a DurakError or a TypeError fails the test."""
    with contextlib.suppress(DurakError, TypeError):
        fn(*args, **kwargs)


@settings(max_examples=examples(300), deadline=None)
@given(junk=JUNK, other=JUNK)
def test_R13_3_junk_into_the_engine_raises_only_documented_errors(junk: Any, other: Any) -> None:
    for fn in (apply, apply_with_events, check, is_legal):
        only_documented(fn, STATE, junk)
        only_documented(fn, junk, other)
    for fn in (legal_actions, view):
        only_documented(fn, STATE, junk)
        only_documented(fn, junk, other)
    for fn in (acting, next_actor, attack_limit, validate_state):
        only_documented(fn, junk)
    only_documented(new_game, junk)
    only_documented(new_game, Rules(), seed=junk)
    only_documented(new_game, Rules(), deck=junk)
    only_documented(new_game, Rules(), dealer=junk)
    only_documented(new_position, Rules(), hands=junk, attacker=0, trump="s")
    only_documented(new_position, Rules(), hands=["6c", "7c"], attacker=junk, trump=other)
    only_documented(new_position, Rules(), hands=["6c", "7c"], attacker=0, trump="s", table=junk)
    only_documented(
        new_position,
        Rules(),
        hands=["6c", "7c"],
        attacker=0,
        trump="s",
        table="6c",
        passed=junk,
        known=other,
    )
