"""The facts of a bout that every rule module's hooks read (R4).

A :class:`Bout` is derived from one state under its rules' :class:`~durak.rules.modules.Plan`;
it is not part of the state and never changes it. The engine builds one per state and hands it
to the hooks (:meth:`~durak.rules.modules.RuleModule.candidates`,
:meth:`~durak.rules.modules.RuleModule.violation`, :meth:`~durak.rules.modules.RuleModule.effect`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from durak.actions import ThrowIn
from durak.cards import Card
from durak.rules.shared import one

if TYPE_CHECKING:
    from durak.actions import Action
    from durak.rules.modules import Plan
    from durak.state import GameState

__all__ = ["Bout"]


class Bout:
    """What the rule checks of one state need.

    Attributes:
        s: the state.
        plan: its rules' plan.
        active: per seat, whether he is in play (R7.1): no place, and cards or a stock.
        cap: ``cap`` of R4.6 for this bout.
        limit: the most attack cards the bout may hold: ``min(cap, H)`` with a table, before
            the lead ``min(cap, the defender's hand)``.
        table: the beat table of the trump suit (``table[(attack & 63) * 64 + (card & 63)]``).
        ranks: the ranks on the table, attack and beating cards (R4.3).
        unbeaten, beaten: counts of the table's attack cards.
        throwers: who may throw in against the defender (R4.4), main attacker first.
        can_add: whether the table has room for another attack card (R4.6) and throwing in is
            still allowed (R4.8).
        legal: per seat, the legal actions once listed (filled by the engine).
    """

    __slots__ = (
        "_matching",
        "_throwables",
        "active",
        "beaten",
        "can_add",
        "cap",
        "legal",
        "limit",
        "plan",
        "ranks",
        "s",
        "table",
        "throwers",
        "unbeaten",
    )

    active: tuple[bool, ...]
    table: bytes
    cap: int
    ranks: set[int]
    unbeaten: int
    beaten: int
    throwers: tuple[int, ...]

    def __init__(self, s: GameState, plan: Plan, prev: Bout | None = None) -> None:
        """The facts of ``s`` under ``plan``. ``prev``, the facts of the state ``s`` was made
        from, lends the facts whose inputs ``s`` shares with it (the same trump, the same
        table): they are what would be computed anew."""
        self.s = s
        self.plan = plan
        self.legal: dict[int, tuple[Action, ...]] = {}
        self._matching: dict[int, tuple[Card, ...]] | None = None
        self._throwables: dict[int, tuple[Card, ...]] | None = None
        if prev is not None and prev.s.trump is s.trump:
            self.table = prev.table
        else:
            self.table = plan.tables[s.trump]
        places = s.places
        if s.stock or () not in s.hands:  # nobody has finished (R7.1): the places decide
            active = plan.actives.get(places)
            if active is None:
                active = plan.active_of(places)
        else:
            active = tuple(
                [place is None and h != () for place, h in zip(places, s.hands, strict=True)]
            )
        self.active = active
        cap = plan.caps.get((s.bouts, s.defences))
        if cap is None:
            cap = plan.cap_of(s.bouts, s.defences)
        self.cap = cap
        table = s.table
        if table:
            if prev is not None and prev.s.table is table:  # a pass or a take: the same cards
                self.ranks = prev.ranks
                self.unbeaten = unbeaten = prev.unbeaten
            else:  # one pass over the table: its ranks (R4.3) and its unbeaten cards
                ranks: set[int] = set()
                add = ranks.add
                unbeaten = 0
                for a, b in table:
                    add(a & 15)
                    if b is None:
                        unbeaten += 1
                    else:
                        add(b & 15)
                self.ranks = ranks
                self.unbeaten = unbeaten
            self.beaten = len(table) - unbeaten
            self.limit = limit = min(cap, s.defender_hand)
            throwers = plan.known_throwers.get((active, s.attacker, s.defender))
            if throwers is None:
                throwers = plan.throwers_of(active, s.attacker, s.defender)
            self.throwers = throwers
            self.can_add = (not s.taken or s.rules.throw_after_take) and len(table) < limit
        else:
            self.ranks = set()
            self.unbeaten = self.beaten = 0
            self.limit = min(cap, len(s.hands[s.defender]))
            self.throwers = ()
            self.can_add = False

    def beats(self, attack: Card, card: Card) -> bool:
        """Whether ``card`` beats ``attack`` under these rules (R4.7, R8, modules' beats)."""
        return bool(self.table[(attack & 63) * 64 + (card & 63)])

    def matches(self, card: Card) -> bool:
        """Whether ``card`` may be thrown in on this table (R4.3 and modules' may_throw)."""
        ok = card & 15 in self.ranks
        for module in self.plan.throw_filters:
            ok = module.may_throw(self, card, ok)
        return ok

    def matching(self, p: int) -> tuple[Card, ...]:
        """The cards of ``p``'s hand that :meth:`matches` finds fit for this table, in hand
        order; whether he is a thrower, the room and the passes aside. Each seat's answer is
        worked out once per bout facts (the facts are those of one state)."""
        memo = self._matching
        if memo is None:
            memo = self._matching = {}
        cards = memo.get(p)
        if cards is None:
            hand = self.s.hands[p]
            if self.plan.throw_filters:
                matches = self.matches
                cards = tuple([c for c in hand if matches(c)])
            else:
                ranks = self.ranks
                cards = tuple([c for c in hand if c & 15 in ranks])
            memo[p] = cards
        return cards

    def _throwable(self, p: int) -> tuple[Card, ...]:
        # throwable's answer, worked out once per seat
        memo = self._throwables
        if memo is None:
            memo = self._throwables = {}
        cards = memo.get(p)
        if cards is None:
            cards = self.matching(p)
            checkers = self.plan.throw_checkers
            if cards and checkers:
                s = self.s
                cards = tuple(
                    [
                        c
                        for c in cards
                        if all(m.check(s, one(ThrowIn, p, c)) is None for m in checkers)
                    ]
                )
            memo[p] = cards
        return cards

    def throwable(self, p: int) -> list[Card]:
        """The cards ``p`` could throw in now, order and passes aside: he is a thrower, the
        table has room, and the card matches it (:meth:`matching`) and no module's
        :meth:`~durak.rules.modules.RuleModule.check` forbids it."""
        if not self.can_add or p not in self.throwers:
            return []
        return list(self._throwable(p))

    def able(self, p: int) -> bool:
        """``p`` is a thrower holding a card he could add, order and passes aside (R4.9)."""
        if not self.can_add or p not in self.throwers:
            return False
        plan = self.plan
        if not plan.throw_filters and not plan.throw_checkers:
            ranks = self.ranks
            # A loop: a third of the cost of any() over a generator or isdisjoint over a map.
            for c in self.s.hands[p]:  # noqa: SIM110
                if c & 15 in ranks:
                    return True
            return False
        return bool(self._throwable(p))

    def done(self, p: int) -> bool:
        """``p``'s pass stands, or he has nothing to add (counts as passed, R4.9)."""
        return p in self.s.passed or not self.able(p)

    def over(self) -> bool:
        """R4.10: every thrower done, and every attack card beaten or the defender has taken."""
        s = self.s
        if not s.table or (self.unbeaten and not s.taken):
            return False
        if not self.can_add:  # nobody can add a card: everyone counts as passed
            return True
        passed = s.passed
        plan = self.plan
        if not plan.throw_filters and not plan.throw_checkers:
            # able: a card of a rank on the table
            ranks = self.ranks
            hands = s.hands
            for p in self.throwers:
                if p not in passed:
                    for c in hands[p]:
                        if c & 15 in ranks:
                            return False  # he may still throw in
            return True
        return not any(p not in passed and self.able(p) for p in self.throwers)

    def transfer_target(self, action: Action) -> int | None:
        """The player the transfer ``action`` would pass the attack to (R9.1; a module may
        send a show elsewhere, R15.3), or ``None``."""
        target: int | None = self.plan.transfer_target(self, action)
        return target
