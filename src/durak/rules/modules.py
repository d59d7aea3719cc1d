"""Rule modules: the hooks through which rules plug into the engine.

A rule module is a :class:`RuleModule` subclass that overrides one or more hooks:

- :meth:`RuleModule.beats`: may forbid (or allow) a card to beat an attack card; the engine
  folds every active module into one precomputed table per trump suit, so the hook costs
  nothing during play.
- :meth:`RuleModule.check`: may forbid any action in a state, with a rule id and a reason; it
  runs inside the one legality source, so :func:`~durak.legal_actions`, :func:`~durak.is_legal`
  and :func:`~durak.apply` all honour it.

Built-in modules switch themselves on from the settings (:meth:`RuleModule.applies`): the
strict-suit rule (R8) is one. Modules from outside the library are registered by name with
:func:`register` and switched on with the ``house_rules`` setting::

    class NoSixLead(RuleModule):
        name = "no-six-lead"
        description = "A six may not lead a bout"

        def check(self, state, action):
            if isinstance(action, Lead) and any(c.rank == 6 for c in action.cards):
                return "house:no-six-lead", "a six may not lead"
            return None

    register(NoSixLead())
    rules = Rules(house_rules=["no-six-lead"])
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from durak.cards import Card, Suit
from durak.errors import RulesError

if TYPE_CHECKING:
    from durak.actions import Action
    from durak.rules.settings import Rules
    from durak.state import GameState

__all__ = [
    "RuleModule",
    "StrictSuits",
    "active_modules",
    "checking_modules",
    "get_module",
    "register",
    "registered",
]


class RuleModule:
    """Base class of rule modules. Override the hooks you need; the defaults change nothing.

    Attributes:
        name: the name that ``Rules(house_rules=[...])`` uses (registered modules only).
        description: one line for listings.
        rule: the rule id its errors cite, e.g. ``"R8.1"`` or ``"house:no-six-lead"``.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    rule: ClassVar[str] = ""

    def applies(self, rules: Rules) -> bool:
        """Whether a built-in module is on under ``rules`` (registered modules are on when
        named in ``house_rules``)."""
        return False

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        """Whether ``card`` beats ``attack``, given what the rules so far say (``default``).

        Called once per pair of cards and trump suit when the engine builds its table, never
        during play; it must depend only on its arguments.
        """
        return default

    def check(self, state: GameState, action: Action) -> tuple[str, str] | None:
        """``(rule id, reason)`` if ``action`` is forbidden in ``state``, else ``None``.

        Called only for actions that every other rule allows; it must not change anything.
        """
        return None


class StrictSuits(RuleModule):
    """R8.1: an attack card of a strict suit is beaten only by a higher card of its suit; a
    trump does not beat it, unless the strict suit is the trump suit itself."""

    name = "strict-suits"
    description = "Strict suits are beaten only by higher cards of the same suit (R8)"
    rule = "R8.1"

    def applies(self, rules: Rules) -> bool:
        return bool(rules.strict_suits)

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        if attack.suit in rules.strict_suits and attack.suit != trump:
            return default and card.suit == attack.suit
        return default


_BUILT_IN: tuple[RuleModule, ...] = (StrictSuits(),)
_REGISTRY: dict[str, RuleModule] = {}


def register(module: RuleModule) -> RuleModule:
    """Make ``module`` available as a house rule under its ``name``; returns it.

    Registering the same class again replaces the earlier instance.

    Raises:
        RulesError: a module without a name, or a name taken by a different class.
    """
    if not isinstance(module, RuleModule):
        raise RulesError("house_rules", f"{module!r} is not a RuleModule")
    if not module.name:
        raise RulesError("house_rules", f"{type(module).__name__} has no name")
    known = _REGISTRY.get(module.name)
    if known is not None and type(known) is not type(module):
        raise RulesError(
            "house_rules", f"the name {module.name!r} is taken by {type(known).__name__}"
        )
    _REGISTRY[module.name] = module
    active_modules.cache_clear()
    checking_modules.cache_clear()
    return module


def get_module(name: str) -> RuleModule:
    """The registered module called ``name``.

    Raises:
        RulesError: no module of that name is registered.
    """
    module = _REGISTRY.get(name)
    if module is None:
        known = ", ".join(sorted(_REGISTRY)) or "none registered"
        raise RulesError("house_rules", f"unknown house rule {name!r} (known: {known})")
    return module


def registered() -> dict[str, RuleModule]:
    """The registered modules by name."""
    return dict(_REGISTRY)


@lru_cache(maxsize=256)
def active_modules(rules: Rules) -> tuple[RuleModule, ...]:
    """The modules in force under ``rules``: built-ins that apply, then the house rules in the
    order named."""
    return tuple(m for m in _BUILT_IN if m.applies(rules)) + tuple(
        get_module(name) for name in rules.house_rules
    )


@lru_cache(maxsize=256)
def checking_modules(rules: Rules) -> tuple[RuleModule, ...]:
    """The active modules that override :meth:`RuleModule.check` (the engine asks only them)."""
    return tuple(m for m in active_modules(rules) if type(m).check is not RuleModule.check)
