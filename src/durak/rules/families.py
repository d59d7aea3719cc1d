"""The rule book's rule families as rule modules (R1-R12).

Each class below is one family: it reads its own settings and answers the hooks of
:class:`~durak.rules.modules.RuleModule` for it. The engine reads no setting; it asks these.

========================  ==========================================  =====================
module                    decides                                     rules
========================  ==========================================  =====================
:class:`Deck`             the cards: sizes, several decks             R1.2
:class:`FirstLead`        who leads a deal's first bout               R3.1-R3.3
:class:`Leading`          the lead's shape                            R4.2
:class:`ThrowingIn`       who throws in, in which order, passing      R4.3-R4.5, R4.8, R4.9
:class:`AttackLimit`      the cap of a bout                           R4.6
:class:`Beating`          beating                                     R4.7
:class:`Taking`           the take                                    R4.8
:class:`TransferByCard`   transfer by card, several cards             R9.1-R9.4, R9.6
:class:`TransferByShow`   transfer by showing a trump                 R9.5, R9.6
:class:`Seating`          the next opponent, teams                    R2.2, R4.1, R10.2
:class:`Drawing`          the drawing order                           R5.1
:class:`Objective`        going out, the end, the result              R7, R10.3
:class:`TrumpSixExchange` the trump-six exchange                      R12.1
:class:`Misdeal`          misdeal redeals                             R12.2
========================  ==========================================  =====================

The strict-suit rule (R8) is :class:`~durak.rules.modules.StrictSuits`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from durak.actions import (
    Action,
    Beat,
    ExchangeTrump,
    Lead,
    Pass,
    Redeal,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from durak.cards import DECK_SIZES, Card, Rank, Suit, build_deck, sort_cards
from durak.errors import RulesError
from durak.events import (
    Beaten,
    Event,
    Led,
    Passed,
    Redealt,
    TakeDeclared,
    ThrownIn,
    Transferred,
    TrumpExchanged,
)
from durak.messages import message
from durak.rules import drawing, objective, seating, throwing
from durak.rules.beating import forbidder
from durak.rules.hooks import (
    REDEAL,
    RedealRequest,
    RuleModule,
    Settled,
    Violation,
    register_built_ins,
)
from durak.rules.modules import StrictSuits
from durak.rules.settings import Lead as LeadSetting
from durak.rules.settings import NoTrumpLead, Rules, ThrowOrder
from durak.rules.shared import (
    _BEATS,
    _LEADS,
    _PASSES,
    _SEVERAL_LEADS,
    _SEVERAL_TRANSFERS,
    _TAKES,
    _THROW_INS,
    _TRANSFERS,
    one,
)

if TYPE_CHECKING:
    from durak.rules.bout import Bout
    from durak.state import GameState

try:  # the compiled build's class options, read by mypyc when it compiles this module
    from mypy_extensions import mypyc_attr
except ImportError:  # nothing at run time: the core needs attrs alone

    def mypyc_attr(*args: object, **kwargs: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls


__all__ = [
    "BUILT_IN",
    "AttackLimit",
    "Beating",
    "Deck",
    "Drawing",
    "FirstLead",
    "Leading",
    "Misdeal",
    "Objective",
    "Seating",
    "Taking",
    "ThrowingIn",
    "TransferByCard",
    "TransferByShow",
    "TrumpSixExchange",
    "gives_own",
    "in_hand",
    "lowest_trump",
    "subsets",
    "with_known",
]

_EMPTY: frozenset[int] = frozenset()


def in_hand(b: Bout, p: int, cards: Sequence[Card]) -> Violation | None:
    """R13.1: every card is in ``p``'s hand, none listed twice (R1.2)."""
    hand = b.s.hands[p]
    if len(cards) == 1:
        return (
            None if cards[0] in hand else ("R13.1", message("not-in-hand", card=cards[0], player=p))
        )
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        return "R1.2", message("listed-twice", card=dup)
    for c in cards:
        if c not in hand:
            return "R13.1", message("not-in-hand", card=c, player=p)
    return None


def subsets(cards: Sequence[Card], most: int) -> list[tuple[Card, ...]]:
    """Non-empty subsets of ``cards`` with at most ``most`` cards, smaller first. Only subsets
    that fit the room left are built (R4.6, R9.2), so the listing grows with that room, not
    with 2 to the number of cards."""
    return [combo for k in range(1, min(most, len(cards)) + 1) for combo in combinations(cards, k)]


def rank_of(card: Card) -> Rank | str:
    """A card's rank as a message parameter: a :class:`~durak.cards.Rank`, or the text of a
    card outside the 52 (its own rank)."""
    return str(card).partition("#")[0] if card.special else card.rank


def lowest_trump(rules: Rules, trump: Suit) -> int:
    """The card value (copy aside) of the deck's lowest trump (R12.1)."""
    return trump * 16 + DECK_SIZES[rules.deck_size]


def _remove(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    if len(cards) == 1:
        i = hand.index(cards[0])
        return hand[:i] + hand[i + 1 :]
    gone = set(cards)
    return tuple([c for c in hand if c not in gone])


def _with_hand(
    hands: tuple[tuple[Card, ...], ...], p: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    out = list(hands)
    out[p] = hand
    return tuple(out)


def _played(
    hands: tuple[tuple[Card, ...], ...], p: int, card: Card
) -> tuple[tuple[Card, ...], ...]:
    """``hands`` after ``p`` played ``card`` from his hand."""
    hand = hands[p]
    i = hand.index(card)
    out = list(hands)
    out[p] = hand[:i] + hand[i + 1 :]
    return tuple(out)


def _joined(s: GameState, p: int) -> tuple[int, ...]:
    return s.joined if p in s.joined else (*s.joined, p)


def with_known(
    known: tuple[frozenset[Card], ...], p: int, cards: frozenset[Card]
) -> tuple[frozenset[Card], ...]:
    out = list(known)
    out[p] = cards
    return tuple(out)


def defending(b: Bout, p: int, rule: str = "R4.8") -> Violation | None:
    """``p`` is the defender facing an unbeaten card, not having taken; ``rule`` is cited when
    nothing is left unbeaten (R4.7 for a beat, R4.8 for a take, R9.1 for a transfer)."""
    s = b.s
    if not s.table:
        return "R4.2", message("not-led")
    if p != s.defender:
        return "R4.1", message("not-defender", defender=s.defender)
    if s.taken:
        return "R4.8", message("already-taken")
    if not b.unbeaten:
        return rule, message("all-beaten")
    return None


# --------------------------------------------------------------------------------------------
# R1, R3: the deck and the first lead
# --------------------------------------------------------------------------------------------


def gives_own(policy: Callable[..., object], hook: str, family: type[RuleModule]) -> bool:
    """Whether ``policy``, a plan's hook (a bound method of the module that gives it), is
    ``family``'s own answer to ``hook``: the module is a ``family`` or a subclass that keeps
    its ``hook``. Asked of the classes, so both builds agree (a bound method of a compiled
    class has no ``__func__``)."""
    owner = getattr(policy, "__self__", None)
    return owner is not None and getattr(type(owner), hook, None) is getattr(family, hook)


@mypyc_attr(allow_interpreted_subclasses=True)
class Deck(RuleModule):
    """R1.2: ``decks`` copies of the ``deck_size``-card deck."""

    name = "deck"
    description = "The deck: 24, 32, 36 or 52 cards, one or more copies (R1.2)"
    rule = "R1.2"

    def applies(self, rules: Rules) -> bool:
        return True

    def deck(self, rules: Rules, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return (*cards, *build_deck(rules.deck_size, rules.decks))

    def turn_trump(
        self, rules: Rules, rest: tuple[Card, ...], dealt: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], Card]:
        """R2.4: the next card is turned face up and laid under the stock; with no card left,
        the dealer's last dealt card shows trump."""
        trump_card = rest[0] if rest else dealt[-1]
        if trump_card.special:
            raise RulesError(
                "house_rules",
                f"{trump_card}, a card outside the 52, would fix trump: the module that adds "
                "it must give turn_trump (R2.4)",
            )
        return ((*rest[1:], trump_card) if rest else ()), trump_card


@mypyc_attr(allow_interpreted_subclasses=True)
class FirstLead(RuleModule):
    """R3.1-R3.3: the holder of the lowest trump leads, ties to the first clockwise from the
    dealer's left neighbour; with no trump dealt, ``no_trump_lead`` decides."""

    name = "first-lead"
    description = "The lowest trump leads the first bout (R3)"
    rule = "R3.1"

    def applies(self, rules: Rules) -> bool:
        return True

    def first_attacker(
        self, rules: Rules, hands: Sequence[Sequence[Card]], trump: Suit, dealer: int
    ) -> int | None:
        n = len(hands)
        best: tuple[int, int] | None = None
        for step in range(1, n + 1):
            seat = (dealer + step) % n
            ranks = [c & 15 for c in hands[seat] if (c >> 4) & 3 == trump and not c.special]
            if ranks and (best is None or min(ranks) < best[0]):
                best = (min(ranks), seat)
        if best is not None:
            return best[1]
        if rules.no_trump_lead is NoTrumpLead.DEALER_LEFT:
            return (dealer + 1) % n
        return None


# --------------------------------------------------------------------------------------------
# R4: the bout
# --------------------------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)
class Leading(RuleModule):
    """R4.2: the attacker leads one card, or several of one rank under ``lead = same_rank``,
    within R4.6."""

    name = "leading"
    description = "The lead: one card, or several of one rank (R4.2)"
    rule = "R4.2"
    kinds = (Lead,)
    offers_to = ("leader",)
    exact = True

    def applies(self, rules: Rules) -> bool:
        return True

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if s.table or player != s.attacker or bout.limit < 1:
            return ()
        hand = s.hands[player]
        if s.rules.lead is LeadSetting.SAME_RANK:
            by_rank: dict[int, list[Card]] = {}
            for c in hand:
                by_rank.setdefault(c & 15, []).append(c)
            leads = _SEVERAL_LEADS
            return [
                leads[player, combo]
                for group in by_rank.values()
                for combo in subsets(group, bout.limit)
            ]
        base = player << 20
        return [_LEADS[base | c] for c in hand]

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        assert isinstance(action, Lead)
        s = bout.s
        if s.table:
            return "R4.2", message("already-led")
        if action.player != s.attacker:
            return "R4.1", message("not-leader", attacker=s.attacker)
        bad = in_hand(bout, action.player, action.cards)
        if bad:
            return bad
        if s.rules.lead is LeadSetting.SINGLE and len(action.cards) > 1:
            return "R4.2", message("lead-single")
        if len(action.cards) > 1 and len({c & 15 for c in action.cards}) > 1:
            return "R4.2", message("lead-one-rank")
        if len(action.cards) > bout.limit:
            return "R4.6", message(
                "lead-over-limit",
                n=len(action.cards),
                limit=bout.limit,
                cap=bout.cap,
                hand=len(s.hands[s.defender]),
            )
        return None

    def event(self, bout: Bout, action: Action) -> Event:
        assert isinstance(action, Lead)
        return Led(action.player, action.cards, bout.s.defender)

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        assert isinstance(action, Lead)
        s, p = bout.s, action.player
        cards = action.cards
        return {
            "hands": _played(s.hands, p, cards[0])
            if len(cards) == 1
            else _with_hand(s.hands, p, _remove(s.hands[p], cards)),
            "table": ((cards[0], None),) if len(cards) == 1 else tuple([(c, None) for c in cards]),
            "leader": p,
            "joined": (p,),
            "defender_hand": len(s.hands[s.defender]),
            "passed": _EMPTY,
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class ThrowingIn(RuleModule):
    """R4.3-R4.5, R4.8, R4.9: who may throw in (``throwers``), in which order
    (``throw_order``), after a take (``throw_after_take``), and passing."""

    name = "throwing-in"
    description = "Throwing in: who, in which order, after a take; passing (R4.3-R4.9)"
    rule = "R4.3"
    kinds = (ThrowIn, Pass)
    offers_to = ("thrower",)
    exact = True

    def applies(self, rules: Rules) -> bool:
        return True

    def throwers(
        self, rules: Rules, active: Sequence[bool], attacker: int, defender: int
    ) -> tuple[int, ...]:
        return throwing.throwers(rules, active, attacker, defender)

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if not s.table or player == s.defender or player in s.passed:
            return ()
        plan = bout.plan
        base = player << 20
        if plan.throw_filters or plan.throw_checkers:
            if not bout.able(player):
                return ()
            out = [_THROW_INS[base | c] for c in bout.matching(player)]
        else:  # he is able (R4.9) exactly when he holds a card of a rank on the table
            if not bout.can_add or player not in bout.throwers:
                return ()
            ranks = bout.ranks
            out = [_THROW_INS[base | c] for c in s.hands[player] if c & 15 in ranks]
            if not out:
                return ()
        if (
            player != s.attacker
            and s.rules.throw_order is ThrowOrder.ATTACKER_FIRST
            and not bout.done(s.attacker)
        ):
            return ()  # R4.5: the main attacker first
        out.append(_PASSES[base])
        return out

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        s = bout.s
        p = action.player
        card = action.card if isinstance(action, ThrowIn) else None
        if not s.table:
            return "R4.2", message("not-led")
        if p == s.defender:
            if card is None:  # R4.9: passing is the throwers' "done"; he beats or takes
                return "R4.9", message("defender-passes")
            return "R4.4", message("defender-throws")
        if p not in bout.throwers:
            return "R4.4", message("not-thrower", player=p, throwers=s.rules.throwers.value)
        if p in s.passed:
            return "R4.9", message("has-passed", player=p)
        if s.taken and not s.rules.throw_after_take:
            return "R4.8", message("taken-no-throw")
        if len(s.table) >= bout.limit:
            return "R4.6", message("table-full", n=len(s.table), cap=bout.cap, hand=s.defender_hand)
        if (
            s.rules.throw_order is ThrowOrder.ATTACKER_FIRST
            and p != s.attacker
            and not bout.done(s.attacker)
        ):
            return "R4.5", message("attacker-first", attacker=s.attacker)
        if card is not None:
            if card not in s.hands[p]:
                return "R13.1", message("not-in-hand", card=card, player=p)
            if not bout.matches(card):
                return "R4.3", message("rank-not-on-table", rank=rank_of(card))
        elif not bout.able(p):
            return "R4.9", message("nothing-to-pass", player=p)
        return None

    def event(self, bout: Bout, action: Action) -> Event:
        if isinstance(action, ThrowIn):
            return ThrownIn(action.player, action.card)
        return Passed(action.player)

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        s, p = bout.s, action.player
        if isinstance(action, Pass):
            return {"passed": s.passed | {p}}
        assert isinstance(action, ThrowIn)
        return {
            "hands": _played(s.hands, p, action.card),
            "table": (*s.table, (action.card, None)),
            "joined": _joined(s, p),
            "passed": _EMPTY,
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class AttackLimit(RuleModule):
    """R4.6: ``max_attack``, or ``first_bout_max`` while the first-bout restriction applies
    (``first_bout_scope``)."""

    name = "attack-limit"
    description = "The attack limit of a bout (R4.6)"
    rule = "R4.6"

    def applies(self, rules: Rules) -> bool:
        return True

    def attack_cap(self, rules: Rules, bouts: int, defences: int) -> int:
        return throwing.attack_cap(rules, bouts, defences)


@mypyc_attr(allow_interpreted_subclasses=True)
class Beating(RuleModule):
    """R4.7: the defender beats an unbeaten attack card with a higher card of its suit or a
    trump (the beat table, narrowed by modules such as R8)."""

    name = "beating"
    description = "Beating (R4.7)"
    rule = "R4.7"
    kinds = (Beat,)
    offers_to = ("defender",)
    exact = True

    def applies(self, rules: Rules) -> bool:
        return True

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if not s.table or player != s.defender or s.taken or not bout.unbeaten:
            return ()
        hand = s.hands[player]
        plan = bout.plan
        rows = plan.beaters[s.trump]  # the beat table's rows, as sets
        single = plan.single  # every card a first copy: its value is its row's entry
        out: list[Action] = []
        for a, beaten in s.table:
            if beaten is None:
                row = rows[a & 63]
                key = (player << 10 | a) << 10
                if single:
                    out.extend([_BEATS[key | c] for c in hand if c in row])
                else:
                    out.extend([_BEATS[key | c] for c in hand if c & 63 in row])
        return out

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        assert isinstance(action, Beat)
        bad = defending(bout, action.player, "R4.7")
        if bad:
            return bad
        s = bout.s
        if (action.attack, None) not in s.table:
            return "R4.7", message("not-unbeaten", attack=action.attack)
        if action.card not in s.hands[action.player]:
            return "R13.1", message("not-in-hand", card=action.card, player=action.player)
        if not bout.beats(action.attack, action.card):
            # The rule that forbids (R8, R15.1 ...), or R4.7 itself.
            module = forbidder(action.card, action.attack, s.trump, s.rules, bout.plan.modules)
            if module is not None:
                return module.rule or f"house:{module.name}", message(
                    "no-beat-module",
                    card=action.card,
                    attack=action.attack,
                    rule=module.description,
                )
            return "R4.7", message("no-beat", card=action.card, attack=action.attack, trump=s.trump)
        return None

    def event(self, bout: Bout, action: Action) -> Event:
        assert isinstance(action, Beat)
        return Beaten(action.player, action.attack, action.card)

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        assert isinstance(action, Beat)
        s, p = bout.s, action.player
        i = s.table.index((action.attack, None))
        table = list(s.table)
        table[i] = (action.attack, action.card)
        return {
            "hands": _played(s.hands, p, action.card),
            "table": tuple(table),
            "passed": _EMPTY,
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class Taking(RuleModule):
    """R4.8: while an attack card is unbeaten the defender may declare take."""

    name = "taking"
    description = "Taking (R4.8)"
    rule = "R4.8"
    kinds = (Take,)
    offers_to = ("defender",)
    exact = True

    def applies(self, rules: Rules) -> bool:
        return True

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if s.table and player == s.defender and not s.taken and bout.unbeaten:
            return (_TAKES[player << 20],)
        return ()

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        return defending(bout, action.player)

    def event(self, bout: Bout, action: Action) -> Event:
        return TakeDeclared(action.player)

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        return {"taken": True, "passed": _EMPTY}


def _transfer_common(b: Bout, action: Action, on_table: int) -> Violation | None:
    p = action.player
    bad = defending(b, p, "R9.1")
    if bad:
        return bad
    s = b.s
    if b.beaten:
        return "R9.1", message("beaten-already")
    if not s.rules.transfer_first_bout and s.bouts == 0:
        return "R9.6", message("no-transfer-first")
    target = b.transfer_target(action)
    if target is None:
        return "R9.1", message("no-transfer-target")
    room = min(b.cap, len(s.hands[target]))
    if on_table > room:
        return "R9.2", message(
            "transfer-over-limit",
            n=on_table,
            limit=room,
            cap=b.cap,
            target=target,
            hand=len(s.hands[target]),
        )
    return None


def _transfer_room(b: Bout, action: Action) -> int:
    """How many cards a transfer like ``action`` may add (R9.2), or 0 when none is possible."""
    s = b.s
    target = b.plan.transfer_target(b, action)
    if target is None:
        return 0
    return min(b.cap, len(s.hands[target])) - len(s.table)


@mypyc_attr(allow_interpreted_subclasses=True)
class TransferByCard(RuleModule):
    """R9.1-R9.4, R9.6: the defender adds a card (or, with ``transfer_several``, cards) of the
    attack rank and passes the attack on."""

    name = "transfer-by-card"
    description = "Transfer by adding a card of the attack rank (R9.1-R9.4)"
    rule = "R9.1"
    kinds = (Transfer,)
    offers_to = ("defender",)
    exact = True
    off = ("R9.1", message("off-transfer-by-card"))

    def applies(self, rules: Rules) -> bool:
        return rules.transfer_by_card

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        # Once a card is beaten there is no transfer (R9.1): the usual case, asked first. An
        # unbeaten card means a table.
        if bout.beaten or not bout.unbeaten or player != s.defender or s.taken:
            return ()
        rank = s.table[0][0] & 15
        hand = s.hands[player]
        for c in hand:  # a loop: cheaper than a test over a map for a few cards
            if c & 15 == rank:
                break
        else:
            return ()  # no card of the attack rank: the other usual case
        if not s.rules.transfer_first_bout and s.bouts == 0:
            return ()  # R9.6
        base = player << 20
        if s.rules.transfer_several:
            same = [c for c in hand if c & 15 == rank]
            room = _transfer_room(bout, _TRANSFERS[base | same[0]])  # R9.2
            if room < 1:
                return ()
            transfers = _SEVERAL_TRANSFERS
            return [transfers[player, combo] for combo in subsets(same, room)]
        out = [_TRANSFERS[base | c] for c in hand if c & 15 == rank]
        if _transfer_room(bout, out[0]) < 1:  # R9.2: the room is the same for each card
            return ()
        return out

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        assert isinstance(action, Transfer)
        s = bout.s
        if len(action.cards) > 1 and not s.rules.transfer_several:
            return "R9.4", message("transfer-one")
        bad = _transfer_common(bout, action, len(s.table) + len(action.cards))
        if bad:
            return bad
        bad = in_hand(bout, action.player, action.cards)
        if bad:
            return bad
        rank = s.table[0][0] & 15
        for c in action.cards:
            if c & 15 != rank:
                return "R9.1", message("not-attack-rank", card=c, rank=rank_of(s.table[0][0]))
        return None

    def event(self, bout: Bout, action: Action) -> Event:
        assert isinstance(action, Transfer)
        target = bout.transfer_target(action)
        assert target is not None
        return Transferred(action.player, target, cards=action.cards)

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        assert isinstance(action, Transfer)
        s, p = bout.s, action.player
        target = bout.transfer_target(action)
        assert target is not None
        hands = _with_hand(s.hands, p, _remove(s.hands[p], action.cards))
        return {
            "hands": hands,
            "table": s.table + tuple([(c, None) for c in action.cards]),
            "attacker": p,
            "defender": target,
            "defender_hand": len(hands[target]),
            "joined": _joined(s, p),
            "passed": _EMPTY,
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class TransferByShow(RuleModule):
    """R9.5, R9.6: the defender shows a trump of the attack rank; it stays in his hand, now
    public, and the attack passes on. Each card may be shown once per bout."""

    name = "transfer-by-show"
    description = "Transfer by showing a trump of the attack rank (R9.5)"
    rule = "R9.5"
    kinds = (ShowTrump,)
    offers_to = ("defender",)
    exact = True
    off = ("R9.5", message("off-transfer-by-show"))

    def applies(self, rules: Rules) -> bool:
        return rules.transfer_by_showing_trump

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        # Once a card is beaten there is no show (R9.1): the usual case, asked first. An
        # unbeaten card means a table.
        if bout.beaten or not bout.unbeaten or player != s.defender or s.taken:
            return ()
        key = s.trump << 4 | s.table[0][0] & 15  # a trump of the attack rank, copy aside
        hand = s.hands[player]
        for c in hand:
            if c & 63 == key:
                break
        else:
            return ()  # no such trump in hand: the other usual case
        if not s.rules.transfer_first_bout and s.bouts == 0:
            return ()  # R9.6
        shown = s.shown
        shows = [
            one(ShowTrump, player, c)
            for c in hand
            if c & 63 == key and not c.special and c not in shown
        ]
        out: list[Action] = []
        for a in shows:  # R9.1, R9.2: a new defender whose limit the table fits
            target = bout.transfer_target(a)
            if target is not None and len(s.table) <= min(bout.cap, len(s.hands[target])):
                out.append(a)
        return out

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        assert isinstance(action, ShowTrump)
        s = bout.s
        bad = _transfer_common(bout, action, len(s.table))
        if bad:
            return bad
        card = action.card
        if card not in s.hands[action.player]:
            return "R13.1", message("not-in-hand", card=card, player=action.player)
        if card.special or card.suit != s.trump:
            return "R9.5", message("not-trump", card=card)
        if card & 15 != s.table[0][0] & 15:
            return "R9.5", message("not-attack-rank", card=card, rank=rank_of(s.table[0][0]))
        if card in s.shown:
            return "R9.5", message("shown-already", card=card)
        return None

    def event(self, bout: Bout, action: Action) -> Event:
        assert isinstance(action, ShowTrump)
        target = bout.transfer_target(action)
        assert target is not None
        return Transferred(action.player, target, shown=action.card)

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        assert isinstance(action, ShowTrump)
        s, p = bout.s, action.player
        target = bout.transfer_target(action)
        assert target is not None
        return {
            "attacker": p,
            "defender": target,
            "defender_hand": len(s.hands[target]),
            "shown": s.shown | {action.card},
            "passed": _EMPTY,
            "known": with_known(s.known, p, s.known[p] | {action.card}),  # R9.5
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class Seating(RuleModule):
    """R2.2, R4.1, R10.2: clockwise play; the next active opponent (in team play never a
    partner)."""

    name = "seating"
    description = "Seats, clockwise order and teams (R2.2, R4.1, R10)"
    rule = "R4.1"

    def applies(self, rules: Rules) -> bool:
        return True

    def next_opponent(self, rules: Rules, active: Sequence[bool], seat: int) -> int | None:
        return seating.next_opponent(rules, active, seat)

    def transfer_target(self, bout: Bout, action: Action) -> int | None:
        """R9.1: the defender's next active opponent, as the plan's ``next_opponent`` policy
        gives it (clockwise in the rule book; a house rule's own policy, if one gives it)."""
        return bout.plan.opponent_of(bout.active, bout.s.defender)


@mypyc_attr(allow_interpreted_subclasses=True)
class Drawing(RuleModule):
    """R5.1: the order of drawing after a bout (``draw_order``)."""

    name = "drawing"
    description = "Drawing after a bout (R5)"
    rule = "R5.1"

    def applies(self, rules: Rules) -> bool:
        return True

    def draw_order(
        self,
        rules: Rules,
        leader: int,
        joined: Sequence[int],
        defender: int,
        eligible: Sequence[bool],
    ) -> list[int]:
        return drawing.draw_order(rules, leader, joined, defender, eligible)


@mypyc_attr(allow_interpreted_subclasses=True)
class Objective(RuleModule):
    """R7, R10.3: going out, the end of the game, places and the result (``objective``,
    ``on_last_cleared``, ``team_win``)."""

    name = "objective"
    description = "Going out, the end of the game and the result (R7, R10.3)"
    rule = "R7.3"

    def applies(self, rules: Rules) -> bool:
        return True

    def settle(
        self,
        rules: Rules,
        places: Sequence[int | None],
        left: frozenset[int],
        newly_out: Sequence[int],
        defender: int,
    ) -> Settled:
        return objective.settle(rules, places, left, newly_out, defender)


@mypyc_attr(allow_interpreted_subclasses=True)
class TrumpSixExchange(RuleModule):
    """R12.1: the holder of the deck's lowest trump, dealt or drawn and held ever since, may
    swap it for the face-up trump card while that is in the stock."""

    name = "trump-six-exchange"
    description = "Swap the lowest trump for the face-up trump card (R12.1)"
    rule = "R12.1"
    kinds = (ExchangeTrump,)
    private = (ExchangeTrump,)
    off = ("R12.1", message("off-exchange"))

    def applies(self, rules: Rules) -> bool:
        return rules.trump_six_exchange

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if not s.exchange or s.face_up is None:
            return ()
        return [ExchangeTrump(player, c) for c in s.hands[player] if c in s.exchange]

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        assert isinstance(action, ExchangeTrump)
        s = bout.s
        card = action.card
        if card not in s.hands[action.player]:
            return "R13.1", message("not-in-hand", card=card, player=action.player)
        if card not in s.exchange:
            return "R12.1", message("no-exchange-right", card=card)
        if not s.stock:
            return "R12.1", message("face-up-drawn")
        if s.face_up is None:  # a stock of jokers alone (R15.1)
            return "R12.1", message("no-face-up")
        if s.stock[-1] & 63 == card & 63:
            return "R12.1", message("face-up-same", card=Card(card & 63))
        return None

    def event(self, bout: Bout, action: Action) -> Event:
        assert isinstance(action, ExchangeTrump)
        return TrumpExchanged(action.player, action.card, bout.s.stock[-1])

    def dealt(self, rules: Rules, changes: MutableMapping[str, Any]) -> None:
        low = lowest_trump(rules, changes["trump"])
        changes["exchange"] = frozenset(c for h in changes["hands"] for c in h if c & 63 == low)

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        assert isinstance(action, ExchangeTrump)
        s, p, card = bout.s, action.player, action.card
        face_up = s.stock[-1]
        hand = sort_cards((*_remove(s.hands[p], (card,)), face_up))
        return {
            "hands": _with_hand(s.hands, p, hand),
            "stock": (*s.stock[:-1], card),
            "trump_card": card,
            "known": with_known(s.known, p, (s.known[p] - {card}) | {face_up}),
        }

    def adjust(self, bout: Bout, action: Action, changes: MutableMapping[str, Any]) -> None:
        s = bout.s
        if s.exchange and "hands" in changes:
            # The right lasts while the card stays in the hand it was dealt or drawn to.
            p = action.player
            hand, before = changes["hands"][p], s.hands[p]
            changes["exchange"] = frozenset(c for c in s.exchange if c in hand or c not in before)

    def bout_end(self, state: GameState, changes: MutableMapping[str, Any]) -> None:
        if not state.stock:
            return
        low = lowest_trump(state.rules, state.trump)
        drawn = set(state.stock) - set(changes["stock"])
        gained = {c for c in drawn if c & 63 == low}
        if gained:
            changes["exchange"] = changes.get("exchange", state.exchange) | gained


@mypyc_attr(allow_interpreted_subclasses=True)
class Misdeal(RuleModule):
    """R12.2: a player dealt ``misdeal_suit_count`` or more cards of one suit may demand a
    redeal before the first lead."""

    name = "misdeal"
    description = "Redeal a misdeal before the first lead (R12.2)"
    rule = "R12.2"
    kinds = (Redeal,)
    private = (Redeal,)
    off = ("R12.2", message("off-misdeal"))

    def applies(self, rules: Rules) -> bool:
        return rules.misdeal_suit_count is not None

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if s.bouts or s.table:
            return ()
        return (Redeal(player),)

    @staticmethod
    def misdealt(rules: Rules, hand: Sequence[Card]) -> bool:
        """Whether ``hand`` holds ``misdeal_suit_count`` or more cards of one suit."""
        count = rules.misdeal_suit_count
        if count is None:
            return False
        suits = [(c >> 4) & 3 for c in hand if not c.special]  # no suit outside the 52
        return any(suits.count(suit) >= count for suit in range(4))

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        s = bout.s
        if s.bouts or s.table:
            return "R12.2", message("redeal-late")
        if not self.misdealt(s.rules, s.hands[action.player]):
            return "R12.2", message(
                "no-misdeal", player=action.player, n=s.rules.misdeal_suit_count
            )
        if s.seed is None:
            return "R12.2", message("redeal-no-seed")
        return None

    def event(self, bout: Bout, action: Action) -> Event:
        return Redealt(action.player)

    def effect(self, bout: Bout, action: Action) -> RedealRequest:
        return REDEAL  # the engine deals again (R12.2)


#: The built-in modules in plan order.
BUILT_IN: tuple[RuleModule, ...] = (
    Deck(),
    FirstLead(),
    Seating(),
    AttackLimit(),
    TrumpSixExchange(),
    Misdeal(),
    Leading(),
    Beating(),
    StrictSuits(),
    TransferByCard(),
    TransferByShow(),
    Taking(),
    ThrowingIn(),
    Drawing(),
    Objective(),
)

register_built_ins(BUILT_IN)
