"""The RL adapters' shared action encoding and observation tensor (durak.rl.encoding).

Needs numpy (both RL extras). CI installs the extras, so there a missing library fails the run
instead of skipping it.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from durak import (
    Beat,
    Card,
    GameState,
    Lead,
    Rules,
    Transfer,
    apply,
    build_deck,
    legal_actions,
    new_game,
    next_actor,
    view,
)
from durak.presets import PRESETS, get_preset
from durak.rl import encoding as enc
from durak.views import determinize

SUPPORTED = list(PRESETS)

#: Rules that exercise every action block: transfers by card and by showing a trump, the
#: trump-six exchange and misdeal redeals.
EVERYTHING = get_preset("perevodnoy-show-trump").rules(
    players=3, trump_six_exchange=True, misdeal_suit_count=3
)


def random_states(rules: Rules, games: int, seed: int = 0) -> list[GameState]:
    """Every state of ``games`` random games (one actor at a time, R13.2)."""
    rng = random.Random(seed)
    states = []
    for g in range(games):
        state = new_game(rules, seed=f"{seed}-{g}")
        while not state.is_over:
            states.append(state)
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, rng.choice(legal_actions(state, actor)))
        states.append(state)
    return states


def test_sizes_follow_the_documented_formulas() -> None:
    rules = Rules()
    assert enc.table_slots(rules) == 6
    assert enc.action_space_size(rules) == 3 + 36 * (6 + 4) == 363
    assert enc.observation_size(rules) == 36 * (2 + 12 + 9) + 13 * 2 + 13 == 867
    big = Rules(deck_size=52, decks=2, players=4, max_attack=7)
    n, s = 104, 7
    assert enc.action_space_size(big) == 3 + n * (s + 4)
    assert enc.observation_size(big) == n * (4 + 2 * s + 9) + 13 * 4 + 13


@pytest.mark.parametrize("rules", [Rules(), EVERYTHING, Rules(deck_size=24, decks=2)])
def test_layouts_are_contiguous_and_cover_the_space(rules: Rules) -> None:
    for layout, size in (
        (enc.action_layout(rules), enc.action_space_size(rules)),
        (enc.observation_layout(rules), enc.observation_size(rules)),
    ):
        assert layout[0].offset == 0
        for before, after in itertools.pairwise(layout):
            assert before.end == after.offset
        assert layout[-1].end == size
        assert len({p.name for p in layout}) == len(layout)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("deck_size", [24, 32, 36, 52])
def test_card_index_follows_build_deck_order(deck_size: int, decks: int) -> None:
    rules = Rules(deck_size=deck_size, decks=decks)
    deck = build_deck(deck_size, decks)
    assert [enc.card_index(c, rules) for c in deck] == list(range(len(deck)))
    assert [enc.index_card(i, rules) for i in range(len(deck))] == list(deck)
    with pytest.raises(IndexError):
        enc.index_card(len(deck), rules)
    if deck_size != 52:
        with pytest.raises(ValueError, match="not in the deck"):
            enc.card_index(Card.parse("2c"), rules)


@pytest.mark.parametrize("name", SUPPORTED)
def test_encoding_is_a_bijection_on_legal_actions(name: str) -> None:
    rules = get_preset(name).rules()
    size = enc.action_space_size(rules)
    for state in random_states(rules, 2):
        for player in range(rules.players):
            actions = legal_actions(state, player)
            ids = [enc.encode(a, state) for a in actions]
            assert len(set(ids)) == len(ids)
            assert all(0 <= i < size for i in ids)
            assert [enc.decode(i, state, player) for i in ids] == list(actions)
            assert enc.legal_ids(state, player) == sorted(ids)
            mask = enc.legal_mask(state, player)
            assert mask.dtype == np.bool_ and mask.shape == (size,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
            assert (enc.view_mask(view(state, player)) == mask).all()


def test_every_action_block_is_used() -> None:
    seen: set[str] = set()
    for state in random_states(EVERYTHING, 12, seed=3):
        for player in range(EVERYTHING.players):
            for i in enc.legal_ids(state, player):
                seen.add(enc.describe(i, EVERYTHING).split()[0])
    assert seen >= {"take", "pass", "attack", "beat", "transfer", "show"}


def test_decode_defaults_to_the_next_actor_and_names_lead_or_throw_in() -> None:
    state = new_game(Rules(), seed=11)
    actor = next_actor(state)
    card = state.hands[actor][0]
    index = 3 + enc.card_index(card, state.rules)
    assert enc.decode(index, state) == Lead(actor, (card,))
    state = apply(state, Lead(actor, (card,)))
    thrown = enc.decode(index, state, actor)
    assert type(thrown).__name__ == "ThrowIn"


def test_beat_ids_name_table_slots() -> None:
    state = new_game(Rules(), seed=5)
    while len(state.table) < 2 or not state.unbeaten or next_actor(state) != state.defender:
        actor = next_actor(state)
        assert actor is not None
        acts = legal_actions(state, actor)
        lead_or_throw = [a for a in acts if a.kind in ("lead", "throw")]
        state = apply(state, lead_or_throw[0] if lead_or_throw else acts[0])
        if state.bouts:
            pytest.skip("this deal gave no two-card attack")  # pragma: no cover
    n = state.rules.cards
    for a in legal_actions(state, state.defender):
        if isinstance(a, Beat):
            slot = [pair[0] for pair in state.table].index(a.attack)
            assert enc.encode(a, state) == 3 + n + slot * n + enc.card_index(a.card, state.rules)
    with pytest.raises(ValueError, match="table slot 5"):
        enc.decode(3 + n + 5 * n, state, state.defender)


def test_errors_name_the_problem() -> None:
    state = new_game(Rules(), seed=1)
    with pytest.raises(ValueError, match="outside 0-362"):
        enc.decode(363, state)
    with pytest.raises(ValueError, match="outside"):
        enc.describe(-1, state.rules)
    with pytest.raises(ValueError, match="not an unbeaten attack card"):
        enc.encode(Beat(0, "6h", "7h"), state)
    several = Transfer(0, ("7h", "7d"))
    with pytest.raises(ValueError, match="several cards"):
        enc.encode(several, state)


def test_R4_2_several_card_leads_have_group_ids_after_the_single_cards() -> None:
    rules = get_preset("german-classic").rules()
    assert enc.table_slots(rules) == 6
    # 9 ranks x 11 patterns (6 pairs, 4 triples, 1 quadruple) after the 36 single cards.
    assert enc.action_space_size(rules) == 363 + 9 * 11 == 462
    attack = next(p for p in enc.action_layout(rules) if p.name == "attack")
    assert (attack.offset, attack.shape) == (3, (36 + 99,))
    state = new_game(rules, seed=3)
    leader = next_actor(state)
    assert leader is not None
    # Group 0 of rank 6 is the pattern 0b0011: the clubs and diamonds sixes.
    lead = enc.decode(3 + 36, state, leader)
    assert lead == Lead(leader, (Card.parse("6c"), Card.parse("6d")))
    assert enc.describe(3 + 36, rules) == "attack 6c 6d"
    # The last group is the four aces.
    assert enc.describe(3 + 36 + 98, rules) == "attack Ac Ad Ah As"
    assert enc.encode(Lead(leader, ("Ac", "Ad", "Ah", "As")), state) == 3 + 36 + 98
    # A single card keeps its id.
    assert enc.encode(Lead(leader, ("6c",)), state) == 3
    with pytest.raises(ValueError, match="one rank"):
        enc.encode(Lead(leader, ("6c", "7c")), state)


def test_R9_4_several_card_transfers_have_group_ids() -> None:
    rules = Rules(transfer_by_card=True, transfer_several=True)
    layout = {p.name: p for p in enc.action_layout(rules)}
    assert layout["attack"].shape == (36,)
    assert layout["transfer"].shape == (36 + 99,)
    assert enc.action_space_size(rules) == 363 + 99
    two = Rules(transfer_by_card=True, transfer_several=True, decks=2)
    # 8 copies per rank, groups of 2 to 6 (S = 6): 28 + 56 + 70 + 56 + 28 = 238 per rank.
    assert {p.name: p for p in enc.action_layout(two)}["transfer"].shape == (72 + 9 * 238,)


@pytest.mark.parametrize(
    "rules",
    [
        get_preset("german-classic").rules(players=3),
        Rules(players=3, transfer_by_card=True, transfer_several=True, decks=2),
    ],
)
def test_R4_2_R9_4_group_ids_are_a_bijection_in_random_games(rules: Rules) -> None:
    several = 0
    for state in random_states(rules, 3, seed=4):
        for player in range(rules.players):
            actions = legal_actions(state, player)
            ids = [enc.encode(a, state) for a in actions]
            assert len(set(ids)) == len(ids)
            assert [enc.decode(i, state, player) for i in ids] == list(actions)
            several += sum(len(getattr(a, "cards", ())) > 1 for a in actions)
    assert several > 0


def _hidden(state: GameState, player: int) -> set[Card]:
    """Cards in other players' hands that nobody but their holder knows."""
    hidden: set[Card] = set()
    for seat, hand in enumerate(state.hands):
        if seat != player:
            known = state.known[seat] if state.known else frozenset()
            hidden |= set(hand) - known
    return hidden


@pytest.mark.parametrize("rules", [Rules(), EVERYTHING, get_preset("pairs").rules()])
def test_observation_shows_no_hidden_card(rules: Rules) -> None:
    pieces = {p.name: p for p in enc.observation_layout(rules)}
    n = rules.cards
    for state in random_states(rules, 2, seed=7)[::3]:
        for player in range(rules.players):
            obs = enc.observe(state, player)
            assert obs.dtype == np.float32 and obs.shape == (enc.observation_size(rules),)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            hidden = {enc.card_index(c, rules) for c in _hidden(state, player)}
            for name in ("hand", "known", "table_attack", "table_beating", "discard", "shown"):
                piece = pieces[name]
                flagged = np.flatnonzero(obs[piece.offset : piece.end]) % n
                assert hidden.isdisjoint(flagged.tolist()), name
            hand = obs[pieces["hand"].offset : pieces["hand"].end]
            own = sorted(enc.card_index(c, rules) for c in state.hands[player])
            assert np.flatnonzero(hand).tolist() == own


@pytest.mark.parametrize("rules", [Rules(players=3), EVERYTHING])
def test_observation_depends_only_on_what_the_player_may_know(rules: Rules) -> None:
    """A state resampled from the player's view (other hands and the stock shuffled) gives the
    same observation: nothing hidden leaks into it."""
    rng = random.Random(1)
    for state in random_states(rules, 2, seed=9)[::4]:
        if state.is_over:
            continue
        for player in range(rules.players):
            v = view(state, player)
            other = determinize(v, rng)
            assert (enc.observation(v) == enc.observe(other, player)).all()
