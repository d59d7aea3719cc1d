"""The exact two-player endgame solver (issue 29, item 1) and the search bot that plays it
(item 3): the solver agrees with plain exhaustive minimax on random small endgames of every
covered setting, refuses what it does not cover, says honestly when its budget ran out, and the
search bot wins every won endgame of a small set; in the opening it keeps the trump ace when a
lower card serves."""

from __future__ import annotations

import functools
import random

import pytest
from helpers import position

from durak import (
    GameState,
    PositionError,
    Rules,
    SeatError,
    apply,
    build_deck,
    legal_actions,
    new_game,
    new_position,
    next_actor,
    parse_cards,
    view,
)
from durak.actions import Beat, Lead
from durak.bots import Bot, RuleBot, SearchBot
from durak.cards import Card
from durak.endgame import is_endgame, minimax, solve, value_of

#: Every setting the solver covers with two players, each on.
COVERED = {
    "podkidnoy": Rules(),
    "perevodnoy": Rules(transfer_by_card=True),
    "transfer-several": Rules(transfer_by_card=True, transfer_several=True),
    "show-trump": Rules(transfer_by_card=True, transfer_by_showing_trump=True),
    "reverse-show": Rules(transfer_by_showing_trump=True, show_sends_back=True),
    "clubs-rule": Rules(strict_suits=frozenset({"c"})),
    "first-out": Rules(objective="first_out"),
    "defender-loses": Rules(on_last_cleared="defender_loses"),
    "same-rank": Rules(lead="same_rank"),
    "jokers": Rules(deck_size=52, jokers=2),
    "suit-throw-ins": Rules(throw_in_by_suit=True),
    "cheating": Rules(cheating=True),
    "pogony": Rules(pogony=True),
}


def endgame(rules: Rules, seed: int, cards: int) -> GameState:
    """A two-player endgame of at most ``cards`` cards in hands and on the table, reached by
    random play from a seeded deal."""
    rng = random.Random(seed)
    while True:
        s = new_game(rules, seed=rng.randrange(2**31))
        while s.result is None:
            in_play = sum(map(len, s.hands)) + sum(1 for pair in s.table for c in pair if c)
            if is_endgame(s) and in_play <= cards:
                return s
            actor = next_actor(s)
            assert actor is not None
            s = apply(s, rng.choice(legal_actions(s, actor)))


#: Cards in play of the endgames checked against minimax: with cheating every card may beat or
#: be thrown in (as a cheat), so plain minimax needs smaller positions there.
SIZES = {"cheating": 4}


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("name", sorted(COVERED))
def test_issue29_solver_agrees_with_exhaustive_minimax(name: str, seed: int) -> None:
    state = endgame(COVERED[name], seed, SIZES.get(name, 6))
    for seat in (0, 1):
        found = solve(state, seat)
        assert found.exact
        assert found.value == minimax(state, seat)
        # The best action keeps that value: the position after it is worth the same.
        assert found.best_action in legal_actions(state, next_actor(state))
        assert solve(apply(state, found.best_action), seat).value == found.value


def test_issue29_values_are_zero_sum_and_read_from_the_result() -> None:
    for seed in range(6):
        state = endgame(Rules(), seed, 7)
        assert solve(state, 0).value == -solve(state, 1).value


def endgame_of(rules: Rules, hand_texts: list[str], trump: str, attacker: int) -> GameState:
    """A set-up endgame: the given hands, every other card in the discard pile."""
    hands = [parse_cards(h) for h in hand_texts]
    held = {c for h in hands for c in h}
    rest = [c for c in build_deck(rules.deck_size) if c not in held]
    return new_position(rules, hands=hands, trump=trump, attacker=attacker, discard=rest)


def test_R7_3_a_lead_beaten_by_the_last_trump_loses() -> None:
    state = endgame_of(Rules(), ["6h 9c", "7s"], "s", attacker=0)
    found = solve(state, 0)
    assert (found.value, found.exact) == (-1, True)
    assert solve(state, 1).value == 1


def test_R7_3_first_out_the_player_out_wins() -> None:
    # Seat 0 leads the trump ace, which nothing beats, and goes out at the bout's end.
    state = endgame_of(Rules(objective="first_out"), ["As", "6h 7h"], "s", attacker=0)
    found = solve(state, 0)
    assert found.value == 1
    assert found.best_action == Lead(0, parse_cards("As"))


def test_R7_3_both_out_in_the_last_bout_is_a_draw() -> None:
    # Seat 0 leads 6h, seat 1 beats it with 7h: both hands are empty at the bout's end.
    state = endgame_of(Rules(), ["6h", "7h"], "s", attacker=0)
    assert solve(state, 0).value == 0
    state = endgame_of(Rules(on_last_cleared="defender_loses"), ["6h", "7h"], "s", attacker=0)
    assert solve(state, 0).value == 1


def test_issue29_a_finished_game_has_its_result() -> None:
    state = endgame_of(Rules(), ["6h", "7h"], "s", attacker=0)
    state = apply(apply(state, Lead(0, parse_cards("6h"))), Beat(1, Card("6h"), Card("7h")))
    assert state.result is not None
    found = solve(state, 1)
    assert (found.value, found.best_action, found.exact) == (value_of(state.result, 1), None, True)


def test_issue29_a_budget_too_small_is_not_exact() -> None:
    state = endgame(Rules(transfer_by_card=True), 3, 14)
    found = solve(state, 0, nodes=300)
    assert not found.exact
    assert found.nodes <= 300 + 256
    assert found.value in (-1, 0, 1)
    ticks = iter(range(10**6))
    found = solve(state, 0, seconds=5.0, clock=lambda: float(next(ticks)))
    assert not found.exact
    with pytest.raises(ValueError, match="positive"):
        solve(state, 0, nodes=0)


def test_issue29_solver_refuses_what_it_does_not_cover() -> None:
    with pytest.raises(PositionError) as err:
        solve(new_game(Rules(), seed=1), 0)
    assert err.value.code == "position.endgame-stock"
    three = position(Rules(players=3), ["6h", "7h", "8h"], trump="s", attacker=0)
    with pytest.raises(PositionError) as err:
        solve(three, 0)
    assert err.value.code == "position.endgame-players"
    pairs = Rules(players=4, teams=((0, 2), (1, 3)))
    with pytest.raises(PositionError) as err:
        solve(position(pairs, ["6h", "7h", "8h", "9h"], trump="s", attacker=0), 0)
    assert err.value.code == "position.endgame-teams"
    with pytest.raises(SeatError):
        solve(endgame_of(Rules(), ["6h", "7h"], "s", attacker=0), 2)
    with pytest.raises(TypeError):
        solve("6h 7h", 0)  # type: ignore[arg-type]
    assert not is_endgame(new_game(Rules(), seed=1))


def test_issue29_solver_refuses_a_possible_redeal() -> None:
    rules = Rules(misdeal_suit_count=2)
    state = new_position(
        rules,
        hands=[parse_cards("6h 7h"), parse_cards("6c")],
        trump="s",
        attacker=0,
        first_bout=True,
        discard=[c for c in build_deck(36) if c not in parse_cards("6h 7h 6c")],
    )
    if any(type(a).__name__ == "Redeal" for a in legal_actions(state)):
        with pytest.raises(PositionError) as err:
            solve(state, 0)
        assert err.value.code == "position.endgame-redeal"


# --------------------------------------------------------------------------------------------
# The search bot (item 3)
# --------------------------------------------------------------------------------------------


def play_out(state: GameState, bots: dict[int, Bot]) -> GameState:
    for _ in range(500):
        if state.result is not None:
            return state
        actor = next_actor(state)
        assert actor is not None
        state = apply(state, bots[actor].choose(view(state, actor)))
    raise AssertionError("the endgame did not end")


@functools.cache
def won_endgames() -> list[tuple[GameState, int]]:
    """A small set of two-player endgames and a seat that wins each, by exhaustive minimax."""
    found = []
    for name in ("podkidnoy", "perevodnoy", "show-trump"):
        for seed in range(8):
            state = endgame(COVERED[name], 100 + seed, 7)
            found += [(state, seat) for seat in (0, 1) if minimax(state, seat) == 1]
    return found


def test_issue29_search_bot_wins_every_won_two_player_endgame() -> None:
    games = won_endgames()
    assert len(games) >= 10
    for state, seat in games:
        for other in (RuleBot(seed=1), SearchBot(seed=2, time_limit=None, steps=20_000)):
            bot = SearchBot(seed=3, time_limit=None, steps=20_000)
            end = play_out(state, {seat: bot, 1 - seat: other})
            assert end.result is not None and value_of(end.result, seat) == 1, (state, seat)


def test_issue29_search_bot_plays_the_solvers_move_and_keeps_its_budget() -> None:
    state, _ = won_endgames()[0]
    actor = next_actor(state)
    assert actor is not None
    bot = SearchBot(seed=0, time_limit=None, steps=20_000)
    bot.choose(view(state, actor))
    assert bot.last_exact and bot.last_playouts == 0
    # Without the solver, or when its half of the budget is too small, it searches as before.
    off = SearchBot(seed=0, time_limit=None, steps=20_000, endgame=False)
    off.choose(view(state, actor))
    assert not off.last_exact
    big = endgame(Rules(transfer_by_card=True), 3, 14)
    big_actor = next_actor(big)
    assert big_actor is not None
    tight = SearchBot(seed=0, time_limit=None, steps=400)
    assert tight.choose(view(big, big_actor)) in legal_actions(big, big_actor)
    if len(legal_actions(big, big_actor)) > 1:
        assert not tight.last_exact


def opening(hand0: str, hand1: str, table: list[tuple[str, None]], attacker: int) -> GameState:
    """A first bout: the given hands and table, the rest of the deck in the stock under the
    face-up 6d (trump diamonds)."""
    hands = [parse_cards(hand0), parse_cards(hand1)]
    used = {c for h in hands for c in h} | {Card(a) for a, _ in table} | {Card("6d")}
    rest = [c for c in build_deck(36) if c not in used]
    random.Random(0).shuffle(rest)
    return new_position(
        Rules(),
        hands=hands,
        stock=[*rest, Card("6d")],
        attacker=attacker,
        first_bout=True,
        table=table,
    )


OPENINGS = {
    "lead": (opening("6c 9h Jc Kh Ad 8s", "7c 7h 8c 9c Tc Qh", [], 0), 0),
    "beat with a lower trump": (
        opening("6c 9h Jc 7d Ad 8s", "7c 7h 8c 9c Tc", [("Kh", None)], 1),
        0,
    ),
    "beat in suit": (opening("6c Th Jc Kc Ad 8s", "7c 7h 8c 9c Tc", [("9h", None)], 1), 0),
}


@pytest.mark.parametrize("case", sorted(OPENINGS))
@pytest.mark.parametrize("seed", range(6))
def test_issue29_keeps_the_trump_ace_in_the_opening_when_a_lower_card_serves(
    case: str, seed: int
) -> None:
    state, seat = OPENINGS[case]
    ace = Card("Ad")
    for bot in (RuleBot(seed=seed), SearchBot(seed=seed, time_limit=None, steps=3000)):
        action = bot.choose(view(state, seat))
        assert ace not in getattr(action, "cards", ()), (type(bot).__name__, action)
