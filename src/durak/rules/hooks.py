"""The hooks of rule modules: the base class :class:`RuleModule`, and the registry of modules.

This is the lowest layer of :mod:`durak.rules`: :class:`~durak.rules.Rules` validates the names
of house rules against the registry, and every rule module (the rule book's families, the R15
extensions, a third party's house rule) subclasses :class:`RuleModule`. What the hooks decide
and how a :class:`~durak.rules.modules.Plan` composes them is told in
:mod:`durak.rules.modules`, which re-exports everything here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from durak._input import brief
from durak.cards import Card, Suit
from durak.errors import RulesError
from durak.events import Acted
from durak.messages import message

if TYPE_CHECKING:
    from durak.actions import Action
    from durak.events import Event
    from durak.rules.bout import Bout
    from durak.rules.settings import Rules
    from durak.state import GameState, Result

__all__ = [
    "REDEAL",
    "RedealRequest",
    "RuleModule",
    "Settled",
    "Violation",
    "built_ins",
    "get_module",
    "on_register",
    "register",
    "register_built_ins",
    "registered",
]


class RedealRequest:
    """The type of :data:`REDEAL`: a request to deal again, not the action :class:`durak.Redeal`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "REDEAL"


#: What an action's :meth:`RuleModule.effect` returns to have the engine deal again: the same
#: dealer deals from the next shuffle of the seed's stream (R3.3, R12.2's misdeal).
REDEAL: Final = RedealRequest()

#: ``(rule id, reason)``: why an action is not allowed.
Violation = tuple[str, str]

#: What :meth:`RuleModule.settle` decides: the places, the seats that left, the result.
Settled = tuple[tuple[int | None, ...], frozenset[int], "Result | None"]


class RuleModule:
    """Base class of rule modules. Override the hooks you need; the defaults change nothing.

    Attributes:
        name: the name that ``Rules(house_rules=[...])`` uses (registered modules only).
        setting: for a registered module that a setting of :class:`~durak.rules.Rules` switches
            on instead of ``house_rules`` (the R15 extensions), that setting's name.
        description: one line for listings.
        rule: the rule id its errors cite, e.g. ``"R8.1"`` or ``"house:no-six-lead"``.
        kinds: the action classes this module owns: it lists them, checks them and plays them.
            Each kind has exactly one owner under a set of rules.
        private: owned kinds that are rights only their holder knows of (the trump-six
            exchange, a misdeal redeal): never the "decision" that :func:`~durak.acting` and
            :func:`~durak.next_actor` wait for (R13.2), and a bout end does not wait for them.
        off: for a built-in module that is switched off, the rule id and reason its kinds are
            refused with (``("R9.1", "transfer by card is off ...")``).
        public: the names of the module's facts in :attr:`GameState.extra` that every player
            knows (say which table cards are cheats, R15.5): views show them
            (:attr:`PlayerView.extra`) and :func:`~durak.views.determinize` keeps them. Other
            facts are hidden from views.
        offers_to: whom :meth:`candidates` may offer actions to, so that the engine asks only
            the modules that concern a player: ``"leader"`` (the attacker before the lead),
            ``"defender"`` (the defender during a bout), ``"thrower"`` (anyone else during a
            bout), or ``"any"`` (the default: every player at every moment).
        checks: the action kinds its :meth:`check` judges, or ``None`` (the default) for every
            kind: the engine asks a module's :meth:`check` only about these, so a module that
            forbids some transfers is not asked about every beat and throw-in, and rules whose
            plan owns none of these kinds list without it.
        exact: whether :meth:`candidates` offers exactly the actions :meth:`violation` allows
            (``False`` by default: the listing then passes every candidate through
            :meth:`violation`). Either way the listing is what is legal: :func:`~durak.is_legal`
            and :func:`~durak.apply` accept the listed actions and nothing else, and
            :meth:`violation` gives the reason for the others. The property tests compare an
            exact module's candidates with its :meth:`violation` over random games.
        rl_actions: for the RL adapters (:mod:`durak.rl.encoding`), the verbs of owned action
            kinds that are a player and one card (``Catch(player, card)``), each with a line
            that describes its ids: the adapters give each verb a segment of one action id per
            card index. Data the adapters read; the module imports nothing of them.
    """

    name: ClassVar[str] = ""
    setting: ClassVar[str] = ""
    description: ClassVar[str] = ""
    rule: ClassVar[str] = ""
    kinds: ClassVar[tuple[type, ...]] = ()
    private: ClassVar[tuple[type, ...]] = ()
    off: ClassVar[Violation | None] = None
    public: ClassVar[tuple[str, ...]] = ()
    offers_to: ClassVar[tuple[str, ...]] = ("any",)
    exact: ClassVar[bool] = False
    rl_actions: ClassVar[tuple[tuple[str, str], ...]] = ()
    checks: ClassVar[tuple[type, ...] | None] = None

    def applies(self, rules: Rules) -> bool:
        """Whether the module is on under ``rules`` without being named: built-in modules
        switch on from their settings this way. A registered module is on when named in
        ``house_rules``, or when this says so (a module that reads a setting of its own)."""
        return False

    # -- cards ------------------------------------------------------------------------------

    def deck(self, rules: Rules, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The cards of the deck(s), given what the modules before said (``cards``), in
        canonical order. Called once per rules object."""
        return cards

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        """Whether ``card`` beats ``attack``, given what the rules so far say (``default``).

        Called once per pair of cards and trump suit when the plan is built, never during
        play; it must depend only on its arguments. Cards outside the 52
        (:func:`~durak.cards.special_card`) of the deck are paired too: check
        :attr:`~durak.cards.Card.special` before asking a card's rank or suit.
        """
        return default

    def may_throw(self, bout: Bout, card: Card, default: bool) -> bool:
        """Whether ``card`` matches the table so that it may be thrown in (R4.3: its rank is
        on the table), given what the rules so far say (``default``). Who may throw in and
        the limit are checked elsewhere."""
        return default

    # -- actions ----------------------------------------------------------------------------

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        """Actions of this module's :attr:`kinds` that ``player`` might take now, in a fixed
        order: every legal one, and perhaps others, which :meth:`violation` then strikes out
        before they are listed. A module whose candidates are exactly the actions its
        :meth:`violation` allows says so with :attr:`exact`, and the listing skips that
        second look."""
        return ()

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        """``(rule id, reason)`` if ``action``, of one of this module's :attr:`kinds`, breaks a
        rule now, else ``None``. The engine has already checked that the game runs and that
        the player is a seat in play."""
        return None

    def check(self, state: GameState, action: Action) -> Violation | None:
        """``(rule id, reason)`` if ``action`` (of any kind, or of one of :attr:`checks`) is
        forbidden in ``state``, else ``None``. Called only for actions that their owner allows;
        it must not change anything."""
        return None

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any] | GameState | RedealRequest:
        """What ``action``, of one of this module's :attr:`kinds`, does: the fields of the
        state that change (``{"hands": ..., "table": ...}``; :attr:`GameState.extra` holds a
        module's own data), a whole new state, or :data:`REDEAL` to have the engine deal again
        (R12.2). Only called for a legal action."""
        raise NotImplementedError(f"{type(self).__name__} owns {action!r} but has no effect")

    def event(self, bout: Bout, action: Action) -> Event:
        """The event that reports ``action``, of one of this module's :attr:`kinds` (called
        before its effect, so ``bout`` is the state it is played in). The default is an
        :class:`~durak.events.Acted` event carrying the action's text."""
        return Acted(action.player, str(action))

    def adjust(self, bout: Bout, action: Action, changes: MutableMapping[str, Any]) -> None:
        """Touch up the changes any legal ``action`` makes (after its owner's effect), in
        place: say, to keep a right only while its card stays in the hand."""

    # -- the deal, the bout end and the result ----------------------------------------------

    def dealt(self, rules: Rules, changes: MutableMapping[str, Any]) -> None:
        """After a deal (R2, R3): ``changes`` holds every field of the new state, to touch up
        in place (say, rights that the dealt cards give)."""

    def bout_end(self, state: GameState, changes: MutableMapping[str, Any]) -> None:
        """At a bout end (R4.10), after the table is cleared or taken, the drawing (R5) and
        the outs (R7): ``state`` is the state as the bout ended (its table still full),
        ``changes`` the fields of the next state, to touch up in place."""

    def result(self, state: GameState, result: Result) -> Result:
        """The result of a game that just ended, with this module's facts added (say a score
        or a mark on the durak in :attr:`Result.extra`). ``state`` is the state as the last
        bout ended."""
        return result

    def validate(self, state: GameState) -> str | None:
        """Whether ``state`` is a position this module can play on, for a position built by
        hand or read from a file (:func:`durak.validate_state`, after the engine's own
        checks): ``None``, or the reason it is not, naming the field (``"extra: cheats: ..."``),
        which the engine raises as a :class:`~durak.errors.PositionError`. Check here the
        form of the module's own facts in :attr:`GameState.extra`, which its hooks read."""
        return None

    # -- policies: the last active module that overrides one gives the answer ---------------
    # A policy must be pure: the same arguments, the same answer. The engine remembers the
    # answers of attack_cap, throwers, next_opponent and draw_order per rules object, so a
    # policy that keeps state of its own would be asked only once per arguments.

    def attack_cap(self, rules: Rules, bouts: int, defences: int) -> int:
        """``cap`` of R4.6 for a bout, given the bouts finished and the successful defences.
        Pure: the engine remembers the answer per rules object and arguments."""
        raise NotImplementedError

    def throwers(
        self, rules: Rules, active: Sequence[bool], attacker: int, defender: int
    ) -> tuple[int, ...]:
        """The seats that may throw in against ``defender`` (R4.4), clockwise from the main
        attacker, who comes first. Pure: the engine remembers the answer per rules object
        and arguments."""
        raise NotImplementedError

    def next_opponent(self, rules: Rules, active: Sequence[bool], seat: int) -> int | None:
        """The next active opponent clockwise after ``seat`` (R4.1, R9.1, R10.2), or ``None``.
        Pure: the engine remembers the answer per rules object and arguments."""
        raise NotImplementedError

    def draw_order(
        self,
        rules: Rules,
        leader: int,
        joined: Sequence[int],
        defender: int,
        eligible: Sequence[bool],
    ) -> list[int]:
        """The order in which players draw after a bout (R5.1). Pure: the engine remembers
        the answer per rules object and arguments."""
        raise NotImplementedError

    def settle(
        self,
        rules: Rules,
        places: Sequence[int | None],
        left: frozenset[int],
        newly_out: Sequence[int],
        defender: int,
    ) -> Settled:
        """The places, the seats that left and the result at a bout end (R7, R10.3)."""
        raise NotImplementedError

    def first_attacker(
        self, rules: Rules, hands: Sequence[Sequence[Card]], trump: Suit, dealer: int
    ) -> int | None:
        """Who leads the first bout of a deal (R3), or ``None`` for "deal again" (R3.3)."""
        raise NotImplementedError

    def transfer_target(self, bout: Bout, action: Action) -> int | None:
        """Who a transfer ``action`` (by card or by a shown trump) passes the attack to, or
        ``None`` when there is nobody (R9.1, R10.2)."""
        raise NotImplementedError

    def turn_trump(
        self, rules: Rules, rest: tuple[Card, ...], dealt: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], Card]:
        """R2.4: the stock (top first) and the card that fixes trump, from the cards left after
        the deal (``rest``, top first) and the cards dealt, in the order dealt (the dealer's
        last dealt card last). A dealt card that fixes trump is shown: known in its hand."""
        raise NotImplementedError


_REGISTRY: dict[str, RuleModule] = {}
_BUILT_INS: list[RuleModule] = []
_LISTENERS: list[Callable[[], None]] = []


def register_built_ins(modules: Iterable[RuleModule]) -> None:
    """Set the rule book's modules, in plan order (:mod:`durak.rules.families` does, when
    :mod:`durak.rules` is imported)."""
    _BUILT_INS[:] = modules
    _changed()


def built_ins() -> tuple[RuleModule, ...]:
    """The rule book's modules, in plan order."""
    return tuple(_BUILT_INS)


def on_register(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever the registry changes (the plan caches forget their plans)."""
    _LISTENERS.append(listener)


def _changed() -> None:
    for listener in _LISTENERS:
        listener()


def register(module: RuleModule) -> RuleModule:
    """Make ``module`` available as a house rule under its ``name``; returns it.

    Registering the same class again replaces the earlier instance.

    Raises:
        RulesError: a module without a name, or a name taken by a different class.
    """
    if not isinstance(module, RuleModule):
        raise RulesError("house_rules", f"{brief(module)} is not a RuleModule")
    if not module.name:
        raise RulesError("house_rules", f"{type(module).__name__} has no name")
    known = _REGISTRY.get(module.name)
    if known is not None and type(known) is not type(module):
        raise RulesError(
            "house_rules", f"the name {module.name!r} is taken by {type(known).__name__}"
        )
    _REGISTRY[module.name] = module
    _changed()
    return module


def get_module(name: str) -> RuleModule:
    """The registered module called ``name``.

    Raises:
        RulesError: no module of that name is registered.
    """
    module = _REGISTRY.get(name)
    if module is None:
        # The R15 extensions are registered but switched on by their settings, not named.
        names = sorted(n for n, m in _REGISTRY.items() if not m.setting)
        near = _REGISTRY.get(name.strip().lower().replace("_", "-"))
        setting = near.setting if near is not None else ""
        given, known = brief(name), ", ".join(names)
        if setting and names:
            reason = message(
                "rules.unknown-house-rule-extension", given=given, known=known, setting=setting
            )
        elif setting:
            reason = message("rules.no-house-rule-extension", given=given, setting=setting)
        elif names:
            reason = message("rules.unknown-house-rule", given=given, known=known)
        else:
            reason = message("rules.no-house-rule", given=given)
        raise RulesError("house_rules", reason)
    return module


def registered() -> dict[str, RuleModule]:
    """The registered modules by name."""
    return dict(_REGISTRY)
