"""The bots (bots.py) and tournaments (tournament.py).

Every bot over every preset and the house rules plays only legal actions and never raises; seeded
bots are deterministic; a tournament gives the same figures in one process or several; the
Wilson interval matches known values; the rule of thumb follows the strategy tips of the German
help page.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from helpers import D24, play, position

from durak import (
    Beat,
    ExchangeTrump,
    GameState,
    Lead,
    Rules,
    ShowTrump,
    Suit,
    Take,
    ThrowIn,
    Transfer,
    apply,
    build_deck,
    format_cards,
    legal_actions,
    new_game,
    next_actor,
    parse_cards,
    view,
)
from durak.bots import BOTS, Bot, RandomBot, RuleBot, SearchBot, make_bot, outcome
from durak.match import play_match
from durak.presets import PRESETS
from durak.state import Result
from durak.tournament import play_game, run_tournament, wilson_interval

SEARCH = "search:playouts=4,time_limit=none"

#: House rules and player counts beyond the presets.
EXTRA: dict[str, Rules] = {
    "trump-six-exchange": Rules(trump_six_exchange=True, players=3),
    "misdeal": Rules(misdeal_suit_count=3),
    "same-rank-transfer-several": Rules(
        lead="same_rank", transfer_by_card=True, transfer_several=True, players=3
    ),
    "show-trump-only": Rules(transfer_by_showing_trump=True, transfer_first_bout=False),
    "five-free-throwers": Rules(players=5, throw_order="free", throw_after_take=False),
    "six-attacker-only": Rules(players=6, throwers="attacker", deck_size=52),
    "teams-first-out": Rules(players=4, teams=[[0, 2], [1, 3]], objective="first_out"),
    "defender-loses": Rules(on_last_cleared="defender_loses", strict_suits=["h"]),
    "two-small-decks": Rules(players=4, decks=2, deck_size=24),
}


def _cases() -> list[tuple[str, Rules]]:
    cases = [(name, preset.rules()) for name, preset in PRESETS.items()]
    return cases + list(EXTRA.items())


def play_checked(rules: Rules, names: list[str], seed: str) -> list[str]:
    """One game with ``names[i]`` in seat ``i``; checks every action is legal; returns the
    actions played as text."""
    bots = [make_bot(name, f"{seed}:{i}") for i, name in enumerate(names)]
    state = new_game(rules, seed=seed)
    played = []
    for _ in range(5000):
        if state.result is not None:
            return played
        actor = next_actor(state)
        assert actor is not None
        action = bots[actor].choose(view(state, actor))
        assert action in legal_actions(state, actor), f"{names[actor]} played {action}"
        state = apply(state, action)
        played.append(str(action))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("name", "rules"), _cases(), ids=[name for name, _ in _cases()])
def test_every_bot_plays_only_legal_actions_under_every_preset(name: str, rules: Rules) -> None:
    kinds = ["random", "rule", SEARCH]
    # Over 100 cards (two 52-card decks with jokers) one game takes long enough.
    for game in range(1 if rules.cards > 100 else 2):
        names = [kinds[(seat + game) % 3] for seat in range(rules.players)]
        play_checked(rules, names, f"{name}:{game}")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_play_every_player_count(players: int) -> None:
    names = [["rule", SEARCH, "random"][seat % 3] for seat in range(players)]
    play_checked(Rules(players=players), names, f"count:{players}")


@pytest.mark.parametrize("name", ["random", "rule", SEARCH, "search:steps=150,time_limit=none"])
def test_a_seeded_bot_replays_the_same_game(name: str) -> None:
    rules = Rules(players=3, transfer_by_card=True)
    one = play_checked(rules, [name, name, "random"], "replay")
    two = play_checked(rules, [name, name, "random"], "replay")
    assert one == two


def test_a_position_met_again_gets_a_random_legal_action() -> None:
    # Deterministic players can cycle for ever once the stock is empty; a bot that sees the same
    # position a second time breaks the cycle with a random legal action. (The five-player
    # free-throwing case above once cycled inside a search's playouts.)
    state = new_game(Rules(), seed=5)
    seen = view(state, state.attacker)
    answers = set()
    for seed in range(10):
        for bot in (RuleBot(seed), SearchBot(seed, playouts=4, time_limit=None)):
            first = bot.choose(seen)
            again = bot.choose(seen)
            assert again in seen.legal_actions
            answers.add(again != first)
    assert answers == {True, False}


def test_random_bots_with_other_seeds_play_other_games() -> None:
    assert play_checked(Rules(), ["random", "random"], "a") != play_checked(
        Rules(), ["random", "random"], "b"
    )


@pytest.mark.parametrize("bot", [RandomBot(0), RuleBot(0), SearchBot(0, playouts=4)])
def test_a_bot_without_a_legal_action_says_so(bot: Bot) -> None:
    state = new_game(Rules(), seed=1)
    idle = 1 - state.attacker
    with pytest.raises(ValueError, match=f"player {idle} has no legal action"):
        bot.choose(view(state, idle))


def test_search_bot_returns_a_single_legal_action_without_searching() -> None:
    state = early(D24, ["Ac Td", "9c Ts Js"])
    seen = view(play(state, Lead(0, "Ac")), 1)
    assert seen.legal_actions == (Take(1),)  # nothing beats the ace of clubs
    bot = SearchBot(0, playouts=50, time_limit=None)
    assert bot.choose(seen) == seen.legal_actions[0]
    assert bot.last_playouts == 0


def test_search_bot_respects_its_budgets() -> None:
    state = new_game(Rules(), seed=3)
    seen = view(state, state.attacker)
    bot = SearchBot(0, playouts=12, time_limit=None)
    assert bot.choose(seen) in seen.legal_actions
    assert 1 <= bot.last_playouts <= 12
    ticks = iter(range(10**6))
    # A fake clock, 0.1 ms per reading: the wall clock of a loaded machine may leave no time.
    timed = SearchBot(0, time_limit=0.01, clock=lambda: next(ticks) / 10_000)
    assert timed.choose(seen) in seen.legal_actions
    assert timed.last_playouts >= 1
    stepped = SearchBot(0, steps=1500, time_limit=None)
    assert stepped.choose(seen) in seen.legal_actions
    assert 1 <= stepped.last_steps <= 1500
    assert SearchBot(0, steps=400, time_limit=None).choose(seen) == SearchBot(
        0, steps=400, time_limit=None
    ).choose(seen)


def test_search_bot_rejects_bad_budgets() -> None:
    with pytest.raises(ValueError, match="a time_limit, a playouts or a steps"):
        SearchBot(0, time_limit=None)
    with pytest.raises(ValueError, match="positive"):
        SearchBot(0, playouts=0)
    with pytest.raises(ValueError, match="positive"):
        SearchBot(0, steps=-5)
    with pytest.raises(ValueError, match="policy"):
        SearchBot(0, policy="clever")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="schedule"):
        SearchBot(0, schedule="clever")  # type: ignore[arg-type]


@pytest.mark.parametrize("policy", ["rule", "peek", "random"])
def test_search_bot_playout_policies_finish_games(policy: str) -> None:
    play_checked(Rules(players=3), [f"{SEARCH},policy={policy}", "rule", "random"], policy)


def test_make_bot_names_and_options() -> None:
    assert set(BOTS) == {"random", "rule", "search", "learned", "guided", "leaf"}
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("Rule", 1), RuleBot)
    bot = make_bot("search:playouts=40, time_limit=none, policy=rule, take_base=5", 1)
    assert isinstance(bot, SearchBot)
    assert (bot.playouts, bot.time_limit, bot.policy) == (40, None, "rule")
    assert bot.weights.take_base == 5
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", 1)
    with pytest.raises(ValueError, match="expected key=value"):
        make_bot("search:playouts", 1)
    with pytest.raises(ValueError, match="bad options"):
        make_bot("rule:depth=3", 1)


def test_outcome_scores_wins_losses_draws_and_teams() -> None:
    lost = Result(durak=1, draw=False, places=(1, 2), winners=(0,), losers=(1,))
    assert (outcome(lost, 0), outcome(lost, 1)) == (1.0, 0.0)
    draw = Result(durak=None, draw=True, places=(1, 1), winners=(0, 1), losers=())
    assert outcome(draw, 0) == outcome(draw, 1) == 0.5
    team = Result(durak=3, draw=False, places=(1, 4, 1, 4), winners=(0, 2), losers=(1, 3))
    assert [outcome(team, p) for p in range(4)] == [1.0, 0.0, 1.0, 0.0]


def test_play_match_asks_bots_with_views() -> None:
    match = play_match(Rules(players=3), [RuleBot(), RandomBot(1), RandomBot(2)], 3, seed=1)
    assert len(match.results) == 3


# --------------------------------------------------------------------------------------------
# The rule of thumb follows the strategy tips of the German help page
# --------------------------------------------------------------------------------------------


def early(rules: Rules, hand_texts: list[str], attacker: int = 0) -> GameState:
    """A position early in the game before ``attacker`` leads: every other card is in the
    stock (trump hearts), so nothing is discarded and card counting knows nothing."""
    used = {c for text in hand_texts for c in parse_cards(text)}
    rest = [c for c in build_deck(rules.deck_size, rules.decks) if c not in used]
    face_up = next(c for c in rest if c.suit == Suit.HEARTS)
    stock = [c for c in rest if c != face_up] + [face_up]
    return position(rules, hand_texts, stock=format_cards(stock), attacker=attacker)


def rule_choice(state: Any, seat: int) -> Any:
    action = RuleBot().choose(view(state, seat))
    assert action in legal_actions(state, seat)
    return action


def test_rule_bot_leads_low_plain_cards_not_trumps() -> None:
    # "Greif mit niedrigen Karten an": the jack of clubs, not the trump nine.
    state = early(D24, ["Jc Qs Ac 9h", "Tc Ts Qc"])
    assert rule_choice(state, 0) == Lead(0, "Jc")


def test_rule_bot_leads_a_rank_it_holds_twice() -> None:
    # "Hast du zwei Karten mit demselben Wert, leg eine": a ten, not the lone nine.
    state = early(D24, ["9s Tc Td Ah", "Jc Js Qc"])
    led = rule_choice(state, 0)
    assert isinstance(led, Lead) and led.cards[0].rank == 10


def test_rule_bot_beats_with_the_cheapest_plain_card() -> None:
    # "Schlag Angriffe wenn möglich mit kleinen normalen Karten": Jc, not Ac or the trump.
    state = early(D24, ["Tc 9s", "Ac Jc 9h Qs"])
    state = play(state, Lead(0, "Tc"))
    assert rule_choice(state, 1) == Beat(1, "Tc", "Jc")


def test_rule_bot_takes_early_rather_than_spend_a_high_trump() -> None:
    # "Früh ein paar kleine Karten aufzunehmen ist besser, als einen hohen Trumpf für eine Sechs
    # zu opfern": only the trump ace beats the nine while the stock is big.
    state = early(D24, ["9c Ts", "Ah Td Js Qs As"])
    state = play(state, Lead(0, "9c"))
    assert rule_choice(state, 1) == Take(1)


def test_rule_bot_beats_with_a_low_trump_and_when_the_stock_is_empty() -> None:
    low = early(D24, ["9c Ts", "9h Td Js Qs As"])
    assert rule_choice(play(low, Lead(0, "9c")), 1) == Beat(1, "9c", "9h")
    # "Spiel am Ende hart": with the stock empty the ace is spent rather than taking.
    end = position(D24, ["9c Ts", "Ah Td Js Qs As"], trump="h", attacker=0)
    assert rule_choice(play(end, Lead(0, "9c")), 1) == Beat(1, "9c", "Ah")


def test_rule_bot_throws_in_high_cards_only_at_the_end() -> None:
    # No high cards thrown in while the stock is big; with it empty, throw in what you can.
    big = early(D24, ["9c Ks Jd", "Kc Td Qs As"])
    big = play(big, Lead(0, "9c"), Beat(1, "9c", "Kc"))
    assert rule_choice(big, 0).kind == "pass"
    end = position(D24, ["9c Ks Jd", "Kc Td Qs As"], trump="h", attacker=0)
    end = play(end, Lead(0, "9c"), Beat(1, "9c", "Kc"))
    assert rule_choice(end, 0) == ThrowIn(0, "Ks")


def test_rule_bot_counts_cards_and_leads_what_cannot_be_beaten() -> None:
    # "Zähl die Karten": with the stock empty the opponent holds exactly the unseen cards; he
    # beats the nine but nothing beats the ace of spades.
    state = position(D24, ["As 9c", "Tc Jd"], trump="h", attacker=0)
    assert rule_choice(state, 0) == Lead(0, "As")


def test_rule_bot_transfers_with_a_cheap_card_and_shows_trumps() -> None:
    rules = D24.replace(players=3, transfer_by_card=True, transfer_by_showing_trump=True)
    state = early(rules, ["9c Ts", "9d Jc Qs", "Ac Ad As"])
    assert rule_choice(play(state, Lead(0, "9c")), 1) == Transfer(1, "9d")
    shown = early(rules, ["9c Ts", "9h Jc Qs", "Ac Ad As"])
    assert rule_choice(play(shown, Lead(0, "9c")), 1) == ShowTrump(1, "9h")


def test_rule_bot_makes_the_trump_six_exchange() -> None:
    rules = D24.replace(trump_six_exchange=True)
    for seed in range(200):
        state = new_game(rules, seed=seed)
        seat = state.attacker
        exchange = [a for a in legal_actions(state, seat) if isinstance(a, ExchangeTrump)]
        if exchange:
            assert rule_choice(state, seat) == exchange[0]
            return
    pytest.fail("no deal gave the attacker the exchange")  # pragma: no cover


# --------------------------------------------------------------------------------------------
# Tournaments
# --------------------------------------------------------------------------------------------


def test_tournament_rotates_seats_and_counts() -> None:
    result = run_tournament(Rules(players=3), ["rule", "random", "random"], 6, seed="t")
    assert [r.seats for r in result.records[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert result.games == 6
    for j, stats in enumerate(result.stats):
        assert stats.games == 6
        assert stats.decided == 6 - result.draws
        assert stats.durak == sum(r.result.durak == r.seats[j] for r in result.records)
        assert stats.moves == sum(r.moves[j] for r in result.records)
    assert sum(s.durak for s in result.stats) + result.draws == 6
    assert "durak rate" in result.table()


def test_tournament_is_the_same_in_one_process_or_two() -> None:
    names = [SEARCH, "rule"]
    one = run_tournament(Rules(), names, 6, seed="jobs")
    two = run_tournament(Rules(), names, 6, seed="jobs", jobs=2)
    assert one == two
    assert one.records[3] == play_game(Rules(), names, "jobs", 3)


def test_tournament_reports_progress_and_rejects_bad_input() -> None:
    seen: list[tuple[int, int]] = []
    run_tournament(
        Rules(), ["random", "random"], 3, seed=0, progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]
    with pytest.raises(ValueError, match="unknown bot"):
        run_tournament(Rules(), ["random", "clever"], 1, seed=0)
    with pytest.raises(ValueError, match="jobs"):
        run_tournament(Rules(), ["random", "random"], 1, seed=0, jobs=0)
    with pytest.raises(ValueError, match="players"):
        run_tournament(Rules(), ["random"], 1, seed=0)


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.27753, abs=1e-5)
    low, high = wilson_interval(5, 10)
    assert (low, high) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    low, high = wilson_interval(81, 263)
    assert (low, high) == pytest.approx((0.25529, 0.36621), abs=1e-5)
    assert wilson_interval(10, 10) == (pytest.approx(0.72247, abs=1e-5), 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # Symmetry and a 99% interval wider than the 95% one.
    low, high = wilson_interval(30, 100)
    assert wilson_interval(70, 100) == pytest.approx((1 - high, 1 - low))
    low99, high99 = wilson_interval(30, 100, z=2.5758293035489)
    assert low99 < low and high99 > high
    assert low < 0.3 < high and math.isclose((low + high) / 2, 0.3, abs_tol=0.01)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_random_bot_chooses_the_same_from_the_legal_actions_as_from_the_view() -> None:
    # durak simulate and tournaments ask choose_legal and build no view: the games must be
    # the ones choose(view) would give.
    for seed in range(5):
        by_view, by_list = RandomBot(seed), RandomBot(seed)
        state = new_game(Rules(players=3), seed=seed)
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            action = by_view.choose(view(state, actor))
            assert by_list.choose_legal(actor, legal_actions(state, actor)) == action
            state = apply(state, action)
