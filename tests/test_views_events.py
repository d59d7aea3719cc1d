"""Player views hide exactly what a player may not know (R13); events report what happened."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from optional_parts import examples

from durak import (
    Beat,
    GameState,
    Lead,
    Rules,
    Take,
    apply,
    apply_with_events,
    legal_actions,
    new_game,
    new_position,
    next_actor,
    shuffled_deck,
    view,
)
from durak.actions import Action
from durak.cards import Card
from durak.events import BoutEnded, Drew, GameOver, Led, NewBout, PlayerOut, events_for
from durak.presets import PRESETS
from durak.serialize import _encode, event_from_dict, event_to_dict, state_to_dict, view_to_dict


def _play(rules: Rules, deck: tuple[Card, ...], steps: int, seed: int) -> list[Action]:
    state = new_game(rules, deck=deck)
    rng = random.Random(seed)
    actions: list[Action] = []
    for _ in range(steps):
        if state.is_over:
            break
        action = rng.choice(legal_actions(state, next_actor(state)))
        actions.append(action)
        state = apply(state, action)
    return actions


def _replay(
    rules: Rules, deck: tuple[Card, ...], actions: list[Action], viewer: int = 0
) -> tuple[GameState, list[object]] | None:
    """The state after ``actions`` and the events ``viewer`` saw, or ``None`` if an action is
    illegal in this deal."""
    state = new_game(rules, deck=deck)
    seen: list[object] = [state.attacker, state.known]  # the deal's public facts (R2.4, R3.1)
    for action in actions:
        if action not in legal_actions(state):
            return None
        state, events = apply_with_events(state, action)
        seen.extend(events_for(events, viewer))
    return state, seen


def _hidden_from(state: GameState, player: int) -> list[Card]:
    v = view(state, player)
    return list(v.unseen())


@settings(max_examples=examples(60), deadline=None)
@given(
    players=st.integers(2, 4),
    deck_seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    play_seed=st.integers(0, 10_000),
    swap_seed=st.integers(0, 10_000),
)
def test_R13_views_are_equal_when_only_hidden_cards_differ(
    players: int, deck_seed: int, steps: int, play_seed: int, swap_seed: int
) -> None:
    rules = Rules(players=players, deck_size=24 if players < 4 else 36)
    deck = shuffled_deck(rules, deck_seed)
    actions = _play(rules, deck, steps, play_seed)
    viewer = play_seed % players
    played = _replay(rules, deck, actions, viewer)
    assert played is not None
    state, seen = played
    hidden = _hidden_from(state, viewer)
    assume(len(hidden) >= 2)
    a, b = random.Random(swap_seed).sample(hidden, 2)
    swapped = tuple(b if c == a else a if c == b else c for c in deck)
    replayed = _replay(rules, swapped, actions, viewer)
    assume(replayed is not None)
    assert replayed is not None
    other, other_seen = replayed
    assume(other != state)  # two cards in one hidden hand swap to the same state
    # What happened in public must be the same in both games (the first attacker and his shown
    # trump, the bout ends), and so must what play makes public: a thrower with nothing to add
    # says so (R4.9).
    assume(other_seen == seen)
    assume(view(other, viewer).done == view(state, viewer).done)
    assert view(other, viewer) == view(state, viewer)


def test_R13_view_shows_own_hand_counts_and_the_picked_up_cards() -> None:
    rules = Rules(deck_size=24)
    state = new_position(
        rules,
        hands=["9c Tc", "Jc Qs Ah"],
        stock="Kc Ac 9d Td",
        attacker=0,
        discard="Qc Jd Qd Kd Ad 9h Th Jh Qh Kh 9s Ts Js Ks As",
    )
    state = apply(state, Lead(0, ["Tc"]))
    state = apply(state, Take(1))
    # the attacker has nothing more to throw in: the bout ends, player 1 picks up Tc
    v1, v0 = view(state, 1), view(state, 0)
    assert v0.hand == state.hands[0]
    assert v0.hand_sizes == (5, 4)  # player 0 drew the whole stock (R5.1)
    assert Card.parse("Tc") in v0.known[1]
    assert v1.known == v0.known
    assert v0.stock_size == 0
    assert v0.legal_actions == legal_actions(state, 0)
    assert view(state, None).hand == ()


def test_R13_events_report_the_bout_end_draws_and_next_bout() -> None:
    rules = Rules(deck_size=24)
    state = new_position(
        rules,
        hands=["9c Tc", "Jc Qs Ah"],
        stock="Kc Ac 9d Td",
        attacker=0,
        discard="Qc Jd Qd Kd Ad 9h Th Jh Qh Kh 9s Ts Js Ks As",
    )
    state, events = apply_with_events(state, Lead(0, ["9c"]))
    assert events == (Led(0, (Card.parse("9c"),), 1),)
    new, events = apply_with_events(state, Beat(1, "9c", "Jc"))
    assert new == apply(state, Beat(1, "9c", "Jc"))
    cards = tuple(Card.parse(c) for c in ("9c", "Jc"))
    kc, ac, nine_d, td = (Card.parse(c) for c in ("Kc", "Ac", "9d", "Td"))
    assert events[1:] == (
        BoutEnded(1, False, cards),
        Drew(0, 4, (kc, ac, nine_d, td), td),
        NewBout(1, 0),
    )
    # player 1 does not see which cards player 0 drew, only the count and the face-up trump
    assert events_for(events, 1)[2] == Drew(0, 4, None, td)
    assert events_for(events, 0)[2] == Drew(0, 4, (kc, ac, nine_d, td), td)


def test_R13_events_end_with_game_over_and_players_out() -> None:
    state = new_game(Rules(), seed=11)
    rng = random.Random(1)
    last: tuple[object, ...] = ()
    while not state.is_over:
        state, last = apply_with_events(state, rng.choice(legal_actions(state, next_actor(state))))
    assert state.result is not None
    assert last[-1] == GameOver(state.result)
    outs = [e for e in last if isinstance(e, PlayerOut)]
    assert outs, "the last bout puts at least one player out"


@settings(max_examples=examples(25), deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    transfer=st.booleans(),
    free=st.booleans(),
)
def test_R13_determinized_states_agree_with_the_view(
    players: int, seed: int, transfer: bool, free: bool
) -> None:
    from durak import build_deck
    from durak.views import determinize

    rules = Rules(
        players=players, transfer_by_card=transfer, throw_order="free" if free else "attacker_first"
    )
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    deck = sorted(build_deck(rules.deck_size))
    while not state.is_over:
        actor = next_actor(state)
        assert actor is not None
        v = view(state, actor)
        sample = determinize(v, rng)
        assert sorted(sample.all_cards()) == deck
        assert view(sample, actor) == v
        state = apply(state, rng.choice(v.legal_actions))


def test_R13_1_acting_lists_exactly_the_players_with_a_table_action() -> None:
    from durak import acting
    from durak.actions import ExchangeTrump, Redeal

    rules = Rules(players=4, transfer_by_card=True, throw_order="attacker_first")
    rng = random.Random(3)
    for seed in range(15):
        state = new_game(rules, seed=seed)
        while not state.is_over:
            table_actions = [
                a for a in legal_actions(state) if not isinstance(a, ExchangeTrump | Redeal)
            ]
            assert acting(state) == tuple(sorted({a.player for a in table_actions}))
            assert view(state, 0).acting == acting(state)
            state = apply(state, rng.choice(legal_actions(state)))
        assert acting(state) == ()


#: Every preset, and settings with the trump-six exchange, cheating and pogony.
_ENCODED_RULES = [
    *(PRESETS[name].rules() for name in sorted(PRESETS)),
    PRESETS["podkidnoy"].rules(players=4, trump_six_exchange=True),
    PRESETS["perevodnoy"].rules(players=3, cheating=True, pogony=True),
]


def _by_value(obj: Any) -> dict[str, Any]:
    """The general encoding: each field's value asked what it is (``_encode``)."""
    return {f.name: _encode(getattr(obj, f.name)) for f in attrs.fields(type(obj))}


@pytest.mark.parametrize("rules", _ENCODED_RULES, ids=lambda r: f"{r.players}p-{r.deck_size}")
def test_R13_4_the_encoders_by_field_type_write_what_the_general_encoding_writes(
    rules: Rules,
) -> None:
    for seed in (1, 2):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        for _ in range(400):
            for seat in [None, *range(rules.players)]:
                seen = view(state, seat)
                fast = view_to_dict(seen)
                assert fast == _by_value(seen)
                assert json.dumps(fast) == json.dumps(_by_value(seen))  # the same order too
            assert state_to_dict(state) == _by_value(state)
            if state.is_over:
                break
            state, events = apply_with_events(state, rng.choice(legal_actions(state)))
            for event in events:
                assert event_to_dict(event) == {"type": type(event).__name__, **_by_value(event)}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_R13_3_every_event_the_engine_reports_is_read_back_equal(preset: str) -> None:
    # What event_from_dict refuses (a null cards, a lead against oneself, a beat of a card by
    # itself, a draw whose cards are not its count) the engine never reports, seen by anyone.
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(PRESETS[preset].rules(), seed=seed)
        while not state.is_over:
            state, events = apply_with_events(state, rng.choice(legal_actions(state)))
            for seat in [None, *range(state.rules.players)]:
                for event in events_for(events, seat):
                    data = json.loads(json.dumps(event_to_dict(event)))
                    assert event_from_dict(data) == event


def test_R13_3_an_acted_event_is_read_back_with_its_action_text() -> None:
    # Acted reports an action of a kind a rule module adds (R15.5's catch), as text.
    from durak.events import Acted
    from durak.records import RecordError
    from durak.serialize import event_from_dict, event_to_dict

    event = Acted(player=2, action="p2 catch 7d")
    assert event_from_dict(event_to_dict(event)) == event
    with pytest.raises(RecordError, match="action"):
        event_from_dict({**event_to_dict(event), "action": 5})
