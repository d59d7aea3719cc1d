"""Property-based tests of the invariants of R13.4 over random games.

Hypothesis draws valid :class:`~durak.Rules` (2-6 players as far as the deck allows, the 24, 32,
36 and 52-card decks, one or two decks, and random combinations of the other settings), a deal
seed, and the choice of action at every step. Each game is played to its end, and at every step
the test checks:

- conservation: every card of the deck(s) is in exactly one place (R13.4, R1.2);
- every listed legal action passes ``is_legal`` and ``check`` and is accepted by ``apply``, which
  returns a new, different state and leaves its input unchanged (R13.3);
- on a sample of steps, a large set of candidate actions (every kind of action, for every seat,
  with cards from any hand, the table, the stock or the discard pile): ``is_legal`` is true
  exactly for the listed ones, and ``apply`` of any other raises
  :class:`~durak.IllegalActionError` naming a rule id and the player, leaving the state equal
  (``==``, hash, pickle bytes) (R13.3, R13.4);
- the attack cards of a bout never exceed ``min(cap, H)``, with ``cap`` and ``H`` worked out by
  the test itself, and every beating card beats its attack card (R4.6, R4.7, R8.1);
- the test's own :class:`Ledger`, kept from the actions played and the rule book alone (no
  engine code), works out every lead, throw-in, pass, beat, take, transfer and show the rules
  allow (R4.1-R4.9, R8.1, R9.1-R9.7, R10.2) and the main attacker and defender (R4.1, R6,
  R9.1, R10.4): ``legal_actions`` must list every one of them (a lower bound) and no other
  action of those kinds (an upper bound); a bout must end exactly when the rules leave nobody
  an action (R4.10), and while it goes on the table and hands change only by the action;
- a terminal state has no legal action and a well-formed result; a non-terminal one has at least
  one, and :func:`~durak.next_actor` names a player who has one (R7, R13.2);
- the same seed and choices give the same final state; states survive a pickle round trip;
- every game ends: one still going after END_BOUND steps fails, unless its settings are those
  under which Durak need not end (:func:`may_not_end`), when it is reported instead.

A failing example notes the rules, the seed and the actions played, so it can be rerun with
:func:`replay`.
"""

from __future__ import annotations

import itertools
import pickle
import random
import re
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import pytest
from helpers import ALL_ON
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from optional_parts import examples

from durak import (
    Beat,
    Card,
    IllegalActionError,
    Lead,
    Pass,
    Rules,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    apply,
    check,
    is_legal,
    legal_actions,
    new_game,
    next_actor,
)
from durak._step import UNEXPLAINED, _bout, _violation
from durak.actions import Action, ExchangeTrump, Redeal
from durak.cards import DECK_SIZES, Suit
from durak.presets import PRESETS
from durak.rules.beating import beats
from durak.rules.extensions import Catch, cheats_on_table
from durak.rules.modules import plan_for
from durak.rules.settings import (
    DrawOrder,
    FirstBoutScope,
    NextLeader,
    NoTrumpLead,
    Objective,
    OnLastCleared,
    TeamWin,
    Throwers,
    ThrowOrder,
)
from durak.rules.settings import Lead as LeadSetting
from durak.state import GameState

RULE_ID = re.compile(r"^R\d+\.\d+[a-z]?$")
MAX_PLAYERS = 6
#: Above the longest random games seen in 9,000 random games with two 52-card decks: about
#: 1,500 steps with ordinary rules, 2,400 under the settings of :func:`may_not_end`. Games are
#: checked step by step up to this bound.
STEP_BOUND = 3_000
#: A game still going after STEP_BOUND checked steps is played on, unchecked, up to this bound.
#: Durak need not end (docs/rules.md, "R13.4: a game need not end"): with one-card hands or
#: several strict suits random play can pass the same cards round for ever while the stock
#: lasts. Only under those settings (:func:`may_not_end`) may a game reach this bound; it is
#: then reported (a Hypothesis event and an :class:`EndlessGame` warning). Under any other
#: settings a game that has not ended by then fails the test.
END_BOUND = 20_000
#: Share of steps on which the expensive "illegal candidates" check runs, and its most runs in
#: one game (besides the first and the last state, which are always checked).
ILLEGAL_SAMPLE = 0.1
ILLEGAL_MAX = 25
#: The team layouts of R10.1 by number of players.
TEAM_LAYOUTS: dict[int, list[tuple[tuple[int, ...], ...]]] = {
    4: [((0, 2), (1, 3))],
    6: [((0, 3), (1, 4), (2, 5)), ((0, 2, 4), (1, 3, 5))],
}

#: Picks an index in ``range(n)``; backed by a seeded random.Random or by st.data().
Pick = Callable[[int], int]

SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]


class EndlessGame(UserWarning):
    """A random game under settings that allow endless play did not end by END_BOUND."""


def may_not_end(state: GameState) -> bool:
    """The settings under which random play may legitimately go on for ever (docs/rules.md,
    "R13.4: a game need not end"): one-card hands, or two or more strict suits (R8.1) other
    than trump (a strict trump suit behaves as a normal one), whose aces no card beats."""
    rules = state.rules
    return rules.hand_size == 1 or len(rules.strict_suits - {state.trump}) >= 2


def check_ended(state: GameState, steps: int) -> None:
    """A game still going after ``steps`` steps fails the test, unless its settings allow
    endless play; then it is reported, not failed."""
    if state.is_over:
        return
    rules = state.rules
    assert may_not_end(state), (
        f"no end after {steps} steps with hand_size {rules.hand_size} and strict suits "
        f"{sorted(s.name for s in rules.strict_suits)} (trump {state.trump.name}): only "
        "one-card hands or several strict suits besides trump may make a game endless"
    )
    message = f"a game under {rules!r} did not end within {steps} steps (allowed: R13.4)"
    if currently_in_test_context():
        event("endless game under degenerate settings")
        note(message)
    warnings.warn(message, EndlessGame, stacklevel=2)


# --------------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------------


@st.composite
def rules_strategy(
    draw: st.DrawFn, decks: Sequence[int] = (1, 2), max_players: int = MAX_PLAYERS
) -> Rules:
    """Valid rules only: the players fit the deck(s) (R2.1), ``transfer_several`` only with
    ``transfer_by_card`` (R9.4), teams only as alternating seats (R10.1)."""
    deck_size = draw(st.sampled_from(sorted(DECK_SIZES)))
    n_decks = draw(st.sampled_from(decks))
    hand_size = draw(st.one_of(st.just(6), st.integers(1, 8)))
    players = draw(st.integers(2, min(max_players, deck_size * n_decks // hand_size)))
    teams = draw(st.sampled_from([None, *TEAM_LAYOUTS.get(players, [])]))
    transfer_by_card = draw(st.booleans())
    return Rules(
        players=players,
        deck_size=deck_size,
        decks=n_decks,
        hand_size=hand_size,
        lead=draw(st.sampled_from(LeadSetting)),
        throwers=draw(st.sampled_from(Throwers)),
        throw_order=draw(st.sampled_from(ThrowOrder)),
        max_attack=draw(st.one_of(st.just(6), st.integers(1, 8))),
        first_bout_max=draw(st.one_of(st.just(5), st.none(), st.integers(1, 8))),
        first_bout_scope=draw(st.sampled_from(FirstBoutScope)),
        throw_after_take=draw(st.booleans()),
        draw_order=draw(st.sampled_from(DrawOrder)),
        objective=draw(st.sampled_from(Objective)),
        on_last_cleared=draw(st.sampled_from(OnLastCleared)),
        no_trump_lead=draw(st.sampled_from(NoTrumpLead)),
        strict_suits=draw(st.frozensets(st.sampled_from(Suit))),
        transfer_by_card=transfer_by_card,
        transfer_several=draw(st.booleans()) if transfer_by_card else False,
        transfer_by_showing_trump=draw(st.booleans()),
        transfer_first_bout=draw(st.booleans()),
        teams=teams,
        team_win=draw(st.sampled_from(TeamWin)),
        trump_six_exchange=draw(st.booleans()),
        misdeal_suit_count=draw(
            st.one_of(st.none(), st.integers(2, min(6, hand_size)))
            if hand_size >= 2
            else st.none()
        ),
        # R11.2 only matters between the games of a match; drawn so that no setting is left out.
        next_leader=draw(st.sampled_from(NextLeader)),
    )


seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: How the next action is chosen: among every player's legal actions, among the actions of
#: next_actor (R13.2), or by a coin flip between the two at every step.
modes = st.sampled_from(("all", "next_actor", "mixed"))


# --------------------------------------------------------------------------------------------
# The test's own account of a game, kept independently of the engine
# --------------------------------------------------------------------------------------------


def team_of(rules: Rules, seat: int) -> int:
    """The index of ``seat``'s team in ``rules.teams``; each seat is a team without teams."""
    if rules.teams is None:
        return seat
    return next(i for i, team in enumerate(rules.teams) if seat in team)


def is_joker(card: Card) -> bool:
    """R15.1: a joker, any copy (``Jk``, ``Jk#2`` ...)."""
    return str(card).partition("#")[0] == "Jk"


def rank_of(card: Card) -> int | str:
    """A card's rank for R4.3; a joker's rank is its own (R15.1)."""
    return "Jk" if is_joker(card) else card.rank


def beats_by_the_book(card: Card, attack: Card, trump: Suit, strict: frozenset[Suit]) -> bool:
    """R4.7 and R8.1, written out: a higher card of the same suit, or a trump against a card
    that is neither trump nor of a strict suit; R15.1: a joker beats anything, nothing beats a
    joker."""
    if is_joker(attack) or is_joker(card):
        return not is_joker(attack)
    if card.suit == attack.suit:
        return card.rank > attack.rank
    return card.suit == trump and attack.suit not in strict


#: The action kinds whose legality the ledger works out from the rule book. The trump exchange
#: (R12.1) and the misdeal redeal (R12.2) have their own tests (test_R12_1_exchange_right_...,
#: test_r12_house_rules.py) and are left out of the comparison.
BY_THE_BOOK = (Lead, ThrowIn, Beat, Take, Pass, Transfer, ShowTrump)

Pair = tuple[Card, Card | None]


def table_after(state: GameState, action: Action) -> list[Card]:
    """The cards on the table right after ``action``, before a bout end clears them."""
    return [c for pair in pairs_after(state, action) for c in pair if c is not None]


def pairs_after(state: GameState, action: Action) -> list[Pair]:
    """The table's (attack card, beating card or ``None``) pairs right after ``action``."""
    pairs: list[Pair] = [(a, b) for a, b in state.table]
    if isinstance(action, ThrowIn):
        pairs.append((action.card, None))
    elif isinstance(action, Lead | Transfer):
        pairs.extend((c, None) for c in action.cards)
    elif isinstance(action, Beat):
        i = pairs.index((action.attack, None))
        pairs[i] = (action.attack, action.card)
    elif isinstance(action, Catch):
        # R15.5: a caught beat leaves its attack card unbeaten; a caught throw-in leaves.
        i = next(k for k, pair in enumerate(pairs) if action.card in pair)
        if pairs[i][1] == action.card:
            pairs[i] = (pairs[i][0], None)
        else:
            del pairs[i]
    return pairs


def hands_after(state: GameState, action: Action) -> list[list[Card]]:
    """The hands right after ``action``, before a bout end's drawing: the cards it plays leave
    the player's hand (R13.1); an exchange swaps the six for the face-up card (R12.1)."""
    hands = [list(h) for h in state.hands]
    own = hands[action.player]
    if isinstance(action, Lead | Transfer):
        for c in action.cards:
            own.remove(c)
    elif isinstance(action, ThrowIn | Beat):
        own.remove(action.card)
    elif isinstance(action, ExchangeTrump):
        own.remove(action.card)
        own.append(state.stock[-1])
    return hands


def next_seat(
    rules: Rules, active: Sequence[bool], seat: int, *, opponent: bool
) -> int | None:
    """The next active seat clockwise from ``seat`` (not ``seat`` itself); with ``opponent``
    the next active one of another team (R4.1, R10.2). ``None`` if there is none."""
    n = rules.players
    for k in range(1, n):
        q = (seat + k) % n
        if active[q] and not (opponent and team_of(rules, q) == team_of(rules, seat)):
            return q
    return None


def previous_seat(rules: Rules, active: Sequence[bool], seat: int) -> int | None:
    """R15.3: the previous active opponent counterclockwise from ``seat``, or ``None``."""
    n = rules.players
    for k in range(1, n):
        q = (seat - k) % n
        if active[q] and team_of(rules, q) != team_of(rules, seat):
            return q
    return None


def groups(cards: Sequence[Card], most: int) -> list[tuple[Card, ...]]:
    """Every non-empty set of ``cards`` of at most ``most`` cards, one rank per set."""
    by_rank: dict[int | str, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(rank_of(c), []).append(c)
    return [
        combo
        for same in by_rank.values()
        for k in range(1, min(most, len(same)) + 1)
        for combo in itertools.combinations(same, k)
    ]


@dataclass(frozen=True)
class Ledger:
    """The test's own account of the game, from the actions played and the rule book.

    ``h``: R4.6's H of the current bout (``None`` between bouts); ``bouts`` and ``defences``:
    finished bouts and successful defences; ``places``: finishing places (R7.2, R10.3);
    ``last_defender``: the defender of the last finished bout; ``attacker``: the main attacker
    of the bout (between bouts: the player to lead it, R6, R10.4); ``defender``: the bout's
    defender (``None`` between bouts); ``passed``: the passes that stand (R4.9); ``shown``:
    the trumps shown in this bout (R9.5); ``taken``: the defender has taken (R4.8)."""

    h: int | None
    bouts: int
    defences: int
    places: tuple[int | None, ...]
    last_defender: int | None
    attacker: int | None
    defender: int | None = None
    passed: frozenset[int] = frozenset()
    shown: frozenset[Card] = frozenset()
    taken: bool = False

    @classmethod
    def start(cls, state: GameState) -> Ledger:
        """The ledger of a freshly dealt game: its first attacker is taken from the deal (R3
        has its own scenario tests); everything after that the ledger works out itself."""
        return cls(None, 0, 0, (None,) * state.players, None, state.attacker)

    def cap(self, rules: Rules) -> int:
        """R4.6's cap: ``first_bout_max`` while the first-bout restriction applies."""
        if rules.first_bout_max is not None:
            if rules.first_bout_scope is FirstBoutScope.FIRST_BOUT:
                applies = self.bouts == 0
            else:
                applies = self.defences == 0
            if applies:
                return rules.first_bout_max
        return rules.max_attack

    def active(self, hands: Sequence[Sequence[Card]], stock: bool) -> list[bool]:
        """R7.1, R10.3: not out, not left, and not finished (an empty hand, the stock empty)."""
        return [
            place is None and (bool(h) or stock)
            for place, h in zip(self.places, hands, strict=True)
        ]

    def allowed(
        self,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        table: Sequence[Pair],
        stock: bool,
        trump: Suit,
    ) -> set[Action]:
        """Every lead, throw-in, pass, beat, take, transfer and show the rule book allows in
        this position (R4.1-R4.9, R8.1, R9.1-R9.7, R10.2), worked out without the engine."""
        active = self.active(hands, stock)
        allowed: set[Action] = set()
        a = self.attacker
        assert a is not None
        if not table:
            # R4.1, R4.2: the attacker leads against the next active opponent, within R4.6.
            d = next_seat(rules, active, a, opponent=True)
            assert d is not None, "a bout to lead with nobody to defend"
            limit = min(self.cap(rules), len(hands[d]))
            most = 1 if rules.lead is LeadSetting.SINGLE else limit
            return {Lead(a, combo) for combo in groups(hands[a], most)}
        d = self.defender
        assert d is not None and self.h is not None
        # R4.4: who throws in (the defender and his partners never do, R10.2).
        if rules.throwers is Throwers.ALL:
            throwers = {p for p in range(rules.players) if team_of(rules, p) != team_of(rules, d)}
        elif rules.throwers is Throwers.NEIGHBOURS:
            throwers = {a, next_seat(rules, active, d, opponent=True)} - {None}
        else:
            throwers = {a}
        # R4.3: ranks on the table; R4.6: the limit; R4.8: after a take only if allowed.
        ranks = {rank_of(c) for pair in table for c in pair if c is not None}
        # R15.2: with throw_in_by_suit, the suits on the table too (a joker has none).
        suits = {
            c.suit for pair in table for c in pair if c is not None and not is_joker(c)
        } if rules.throw_in_by_suit else set()
        room = len(table) < min(self.cap(rules), self.h)
        open_ = room and (not self.taken or rules.throw_after_take)

        def throw_ins(p: int) -> list[Card]:
            """R4.3-R4.9 but the order: his pass must not stand."""
            if not open_ or p not in throwers or not active[p] or p in self.passed:
                return []
            return [
                c
                for c in hands[p]
                if rank_of(c) in ranks or (not is_joker(c) and c.suit in suits)
            ]

        # R4.5: under attacker_first the others wait until the main attacker is done: his pass
        # stands, or he has nothing to add (R4.9's "never asked").
        main_done = not throw_ins(a)
        for p in throwers:
            if rules.throw_order is ThrowOrder.ATTACKER_FIRST and p != a and not main_done:
                continue
            cards = throw_ins(p)
            allowed |= {ThrowIn(p, c) for c in cards}
            if cards:
                allowed.add(Pass(p))  # R4.9
        unbeaten = [x for x, y in table if y is None]
        if not unbeaten or self.taken:
            return allowed
        # R4.7, R8.1: beat any unbeaten card; R4.8: take.
        allowed.add(Take(d))
        allowed |= {
            Beat(d, x, c)
            for x in unbeaten
            for c in hands[d]
            if beats_by_the_book(c, x, trump, rules.strict_suits)
        }
        # R9.1: nothing beaten yet (so all attack cards share one rank); R9.6: the first bout.
        if len(unbeaten) < len(table) or (self.bouts == 0 and not rules.transfer_first_bout):
            return allowed
        # R15.2: every attack card must share one rank; R15.1: a joker never transfers.
        if len({rank_of(x) for x, _ in table}) > 1:
            return allowed
        rank = rank_of(table[0][0])
        own = [c for c in hands[d] if rank_of(c) == rank and not is_joker(c)]
        target = next_seat(rules, active, d, opponent=True)
        if rules.transfer_by_card and target is not None:
            # R9.2: after it, attack cards <= the new defender's hand and <= the cap.
            spare = min(self.cap(rules), len(hands[target])) - len(table)
            most = spare if rules.transfer_several else min(spare, 1)  # R9.4
            allowed |= {Transfer(d, combo) for combo in groups(own, most)}
        if rules.show_sends_back:
            target = previous_seat(rules, active, d)  # R15.3: a show sends the attack back
        if rules.transfer_by_showing_trump and target is not None:
            spare = min(self.cap(rules), len(hands[target])) - len(table)
            if spare >= 0:
                # R9.5: a trump of the rank, each card at most once per bout.
                allowed |= {
                    ShowTrump(d, c) for c in own if c.suit == trump and c not in self.shown
                }
        return allowed

    def allowed_in(self, state: GameState) -> set[Action]:
        return self.allowed(state.rules, state.hands, state.table, bool(state.stock), state.trump)

    def played(self, state: GameState, action: Action) -> Ledger:
        """The ledger right after ``action``, before a bout end it may cause: R4.9's passes
        (any card played, beaten or transferred, a shown trump or a take clears every pass; an
        exchange clears none, R12.1), the main attacker and defender (R4.1, R9.1), H (R4.6)."""
        if isinstance(action, Pass):
            return replace(self, passed=self.passed | {action.player})
        if isinstance(action, ExchangeTrump):
            return self
        if isinstance(action, Lead | Transfer | ShowTrump):
            active = self.active(state.hands, bool(state.stock))
            if isinstance(action, ShowTrump) and state.rules.show_sends_back:
                d = previous_seat(state.rules, active, action.player)  # R15.3
            else:
                d = next_seat(state.rules, active, action.player, opponent=True)
            assert d is not None, f"{action} with nobody to defend"
            shown = self.shown | {action.card} if isinstance(action, ShowTrump) else self.shown
            if isinstance(action, Lead):
                shown = frozenset()
            return replace(
                self,
                attacker=action.player,
                defender=d,
                h=len(state.hands[d]),
                passed=frozenset(),
                shown=shown,
                taken=False if isinstance(action, Lead) else self.taken,
            )
        taken = self.taken or isinstance(action, Take)
        if isinstance(action, Catch):
            # R15.5: a caught cheat beat makes the defender take at once.
            taken = self.taken or any(b == action.card for _, b in state.table)
        if not self.passed and taken == self.taken:
            return self
        return replace(self, passed=frozenset(), taken=taken)

    def advance(self, state: GameState, action: Action, new: GameState) -> Ledger:
        """The ledger after ``action`` took ``state`` to ``new``."""
        rules = state.rules
        if isinstance(action, Redeal):
            assert not state.table and state.bouts == 0, f"{action} after the first lead"
            return Ledger.start(new)
        if not state.table and not new.table:
            # Only the trump exchange (R12.1) acts between bouts, and it leads no bout.
            assert isinstance(action, ExchangeTrump), f"{action} left the table empty"
            return self
        if isinstance(action, Lead):
            assert not state.table, f"{action} accepted with cards on the table"
        mid = self.played(state, action)
        pairs = pairs_after(state, action)
        hands = hands_after(state, action)
        if new.table and isinstance(action, Catch):
            return mid  # R15.5: a caught card goes back; the next state's checks follow it
        if new.table:
            # The bout goes on: the table and the hands are exactly what the action made them.
            assert Counter(tuple(p) for p in new.table) == Counter(pairs), (
                f"{action}: table {new.table}, expected {pairs}"
            )
            for p, hand in enumerate(new.hands):
                expected = hands[p] if p == action.player else state.hands[p]
                assert hand == expected or Counter(hand) == Counter(expected), (
                    f"{action} changed seat {p}'s hand"
                )
            return mid
        # The bout ended with this action (R4.10) ...
        assert not isinstance(action, Lead | Transfer | ShowTrump), (
            f"{action} ended the bout although it leaves an unbeaten card"
        )
        # ... which the rules allow only when nobody may act any more (R4.10's automatic end;
        # the exchange, R12.1, is not waited for).
        if ledger_follows(rules):
            left = mid.allowed(rules, hands, pairs, bool(state.stock), state.trump)
            assert not left, (
                f"{action} ended the bout, but the rules still allow {sorted(map(str, left))}"
            )
        cards = table_after(state, action)
        taken = mid.taken
        d = mid.defender
        assert d is not None
        if taken:
            assert new.discard == state.discard, "a take changed the discard pile"
            assert Counter(new.hands[d]) >= Counter(cards), (
                "the defender did not pick up the table (R4.8)"
            )
        else:
            assert new.discard[: len(state.discard)] == state.discard
            assert Counter(new.discard[len(state.discard) :]) == Counter(cards), (
                "a successful defence must discard exactly the table (R4.10)"
            )
        placed = sum(p is not None for p in self.places)
        newly = {
            p
            for p, place in enumerate(self.places)
            if place is None and not new.hands[p] and not new.stock
        }
        if rules.teams is not None and rules.team_win is TeamWin.FIRST_OUT:
            # R10.3: his partners leave with him.
            won = {team_of(rules, p) for p in newly}
            newly |= {p for p in range(state.players) if team_of(rules, p) in won}
        places = tuple(
            placed + 1 if place is None and p in newly else place
            for p, place in enumerate(self.places)
        )
        # R6.1, R6.2, R10.4: who leads the next bout.
        active = [place is None for place in places]
        # After a take, or when the defender is out: the next active player clockwise from him.
        leader = next_seat(rules, active, d, opponent=False) if taken or not active[d] else d
        return Ledger(None, self.bouts + 1, self.defences + (not taken), places, d, leader)


def ledger_follows(rules: Rules) -> bool:
    """Whether the ledger works out what is legal: not under house rules, nor with cheating
    (R15.5), whose catches it follows (the table, the passes, the take) without listing them."""
    return not rules.house_rules and not rules.cheating


def check_by_the_book(state: GameState, ledger: Ledger, legal: Sequence[Action]) -> None:
    """The ledger's lower and upper bounds on ``legal_actions``: the main attacker and the
    defender are the ledger's (R4.1, R6, R9.1, R10.4), every action the rule book allows is
    listed, and every listed lead, throw-in, pass, beat, take, transfer or show is one the
    rule book allows. Rule modules of R15 (``house_rules``) change what is legal and are left
    out."""
    if state.is_over or not ledger_follows(state.rules):
        return
    active = ledger.active(state.hands, bool(state.stock))
    assert state.attacker == ledger.attacker, (
        f"the attacker is seat {state.attacker}, the rules make it seat {ledger.attacker}"
    )
    if state.table:
        defender = ledger.defender
    else:
        assert ledger.attacker is not None
        defender = next_seat(state.rules, active, ledger.attacker, opponent=True)
    assert state.defender == defender, (
        f"the defender is seat {state.defender}, the rules make it seat {defender}"
    )
    allowed = ledger.allowed_in(state)
    listed = {a for a in legal if isinstance(a, BY_THE_BOOK)}
    missing = allowed - listed
    assert not missing, f"the rules allow {sorted(map(str, missing))}, but they are not listed"
    extra = listed - allowed
    assert not extra, f"listed {sorted(map(str, extra))}, which the rules do not allow"


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------


def check_conservation(state: GameState, deck: list[Card]) -> None:
    """R13.4: every card of the deck(s) exactly once, in a hand, the stock, the table or the
    discard pile."""
    cards = sorted(state.all_cards())
    if cards != deck:
        counts = Counter(cards)
        twice = sorted(c for c, k in counts.items() if k > 1)
        missing = sorted(set(deck) - set(counts))
        extra = sorted(set(counts) - set(deck))
        raise AssertionError(
            f"conservation broken: duplicated {twice}, missing {missing}, foreign {extra}"
        )


def check_table(state: GameState, ledger: Ledger) -> None:
    """R4.6: attack cards <= min(cap, H), H fixed when the defender became the defender;
    R4.7, R8.1: every beating card beats its attack card."""
    rules = state.rules
    if not state.table:
        assert ledger.h is None
        return
    assert ledger.h is not None
    assert state.defender_hand == ledger.h, (
        f"defender_hand is {state.defender_hand}, but the defender held {ledger.h} cards when "
        "he became the defender (R4.6)"
    )
    cap = ledger.cap(rules)
    assert len(state.table) <= min(cap, ledger.h), (
        f"{len(state.table)} attack cards exceed min(cap {cap}, H {ledger.h}) (R4.6)"
    )
    unbeaten = 0
    cheats = {c for c, _ in cheats_on_table(state)}  # R15.5: an uncaught cheat beat stands
    for attack, card in state.table:
        if card is None:
            unbeaten += 1
            continue
        if card in cheats:
            continue
        assert beats(card, attack, state.trump, rules), f"{card} does not beat {attack} (R4.7)"
        assert beats_by_the_book(card, attack, state.trump, rules.strict_suits), (
            f"{card} does not beat {attack} by R4.7/R8.1 (trump {state.trump.name}, strict "
            f"{sorted(rules.strict_suits)})"
        )
    if not state.taken:
        # R4.6's equivalent check while the defender only beats.
        assert unbeaten <= len(state.hands[state.defender])


def check_transition(
    state: GameState, action: Action, new: GameState, ledger: Ledger, deck: list[Card]
) -> Ledger:
    """The checks of one accepted action; returns the ledger of ``new``."""
    assert isinstance(new, GameState)
    assert new is not state and new != state, f"{action} returned the state unchanged"
    assert new.rules == state.rules
    if not isinstance(action, Redeal):
        assert new.trump == state.trump, "the trump suit changed during the game (R2.4)"
    check_conservation(new, deck)
    after = ledger.advance(state, action, new)
    assert (new.bouts, new.defences) == (after.bouts, after.defences)
    if new.result is None:
        assert new.places == after.places, f"places {new.places}, expected {after.places} (R7.2)"
    else:
        # One source for places: once the game is over the state's are the result's, a place
        # for every seat (R7.2); check_result derives those from the ledger independently.
        assert new.places == new.result.places, "the state's places differ from the result's"
    check_table(new, after)
    return after


def check_pickle(state: GameState, protocol: int = pickle.DEFAULT_PROTOCOL) -> GameState:
    """R13.4: a state read back is equal, with the same hash; returns the copy. (Its pickle
    need not be the same bytes: a frozenset read back may iterate in another order.)"""
    copy: GameState = pickle.loads(pickle.dumps(state, protocol=protocol))
    assert copy == state
    assert hash(copy) == hash(state)
    return copy


def check_result(state: GameState, ledger: Ledger) -> None:
    """R7.2-R7.4, R10.3 and :class:`~durak.state.Result`: a place for every seat, the durak
    last, winners and losers partitioning the seats."""
    result = state.result
    assert result is not None
    rules = state.rules
    n = state.players
    seats = set(range(n))
    assert not state.table
    assert len(result.places) == n
    assert all(isinstance(place, int) and 1 <= place <= n for place in result.places)
    assert list(result.winners) == sorted(set(result.winners))
    assert list(result.losers) == sorted(set(result.losers))
    assert not set(result.winners) & set(result.losers)
    assert set(result.winners) | set(result.losers) == seats
    if rules.teams is not None:
        # A player's result is his team's (R10.3).
        for group in (result.winners, result.losers):
            teams = {team_of(rules, p) for p in group}
            assert set(group) == {p for p in seats if team_of(rules, p) in teams}
    else:
        assert all(
            result.places[w] < result.places[lo] for w in result.winners for lo in result.losers
        )
        for w in result.winners:
            assert not state.hands[w], f"winner {w} still holds cards"
    if rules.objective is Objective.FIRST_OUT:
        assert result.durak is None and not result.draw
        out_teams = {team_of(rules, p) for p in seats if ledger.places[p] is not None}
        winners = tuple(p for p in range(n) if team_of(rules, p) in out_teams)
        assert winners and result.winners == winners
        assert all(result.places[p] == 1 for p in winners)
        # R7.2: the others share 1 + the number out; in team play the losing team holds
        # cards and shares the last place.
        lost = n if rules.teams is not None else len(winners) + 1
        assert all(result.places[p] == lost for p in result.losers)
        return
    left = [p for p in range(n) if ledger.places[p] is None]
    assert len({team_of(rules, p) for p in left}) <= 1, "the game ended with two sides in play"
    assert not state.stock or left
    if left:
        losing = team_of(rules, left[0])
        durak = left[0] if len(left) == 1 else None
    elif rules.on_last_cleared is OnLastCleared.DEFENDER_LOSES:
        assert ledger.last_defender is not None
        durak = ledger.last_defender
        losing = team_of(rules, durak)
        left = [durak]
    else:
        assert result.draw and result.durak is None and result.losers == ()
        assert result.places == ledger.places
        return
    assert not result.draw
    assert result.durak == durak
    if durak is not None:
        assert result.places[durak] == n, "the durak must take the last place (R7.2)"
        assert result.losers == tuple(p for p in range(n) if team_of(rules, p) == losing)
    assert set(result.losers) == {p for p in seats if team_of(rules, p) == losing}
    for p in seats:
        expected = n if p in left else ledger.places[p]
        assert result.places[p] == expected, f"seat {p}: place {result.places[p]}, not {expected}"


def candidate_actions(state: GameState, rng: random.Random) -> list[Action]:
    """Well-formed actions of every kind for every seat (and one seat too many), with the
    player's own cards and with cards from other hands, the table, the stock and the discard
    pile; single and multi-card forms, duplicates and mixed ranks included. Most are illegal.
    The defender's beats cover every own card against every attack card; other combinations
    are sampled."""
    n = state.players
    table_cards = [c for pair in state.table for c in pair if c is not None]
    elsewhere = sorted(
        {c for hand in state.hands for c in hand}
        | set(table_cards)
        | set(state.stock[:2])
        | set(state.stock[-1:])
        | set(state.discard[-3:])
    )
    attacks = [a for a, _ in state.table]
    out: list[Action] = []
    for p in range(n + 1):
        own = list(state.hands[p]) if p < n else []
        foreign = rng.sample(elsewhere, min(3, len(elsewhere)))
        out += [Take(p), Pass(p), Redeal(p)]
        for c in dict.fromkeys(own + foreign):
            out += [Lead(p, (c,)), ThrowIn(p, c), Transfer(p, (c,)), ShowTrump(p, c)]
            out.append(ExchangeTrump(p, c))
            if p == state.defender:
                out += [Beat(p, a, c) for a in attacks]
            targets = attacks + foreign
            if targets:
                out.append(Beat(p, rng.choice(targets), c))
        by_rank: dict[int | str, list[Card]] = {}
        for c in own:
            by_rank.setdefault(rank_of(c), []).append(c)
        for group in by_rank.values():
            if len(group) > 1:
                for combo in (tuple(group[:2]), tuple(group), tuple(reversed(group))):
                    out += [Lead(p, combo), Transfer(p, combo)]
        if own:
            out += [Lead(p, (own[0], own[0])), Transfer(p, (own[0], own[0]))]
            out += [Lead(p, (own[0], own[-1])), Transfer(p, (own[0], own[-1]))]
            if foreign:
                out += [Lead(p, (own[0], foreign[0])), Transfer(p, (own[-1], foreign[0]))]
    return list(dict.fromkeys(out))


def check_candidates(state: GameState, legal: set[Action], rng: random.Random) -> None:
    """R13.3, R13.4: ``is_legal`` is true exactly for the listed actions; every other candidate
    is rejected by ``apply`` with an :class:`~durak.IllegalActionError` (a ``ValueError``)
    citing a rule id and naming the player, and the state stays equal: ``==``, hash and pickle
    bytes (checked once after all the rejections; states are immutable, so a change would
    persist)."""
    before = pickle.dumps(state)
    before_hash = hash(state)
    snapshot = pickle.loads(before)
    for action in candidate_actions(state, rng):
        listed = action in legal
        assert is_legal(state, action) is listed, (
            f"is_legal({action}) is {not listed}, but the action is "
            f"{'' if listed else 'not '}listed"
        )
        verdict = check(state, action)
        # The modules' own verdict (violation and check hooks), which the listing of an exact
        # module skips: it must agree with the listing both ways.
        hooks = _violation(_bout(state), action)
        if listed:
            assert verdict is None
            assert hooks is None, f"the listed {action} breaks {hooks}"
            continue
        assert verdict is not None, f"check({action}) finds nothing, but it is not listed"
        assert hooks is not None and verdict != UNEXPLAINED, (
            f"{action} is not listed, but no rule module says why"
        )
        try:
            apply(state, action)
        except IllegalActionError as err:
            assert isinstance(err, ValueError)
            assert RULE_ID.match(err.rule), f"rule id {err.rule!r} rejecting {action}"
            assert (err.rule, err.reason) == verdict
            assert err.player == action.player
            assert f"({err.rule})" in str(err)
        else:
            raise AssertionError(f"apply accepted {action}, which is not listed")
    assert state == snapshot, "a rejected action changed the state"
    assert hash(state) == before_hash
    assert pickle.dumps(state) == before


def check_state(
    state: GameState, ledger: Ledger, deck: list[Card], full: bool, rng: random.Random
) -> tuple[tuple[Action, ...], list[Ledger]]:
    """Every check of one state on the game's path; returns its legal actions and the ledgers
    of their successors. ``full`` adds the illegal-candidates check."""
    check_conservation(state, deck)
    check_table(state, ledger)
    copy = check_pickle(state)
    if full:
        check_pickle(state, pickle.HIGHEST_PROTOCOL)
    before_hash = hash(state)
    rules = state.rules
    legal = legal_actions(state)
    assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
    # Each seat's listing asked of the equal copy, whose facts are derived afresh: the listing
    # of every seat at once (one loop) and the one seat at a time must agree.
    per_player = [legal_actions(copy, p) for p in range(state.players)]
    assert legal == tuple(a for acts in per_player for a in acts), (
        "legal_actions(state) is not the seat-ordered union of legal_actions(state, p)"
    )
    for p, acts in enumerate(per_player):
        assert all(a.player == p for a in acts)
    check_by_the_book(state, ledger, legal)
    actor = next_actor(state)
    if state.is_over:
        assert legal == (), "a finished game has legal actions"
        assert actor is None
        check_result(state, ledger)
    else:
        assert legal, "a state that is not over has no legal action"
        assert actor is not None and per_player[actor], (
            f"next_actor gives {actor}, who has no legal action"
        )
        if not state.table:
            assert actor == state.attacker
        elif state.unbeaten and not state.taken:
            assert actor == state.defender
        in_play = {team_of(rules, p) for p in range(state.players) if ledger.places[p] is None}
        assert len(in_play) >= 2, "the game goes on with one side left (R7.3, R10.3)"
        if rules.objective is Objective.FIRST_OUT:
            assert all(place is None for place in ledger.places)
    if full and not state.is_over:
        with pytest.raises(IndexError):
            legal_actions(state, state.players)
    successors: list[Ledger] = []
    for action in legal:
        assert is_legal(state, action), f"the listed {action} fails is_legal"
        assert check(state, action) is None, f"the listed {action} fails check"
        new = apply(state, action)
        successors.append(check_transition(state, action, new, ledger, deck))
    assert state == copy and hash(state) == before_hash, "apply changed its input"
    if full:
        check_candidates(state, set(legal), rng)
    return legal, successors


# --------------------------------------------------------------------------------------------
# Playing whole games
# --------------------------------------------------------------------------------------------


def choose(state: GameState, legal: Sequence[Action], mode: str, pick: Pick) -> int:
    """The index in ``legal`` of the action to play."""
    if mode == "mixed":
        mode = ("all", "next_actor")[pick(2)]
    if mode == "all":
        return pick(len(legal))
    actor = next_actor(state)
    own = [i for i, a in enumerate(legal) if a.player == actor]
    return own[pick(len(own))]


def play_checked(
    rules: Rules,
    seed: int,
    mode: str,
    pick: Pick,
    check_rng: random.Random,
    sample: float = ILLEGAL_SAMPLE,
) -> tuple[GameState, list[Action]]:
    """Play a whole game, checking every step; returns the final state and the actions."""
    deck = sorted(plan_for(rules).deck)
    state = new_game(rules, seed=seed)
    assert state == new_game(rules, seed=seed)
    ledger = Ledger.start(state)
    played: list[Action] = []
    budget = ILLEGAL_MAX
    note(f"rules={rules!r}")
    note(f"seed={seed!r} mode={mode!r}")
    try:
        for step in range(STEP_BOUND):
            full = step == 0 or state.is_over or (budget > 0 and check_rng.random() < sample)
            budget -= full
            legal, successors = check_state(state, ledger, deck, full, check_rng)
            if state.is_over:
                return state, played
            i = choose(state, legal, mode, pick)
            played.append(legal[i])
            state = apply(state, legal[i])
            ledger = successors[i]
        # Not over within the checked steps: play on unchecked; it must end unless the rules
        # allow endless games.
        while not state.is_over and len(played) < END_BOUND:
            legal = legal_actions(state)
            played.append(legal[choose(state, legal, mode, pick)])
            state = apply(state, played[-1])
        check_ended(state, len(played))
        return state, played
    except BaseException:
        note(f"actions ({len(played)}): {[str(a) for a in played]}")
        note(f"state={state!r}")
        raise


def replay(rules: Rules, seed: int, actions: Sequence[Action]) -> GameState:
    """The state after ``actions`` from the deal of ``seed`` (also handy to rerun a failure)."""
    state = new_game(rules, seed=seed)
    for action in actions:
        state = apply(state, action)
    return state


def play_quick(rules: Rules, seed: int, mode: str, pick: Pick) -> GameState:
    """A whole game without checks (to the same bound as :func:`play_checked`)."""
    state = new_game(rules, seed=seed)
    for _ in range(END_BOUND):
        if state.is_over:
            return state
        legal = legal_actions(state)
        state = apply(state, legal[choose(state, legal, mode, pick)])
    return state


def check_same(a: GameState, b: GameState) -> None:
    assert a == b and hash(a) == hash(b)


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


@settings(max_examples=examples(50), deadline=None, suppress_health_check=SLOW)
@given(rules=rules_strategy(), seed=seeds, choice_seed=seeds, check_seed=seeds, mode=modes)
def test_R13_4_invariants_in_random_games(
    rules: Rules, seed: int, choice_seed: int, check_seed: int, mode: str
) -> None:
    rng = random.Random(choice_seed)
    final, played = play_checked(rules, seed, mode, rng.randrange, random.Random(check_seed))
    # R13.4: the same seed and the same actions end in the same state ...
    check_same(replay(rules, seed, played), final)
    # ... and so do the same seed and the same choices.
    check_same(play_quick(rules, seed, mode, random.Random(choice_seed).randrange), final)


@settings(max_examples=examples(20), deadline=None, suppress_health_check=SLOW)
@given(rules=rules_strategy(decks=(1,), max_players=4), seed=seeds, mode=modes, data=st.data())
def test_R13_4_invariants_with_drawn_choices(
    rules: Rules, seed: int, mode: str, data: st.DataObject
) -> None:
    """The same checks with every choice drawn by Hypothesis (so failures shrink to short
    games), and the illegal candidates checked on more steps."""
    choices: list[int] = []

    def pick(n: int) -> int:
        choices.append(data.draw(st.integers(0, n - 1)))
        return choices[-1]

    final, played = play_checked(rules, seed, mode, pick, random.Random(seed), sample=0.25)
    check_same(replay(rules, seed, played), final)
    recorded = iter(choices)
    check_same(play_quick(rules, seed, mode, lambda _n: next(recorded)), final)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=3, deadline=None, suppress_health_check=SLOW)
@given(seed=seeds, choice_seed=seeds, players=st.integers(2, MAX_PLAYERS), mode=modes)
def test_R13_4_invariants_in_every_preset(
    preset: str, seed: int, choice_seed: int, players: int, mode: str
) -> None:
    settings_ = dict(PRESETS[preset].settings)
    if "players" not in settings_ and "teams" not in settings_:
        hand = settings_.get("hand_size", 6)
        cards = settings_.get("deck_size", 36) * settings_.get("decks", 1)
        settings_["players"] = min(players, cards // hand)
    rules = Rules.from_dict(settings_)
    rng = random.Random(choice_seed)
    final, played = play_checked(rules, seed, mode, rng.randrange, random.Random(seed))
    check_same(replay(rules, seed, played), final)


@settings(max_examples=examples(30), deadline=None)
@given(rules=rules_strategy(), seed=seeds)
def test_R13_4_same_seed_same_deal_and_pickling(rules: Rules, seed: int) -> None:
    a, b = new_game(rules, seed=seed), new_game(rules, seed=seed)
    check_same(a, b)
    check_pickle(a)
    copy = pickle.loads(pickle.dumps(rules))
    assert copy == rules and hash(copy) == hash(rules)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=SLOW)
@given(
    rules=rules_strategy(),
    seed=seeds,
    choice_seed=seeds,
    mode=modes,
)
def test_R12_1_exchange_right_follows_the_card(
    rules: Rules, seed: int, choice_seed: int, mode: str
) -> None:
    """R12.1: the holder of the deck's lowest trump, dealt or drawn to him and held ever since,
    may swap it for the face-up card while that card is in the stock (and is not the same card);
    no one else may. The test tracks the rights itself."""
    rules = rules.replace(trump_six_exchange=True)
    rng = random.Random(choice_seed)
    state = new_game(rules, seed=seed)
    low = DECK_SIZES[rules.deck_size]

    def dealt(s: GameState) -> set[tuple[int, Card]]:
        return {
            (p, c) for p, h in enumerate(s.hands) for c in h if c.suit == s.trump and c.rank == low
        }

    rights = dealt(state)
    played: list[str] = []
    note(f"rules={rules!r} seed={seed}")
    for _ in range(STEP_BOUND):
        if state.is_over:
            return
        legal = set(legal_actions(state))
        for p, hand in enumerate(state.hands):
            for c in hand:
                if c.suit != state.trump or c.rank != low:
                    continue
                expected = (
                    (p, c) in rights
                    and state.is_active(p)
                    and bool(state.stock)
                    and state.stock[-1] == state.trump_card  # face up, not a joker (R15.1)
                    and state.stock[-1] & 63 != c & 63
                )
                assert (ExchangeTrump(p, c) in legal) is expected, (
                    f"after {played}: seat {p} holding {c} "
                    f"{'may' if expected else 'may not'} exchange it (R12.1)"
                )
        ordered = legal_actions(state)
        action = ordered[choose(state, ordered, mode, rng.randrange)]
        new = apply(state, action)
        played.append(str(action))
        if isinstance(action, Redeal):
            rights = dealt(new)
        else:
            drawn = set(state.stock) - set(new.stock)
            rights = {(p, c) for p, c in rights if c in new.hands[p]}
            if not isinstance(action, ExchangeTrump):
                rights |= {(p, c) for p, c in dealt(new) if c in drawn}
        state = new
    # Not over within the checked steps: it must end unless the rules allow endless games.
    while not state.is_over and len(played) < END_BOUND:
        ordered = legal_actions(state)
        action = ordered[choose(state, ordered, mode, rng.randrange)]
        state = apply(state, action)
        played.append(str(action))
    check_ended(state, len(played))


@pytest.mark.parametrize(
    ("hand_size", "strict", "endless"),
    [(6, 0, False), (6, 1, False), (2, 1, False), (6, 2, True), (6, 3, True), (1, 0, True)],
)
def test_R13_4_an_unfinished_game_fails_unless_its_settings_may_not_end(
    hand_size: int, strict: int, endless: bool
) -> None:
    """The end-of-game check of play_checked: a game still going at its bound fails, unless
    its settings are those under which Durak need not end (one-card hands, two or more strict
    suits besides trump); then it is reported. ``strict`` counts the strict suits besides
    trump; the trump suit is always strict too, and does not count."""
    trump = new_game(Rules(hand_size=hand_size), seed=1).trump
    others = frozenset([suit for suit in Suit if suit != trump][:strict])
    state = new_game(Rules(hand_size=hand_size, strict_suits=others | {trump}), seed=1)
    assert state.trump == trump and not state.is_over
    if endless:
        with pytest.warns(EndlessGame, match="did not end within"):
            check_ended(state, END_BOUND)
    else:
        with pytest.raises(AssertionError, match="no end after"):
            check_ended(state, END_BOUND)
    # A finished game passes.
    over = play_quick(Rules(), 1, "all", random.Random(1).randrange)
    assert over.is_over
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_ended(over, len(over.discard))


def test_games_always_terminate() -> None:
    """Random games end well within a generous step bound, for a spread of rules."""
    bound = 5_000
    rules_list = [
        Rules(),
        Rules(players=6),
        Rules(players=4, deck_size=24),
        Rules(players=3, deck_size=52, transfer_by_card=True, transfer_several=True),
        Rules(players=5, decks=2, deck_size=52, transfer_by_showing_trump=True),
        Rules(players=2, throw_after_take=False, lead="same_rank", max_attack=8),
        Rules(players=4, throwers="attacker", objective="first_out", hand_size=1),
        Rules(players=6, teams=[[0, 3], [1, 4], [2, 5]], team_win="all_out"),
        Rules(players=4, teams=[[0, 2], [1, 3]], trump_six_exchange=True, misdeal_suit_count=3),
    ]
    for rules in rules_list:
        for seed in range(12):
            rng = random.Random(seed)
            state = new_game(rules, seed=seed)
            steps = 0
            while not state.is_over:
                assert steps < bound, f"{rules!r} seed {seed}: no end after {bound} steps"
                actor = next_actor(state)
                assert actor is not None
                state = apply(state, rng.choice(legal_actions(state, actor)))
                steps += 1
            assert state.result is not None


# --------------------------------------------------------------------------------------------
# R15: the extensions, one at a time and all at once
# --------------------------------------------------------------------------------------------

#: Each R15 module on its own, then all of them at once (with transfers, so that R15.1's "never
#: a transfer card", R15.2's "one rank" and R15.3's shows come into play).
EXTENSION_RULES = {
    "jokers": Rules(players=4, deck_size=52, jokers=2, transfer_by_card=True),
    "throw_in_by_suit": Rules(players=3, throw_in_by_suit=True, transfer_by_card=True),
    "show_sends_back": Rules(
        players=4, transfer_by_showing_trump=True, show_sends_back=True, teams=[[0, 2], [1, 3]]
    ),
    "pogony": Rules(players=3, pogony=True),
    "cheating": Rules(players=3, cheating=True),
    "all": Rules(players=5, **{**ALL_ON, "jokers": 1}),
}


@pytest.mark.parametrize("name", sorted(EXTENSION_RULES))
@settings(max_examples=2, deadline=None, suppress_health_check=SLOW)
@given(seed=seeds, choice_seed=seeds, mode=modes)
def test_R13_4_R15_invariants_with_each_extension_and_all_at_once(
    name: str, seed: int, choice_seed: int, mode: str
) -> None:
    rules = EXTENSION_RULES[name]
    rng = random.Random(choice_seed)
    final, played = play_checked(rules, seed, mode, rng.randrange, random.Random(seed), 0.02)
    check_same(replay(rules, seed, played), final)
    if rules.pogony and final.result is not None:
        assert final.result.fact("epaulettes") in (0, 1, 2)  # R15.4
