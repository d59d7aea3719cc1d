"""Rule modules added from outside the package (issue: pluggability)."""

from __future__ import annotations

import importlib
import pickle
import random
import sys
from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from durak import (
    Beat,
    GameState,
    IllegalActionError,
    Lead,
    Rank,
    Result,
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
    build_deck,
    check,
    is_legal,
    legal_actions,
    new_game,
    new_position,
    next_actor,
    validate_state,
)
from durak._step import _bout
from durak.actions import Action
from durak.cards import Card, special_card
from durak.errors import InvalidCardError, InvalidError, PositionError
from durak.events import Acted, GameOver
from durak.rules import families
from durak.rules.beating import beats
from durak.rules.bout import Bout
from durak.rules.modules import RuleModule, plan_for, register


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


class AceLeadsOnlyChecked(RuleModule):
    """NoAceLead's rule, with ``checks`` naming the one kind its check judges: a check asked
    about any other kind fails the game it is asked in."""

    name = "test-no-ace-lead-checks"
    description = "an ace may not lead while the attacker holds another rank (leads judged)"
    rule = "house:no-ace-lead-checks"
    checks = (Lead,)

    def check(self, state: GameState, action: Action) -> tuple[str, str] | None:
        assert isinstance(action, Lead), f"asked about {action}, not a lead"
        hand = state.hands[action.player]
        if action.cards[0].rank == Rank.ACE and any(c.rank != Rank.ACE for c in hand):
            return self.rule, "an ace may not lead"
        return None


class TransfersChecked(RuleModule):
    """A check that judges transfers alone and forbids transfers of hearts."""

    name = "test-no-heart-transfer"
    description = "a heart may not be transferred"
    rule = "house:no-heart-transfer"
    checks = (Transfer,)

    def check(self, state: GameState, action: Action) -> tuple[str, str] | None:
        assert isinstance(action, Transfer), f"asked about {action}, not a transfer"
        if any(c.suit == Suit.HEARTS for c in action.cards):
            return self.rule, "a heart may not be transferred"
        return None


register(AceLeadsOnlyChecked())
register(TransfersChecked())


def test_R13_3_a_check_with_checks_is_asked_about_its_kinds_alone_and_still_forbids_them() -> None:
    rules = Rules(players=3, house_rules=["test-no-ace-lead-checks"])
    refused = 0
    for seed in range(20):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            attacker = state.attacker
            hand = state.hands[attacker]
            if not state.table and any(c.rank != Rank.ACE for c in hand):
                for ace in (c for c in hand if c.rank == Rank.ACE):
                    lead = Lead(attacker, (ace,))
                    assert lead not in legal_actions(state)
                    assert check(state, lead) == ("house:no-ace-lead-checks", "an ace may not lead")
                    with pytest.raises(IllegalActionError, match="no-ace-lead-checks"):
                        apply(state, lead)
                    refused += 1
            state = apply(state, rng.choice(legal_actions(state)))
    assert refused > 0


def test_R13_1_a_check_of_a_kind_the_rules_do_not_offer_leaves_the_listing_as_without_it() -> None:
    plain = Rules(players=2)
    ruled = Rules(players=2, house_rules=["test-no-heart-transfer"])
    assert plan_for(ruled).plain  # Podkidnoy has no transfer: nothing for the check to judge
    for seed in range(10):
        a, b = new_game(plain, seed=seed), new_game(ruled, seed=seed)
        rng = random.Random(seed)
        while not a.is_over:
            listed = legal_actions(a)
            assert legal_actions(b) == listed
            pick = rng.randrange(len(listed))
            a, b = apply(a, listed[pick]), apply(b, legal_actions(b)[pick])
        assert b.result == a.result


def test_R9_1_a_check_that_judges_transfers_forbids_them_in_every_legality_path() -> None:
    rules = Rules(players=3, transfer_by_card=True, house_rules=["test-no-heart-transfer"])
    assert not plan_for(rules).plain
    hands = ["7c 8c", "7h 7d Tc", "Jd Qd"]
    used = " ".join(hands)
    discard = [str(c) for c in build_deck(36) if str(c) not in used.split()]
    state = new_position(rules, hands=hands, trump="s", attacker=0, discard=discard)
    state = apply(state, Lead(0, "7c"))
    assert Transfer(1, ("7d",)) in legal_actions(state, 1)
    heart = Transfer(1, ("7h",))
    assert heart not in legal_actions(state, 1)
    assert not is_legal(state, heart)
    with pytest.raises(IllegalActionError, match="no-heart-transfer"):
        apply(state, heart)


# --------------------------------------------------------------------------------------------
# The hook surface: a new action kind, and one legality source for acting and next_actor
# --------------------------------------------------------------------------------------------

EXAMPLES = Path(__file__).parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))
house_rule = importlib.import_module("house_rule")


def _end_position(rules: Rules) -> GameState:
    hands = ["7h 8c", "9h Tc", "Jd Qd"]
    used = " ".join(hands)
    discard = [str(c) for c in build_deck(36) if str(c) not in used.split()]
    return new_position(rules, hands=hands, trump="s", attacker=0, discard=discard)


def test_R13_1_a_plugin_action_is_offered_checked_played_and_reported() -> None:
    rules = Rules(players=3, house_rules=["concede"])
    state = apply(_end_position(rules), Lead(0, "7h"))
    concede = house_rule.Concede(1)
    assert concede in legal_actions(state, 1)
    assert concede not in legal_actions(state, 0)
    assert check(state, house_rule.Concede(0)) == (
        "house:concede",
        "only the defender facing an unbeaten card may concede",
    )
    with pytest.raises(IllegalActionError) as err:
        apply(state, house_rule.Concede(2))
    assert err.value.rule == "house:concede"
    end, events = apply_with_events(state, concede)
    assert end.result is not None and end.result.durak == 1
    assert end.places == end.result.places == (1, 3, 1)
    assert sorted(map(str, end.hands[1])) == ["7h", "9h", "Tc"]
    assert events[0] == Acted(1, "p1 concede")
    assert isinstance(events[-1], GameOver) and events[-1].result == end.result
    assert legal_actions(end) == () and next_actor(end) is None
    assert validate_state(end) is end


def test_R13_1_a_plugin_action_is_refused_where_its_module_is_off() -> None:
    state = apply(_end_position(Rules(players=3)), Lead(0, "7h"))
    rule, reason = check(state, house_rule.Concede(1)) or ("", "")
    assert rule == "R13.1" and "Concede" in reason


class NoTakeOnHearts(RuleModule):
    name = "test-no-take-on-hearts"
    description = "a heart may not be taken (a broken module: it can leave nobody to act)"
    rule = "house:no-take-on-hearts"

    def check(self, state: GameState, action: Action) -> tuple[str, str] | None:
        if isinstance(action, Take) and any(a.suit == Suit.HEARTS for a in state.unbeaten):
            return self.rule, "a heart may not be taken"
        return None


register(NoTakeOnHearts())


def test_R13_2_next_actor_and_acting_use_the_same_legality_as_legal_actions() -> None:
    rules = Rules(players=3, house_rules=["test-no-take-on-hearts"])
    hands = ["7h 8c", "6c Tc", "Jd 8d"]
    used = " ".join(hands)
    discard = [str(c) for c in build_deck(36) if str(c) not in used.split()]
    state = new_position(rules, hands=hands, trump="s", attacker=0, discard=discard)
    state = apply(state, Lead(0, "7h"))
    assert legal_actions(state, 1) == ()  # no heart to beat with, and no take
    assert acting(state) == ()  # nobody holds a 7 to throw in either
    with pytest.raises(RulesError, match="no player has a legal action"):
        next_actor(state)


def test_R13_2_two_modules_that_forbid_every_lead_leave_no_actor_and_say_so() -> None:
    rules = Rules(players=2, house_rules=["no-six-lead", "test-no-ace-lead"])
    hands = ["6c Ac", "9h Tc"]
    used = " ".join(hands)
    discard = [str(c) for c in build_deck(36) if str(c) not in used.split()]
    state = new_position(rules, hands=hands, trump="s", attacker=0, discard=discard)
    assert legal_actions(state) == () and acting(state) == ()
    with pytest.raises(RulesError, match="no player has a legal action"):
        next_actor(state)


SHIPPED = Rules(
    players=4,
    transfer_by_card=True,
    transfer_several=True,
    transfer_by_showing_trump=True,
    trump_six_exchange=True,
    misdeal_suit_count=4,
    strict_suits=["c"],
    house_rules=["spades-by-spades", "no-six-lead", "concede", "test-hearts-by-hearts"],
)


@pytest.mark.parametrize("seed", range(12))
def test_R13_4_every_shipped_module_on_a_running_game_always_has_an_actor(seed: int) -> None:
    state = new_game(SHIPPED, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if state.is_over:
            break
        legal = legal_actions(state)
        assert legal, "a running game with no legal action"
        actor = next_actor(state)
        assert actor is not None and legal_actions(state, actor)
        for seat in acting(state):
            assert legal_actions(state, seat), f"acting names {seat}, who has no legal action"
        state = apply(state, rng.choice(legal))
    assert state.is_over


def test_R1_3_R13_4_a_plugin_action_is_written_read_and_replayed_like_the_rule_books() -> None:
    from durak.notation import parse_action
    from durak.records import Record, dumps, loads, replay

    assert parse_action("p1 concede") == house_rule.Concede(1)
    assert str(parse_action(str(house_rule.Concede(2)))) == "p2 concede"
    with pytest.raises(InvalidError, match="'concede' takes 0 card"):
        parse_action("p1 concede 7h")
    rules = Rules(players=3, house_rules=["concede"])
    start = state = new_game(rules, seed=5)
    played = []
    rng = random.Random(5)
    while not state.is_over:
        actions = legal_actions(state)
        concede = [a for a in actions if isinstance(a, house_rule.Concede)]
        action = concede[0] if concede else rng.choice(actions)
        played.append(action)
        state = apply(state, action)
    assert isinstance(played[-1], house_rule.Concede)
    record = Record.of_game(start, played, state)
    again = replay(loads(dumps(record)))
    assert again == state
    assert str(played[-1]) in dumps(record)


class CountTakes(RuleModule):
    """Keeps a count of takes in the state (bout_end) and reports it with the result."""

    name = "test-count-takes"
    description = "counts the takes of a game"
    rule = "house:count-takes"

    def bout_end(self, state: GameState, changes: MutableMapping[str, Any]) -> None:
        takes = state.fact("takes", 0)
        assert isinstance(takes, int)
        if state.taken:
            changes["extra"] = state.with_fact("takes", takes + 1)

    def result(self, state: GameState, result: Result) -> Result:
        takes = state.fact("takes", 0)
        assert isinstance(takes, int)
        return attrs.evolve(result, extra=(("takes", takes + int(state.taken)),))

    def validate(self, state: GameState) -> str | None:
        takes = state.fact("takes", 0)
        if isinstance(takes, bool) or not isinstance(takes, int) or takes < 0:
            return f"extra: takes: must be a count, not {takes!r}"
        return None


register(CountTakes())


def test_R13_4_a_module_validates_its_own_facts_in_a_position() -> None:
    rules = Rules(players=2, house_rules=["test-count-takes"])
    hands = ["6c 7c", "8h 9h"]
    used = set(" ".join(hands).split())
    rest = [c for c in plan_for(rules).deck if str(c) not in used]

    def position(takes: object) -> GameState:
        extra: Any = {"takes": takes}
        return new_position(rules, hands=hands, discard=rest, trump="s", attacker=0, extra=extra)

    assert position(2).fact("takes") == 2
    for bad in ("x", -1, True):
        with pytest.raises(PositionError, match="extra: takes: must be a count"):
            position(bad)


def test_fact_reads_extra_as_a_mapping_would() -> None:
    from durak.state import evolve

    state = evolve(new_game(Rules(), seed=3), {"extra": (("a", 1), ("b", "x"), ("a", 2))})
    assert state.fact("a") == 2  # a name given twice: its last value, as dict(extra) gives
    assert state.fact("b") == "x"
    assert state.fact("c") is None
    assert state.fact("c", 7) == 7


def test_R7_4_R13_4_module_data_and_result_facts_survive_json_and_records() -> None:
    from durak.records import Record, dumps, loads, replay
    from durak.serialize import state_from_dict, state_to_dict

    rules = Rules(players=2, house_rules=["test-count-takes"])
    start = state = new_game(rules, seed=3)
    rng = random.Random(3)
    played = []
    takes = 0
    while not state.is_over:
        action = rng.choice(legal_actions(state))
        played.append(action)
        before = state
        state = apply(state, action)
        if not state.is_over:
            assert state_from_dict(state_to_dict(state)) == state
        if before.table and not state.table and (before.taken or isinstance(action, Take)):
            takes += 1
            if not state.is_over:
                assert state.fact("takes") == takes
    assert takes > 0
    assert state.result is not None and state.result.fact("takes") == takes
    record = Record.of_game(start, played, state)
    assert '"takes"' in dumps(record)
    assert replay(loads(dumps(record))).result == state.result


# --------------------------------------------------------------------------------------------
# A card outside the 52: the deck hook, special cards and the trump turn
# --------------------------------------------------------------------------------------------


class TwoJokers(RuleModule):
    """Test module: 52 cards and two jokers; a joker beats anything and nothing beats it; a
    joker turned up for trump goes to the bottom of the face-down stock and the next card is
    turned."""

    name = "test-two-jokers"
    description = "two jokers join the deck"
    rule = "house:two-jokers"

    def deck(self, rules: Rules, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return (*cards, special_card("Jk"), special_card("Jk", 1))

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        if attack.special:
            return False
        return True if card.special else default

    def turn_trump(
        self, rules: Rules, rest: tuple[Card, ...], dealt: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], Card]:
        jokers = tuple(c for c in rest if c.special)
        plain = tuple(c for c in rest if not c.special)
        if not plain:
            return rest, dealt[-1]  # not reached with 54 cards and up to 8 players
        return (*plain[1:], *jokers, plain[0]), plain[0]


register(TwoJokers())
JOKERS = Rules(players=4, deck_size=52, house_rules=["test-two-jokers"])


def test_R1_2_R2_4_a_module_adds_cards_outside_the_52_that_play_to_the_end() -> None:
    joker = special_card("Jk")
    assert joker.special and str(joker) == "Jk" and str(special_card("Jk", 1)) == "Jk#2"
    assert Card.parse("Jk#2") == special_card("Jk", 1)
    with pytest.raises(InvalidCardError, match="no rank"):
        _ = joker.rank
    for seed in range(8):
        state = new_game(JOKERS, seed=seed)
        deck = sorted(state.all_cards())
        assert len(deck) == 54 and joker in deck
        assert state.trump_card is not None and not state.trump_card.special
        rng = random.Random(seed)
        while not state.is_over:
            action = rng.choice(legal_actions(state))
            if isinstance(action, Beat):
                assert not action.attack.special, "nothing beats a joker"
            if isinstance(action, ThrowIn) and action.card.special:
                assert any(c.special for pair in state.table for c in pair if c is not None)
            state = apply(state, action)
            assert sorted(state.all_cards()) == deck
        assert state.result is not None


def test_R4_7_R1_3_a_joker_beats_anything_and_reads_back_from_text() -> None:
    hands = ["7h 8c", "Jk Tc", "Qd Kd"]
    used = " ".join(hands).split()
    rest = [str(c) for c in build_deck(52) if str(c) not in used] + ["Jk#2"]
    rules = Rules(players=3, deck_size=52, house_rules=["test-two-jokers"])
    state = new_position(rules, hands=hands, trump="s", attacker=0, discard=rest)
    state = apply(state, Lead(0, "7h"))
    assert Beat(1, "7h", "Jk") in legal_actions(state, 1)
    state = apply(state, parse_action_text("p1 beat 7h Jk"))
    # Nobody holds a 7 or a joker to throw in: the bout is beaten off (R4.10).
    assert state.table == () and state.discard[-2:] == (Card.parse("7h"), special_card("Jk"))
    assert state.attacker == 1


def parse_action_text(text: str) -> Action:
    from durak.notation import parse_action

    return parse_action(text)


# --------------------------------------------------------------------------------------------
# Modules that change throw-ins and transfer targets: determinize and validation follow them
# --------------------------------------------------------------------------------------------


class SuitThrowIns(RuleModule):
    """Test module in the spirit of R15.2: a card may also be thrown in on its suit."""

    name = "test-suit-throw-ins"
    description = "a card of a suit on the table may be thrown in"
    rule = "house:suit-throw-ins"

    def may_throw(self, bout: Bout, card: Card, default: bool) -> bool:
        if default or card.special:
            return default
        suits = {c.suit for pair in bout.s.table for c in pair if c is not None and not c.special}
        return card.suit in suits


class ShowSendsBack(RuleModule):
    """Test module in the spirit of R15.3: a shown trump sends the attack counterclockwise."""

    name = "test-show-sends-back"
    description = "a shown trump sends the attack to the previous player"
    rule = "house:show-sends-back"

    def transfer_target(self, bout: Bout, action: Action) -> int | None:
        s = bout.s
        n = s.players
        step = -1 if isinstance(action, ShowTrump) else 1
        for k in range(1, n):
            seat = (s.defender + step * k) % n
            if bout.active[seat] and s.rules.opponents(s.defender, seat):
                return seat
        return None


register(SuitThrowIns())
register(ShowSendsBack())


def test_R4_3_R4_9_determinize_agrees_with_the_view_under_a_may_throw_module() -> None:
    from durak.views import determinize, view

    rules = Rules(players=3, house_rules=["test-suit-throw-ins"])
    sampled = 0
    for seed in range(6):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over and steps < 400:
            if state.table and steps % 3 == 0:
                for seat in range(3):
                    if state.is_active(seat):
                        v = view(state, seat)
                        sample = determinize(v, random.Random(steps))
                        assert view(sample, seat).done == v.done
                        assert view(sample, seat).legal_actions == v.legal_actions
                        sampled += 1
            state = apply(state, rng.choice(legal_actions(state)))
            steps += 1
    assert sampled > 50


def test_R9_1_a_transfer_target_module_s_states_read_back_and_validate() -> None:
    from durak.serialize import state_from_dict, state_to_dict

    rules = Rules(players=3, transfer_by_showing_trump=True, house_rules=["test-show-sends-back"])
    hands = ["7h 8c", "7s 9h", "Jd Qd"]
    used = " ".join(hands).split()
    discard = [str(c) for c in build_deck(36) if str(c) not in used]
    state = new_position(rules, hands=hands, trump="s", attacker=0, discard=discard)
    state = apply(apply(state, Lead(0, "7h")), ShowTrump(1, "7s"))
    assert (state.attacker, state.defender) == (1, 0)  # sent back counterclockwise
    assert validate_state(state) is state
    assert state_from_dict(state_to_dict(state)) == state


# --------------------------------------------------------------------------------------------
# The rule book's modules are classes a house rule may build on (both builds)
# --------------------------------------------------------------------------------------------


JOIN_ORDER = Rules(players=4, draw_order="join_order")


class JoinOrderDrawing(families.Drawing):
    """A subclass of the rule book's drawing module: attackers draw in the order they joined
    (as ``draw_order = join_order``, R5.1)."""

    name = "test-join-order-drawing"
    description = "attackers draw in the order they first played"
    rule = "house:join-order"

    def applies(self, rules: Rules) -> bool:
        return False  # on only when named in house_rules (the rule book's module always applies)

    def draw_order(
        self,
        rules: Rules,
        leader: int,
        joined: Sequence[int],
        defender: int,
        eligible: Sequence[bool],
    ) -> list[int]:
        return super().draw_order(JOIN_ORDER, leader, joined, defender, eligible)


register(JoinOrderDrawing())


def test_R5_1_a_subclass_of_a_rule_book_module_plays_as_the_setting_it_imitates() -> None:
    subclassed = Rules(players=4, house_rules=["test-join-order-drawing"])
    # The plan asks the subclass: attackers in the order they joined, not clockwise.
    order = plan_for(subclassed).draw_order(subclassed, 0, [0, 3, 2], 1, (True,) * 4)
    assert order == [0, 3, 2, 1]
    for seed in range(8):
        rng = random.Random(seed)
        a, b = new_game(subclassed, seed=seed), new_game(JOIN_ORDER, seed=seed)
        while not a.is_over:
            mine = legal_actions(a)
            assert mine == legal_actions(b)
            pick = mine[rng.randrange(len(mine))]
            a, b = apply(a, pick), apply(b, pick)
            assert a.hands == b.hands
        assert a.result == b.result


@pytest.mark.parametrize(
    "family",
    [getattr(families, n) for n in families.__all__ if isinstance(getattr(families, n), type)],
)
def test_every_rule_book_module_may_be_subclassed_and_pickled(family: type[RuleModule]) -> None:
    sub = type(f"My{family.__name__}", (family,), {"name": f"my-{family.name}"})
    assert isinstance(sub(), family) and sub().name == f"my-{family.name}"
    again = pickle.loads(pickle.dumps(family()))
    assert type(again) is family and again.name == family.name


def test_a_plan_and_a_subclassed_module_pickle() -> None:
    module = pickle.loads(pickle.dumps(JoinOrderDrawing()))
    assert type(module) is JoinOrderDrawing
    assert module.draw_order(Rules(players=4), 0, [0, 3, 2], 1, (True,) * 4) == [0, 3, 2, 1]
    plan = pickle.loads(pickle.dumps(plan_for(Rules(players=4))))
    assert plan.draw_order(Rules(players=4), 0, [0, 3, 2], 1, (True,) * 4) == [0, 2, 3, 1]


class CounterClockwise(RuleModule):
    """A seating policy of its own: the next opponent counter-clockwise (R4.1, R9.1)."""

    name = "test-counter-clockwise"
    description = "attacks and transfers go counter-clockwise"
    rule = "house:counter-clockwise"

    def next_opponent(self, rules: Rules, active: Sequence[bool], seat: int) -> int | None:
        n = rules.players
        return next((q for k in range(1, n) if active[q := (seat - k) % n]), None)


register(CounterClockwise())


def test_R9_1_a_transfer_follows_the_plans_own_next_opponent_and_every_state_validates() -> None:
    from durak.serialize import state_from_dict, state_to_dict

    rules = Rules(players=4, transfer_by_card=True, house_rules=["test-counter-clockwise"])
    transfers = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        while not state.is_over:
            actions = legal_actions(state)
            action = actions[rng.randrange(len(actions))]
            before = state
            state = apply(state, action)
            if isinstance(action, Transfer) and state.bouts == before.bouts:
                transfers += 1
                active = _bout(before).active
                assert state.defender == CounterClockwise().next_opponent(
                    rules, active, action.player
                )
            assert validate_state(state) == state
            assert state_from_dict(state_to_dict(state)) == state
    assert transfers > 0
