"""R15: the extensions shipped as rule modules (durak.rules.extensions), one scenario per
sentence of the rule book: jokers (R15.1), suit throw-ins (R15.2), the reverse show (R15.3),
pogony (R15.4) and cheating with the catch action (R15.5).

Positions are built with :func:`durak.new_position` (which validates them); the cards a scenario
does not name lie in the discard pile.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import ALL_ON, assert_illegal, cards, legal, play
from optional_parts import need

from durak import (
    Beat,
    Card,
    GameState,
    Lead,
    Pass,
    PositionError,
    Rules,
    RulesError,
    ShowTrump,
    Suit,
    Take,
    ThrowIn,
    Transfer,
    acting,
    apply,
    apply_with_events,
    legal_actions,
    new_game,
    new_position,
    next_actor,
    validate_state,
)
from durak.actions import ExchangeTrump
from durak.events import Acted, BoutEnded
from durak.notation import parse_action
from durak.records import Record, dumps, loads, replay
from durak.rules.beating import beats
from durak.rules.bout import Bout
from durak.rules.extensions import (
    Catch,
    cheats_on_table,
    epaulettes,
    is_cheat,
    is_joker,
    jokers_of,
    previous_opponent,
)
from durak.rules.families import Misdeal
from durak.rules.modules import active_modules, plan_for
from durak.serialize import state_from_dict, state_to_dict
from durak.views import determinize, view

JK = Rules(players=3, deck_size=52, jokers=2)


def at(rules: Rules, hand_texts: list[str], **fields: Any) -> GameState:
    """A position; every card of the rules' deck (jokers too) not named lies in the discard."""
    used = {c for h in hand_texts for c in cards(h)}
    table = fields.get("table", "")
    if isinstance(table, str):
        used |= set(cards(table.replace(":", " ")))
    used |= set(cards(fields.get("stock", "")))
    discard = [c for c in plan_for(rules).deck if c not in used]
    fields.setdefault("attacker", 0)
    return new_position(rules, hands=hand_texts, discard=discard, **fields)


def _bout(state: GameState) -> Bout:
    return Bout(state, plan_for(state.rules))


# --------------------------------------------------------------------------------------------
# Off by default: nothing changes
# --------------------------------------------------------------------------------------------


def test_R15_every_extension_is_off_by_default_and_adds_no_module() -> None:
    rules = Rules()
    assert (rules.jokers, rules.throw_in_by_suit, rules.show_sends_back) == (0, False, False)
    assert (rules.pogony, rules.cheating) == (False, False)
    names = {m.name for m in active_modules(rules)}
    assert not names & {"jokers", "throw-in-by-suit", "show-sends-back", "pogony", "cheating"}
    assert "jokers" not in rules.to_dict() and "cheating" not in rules.to_dict()
    on = Rules(deck_size=52, jokers=1, cheating=True)
    assert on.to_dict()["jokers"] == 1 and Rules.from_dict(on.to_dict()) == on


# --------------------------------------------------------------------------------------------
# R15.1 Jokers
# --------------------------------------------------------------------------------------------


def test_R15_1_jokers_only_with_52_card_decks_and_they_count_as_cards_of_the_deck() -> None:
    with pytest.raises(RulesError) as err:
        Rules(jokers=2)
    assert err.value.setting == "jokers" and "52" in str(err.value)
    with pytest.raises(RulesError) as err:
        Rules(deck_size=52, jokers=3)
    assert err.value.setting == "jokers"
    assert Rules(deck_size=52, jokers=2).cards == 54
    assert Rules(deck_size=52, jokers=2, players=9).players == 9  # 9 x 6 = 54 (R2.1)
    with pytest.raises(RulesError, match=r"R2\.1"):
        Rules(deck_size=52, jokers=2, players=10)
    double = Rules(deck_size=52, decks=2, jokers=2)
    assert [str(c) for c in jokers_of(double)] == ["Jk", "Jk#2", "Jk#3", "Jk#4"]
    assert Card.parse("Jk#3") == jokers_of(double)[2] and is_joker(Card.parse("Jk#3"))
    state = new_game(double, seed=1)
    assert len(state.all_cards()) == 108 and set(jokers_of(double)) <= set(state.all_cards())


def test_R15_1_a_joker_has_no_suit_and_is_never_trump() -> None:
    joker = Card.parse("Jk")
    assert joker.special
    with pytest.raises(ValueError, match="no suit"):
        _ = joker.suit
    for seed in range(20):
        state = new_game(JK, seed=seed)
        assert state.trump_card is not None and not is_joker(state.trump_card)


def test_R15_1_a_joker_beats_any_card_trumps_and_strict_suits_included() -> None:
    rules = Rules(deck_size=52, jokers=2, strict_suits=["c"])
    joker, second = Card.parse("Jk"), Card.parse("Jk#2")
    for attack in ("2h", "As", "Ac", "Kd"):
        assert beats(joker, Card.parse(attack), Suit.SPADES, rules)
    assert not beats(Card.parse("As"), joker, Suit.SPADES, rules)  # not even the ace of trumps
    assert not beats(second, joker, Suit.SPADES, rules)  # nor another joker


def test_R15_1_a_joker_led_must_be_taken_not_beaten_nor_transferred() -> None:
    rules = JK.replace(transfer_by_card=True, transfer_by_showing_trump=True)
    state = at(rules, ["Jk 9c", "Jk#2 As Ks", "7d 8d"], trump="s")
    state = play(state, Lead(0, "Jk"))
    assert legal(state, 1) == {Take(1)}
    # The refusal cites R15.1, which forbids it (R4.7 alone would let a trump beat any card).
    assert_illegal(state, Beat(1, "Jk", "Jk#2"), "R15.1")
    assert_illegal(state, Beat(1, "Jk", "As"), "R15.1")
    assert_illegal(state, Transfer(1, "Jk#2"), "R15.1")


def test_R15_1_a_joker_may_lead_at_any_time_and_beats_a_lead() -> None:
    state = at(JK, ["Jk 9c", "Jk#2 2h", "7d 8d"], trump="s")
    assert Lead(0, "Jk") in legal(state, 0)
    state = play(state, Lead(0, "9c"))
    assert Beat(1, "9c", "Jk#2") in legal(state, 1)


def test_R15_1_a_joker_is_thrown_in_only_while_another_joker_lies_on_the_table() -> None:
    state = at(JK, ["9c 3d", "Ts 4h 5h", "Jk Jk#2"], trump="s", stock="2c 3c 4s")
    state = play(state, Lead(0, "9c"))
    assert ThrowIn(2, "Jk") not in legal(state, 2)
    assert_illegal(state, ThrowIn(2, "Jk"), "R4.3")
    state = at(JK, ["Jk 3d", "Ts 4h 5h", "Jk#2 2d"], trump="s", stock="2c 3c 4s")
    state = play(state, Lead(0, "Jk"))
    assert ThrowIn(2, "Jk#2") in legal(state, 2)
    state = play(state, ThrowIn(2, "Jk#2"))
    assert legal(state, 1) == {Take(1)}


def test_R15_1_a_joker_counts_for_no_suit_in_a_misdeal() -> None:
    rules = Rules(deck_size=52, jokers=2, misdeal_suit_count=3)
    assert Misdeal.misdealt(rules, cards("2h 3h 4h"))
    assert not Misdeal.misdealt(rules, cards("2h 3h Jk"))
    assert not Misdeal.misdealt(rules, cards("2c Jk Jk#2"))


def _order(rules: Rules, dealt: int, then: list[str]) -> list[Card]:
    """A deck order: ``dealt`` plain cards first, then ``then``, then the rest."""
    named = [Card.parse(t) for t in then]
    plain = [c for c in plan_for(rules).deck if c not in named]
    return plain[:dealt] + named + plain[dealt:]


def test_R15_1_a_joker_turned_up_for_trump_goes_into_the_middle_and_the_next_is_turned() -> None:
    rules = Rules(players=2, deck_size=52, jokers=2)
    order = _order(rules, 12, ["Jk", "7h"])
    state = new_game(rules, deck=order)
    m = 54 - 12 - 1  # face-down cards when the joker was turned up
    assert state.trump_card == Card.parse("7h") and state.trump is Suit.HEARTS
    assert state.stock[-1] == Card.parse("7h")
    assert state.stock[m // 2 - 1] == Card.parse("Jk")  # after the first m // 2 (7h was first)
    assert len(state.stock) == 54 - 12
    assert validate_state(state) is state


def test_R15_1_a_second_joker_turned_up_is_put_back_too() -> None:
    rules = Rules(players=2, deck_size=52, jokers=2)
    state = new_game(rules, deck=_order(rules, 12, ["Jk", "Jk#2", "9d"]))
    assert state.trump_card == Card.parse("9d")
    assert Card.parse("Jk") in state.stock and Card.parse("Jk#2") in state.stock
    assert state.stock[-1] == Card.parse("9d")


def test_R15_1_no_card_left_to_turn_the_last_dealt_card_not_a_joker_shows_trump() -> None:
    rules = Rules(players=9, deck_size=52, jokers=2)  # 9 x 6 = 54: a full deal
    order = _order(rules, 52, ["Jk", "Jk#2"])  # the last two dealt cards are the jokers
    state = new_game(rules, deck=order)
    # Card k goes to seat (k + 1) % 9 (the dealer, seat 8, gets every ninth): the jokers went
    # to seats 7 and 8, the last plain card to seat 6.
    shown = order[51]
    assert state.stock == () and state.trump_card == shown and state.trump is shown.suit
    assert shown in state.hands[6] and shown in state.known[6]
    assert all(shown not in state.known[p] for p in range(9) if p != 6)
    assert validate_state(state) is state


def test_R15_1_a_stock_of_jokers_alone_stays_face_down_and_a_dealt_card_shows_trump() -> None:
    rules = Rules(players=2, deck_size=52, jokers=2, hand_size=26)  # 54 cards, 52 dealt
    order = _order(rules, 52, ["Jk", "Jk#2"])  # the two cards left are the jokers
    state = new_game(rules, deck=order)
    shown = order[51]  # the last dealt card (seat 1, the dealer)
    assert set(state.stock) == {Card.parse("Jk"), Card.parse("Jk#2")}
    assert state.trump_card == shown and state.trump is shown.suit
    assert state.face_up is None
    assert shown in state.hands[1] and shown in state.known[1]  # shown to all (R2.4)
    assert shown not in state.known[0]
    assert validate_state(state) is state
    # Drawing the jokers draws no face-up card; the view and a sampled state agree with it.
    v = view(state, 0)
    assert v.face_up is None and v.stock_size == 2
    sampled = determinize(v, random.Random(3))
    assert set(sampled.stock) == set(state.stock) and sampled.trump_card == shown
    assert sampled.hands[0] == state.hands[0] and shown in sampled.hands[1]


def test_R15_1_the_card_that_fixed_trump_may_be_played_while_jokers_alone_are_left() -> None:
    rules = Rules(players=2, deck_size=52, jokers=2, hand_size=26)
    order = _order(rules, 52, ["Jk", "Jk#2"])
    state = new_game(rules, deck=order)
    shown = state.trump_card
    assert shown is not None and state.face_up is None
    holder = next(p for p in range(2) if shown in state.hands[p])
    # Play it: the holder leads it, or, defending, beats the lead with it or takes.
    while shown in state.hands[holder] and not state.is_over:
        mine = [a for a in legal_actions(state) if shown in getattr(a, "cards", ())]
        mine += [a for a in legal_actions(state) if getattr(a, "card", None) == shown]
        state = apply(state, mine[0] if mine else legal_actions(state)[0])
    assert shown not in state.hands[holder] and state.stock
    assert validate_state(state) is state
    assert state_from_dict(state_to_dict(state)) == state
    for p in range(2):
        v = view(state, p)
        assert v.face_up is None
        sampled = determinize(v, random.Random(p))
        assert set(legal_actions(sampled, p)) == set(legal_actions(state, p))


def test_R15_1_games_whose_stock_may_hold_jokers_alone_play_to_the_end() -> None:
    # One card left after the deal: a joker in about 1 deal of 53, and then R15.1's last
    # sentence decides; such deals and some others are played out.
    rules = Rules(players=4, deck_size=52, jokers=1, hand_size=13)
    alone = [s for s in range(400) if not new_game(rules, seed=s).face_up]
    assert alone  # seeds whose one card left is the joker
    for seed in [*alone[:4], *range(6)]:
        state = new_game(rules, seed=seed)
        if seed in alone:
            assert state.stock == (Card.parse("Jk"),) and state.trump_card is not None
            assert any(state.trump_card in k for k in state.known)
        rng = random.Random(seed)
        while not state.is_over:
            assert sorted(state.all_cards()) == sorted(plan_for(rules).deck)  # R13.4
            state = apply(state, rng.choice(legal_actions(state)))
        assert validate_state(state) is state


def test_R15_1_with_jokers_alone_in_the_stock_there_is_no_face_up_card_to_exchange() -> None:
    rules = Rules(players=2, deck_size=52, jokers=2, trump_six_exchange=True)
    hands = ["2d 7h", "8h Qs 9d"]
    state = at(rules, hands, trump="d", stock="Jk", trump_card="9d", exchange=["2d"])
    assert all(not isinstance(a, ExchangeTrump) for a in legal_actions(state))
    err = assert_illegal(state, ExchangeTrump(0, "2d"), "R12.1")
    assert "only jokers" in str(err)


def test_R15_5_determinize_samples_states_of_cheating_games_with_benched_throwers() -> None:
    # A caught thrower is benched (he counts as passed, a public fact of the state's extra);
    # the sampled state must be checked with that fact, or another seat's pass looks illegal.
    rules = Rules(players=4, deck_size=52, jokers=2, decks=2, cheating=True)
    benched = 0
    for seed in range(12):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            benched += bool(state.fact("benched"))
            assert validate_state(state) is state  # the module's facts pass its own check
            p = next_actor(state)
            sampled = determinize(view(state, p), random.Random(seed))
            assert sampled.extra == view(state, p).extra
            assert set(legal_actions(sampled, p)) == set(legal_actions(state, p))
            state = apply(state, rng.choice(legal_actions(state)))
    assert benched > 0


@pytest.mark.parametrize(
    ("name", "setting"),
    [
        ("jokers", "jokers"),
        ("throw-in-by-suit", "throw_in_by_suit"),
        ("show-sends-back", "show_sends_back"),
        ("pogony", "pogony"),
        ("cheating", "cheating"),
    ],
)
def test_R15_an_extension_is_switched_on_by_its_setting_not_named_a_house_rule(
    name: str, setting: str
) -> None:
    # Named, it would skip its setting's checks (R15.3 needs transfer_by_showing_trump).
    with pytest.raises(RulesError, match=f"house_rules: '{name}' is an R15 extension.*{setting}"):
        Rules(house_rules=[name])
    # Misspelt, it is unknown, and the message points to the setting (not to the name).
    hint = f"unknown house rule .*switched on by its setting {setting}"
    with pytest.raises(RulesError, match=hint):
        Rules(house_rules=[name.upper()])


def test_R15_5_a_position_with_malformed_cheating_facts_is_refused_naming_them() -> None:
    rules = Rules(cheating=True)
    hands = ["7c 8h", "9c Td"]
    used = {"6c", "7c", "8h", "9c", "Td", "8c"}
    rest = [str(c) for c in plan_for(rules).deck if str(c) not in used]

    def position(extra: dict[str, Any]) -> GameState:
        return new_position(
            rules, hands=hands, discard=rest, trump="h", attacker=0, defender=1,
            table=[("8c", None), ("6c", None)], extra=extra,
        )  # fmt: skip

    assert position({"cheats": (("6c", 0),)}).fact("cheats") == (("6c", 0),)
    for extra, words in [
        ({"cheats": "garbage"}, "cheats: must be pairs"),
        ({"cheats": (("8c",),)}, "cheats: must be pairs"),
        ({"cheats": 5}, "cheats: must be pairs"),
        ({"cheats": (("xx", 0),)}, "cheats: 'xx' is not a card"),
        ({"cheats": (("9c", 0),)}, "cheats: 9c is not on the table"),
        ({"cheats": (("8c", 5),)}, "cheats: the owner of 8c is not a seat"),
        ({"benched": "x"}, "benched: must be seats"),
        ({"caught": "yes"}, "caught: must be true or false"),
    ]:
        with pytest.raises(PositionError, match=f"extra: {words}"):
            position(extra)
    # A saved state is read with the same check.
    data = state_to_dict(position({}))
    with pytest.raises(PositionError, match="extra: cheats"):
        state_from_dict({**data, "extra": {"cheats": "garbage"}})


def test_R13_4_new_position_takes_the_modules_facts_and_refuses_bad_ones() -> None:
    hands = ["7h 9d", "8h Qs"]
    two = Rules(players=2, deck_size=52, jokers=2)
    state = at(two, hands, trump="d", stock="Jk 2d", extra={"b": (1, 2), "a": "x"})
    assert state.extra == (("a", "x"), ("b", (1, 2))) and state.fact("b") == (1, 2)
    for extra, words in [
        ({"a": float("nan")}, "extra/a: must be a finite number"),
        ({"a": {"b": 1}}, "extra/a: must be a number"),
        ([("a", 1), ("a", 2)], "extra: a is given twice"),
        ([("a", 1, 2)], "extra/0: must be a pair"),
        ({1: 1}, "extra: a name must be text"),
        (5, "extra: must be an object of names"),
        ({"a": 10**5000}, "extra/a: .*digits"),
        ({"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}, "deep"),
    ]:
        with pytest.raises(PositionError, match=words):
            at(two, hands, trump="d", stock="Jk 2d", extra=extra)


def test_R15_1_a_position_with_a_stock_of_jokers_names_the_dealt_card_that_fixed_trump() -> None:
    hands = ["7h 9d", "8h Qs"]
    two = Rules(players=2, deck_size=52, jokers=2)
    state = at(two, hands, trump="d", stock="Jk", trump_card="9d")
    assert state.trump_card == Card.parse("9d") and state.face_up is None
    assert Card.parse("9d") in state.known[0]  # it was shown to all
    played = at(two, hands, trump="d", stock="Jk", trump_card="Td")  # played since: discarded
    assert played.face_up is None and view(played, 0).face_up is None
    with pytest.raises(PositionError, match=r"R2\.4"):
        at(two, hands, trump="d", stock="Jk 5c", trump_card="9d")  # not jokers alone


# --------------------------------------------------------------------------------------------
# R15.2 Suit throw-ins
# --------------------------------------------------------------------------------------------

SUITS = Rules(players=3, throw_in_by_suit=True)


def test_R15_2_a_card_of_a_suit_on_the_table_may_be_thrown_in() -> None:
    state = at(SUITS, ["7h 8c", "9h Kc Kd", "Qh Ac 6d"], trump="s", stock="6c 7c 8s")
    state = play(state, Lead(0, "7h"), Beat(1, "7h", "9h"))
    assert ThrowIn(2, "Qh") in legal(state, 2)  # a heart is on the table
    assert ThrowIn(2, "Ac") not in legal(state, 2) and ThrowIn(2, "6d") not in legal(state, 2)
    assert_illegal(state, ThrowIn(2, "Ac"), "R4.3")


def test_R15_2_the_beating_card_s_suit_counts_too() -> None:
    state = at(SUITS, ["7h 8c", "6s Kc Kd", "Qs Ac 6d"], trump="s", stock="6c 7c 8s")
    state = play(state, Lead(0, "7h"), Beat(1, "7h", "6s"))
    assert ThrowIn(2, "Qs") in legal(state, 2)  # the trump that beat is a spade


def test_R15_2_suit_throw_ins_stay_within_the_attack_limit() -> None:
    state = at(SUITS, ["7h 8h 9h", "Th Jh", "Qd Kd"], trump="s", stock="6c 7c 8s")
    state = play(state, Lead(0, "7h"), ThrowIn(0, "8h"))
    assert len(state.table) == 2 == state.defender_hand
    assert ThrowIn(0, "9h") not in legal(state, 0)
    assert_illegal(state, ThrowIn(0, "9h"), "R4.6")


def test_R15_2_a_joker_has_no_suit_for_suit_throw_ins() -> None:
    rules = Rules(players=3, deck_size=52, jokers=2, throw_in_by_suit=True)
    state = at(rules, ["7h 8c", "Jk 2d 3d", "2c 4h 5d"], trump="s", stock="6c 7c 8s")
    state = play(state, Lead(0, "8c"), Beat(1, "8c", "Jk"))
    assert ThrowIn(2, "2c") in legal(state, 2)  # clubs: the lead's suit
    assert ThrowIn(2, "5d") not in legal(state, 2)  # the joker gives no suit
    state = at(rules, ["Jk 8c", "2d 3d 4d", "Jk#2 4h 5d"], trump="s", stock="6c 7c 8s")
    state = play(state, Lead(0, "Jk"))
    assert {a for a in legal(state, 2) if isinstance(a, ThrowIn)} == {ThrowIn(2, "Jk#2")}


def test_R15_2_a_transfer_still_needs_every_attack_card_to_share_one_rank() -> None:
    rules = SUITS.replace(transfer_by_card=True)
    state = at(rules, ["7h 9h", "7c Kc Kd Ks", "Qd Ac 6d Ad"], trump="s", stock="6c 7d 8s")
    state = play(state, Lead(0, "7h"))
    assert Transfer(1, "7c") in legal(state, 1)
    state = play(state, ThrowIn(0, "9h"))  # a heart, not a seven
    assert Transfer(1, "7c") not in legal(state, 1)
    assert_illegal(state, Transfer(1, "7c"), "R15.2")


# --------------------------------------------------------------------------------------------
# R15.3 The reverse show
# --------------------------------------------------------------------------------------------

SHOW = Rules(players=3, transfer_by_card=True, transfer_by_showing_trump=True, show_sends_back=True)


def test_R15_3_show_sends_back_needs_the_show_transfer() -> None:
    with pytest.raises(RulesError) as err:
        Rules(show_sends_back=True)
    assert err.value.setting == "show_sends_back"


def test_R15_3_a_show_sends_the_attack_counterclockwise_in_three_players() -> None:
    state = at(SHOW, ["7h 8c 9c", "7s 7d Kd", "Qd Ad 6d"], trump="s", stock="6c 7c 8s")
    shown = play(state, Lead(0, "7h"), ShowTrump(1, "7s"))
    assert (shown.attacker, shown.defender) == (1, 0)  # back to the leader, not on to seat 2
    assert shown.defender_hand == 2 and validate_state(shown) is shown
    by_card = play(state, Lead(0, "7h"), Transfer(1, "7d"))
    assert (by_card.attacker, by_card.defender) == (1, 2)  # a card still goes clockwise


def test_R15_3_in_four_players_a_show_after_a_transfer_returns_to_the_transferer() -> None:
    rules = SHOW.replace(players=4)
    hands = ["7h 8c 9c", "7d Kd Kh", "7s Qd 6d", "Ah Ac 6h"]
    state = at(rules, hands, trump="s", stock="6c 7c 8s")
    state = play(state, Lead(0, "7h"), Transfer(1, "7d"))
    assert (state.attacker, state.defender) == (1, 2)
    state = play(state, ShowTrump(2, "7s"))
    assert (state.attacker, state.defender) == (2, 1)  # counterclockwise from seat 2


def test_R15_3_R9_2_is_checked_against_the_counterclockwise_player() -> None:
    state = at(SHOW, ["7h 7c", "7s Kd Kh", "Qd Ad 6d"], trump="s", stock="6c 8c 8s")
    state = play(state, Lead(0, "7h"), ThrowIn(0, "7c"))
    # Seat 0 now holds no card: two attack cards exceed his hand (seat 2 could take them).
    assert_illegal(state, ShowTrump(1, "7s"), "R9.2")


def test_R15_3_the_show_passes_over_a_player_who_is_out() -> None:
    rules = SHOW.replace(players=4)
    hands = ["Kc Kh", "7h 8h", "7c Qh 9d", ""]
    state = at(rules, hands, trump="s", attacker=1, places=[None, None, None, 1])
    state = play(state, Lead(1, "7h"), Transfer(2, "7c"))
    assert (state.attacker, state.defender) == (2, 0)  # seat 3 is out
    state = at(
        rules,
        ["7s Kc Kh", "7h 8h", "7c Qh 9d", ""],
        trump="s",
        attacker=1,
        places=[None, None, None, 1],
    )
    state = play(state, Lead(1, "7h"), Transfer(2, "7c"), ShowTrump(0, "7s"))
    assert (state.attacker, state.defender) == (0, 2)  # counterclockwise past seat 3


def test_R15_3_in_team_play_the_show_goes_to_the_previous_opponent() -> None:
    rules = SHOW.replace(players=4, teams=[[0, 2], [1, 3]])
    assert previous_opponent(rules, [True] * 4, 1) == 0
    assert previous_opponent(rules, [False, True, True, True], 1) == 2  # 0 out, 3 a partner
    state = at(rules, ["7h 8c 9c", "7s Kd Kh", "Qd Ad 6d", "Ah Ac 6h"], trump="s", stock="6s")
    state = play(state, Lead(0, "7h"), ShowTrump(1, "7s"))
    assert (state.attacker, state.defender) == (1, 0)  # clockwise it would have been seat 2


# --------------------------------------------------------------------------------------------
# R15.4 Pogony
# --------------------------------------------------------------------------------------------

POGONY = Rules(players=2, pogony=True)


def _last_bout(attack: str, defence: str, *actions: Any) -> GameState:
    state = at(POGONY, [attack, defence], trump="s")
    return play(state, *actions)


def test_R15_4_a_durak_who_took_one_six_gets_one_epaulette() -> None:
    end = _last_bout("6c", "7h 8h 9h", Lead(0, "6c"), Take(1))
    assert end.result is not None and end.result.durak == 1
    assert end.result.fact("epaulettes") == 1 == epaulettes(end.result)


def test_R15_4_two_sixes_two_epaulettes_a_trump_six_included() -> None:
    end = _last_bout("6c 6s", "7h 8h 9h", Lead(0, "6c"), Take(1), ThrowIn(0, "6s"))
    assert end.result is not None and end.result.durak == 1
    assert epaulettes(end.result) == 2


def test_R15_4_three_sixes_still_two_epaulettes() -> None:
    end = _last_bout(
        "6c 6d 6h", "7h 8h 9h Tc", Lead(0, "6c"), Take(1), ThrowIn(0, "6d"), ThrowIn(0, "6h")
    )
    assert end.result is not None and end.result.durak == 1
    assert epaulettes(end.result) == 2


def test_R15_4_no_epaulette_without_a_take_or_without_sixes() -> None:
    end = _last_bout("7c", "8h 9h", Lead(0, "7c"), Take(1))
    assert end.result is not None and end.result.durak == 1 and epaulettes(end.result) == 0
    # The durak did not take the last bout: seat 1 beat it, seat 0 is left holding cards.
    state = at(Rules(players=2, pogony=True), ["6c Ah", "7c"], trump="s")
    end = play(state, Lead(0, "6c"), Beat(1, "6c", "7c"))
    assert end.result is not None and end.result.durak == 0 and epaulettes(end.result) == 0
    off = play(at(Rules(players=2), ["6c", "7h 8h 9h"], trump="s"), Lead(0, "6c"), Take(1))
    assert off.result is not None and off.result.extra == ()


def test_R15_4_epaulettes_are_in_the_result_of_a_record() -> None:
    rules = Rules(players=3, pogony=True)
    start = state = new_game(rules, seed=11)
    rng = random.Random(11)
    played = []
    while not state.is_over:
        action = rng.choice(legal_actions(state))
        played.append(action)
        state = apply(state, action)
    record = Record.of_game(start, played, state)
    assert '"epaulettes"' in dumps(record)
    assert replay(loads(dumps(record))).result == state.result


# --------------------------------------------------------------------------------------------
# R15.5 Cheating
# --------------------------------------------------------------------------------------------

CHEAT = Rules(players=3, cheating=True)


def _cheat_beat() -> GameState:
    """Seat 0 leads 9h; the defender, seat 1, "beats" it with 7c: a cheat (R4.7)."""
    # Seat 2 holds no card (he will draw): he can catch, but has nothing to throw in.
    state = at(CHEAT, ["9h 8d", "7c Ks Kd", ""], trump="s", stock="6c 7d 8c 6d 7h 8h 9c 6h 8s")
    state = play(state, Lead(0, "9h"))
    assert Beat(1, "9h", "7c") in legal(state, 1)
    assert is_cheat(_bout(state), Beat(1, "9h", "7c"))
    assert not is_cheat(_bout(state), Beat(1, "9h", "Ks"))
    return play(state, Beat(1, "9h", "7c"))


def test_R15_5_a_cheat_beat_stands_on_the_table_and_is_public() -> None:
    state = _cheat_beat()
    assert state.table == ((Card.parse("9h"), Card.parse("7c")),)
    assert cheats_on_table(state) == ((Card.parse("7c"), 1),)
    assert Catch(0, "7c") in legal(state, 0) and Catch(2, "7c") in legal(state, 2)
    assert Catch(1, "7c") not in legal(state, 1)  # not the cheat's owner
    assert_illegal(state, Catch(1, "7c"), "R15.5")


def test_R15_5_a_cheat_beat_caught_goes_back_and_the_defender_takes_at_once() -> None:
    state = _cheat_beat()
    end, events = apply_with_events(state, Catch(2, "7c"))
    assert events[0] == Acted(2, "p2 catch 7c")
    assert BoutEnded(1, True, cards("9h")) in events  # no more throw-ins: taken at once
    assert end.table == () and end.bouts == state.bouts + 1
    assert set(cards("9h 7c Ks Kd")) <= set(end.hands[1])
    assert Card.parse("7c") in end.known[1]
    assert end.attacker == 2  # R6.2: the defender loses his turn


def test_R15_5_a_cheat_throw_in_caught_goes_back_with_its_beating_card() -> None:
    state = at(
        CHEAT.replace(throw_order="free"),
        ["9h Qc", "Th Ks Kd 8d", "7c Jd"],
        trump="s",
        stock="6c 7d 8c 6d 7h 8h 9c 6h 6s",
    )
    state = play(state, Lead(0, "9h"), Beat(1, "9h", "Th"), Pass(0))
    assert ThrowIn(2, "7c") in legal(state, 2) and is_cheat(_bout(state), ThrowIn(2, "7c"))
    state = play(state, ThrowIn(2, "7c"), Beat(1, "7c", "Ks"), Pass(0))
    assert cheats_on_table(state) == ((Card.parse("7c"), 2),)
    assert state.passed == frozenset({0})
    caught = play(state, Catch(0, "7c"))
    assert caught.table == ((Card.parse("9h"), Card.parse("Th")),)
    assert Card.parse("7c") in caught.hands[2] and Card.parse("7c") in caught.known[2]
    assert Card.parse("Ks") in caught.hands[1] and Card.parse("Ks") in caught.known[1]
    assert caught.passed == frozenset()  # a catch clears every pass (R4.9)
    # The thrower counts as passed for the rest of the bout, even once the table changes.
    assert_illegal(caught, ThrowIn(2, "Jd"), "R15.5")
    assert 2 not in acting(caught)
    end = play(caught, Pass(0))
    assert end.table == () and end.bouts == caught.bouts + 1
    # He still draws as an attacker (R5.1): after the leader, before the defender.
    assert len(end.hands[0]) == 6 and len(end.hands[2]) == 6 and len(end.hands[1]) == 3


def test_R15_5_catching_a_card_that_is_not_a_cheat_is_refused() -> None:
    state = at(CHEAT, ["9h Qc", "Th Ks Kd", "Jd Qd"], trump="s", stock="6c 7d 8s")
    state = play(state, Lead(0, "9h"), Beat(1, "9h", "Th"))
    err = assert_illegal(state, Catch(0, "Th"), "R15.5")
    assert "not a cheat" in str(err)
    assert_illegal(state, Catch(0, "9h"), "R15.5")  # a lead is never a cheat
    assert "not on the table" in str(assert_illegal(state, Catch(2, "Ks"), "R15.5"))


def test_R15_5_an_uncaught_cheat_stands_when_the_bout_ends() -> None:
    state = _cheat_beat()
    end = play(state, Pass(0))
    assert end.table == () and end.defences == state.defences + 1
    assert set(cards("9h 7c")) <= set(end.discard)  # a successful defence, cheat and all
    assert end.fact("cheats") is None  # the bout's cheats are forgotten


def test_R15_5_a_take_already_declared_stands_after_a_catch() -> None:
    state = at(CHEAT, ["9h Qc", "Th Ks Kd 8d", "7c Jd 9d"], trump="s", stock="6c 7d 8c 6s")
    state = play(state, Lead(0, "9h"), Take(1), Pass(0), ThrowIn(2, "7c"))
    assert state.taken and cheats_on_table(state) == ((Card.parse("7c"), 2),)
    state = play(state, Catch(1, "7c"))  # the defender catches the thrower
    assert state.taken and state.table == ((Card.parse("9h"), None),)
    end = play(state, Pass(0))
    assert Card.parse("9h") in end.hands[1] and Card.parse("7c") in end.hands[2]


def test_R15_5_who_may_play_the_limit_and_the_hand_still_hold() -> None:
    state = at(CHEAT, ["9h Qc 6d", "Th Js", "7c Jd"], trump="s", stock="6c 7d 8s")
    state = play(state, Lead(0, "9h"))
    assert_illegal(state, ThrowIn(2, "7c"), "R4.5")  # the main attacker throws in first
    state = play(state, Pass(0), ThrowIn(2, "7c"))  # a cheat: no seven on the table
    assert_illegal(state, ThrowIn(0, "Qc"), "R4.6")  # the defender held two cards
    assert_illegal(state, Beat(1, "9h", "Ks"), "R13.1")  # the card must be his


def test_R15_5_leads_and_transfers_are_never_cheats() -> None:
    rules = CHEAT.replace(transfer_by_card=True)
    state = at(rules, ["9h Qc", "8c Ks Kd", "Jd Qd"], trump="s", stock="6c 7d 8s")
    assert not is_cheat(_bout(state), Lead(0, "9h"))
    state = play(state, Lead(0, "9h"))
    assert_illegal(state, Transfer(1, "8c"), "R9.1")  # a transfer card must match
    state = play(state, Take(1), ThrowIn(0, "Qc"))  # a cheat throw-in: mixed ranks
    assert cheats_on_table(state) == ((Card.parse("Qc"), 0),)


def test_R15_5_a_catch_is_never_the_decision_R13_2_waits_for() -> None:
    state = _cheat_beat()
    # Seat 0 may pass or throw in, and catch; seat 2 may only catch.
    assert legal(state, 2) == {Catch(2, "7c")}
    assert acting(state) == (0,)
    assert next_actor(state) == 0
    # The bout end does not wait for the catch: when seat 0 passes, the bout ends.
    assert play(state, Pass(0)).table == ()


def test_R15_5_a_finished_player_catches_nothing() -> None:
    state = at(CHEAT, ["9h", "7c Ks Kd", "Jd Qd"], trump="s")
    state = play(state, Lead(0, "9h"), Beat(1, "9h", "7c"))
    assert legal(state, 0) == set()  # his hand is empty, the stock too: finished (R7.1)
    assert_illegal(state, Catch(0, "7c"), "R7.1")
    assert Catch(2, "7c") in legal(state, 2)


def test_R15_5_catch_in_notation_records_and_state_json() -> None:
    assert parse_action("p2 catch 7c") == Catch(2, "7c")
    assert str(Catch(0, "Jk#2")) == "p0 catch Jk#2"
    rules = Rules(players=3, cheating=True)
    start = state = new_game(rules, seed=4)
    rng = random.Random(4)
    played = []
    caught = 0
    for _ in range(3000):
        if state.is_over:
            break
        actions = legal_actions(state)
        catches = [a for a in actions if isinstance(a, Catch)]
        action = catches[0] if catches else rng.choice(actions)
        caught += isinstance(action, Catch)
        played.append(action)
        state = apply(state, action)
        assert state_from_dict(state_to_dict(state)) == state
    assert state.is_over and caught > 0
    record = Record.of_game(start, played, state)
    assert "catch" in dumps(record)
    assert replay(loads(dumps(record))) == state


def test_R15_4_R11_3_a_match_counts_epaulettes_per_player() -> None:
    from durak.bots import RandomBot
    from durak.match import epaulettes as match_epaulettes
    from durak.match import play_match

    with_sixes = _last_bout("6c 6s", "7h 8h 9h", Lead(0, "6c"), Take(1), ThrowIn(0, "6s"))
    one_six = _last_bout("6c", "7h 8h 9h", Lead(0, "6c"), Take(1))
    assert with_sixes.result is not None and one_six.result is not None
    results = [with_sixes.result, one_six.result, with_sixes.result]
    assert match_epaulettes(results) == {0: 0, 1: 5}
    rules = Rules(players=3, pogony=True)
    match = play_match(rules, [RandomBot(s) for s in range(3)], games=6, seed=2)
    counted = match_epaulettes(match.results)
    assert sum(counted.values()) == sum(epaulettes(r) for r in match.results)
    assert all(counted[p] == 0 for p in range(3) if all(r.durak != p for r in match.results))


# --------------------------------------------------------------------------------------------
# Bots with the extensions on
# --------------------------------------------------------------------------------------------


def test_R15_5_the_rule_bot_catches_what_it_sees_and_never_cheats_unless_told() -> None:
    from durak.bots import RuleBot, make_bot
    from durak.views import view

    state = _cheat_beat()
    assert RuleBot(1).choose(view(state, 0)) == Catch(0, "7c")
    assert make_bot("rule:cheats=true", 1).cheats is True  # type: ignore[attr-defined]
    rules = Rules(players=3, cheating=True, throw_in_by_suit=True)
    bots = [RuleBot(s) for s in range(3)]
    chosen = caught = 0
    for seed in range(4):
        state = new_game(rules, seed=seed)
        for _ in range(3000):
            if state.is_over:
                break
            actor = next_actor(state)
            assert actor is not None
            action = bots[actor].choose(view(state, actor))
            assert not is_cheat(state, action), f"the rule bot cheated: {action}"
            chosen += 1
            state = apply(state, action)
        assert state.is_over
    cheater = RuleBot(5, cheats=True)
    state = at(CHEAT, ["9h 6c 7d", "Th Js Qs", "Jd Qd"], trump="s", stock="6d 7h 8s")
    state = play(state, Lead(0, "9h"), Beat(1, "9h", "Th"))
    action = cheater.choose(view(state, 0))
    caught += isinstance(action, ThrowIn) and is_cheat(state, action)
    assert chosen > 100 and caught == 1  # told to, it throws in a card that matches nothing


def test_R15_the_search_bot_plays_games_with_every_extension_on() -> None:
    from durak.bots import RuleBot, SearchBot
    from durak.views import view

    rules = Rules(players=3, **ALL_ON)
    search = SearchBot(0, time_limit=None, playouts=4, max_actions=3)
    assert search.choose(view(_cheat_beat(), 0)) == Catch(0, "7c")
    bots = [RuleBot(0), RuleBot(1), RuleBot(2)]
    state = new_game(rules, seed=7)
    asked = 0
    for step in range(3000):
        if state.is_over:
            break
        actor = next_actor(state)
        assert actor is not None
        seen = view(state, actor)
        action = bots[actor].choose(seen)
        if step % 20 == 0 and len(seen.legal_actions) > 1 and asked < 6:
            # The search bot, asked in the same positions, plays legal, fair actions too.
            choice = search.choose(seen)
            assert choice in seen.legal_actions and not is_cheat(state, choice)
            asked += 1
        state = apply(state, action)
    assert state.is_over and state.result is not None and asked == 6
    assert state.result.fact("epaulettes") in (0, 1, 2)


# --------------------------------------------------------------------------------------------
# RL adapters: jokers have card indices, a catch has its action ids
# --------------------------------------------------------------------------------------------


def test_R15_rl_encoding_gives_jokers_indices_and_catches_ids() -> None:
    from durak.rl import encoding as enc

    rules = Rules(players=3, **ALL_ON)
    layout = {p.name: p for p in enc.action_layout(rules)}
    assert layout["catch"].shape == (54,) and enc.card_index(Card.parse("Jk#2"), rules) == 53
    assert enc.action_space_size(Rules()) == 363  # rules without them keep their ids
    state = _cheat_beat()
    i = enc.encode(Catch(0, "7c"), state)
    assert enc.decode(i, state, 0) == Catch(0, "7c") and enc.describe(i, CHEAT) == "catch 7c"
    assert i in enc.legal_ids(state, 0)
    rng = random.Random(3)
    state = new_game(rules, seed=3)
    seen = 0
    while not state.is_over:
        for p in range(3):
            acts = legal_actions(state, p)
            assert sorted(enc.legal_ids(state, p)) == sorted(enc.encode(a, state) for a in acts)
            seen += sum(isinstance(a, Catch) for a in acts)
        state = apply(state, rng.choice(legal_actions(state)))
    assert seen > 0


def test_R15_pettingzoo_api_test_passes_with_every_extension_on() -> None:
    import warnings

    need("pettingzoo")
    need("gymnasium")
    from pettingzoo.test import api_test

    from durak.rl.pettingzoo_env import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env("podkidnoy", 3, **ALL_ON), num_cycles=200)


def test_R15_openspiel_random_sim_test_passes_with_every_extension_on() -> None:
    import json

    pyspiel = need("pyspiel")
    import durak.rl.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_durak", {"players": 3, "rules": json.dumps(ALL_ON)})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_R15_5_views_show_the_cheats_and_samples_keep_them() -> None:
    from durak.serialize import view_from_dict, view_to_dict
    from durak.views import determinize, view

    state = at(
        CHEAT.replace(throw_order="free"),
        ["9h Qc", "Th Ks Kd 8d", "7c Jd"],
        trump="s",
        stock="6c 7d 8c 6d 7h 8h 9c 6h 6s",
    )
    state = play(state, Lead(0, "9h"), ThrowIn(2, "7c"))
    seen = view(state, 1)
    assert dict(seen.extra)["cheats"] == (("7c", 2),)  # public (R15.5)
    assert view_from_dict(view_to_dict(seen)) == seen
    state = play(state, Beat(1, "9h", "Th"), Catch(1, "7c"))  # seat 2 is now benched
    seen = view(state, 0)
    assert seen.done == frozenset({2}) and dict(seen.extra)["benched"] == (2,)
    for seed in range(5):
        sample = determinize(seen, random.Random(seed))
        assert view(sample, 0).done == seen.done
        assert view(sample, 0).legal_actions == seen.legal_actions
    hidden = _last_bout("6c", "7h 8h 9h", Lead(0, "6c"))
    assert view(hidden, 1).extra == ()  # no module fact is public without cheating


def test_R15_3_two_shows_send_the_attack_back_to_the_leader_and_on() -> None:
    from durak.views import determinize, view

    rules = SHOW.replace(players=4, decks=2)
    hands = ["7h 7s#2 9c", "7s Kd Kh", "Qd Ad 6d", "Ah Ac 6h"]
    state = at(rules, hands, trump="s", stock="6c 7c 8s")
    state = play(state, Lead(0, "7h"), ShowTrump(1, "7s"))
    assert (state.attacker, state.defender) == (1, 0)
    state = play(state, ShowTrump(0, "7s#2"))
    assert (state.leader, state.attacker, state.defender) == (0, 0, 3)  # counterclockwise from 0
    assert validate_state(state) is state and state_from_dict(state_to_dict(state)) == state
    seen = view(state, 1)
    assert view(determinize(seen, random.Random(1)), 1).legal_actions == seen.legal_actions


def test_R15_5_any_number_of_catches_per_bout() -> None:
    rules = CHEAT.replace(throw_order="free")
    hands = ["9h 8c Qc", "Th Ks Kd 8d", "7c Jd 6d"]
    state = at(rules, hands, trump="s", stock="6c 7d 9c 6h 7h 8h 6s")
    state = play(state, Lead(0, "9h"), ThrowIn(2, "7c"), ThrowIn(0, "8c"))
    assert [c for c, _ in cheats_on_table(state)] == list(cards("7c 8c"))
    state = play(state, Catch(1, "7c"), Catch(1, "8c"))
    assert state.table == ((Card.parse("9h"), None),) and cheats_on_table(state) == ()
    assert dict(state.extra)["benched"] == (0, 2)
    assert {a.player for a in legal_actions(state) if not isinstance(a, Catch)} == {1}
