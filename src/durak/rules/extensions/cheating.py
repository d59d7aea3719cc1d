"""R15.5 Cheating (setting ``cheating``; the "cheaters" table setting of the popular online
apps), with the ``catch`` action.

A *cheat* is a throw-in whose card breaks R4.3 (R15.2 where on), or a beat whose card breaks
R4.7 or R8. Who may play and when (R4.4-R4.9, R10.2), the limit (R4.6) and R13.1 still hold;
leads, transfers and shows are never cheats. While the bout runs, any active player other than
the cheat's owner may catch a cheat on the table (:class:`Catch`, ``p2 catch 9c``); catching a
card that is not a cheat is refused. A catch clears every pass (R4.9) and makes the caught card
public in its owner's hand. When caught:

- a cheat beat: the beating card goes back to the defender, who takes the table at once;
- a cheat throw-in: the card goes back to the thrower, and the card that beat it, if any, back
  to the defender; the thrower counts as passed for the rest of the bout (he still draws as an
  attacker, R5.1). A take already declared stands.

The bout end (R4.10) does not wait for catches: a cheat still on the table then stands. Which
table cards are cheats follows from public facts; it is kept in the state's fact ``cheats``
(pairs of card text and owner, in the order played) and listed by :func:`cheats_on_table`. A
catch, like the exchange (R12.1), is a private right: never the decision R13.2 waits for.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, ClassVar, cast

import attrs

from durak._input import brief
from durak.actions import Action, Beat, ShowTrump, ThrowIn, Transfer, _player, register_action
from durak.cards import Card, Suit, sort_cards
from durak.errors import InvalidCardError
from durak.messages import Message, message
from durak.rules.beating import base_beats, beat_table_of
from durak.rules.bout import Bout
from durak.rules.extensions.suits import one_rank_for_transfers
from durak.rules.modules import RuleModule, Violation, active_modules, plan_for

if TYPE_CHECKING:
    from durak.rules.settings import Rules
    from durak.state import Extra, GameState
    from durak.views import PlayerView

__all__ = ["Catch", "Cheating", "cheats_on_table", "fair_beat_table", "is_cheat"]

_CHEATS = "cheats"  # ((card text, owner), ...): the cheats on the table, in the order played
_BENCHED = "benched"  # (seat, ...): throwers caught cheating, passed for the rest of the bout
_CAUGHT = "caught"  # True once a cheat beat is caught: the defender takes at once
_FACTS = (_CHEATS, _BENCHED, _CAUGHT)
_MAY_CHEAT = (ThrowIn, Beat)  # the kinds of action that may be cheats


def _seat(_inst: object, _attr: object, value: int) -> None:
    _player(_inst, _attr, value)  # the same check, and error, as every action's player


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


@register_action
@attrs.frozen
class Catch:
    """Catch the cheat ``card`` on the table (R15.5): ``p2 catch 9c``."""

    player: int = attrs.field(validator=_seat)
    card: Card = attrs.field(converter=_card)
    kind: ClassVar[str] = "catch"

    def describe(self) -> Message:
        return message("action.catch", card=self.card)

    def __str__(self) -> str:
        return f"p{self.player} catch {self.card}"


@functools.lru_cache(maxsize=4096)
def _catch(player: int, card: Card) -> Catch:
    """The catch of ``card`` by ``player``, built once (actions are values)."""
    return Catch(player, card)


def cheats_on_table(state: GameState) -> tuple[tuple[Card, int], ...]:
    """The cheats on the table, as ``(card, owner)`` in the order played: the thrown-in card of
    a cheat throw-in, the beating card of a cheat beat (R15.5). Empty without cheating."""
    value = state.fact(_CHEATS, ())
    assert isinstance(value, tuple)
    out: list[tuple[Card, int]] = []
    for item in value:
        assert isinstance(item, tuple) and len(item) == 2
        text, owner = item
        assert isinstance(text, str) and isinstance(owner, int)
        out.append((Card.parse(text), owner))
    return tuple(out)


def _bad_facts(state: GameState) -> str | None:
    """Why the cheating facts of ``state`` are not of the form the hooks read, or ``None``."""
    n = len(state.hands)
    cheats = state.fact(_CHEATS, ())
    on_table = {c for pair in state.table for c in pair if c is not None}
    if not isinstance(cheats, tuple):
        return f"extra: {_CHEATS}: must be pairs (card, owner), not {brief(cheats)}"
    listed: set[Card] = set()
    for item in cheats:
        if not (isinstance(item, tuple) and len(item) == 2):
            return f"extra: {_CHEATS}: must be pairs (card, owner), not {brief(item)}"
        text, owner = item
        if not isinstance(text, str):
            return f"extra: {_CHEATS}: must be pairs (card, owner), not {brief(item)}"
        try:
            card = Card.parse(text)
        except InvalidCardError:
            return f"extra: {_CHEATS}: {brief(text)} is not a card"
        if card not in on_table:
            return f"extra: {_CHEATS}: {card} is not on the table (R15.5)"
        if isinstance(owner, bool) or not isinstance(owner, int) or not 0 <= owner < n:
            return f"extra: {_CHEATS}: the owner of {card} is not a seat: {brief(owner)}"
        if card in listed:
            return f"extra: {_CHEATS}: {card} is listed twice (R15.5)"
        listed.add(card)
        wrong = _contradiction(state, card, owner)
        if wrong:
            return f"extra: {_CHEATS}: {wrong}"
    benched = state.fact(_BENCHED, ())
    if not isinstance(benched, tuple) or any(
        isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n for p in benched
    ):
        return f"extra: {_BENCHED}: must be seats, not {brief(benched)}"
    strangers = sorted(p for p in benched if isinstance(p, int) and p not in state.joined)
    if strangers:
        return (
            f"extra: {_BENCHED}: seat {strangers[0]} put no attack card on the table in this "
            "bout, so he was not caught cheating at a throw-in (R15.5)"
        )
    caught = state.fact(_CAUGHT, False)
    if not isinstance(caught, bool):
        return f"extra: {_CAUGHT}: must be true or false, not {brief(caught)}"
    if caught and not state.taken:
        return f"extra: {_CAUGHT}: a caught cheat beat makes the defender take (R15.5)"
    return None


def _contradiction(state: GameState, card: Card, owner: int) -> str | None:
    """Why the table says that ``card`` on it is no cheat of ``owner`` (R15.5), or ``None``:
    a beating card must be the defender's and must not beat its attack card by the rules; an
    attack card must not be the lead, nor match an attack card played before it (R4.3, R15.2:
    then it was a fair throw-in, or a transfer), and must be a thrower's."""
    attacks = [a for a, _ in state.table]
    beaten = {b: a for a, b in state.table if b is not None}
    if card in beaten:
        attack = beaten[card]
        if owner != state.defender:
            return (
                f"the cheat beat {card} is credited to seat {owner}, but only the defender, "
                f"seat {state.defender}, beats (R4.7)"
            )
        plan = plan_for(state.rules)
        skip = next(m for m in plan.modules if isinstance(m, Cheating))
        if _honest_beat(state.rules, plan.modules, card, attack, state.trump, skip):
            return f"{card} beats {attack} by the rules: a fair beat, not a cheat (R15.5)"
        return None
    i = attacks.index(card)
    if i == 0:
        return f"{card} led the bout, and a lead is never a cheat (R15.5)"
    earlier = _matching(card, attacks[:i], state.rules.throw_in_by_suit)
    if earlier is not None:
        return (
            f"{card} matches {earlier}, on the table before it: a fair throw-in or a "
            "transfer, not a cheat (R4.3, R15.5)"
        )
    if owner == state.defender or owner not in state.joined:
        return (
            f"the cheat throw-in {card} is credited to seat {owner}, who put no attack card on "
            "the table in this bout (R5.1, R15.5)"
        )
    return None


#: The rules a cheat may break (R15.5): beating (R4.7) and the strict suits (R8).
_CHEATS_BREAK = ("R4.7", "R8")


def _lifted(module: RuleModule) -> bool:
    """Whether ``module``'s refusals of a beat are what a cheat may break (R4.7, R8)."""
    rule = module.rule
    return any(rule == r or rule.startswith(r + ".") for r in _CHEATS_BREAK)


def _honest_throw(bout: Bout, card: Card, skip: RuleModule) -> bool:
    """R4.3 (and every other module's may_throw, R15.2 say) without the cheating module."""
    ok = card & 15 in bout.ranks
    for module in bout.plan.throw_filters:
        if module is not skip:
            ok = module.may_throw(bout, card, ok)
    return ok


def _honest_beat(
    rules: Rules,
    modules: Iterable[RuleModule],
    card: Card,
    attack: Card,
    trump: Suit,
    skip: RuleModule,
) -> bool:
    """R4.7, R8 (and every other module's beats, R15.1 say) without the cheating module."""
    ok = base_beats(card, attack, trump)
    for module in modules:
        if module is not skip:
            ok = module.beats(card, attack, trump, rules, ok)
    return ok


def is_cheat(where: Bout | GameState | PlayerView, action: Action) -> bool:
    """Whether ``action``, played where ``where`` stands (a bout, a state or a player's view),
    would be a cheat (R15.5): a throw-in whose card matches nothing on the table (R4.3, R15.2),
    or a beat whose card does not beat its attack card (R4.7, R8, R15.1). Always ``False``
    without cheating. Bots that play fair leave these out of their choices.

    From a view, throw-ins are judged by R4.3 and R15.2 alone (a house rule's ``may_throw`` hook
    needs the full state)."""
    rules = where.s.rules if isinstance(where, Bout) else where.rules
    plan = plan_for(rules)
    skip = next((m for m in plan.modules if isinstance(m, Cheating)), None)
    if skip is None:
        return False
    if isinstance(action, ThrowIn):
        from durak.state import GameState

        if isinstance(where, Bout | GameState):
            bout = where if isinstance(where, Bout) else Bout(where, plan)
            return not _honest_throw(bout, action.card, skip)
        return not _public_throw(where, action.card)
    if isinstance(action, Beat):
        return not _honest_beat(
            rules, plan.modules, action.card, action.attack, _trump_of(where), skip
        )
    return False


def _trump_of(where: Bout | GameState | PlayerView) -> Suit:
    return where.s.trump if isinstance(where, Bout) else where.trump


def _public_throw(v: PlayerView, card: Card) -> bool:
    """R4.3 and R15.2 from a view: the card's rank, or with ``throw_in_by_suit`` its suit, is
    on the table."""
    on_table = [c for pair in v.table for c in pair if c is not None]
    return _matching(card, on_table, v.rules.throw_in_by_suit) is not None


def _matching(card: Card, cards: Iterable[Card], by_suit: bool) -> Card | None:
    """The first of ``cards`` that ``card`` matches by R4.3 (its rank; a card outside the 52
    matches only its own text) or, with ``by_suit`` (R15.2), by suit; ``None`` if none."""
    for c in cards:
        if c & 15 == card & 15 or (
            by_suit and not card.special and not c.special and (c >> 4) & 3 == (card >> 4) & 3
        ):
            return c
    return None


def fair_beat_table(trump: Suit, rules: Rules) -> bytes:
    """The beat table of ``rules`` without cheating (R4.7, R8, R15.1): which card really beats
    which, for players that play fair. The rules' own table where cheating is off."""
    plan = plan_for(rules)
    cheating = [m for m in plan.modules if isinstance(m, Cheating)]
    if not cheating:
        return plan.tables[trump]
    modules = tuple(
        m
        for m in plan.modules
        if not isinstance(m, Cheating) and type(m).beats is not RuleModule.beats
    )
    specials = tuple(sorted({Card(c & 63) for c in plan.deck if Card(c & 63).special}))
    return beat_table_of(trump, rules, modules, specials)


def _without(extra: tuple[tuple[str, Extra], ...], names: Iterable[str]) -> dict[str, Extra]:
    gone = set(names)
    return {k: v for k, v in extra if k not in gone}


class Cheating(RuleModule):
    """R15.5: cheat throw-ins and beats are allowed; other players may catch them."""

    name = "cheating"
    setting = "cheating"
    description = "Cheating: throw-ins and beats that break the rules stand unless caught (R15.5)"
    rule = "R15.5"
    kinds = (Catch,)
    private = (Catch,)
    public = _FACTS  # which table cards are cheats, who is benched: public facts (R15.5)
    checks = (ThrowIn, Transfer, ShowTrump)  # what check judges: throw-ins and transfers
    #: The RL adapters give the catch its action ids: one per card index (durak.rl.encoding).
    rl_actions = (("catch", "catch the cheat card i on the table (R15.5)"),)

    def applies(self, rules: Rules) -> bool:
        return rules.cheating

    def validate(self, state: GameState) -> str | None:
        return _bad_facts(state)

    # A cheat is a throw-in or beat the rules so far refuse: allow them here, and tell them
    # apart by asking the other modules (is_cheat). A cheat beat breaks R4.7 or R8 and nothing
    # else: what another module forbids whatever R4.7 says (R15.1: no card beats a joker)
    # stays forbidden.

    def beats(self, card: Card, attack: Card, trump: Suit, rules: Rules, default: bool) -> bool:
        ok = True
        for module in active_modules(rules):
            if not isinstance(module, Cheating) and not _lifted(module):
                ok = module.beats(card, attack, trump, rules, ok)
        return ok

    def may_throw(self, bout: Bout, card: Card, default: bool) -> bool:
        return True

    def check(self, state: GameState, action: Action) -> Violation | None:
        if isinstance(action, ThrowIn):
            if state.fact(_CAUGHT, False):
                return self.rule, message("cheat-beat-caught")
            benched = state.fact(_BENCHED, ())
            if isinstance(benched, tuple) and action.player in benched:
                return self.rule, message("caught-cheating", player=action.player)
            return None
        return one_rank_for_transfers(state, action, self.rule)

    def adjust(self, bout: Bout, action: Action, changes: MutableMapping[str, Any]) -> None:
        if not isinstance(action, _MAY_CHEAT) or not is_cheat(bout, action):
            return
        s = bout.s
        facts = dict(changes.get("extra", s.extra))
        cheats = facts.get(_CHEATS, ())
        assert isinstance(cheats, tuple)
        facts[_CHEATS] = (*cheats, (str(action.card), action.player))
        changes["extra"] = tuple(sorted(facts.items()))

    def candidates(self, bout: Bout, player: int) -> Iterable[Action]:
        s = bout.s
        if not s.table or not s.fact(_CHEATS):  # no cheat on the table: the usual case
            return ()
        out = [_catch(player, card) for card, owner in cheats_on_table(s) if owner != player]
        return cast("list[Action]", out)

    def violation(self, bout: Bout, action: Action) -> Violation | None:
        assert isinstance(action, Catch)
        s = bout.s
        card = action.card
        if not s.table:
            return self.rule, message("nothing-to-catch")
        if not any(card in pair for pair in s.table):
            return self.rule, message("not-on-table", card=card)
        owner = dict(cheats_on_table(s)).get(card)
        if owner is None:
            return self.rule, message("not-a-cheat", card=card)
        if owner == action.player:
            return self.rule, message("own-cheat", player=action.player)
        return None

    def effect(self, bout: Bout, action: Action) -> Mapping[str, Any]:
        assert isinstance(action, Catch)
        s = bout.s
        card = action.card
        cheats = cheats_on_table(s)
        owner = dict(cheats)[card]
        hands = list(s.hands)
        known = list(s.known)
        table = list(s.table)
        facts = _without(s.extra, ())
        i = next(k for k, pair in enumerate(table) if card in pair)
        attack, beaten = table[i]
        returned = {card}
        if beaten == card:
            # A cheat beat: back to the defender, who takes at once.
            table[i] = (attack, None)
            hands[s.defender] = sort_cards((*hands[s.defender], card))
            known[s.defender] = known[s.defender] | {card}
            facts[_CAUGHT] = True
            changes: dict[str, Any] = {"taken": True}
        else:
            # A cheat throw-in: back to the thrower, its beating card back to the defender.
            del table[i]
            hands[owner] = sort_cards((*hands[owner], card))
            known[owner] = known[owner] | {card}
            if beaten is not None:
                hands[s.defender] = sort_cards((*hands[s.defender], beaten))
                known[s.defender] = known[s.defender] | {beaten}
                returned.add(beaten)
            benched = facts.get(_BENCHED, ())
            assert isinstance(benched, tuple)
            facts[_BENCHED] = tuple(sorted({*(int(cast(int, q)) for q in benched), owner}))
            changes = {}
        left = tuple((str(c), p) for c, p in cheats if c not in returned)
        facts[_CHEATS] = left
        changes.update(
            {
                "hands": tuple(hands),
                "known": tuple(known),
                "table": tuple(table),
                "passed": frozenset(),
                "extra": tuple(sorted(facts.items())),
            }
        )
        return changes

    def bout_end(self, state: GameState, changes: MutableMapping[str, Any]) -> None:
        facts = _without(changes.get("extra", state.extra), _FACTS)
        if len(facts) != len(changes.get("extra", state.extra)):
            changes["extra"] = tuple(sorted(facts.items()))
