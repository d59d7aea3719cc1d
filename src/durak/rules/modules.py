"""Rule modules: the hooks through which every rule plugs into the engine.

Every rule family of the rule book is a :class:`RuleModule` (the deck, the lead, throwing in,
the attack limit, beating, taking, the two transfers, seating and teams, drawing, the objective,
the trump-six exchange, the misdeal), and so is every house rule from outside the library. The
engine is the bout state machine; what is legal and what an action does, it asks the modules.

A :class:`~durak.rules.Rules` object is compiled once into a :class:`Plan`: the modules that
apply, in a fixed order (built-ins first, then the house rules in the order named), and for each
hook only the modules that override it, so a hook nobody overrides costs nothing during play.

The hooks, by what they decide (override the ones you need; the defaults change nothing):

- Cards: :meth:`~RuleModule.deck` (the cards the deck holds), :meth:`~RuleModule.beats` (folded
  into one table per trump suit before play), :meth:`~RuleModule.may_throw` (whether a card
  may be thrown in on the table, R4.3).
- Actions: a module owns action *kinds* (:attr:`~RuleModule.kinds`): it offers candidates
  (:meth:`~RuleModule.candidates`), says whether one is legal (:meth:`~RuleModule.violation`)
  and what it does to the state (:meth:`~RuleModule.effect`). Any module may forbid any action
  (:meth:`~RuleModule.check`) and touch up what any action does (:meth:`~RuleModule.adjust`).
- The bout end and the result: :meth:`~RuleModule.bout_end`, :meth:`~RuleModule.result`.
- Policies, one answer each, from the last active module that overrides them:
  :meth:`~RuleModule.attack_cap`, :meth:`~RuleModule.throwers`,
  :meth:`~RuleModule.next_opponent`, :meth:`~RuleModule.draw_order`,
  :meth:`~RuleModule.settle`, :meth:`~RuleModule.first_attacker`,
  :meth:`~RuleModule.turn_trump`, :meth:`~RuleModule.transfer_target`.

Built-in modules switch themselves on from the settings (:meth:`RuleModule.applies`). Modules
from outside are registered by name with :func:`register` and switched on with the
``house_rules`` setting::

    class NoSixLead(RuleModule):
        name = "no-six-lead"
        description = "A six may not lead a bout"
        rule = "house:no-six-lead"

        def check(self, state, action):
            if isinstance(action, Lead) and any(c.rank == 6 for c in action.cards):
                return self.rule, "a six may not lead"
            return None

    register(NoSixLead())
    rules = Rules(house_rules=["no-six-lead"])

``docs/plugins.md`` shows modules written from scratch, one of them adding an action.

One legality source: the listing. :func:`~durak.legal_actions` lists what the modules offer
and allow; :func:`~durak.is_legal` and the check inside :func:`~durak.apply` accept exactly the
listed actions (a refusal's reason comes from the owner's :meth:`RuleModule.violation` or a
:meth:`RuleModule.check`); :func:`~durak.acting`, :func:`~durak.next_actor` and the automatic
bout end (R4.10) ask the same hooks, so a module that forbids an action forbids it everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from durak.actions import ThrowIn
from durak.cards import Card, Suit
from durak.errors import RulesError
from durak.rules.folding import beat_table_of
from durak.rules.hooks import (
    REDEAL,
    RedealRequest,
    RuleModule,
    Settled,
    Violation,
    built_ins,
    get_module,
    on_register,
    register,
    registered,
)

if TYPE_CHECKING:
    from durak.actions import Action
    from durak.rules.bout import Bout
    from durak.rules.settings import Rules

__all__ = [
    "REDEAL",
    "Plan",
    "RedealRequest",
    "RuleModule",
    "Settled",
    "StrictSuits",
    "Violation",
    "active_modules",
    "checking_modules",
    "get_module",
    "plan_for",
    "register",
    "registered",
]
class StrictSuits(RuleModule):
    """R8.1: an attack card of a strict suit is beaten only by a higher card of its suit; a
    trump does not beat it, unless the strict suit is the trump suit itself."""

    name = "strict-suits"
    description = "Strict suits are beaten only by higher cards of the same suit (R8)"
    rule = "R8.1"

    def applies(self, rules: Rules) -> bool:
        return bool(rules.strict_suits)

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        if attack.special or card.special:
            return default
        if attack.suit in rules.strict_suits and attack.suit != trump:
            return default and card.suit == attack.suit
        return default


@lru_cache(maxsize=256)
def active_modules(rules: Rules) -> tuple[RuleModule, ...]:
    """The modules in force under ``rules``, in plan order: the built-ins that apply, the
    registered modules that apply (:meth:`RuleModule.applies`) in the order registered, then
    the house rules in the order named."""
    named = tuple(get_module(name) for name in rules.house_rules)
    switched = tuple(m for m in registered().values() if m not in named and m.applies(rules))
    return tuple(m for m in built_ins() if m.applies(rules)) + switched + named


def _overrides(module: RuleModule, hook: str) -> bool:
    return getattr(type(module), hook) is not getattr(RuleModule, hook)


@lru_cache(maxsize=256)
def checking_modules(rules: Rules) -> tuple[RuleModule, ...]:
    """The active modules that override :meth:`RuleModule.check` (the engine asks only them)."""
    return tuple(m for m in active_modules(rules) if _overrides(m, "check"))


class Plan:
    """A rules object compiled for play: which module answers which hook.

    Attributes:
        rules: the rules compiled.
        modules: the active modules in plan order.
        owners: each action kind's owning module.
        offering: the modules that offer candidates, in plan order.
        offering_to: those modules by the role they offer to (``"leader"``, ``"defender"``,
            ``"thrower"``, ``"other"``: a player with no role now).
        checkers: the modules that forbid (:meth:`RuleModule.check`).
        checkers_of: per owned action kind, the checkers that judge it
            (:attr:`RuleModule.checks`).
        checked: the offering modules some of whose kinds a checker judges.
        throw_checkers: the checkers that judge a throw-in.
        plain: no module forbids a kind that is offered and every offering module is exact:
            the candidates are the listing.
        adjusters, enders, dealers, resulters: the modules with :meth:`~RuleModule.adjust`,
            :meth:`~RuleModule.bout_end`, :meth:`~RuleModule.dealt` and
            :meth:`~RuleModule.result` hooks.
        throw_filters: the modules with a :meth:`~RuleModule.may_throw` hook.
        private: the action kinds that are private rights.
        off: why each kind of a built-in module that is off is refused.
        deck: the cards of the deck(s), canonical order.
        single: whether every card of the deck is a first copy (hands then sort as integers).
        actives: per places of the seats, whether each seat has none (see :meth:`active_of`).
        caps: the attack cap per ``(bouts, defences)`` (see :meth:`cap_of`).
        known_throwers: the throwers per ``(active, attacker, defender)`` (see
            :meth:`throwers_of`).
        tables: per trump suit, the beat table: ``table[(attack & 63) * 64 + (card & 63)]``.
        beaters: per trump suit, the same table by rows: ``beaters[trump][attack & 63]`` is
            the set of the card values (``card & 63``) that beat ``attack``.
        attack_cap: the policy of that name, bound to the module that gives it; likewise
            ``throwers``, ``next_opponent``, ``transfer_target``, ``draw_order``, ``settle``,
            ``first_attacker`` and ``turn_trump``. Policies are pure: the same arguments give
            the same answer, so the engine may remember answers (it does for ``throwers``,
            ``attack_cap``, ``next_opponent`` and ``draw_order``).

    Raises:
        RulesError: two modules own one action kind, or a policy nobody gives.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        modules = active_modules(rules)
        self.modules = modules
        owners: dict[type, RuleModule] = {}
        for module in modules:
            for kind in module.kinds:
                if kind in owners:
                    raise RulesError(
                        "house_rules",
                        f"{type(module).__name__} and {type(owners[kind]).__name__} both own "
                        f"the action {kind.__name__}",
                    )
                owners[kind] = module
        self.owners = owners
        self.off = {
            kind: m.off
            for m in built_ins()
            if m.off is not None and m not in modules
            for kind in m.kinds
            if kind not in owners
        }
        self.private = frozenset(k for m in modules for k in m.private)
        self.offering = tuple(m for m in modules if _overrides(m, "candidates"))
        by_role: dict[str, tuple[RuleModule, ...]] = {}
        for role in ("leader", "defender", "thrower", "other"):
            by_role[role] = tuple(
                m for m in self.offering if "any" in m.offers_to or role in m.offers_to
            )
        self.offering_to = by_role
        checkers = tuple(m for m in modules if _overrides(m, "check"))
        self.checkers = checkers
        self.checkers_of = {
            kind: tuple(m for m in checkers if m.checks is None or issubclass(kind, m.checks))
            for kind in owners
        }
        self.checked = frozenset(
            m for m in self.offering if any(self.checkers_of.get(k) for k in m.kinds)
        )
        self.throw_checkers = self.checkers_of.get(ThrowIn, ())
        self.plain = not self.checked and all(m.exact for m in self.offering)
        self.adjusters = tuple(m for m in modules if _overrides(m, "adjust"))
        self.enders = tuple(m for m in modules if _overrides(m, "bout_end"))
        self.dealers = tuple(m for m in modules if _overrides(m, "dealt"))
        self.resulters = tuple(m for m in modules if _overrides(m, "result"))
        self.validators = tuple(m for m in modules if _overrides(m, "validate"))
        self.throw_filters = tuple(m for m in modules if _overrides(m, "may_throw"))
        self.known_throwers: dict[tuple[tuple[bool, ...], int, int], tuple[int, ...]] = {}
        self._known_orders: dict[
            tuple[int, tuple[int, ...], int, tuple[int | None, ...]], tuple[int, ...]
        ] = {}
        self._known_opponents: dict[tuple[tuple[bool, ...], int], int | None] = {}
        self.actives: dict[tuple[int | None, ...], tuple[bool, ...]] = {}
        self.caps: dict[tuple[int, int], int] = {}
        cards: tuple[Card, ...] = ()
        for module in modules:
            cards = module.deck(rules, cards)
        self.deck = cards
        self.single = all(c < 64 for c in cards)
        for hook in (
            "attack_cap",
            "throwers",
            "next_opponent",
            "draw_order",
            "settle",
            "first_attacker",
            "turn_trump",
            "transfer_target",
        ):
            givers = [m for m in modules if _overrides(m, hook)]
            if not givers:
                raise RulesError("house_rules", f"no rule module gives {hook}")
            setattr(self, hook, getattr(givers[-1], hook))
        beat_modules = tuple(m for m in modules if _overrides(m, "beats"))
        specials = tuple(sorted({Card(c & 63) for c in cards if Card(c & 63).special}))
        self.tables = {suit: beat_table_of(suit, rules, beat_modules, specials) for suit in Suit}
        self.beaters = {
            suit: tuple(
                frozenset(c for c in range(64) if table[a * 64 + c]) for a in range(64)
            )
            for suit, table in self.tables.items()
        }

    attack_cap: Callable[[Rules, int, int], int]
    throwers: Callable[[Rules, Sequence[bool], int, int], tuple[int, ...]]
    next_opponent: Callable[[Rules, Sequence[bool], int], int | None]
    draw_order: Callable[[Rules, int, Sequence[int], int, Sequence[bool]], list[int]]
    settle: Callable[[Rules, Sequence[int | None], frozenset[int], Sequence[int], int], Settled]
    first_attacker: Callable[[Rules, Sequence[Sequence[Card]], Suit, int], int | None]
    turn_trump: Callable[[Rules, tuple[Card, ...], tuple[Card, ...]], tuple[tuple[Card, ...], Card]]
    transfer_target: Callable[[Bout, Action], int | None]

    def throwers_of(
        self, active: tuple[bool, ...], attacker: int, defender: int
    ) -> tuple[int, ...]:
        """The ``throwers`` policy's answer for these seats, remembered (policies are pure)."""
        key = (active, attacker, defender)
        known = self.known_throwers.get(key)
        if known is None:
            known = _remember(
                self.known_throwers, key, self.throwers(self.rules, active, attacker, defender)
            )
        return known

    def active_of(self, places: tuple[int | None, ...]) -> tuple[bool, ...]:
        """Per seat, whether he has no place (R7.2), remembered in :attr:`actives` (one
        tuple per places, so that equal answers are the same object)."""
        active = self.actives.get(places)
        if active is None:
            active = _remember(self.actives, places, tuple([place is None for place in places]))
        return active

    def cap_of(self, bouts: int, defences: int) -> int:
        """The ``attack_cap`` policy's answer, remembered in :attr:`caps` (policies are pure)."""
        cap = self.caps.get((bouts, defences))
        if cap is None:
            cap = _remember(
                self.caps, (bouts, defences), self.attack_cap(self.rules, bouts, defences)
            )
        return cap

    def order_of(
        self, leader: int, joined: tuple[int, ...], defender: int, places: tuple[int | None, ...]
    ) -> tuple[int, ...]:
        """The ``draw_order`` policy's answer after a bout, the seats without a place being
        eligible, remembered (policies are pure)."""
        key = (leader, joined, defender, places)
        known = self._known_orders.get(key)
        if known is None:
            eligible = [place is None for place in places]
            order = self.draw_order(self.rules, leader, joined, defender, eligible)
            known = _remember(self._known_orders, key, tuple(order))
        return known

    def opponent_of(self, active: tuple[bool, ...], seat: int) -> int | None:
        """The ``next_opponent`` policy's answer, remembered (policies are pure)."""
        key = (active, seat)
        try:
            return self._known_opponents[key]
        except KeyError:  # None is an answer too, so a miss is told by the key
            return _remember(
                self._known_opponents, key, self.next_opponent(self.rules, active, seat)
            )

    def owner(self, action: Action) -> RuleModule | None:
        """The module that owns ``action``'s kind, or ``None``."""
        return self.owners.get(type(action))


#: How many answers each of a plan's memories keeps before it starts afresh.
_MEMORY = 4096

_V = TypeVar("_V")


def _remember(known: dict[Any, Any], key: Any, value: _V) -> _V:
    """Keep ``value`` under ``key`` in one of a plan's memories (emptied when full)."""
    if len(known) >= _MEMORY:
        known.clear()
    known[key] = value
    return value


@lru_cache(maxsize=256)
def plan_for(rules: Rules) -> Plan:
    """The :class:`Plan` of ``rules``, built once per rules object (cached).

    Raises:
        RulesError: as :class:`Plan`.
    """
    return Plan(rules)


def _forget() -> None:
    active_modules.cache_clear()
    checking_modules.cache_clear()
    plan_for.cache_clear()


on_register(_forget)
