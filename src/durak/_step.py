"""The step of a game: a state's derived facts, the listing, applying a listed action, the bout
end (R4-R7, R13).

This is the engine's inner part, behind :mod:`durak.engine`, which checks the arguments of every
public call and then calls in here; nothing here checks an argument's type again. The optional
compiled build (``DURAK_COMPILE=1``, docs/performance.md) compiles this module, with
:mod:`durak.rules.bout` and :mod:`durak.rules.families`; the public calls stay in Python, so
both builds answer a bad argument with the same error.

One legality source: the listing. :func:`_legal` lists each player's actions from the rule
modules; :func:`_listed` and :func:`_refusal` accept exactly the listed actions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from durak._deal import NO_BOUT as _NO_BOUT
from durak._deal import NO_CARDS as _NO_CARDS
from durak._deal import redeal
from durak.actions import Action, Pass
from durak.cards import Card, sort_cards
from durak.errors import IllegalActionError
from durak.events import BoutEnded, Drew, Event, GameOver, NewBout, PlayerLeft, PlayerOut
from durak.messages import message
from durak.rules.bout import Bout
from durak.rules.families import with_known
from durak.rules.hooks import RedealRequest
from durak.rules.modules import Plan, RuleModule, Violation, plan_for
from durak.rules.seating import next_active
from durak.rules.settings import Rules
from durak.rules.shared import one
from durak.state import GameState, evolve, setter

#: What the public calls (:mod:`durak.engine`, :mod:`durak.views`) use: the step's own
#: surface, private to the package.
__all__ = [
    "_NO_CARDS",
    "_apply",
    "_bout",
    "_decides",
    "_end_bout",
    "_legal",
    "_listed",
    "_listing",
    "_plan",
    "_refusal",
    "_sorted",
]


#: The bout end's new state (R4.10-R6) when no module has a ``bout_end`` hook: these fields
#: set in this order, the bout's own fields (``_NO_BOUT``) afresh, the rest kept.
_next_bout = setter(
    (
        "hands",
        "stock",
        "discard",
        "attacker",
        "defender",
        "leader",
        "bouts",
        "defences",
        "places",
        "result",
        "known",
        "left",
    ),
    _NO_BOUT,
)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return sort_cards(cards)


def _plan(rules: Rules) -> Plan:
    """The plan of ``rules``, remembered by identity (hashing a rules object to look it up
    costs more than the rest of a rule check)."""
    entry = _plans.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_plans) > 512:
            _plans.clear()
        entry = _plans[id(rules)] = (rules, plan_for(rules))
    return entry[1]


_plans: dict[int, tuple[Rules, Plan]] = {}
_last: Bout | None = None


def _bout(s: GameState) -> Bout:
    """The derived facts of ``s``; the last state asked about is remembered (by identity), since
    callers ask :func:`next_actor`, :func:`legal_actions` and :func:`apply` about the same state
    in turn."""
    global _last
    b = _last
    if b is None or b.s is not s:
        b = _last = Bout(s, _plan(s.rules))
    return b


def _violation(b: Bout, action: Action) -> Violation | None:
    s = b.s
    p = action.player
    if s.result is not None:
        return "R7.3", message("game-over")
    if p >= len(s.hands):
        return "R2.1", message("no-seat", seat=p, count=len(s.hands))
    if not b.active[p]:
        return "R7.1", message("player-out", player=p)
    plan = b.plan
    owner = plan.owners.get(type(action))
    if owner is None:
        return _unowned(plan, action)
    bad = owner.violation(b, action)
    if bad is None:
        checkers = plan.checkers_of.get(type(action), plan.checkers)
        if checkers:
            return _checked(s, checkers, action)
    return bad


def _unowned(plan: Plan, action: Action) -> Violation:
    off = plan.off.get(type(action))
    if off is not None:
        return off
    return "R13.1", message("no-module", kind=type(action).__name__)


#: The reason for a refused action that no module explains (a module's candidates leave out
#: an action its violation allows); the property tests make sure it is never given.
UNEXPLAINED: Violation = ("R13.1", "not among the legal actions now")


def _listed(b: Bout, action: Action) -> bool:
    """Whether ``action`` is among its player's legal actions: the one legality source. A
    listed object is found by identity first (callers usually pass one back)."""
    p = action.player
    s = b.s
    if s.result is not None or type(p) is not int or p >= len(s.hands):
        return False
    mine = _legal(b, p)
    for listed in mine:
        if listed is action:
            return True
    return action in mine


def _refusal(b: Bout, action: Action) -> Violation | None:
    """``None`` if ``action`` is listed (legal), else the rule it breaks, as the modules'
    violation hooks say."""
    if _listed(b, action):
        return None
    return _violation(b, action) or UNEXPLAINED


def _legal(b: Bout, p: int) -> tuple[Action, ...]:
    """``p``'s legal actions (remembered per state): the candidates of the modules that offer
    actions to his role, each passed through its owner's violation hook unless the module is
    :attr:`~durak.rules.modules.RuleModule.exact`, and through every module's check hook."""
    mine = b.legal.get(p)
    if mine is not None:
        return mine
    if b.active[p]:
        s = b.s
        plan = b.plan
        if not s.table:
            role = "leader" if p == s.attacker else "other"
        else:
            role = "defender" if p == s.defender else "thrower"
        modules = plan.offering_to[role]
        if plan.plain:  # every module exact and none forbids: the candidates are the listing
            if len(modules) == 1:
                mine = tuple(modules[0].candidates(b, p))
            else:
                out: list[Action] = []
                for module in modules:
                    out.extend(module.candidates(b, p))
                mine = tuple(out)
        else:
            out = []
            checked = plan.checked
            for module in modules:
                offered = module.candidates(b, p)
                if not module.exact:
                    out.extend(a for a in offered if _violation(b, a) is None)
                elif module in checked:
                    of, every = plan.checkers_of, plan.checkers
                    out.extend(a for a in offered if _checked(s, of.get(type(a), every), a) is None)
                else:
                    out.extend(offered)
            mine = tuple(out)
    else:
        mine = ()
    b.legal[p] = mine
    return mine


def _checked(s: GameState, checkers: tuple[RuleModule, ...], action: Action) -> Violation | None:
    for module in checkers:
        bad = module.check(s, action)
        if bad is not None:
            return bad
    return None


def _listing(state: GameState, player: int | None) -> tuple[Action, ...]:
    """:func:`durak.engine.legal_actions` once its arguments are checked: ``player``'s legal
    actions, or every seat's in seat order. Under a plain plan every seat is listed in one loop,
    each seat's kept as :func:`_legal` keeps it (its plain case, written out)."""
    if state.result is not None:
        return ()
    b = _last
    if b is None or b.s is not state:
        b = _bout(state)
    if player is not None:
        return _legal(b, player)
    n = len(state.hands)
    legal = b.legal
    if not b.plan.plain or legal:
        every: list[Action] = []
        for p in range(n):
            every.extend(_legal(b, p))
        return tuple(every)
    active = b.active
    by_role = b.plan.offering_to
    if state.table:
        special, usual, others = state.defender, by_role["defender"], by_role["thrower"]
    else:
        special, usual, others = state.attacker, by_role["leader"], by_role["other"]
    out: list[Action] = []
    for p in range(n):
        if active[p]:
            mine: list[Action] = []
            for module in usual if p == special else others:
                mine.extend(module.candidates(b, p))
            legal[p] = listed = tuple(mine)
            out.extend(listed)
        else:
            legal[p] = ()
    return tuple(out)


def _decides(b: Bout, p: int) -> bool:
    """Whether ``p`` has a decision to make now: a legal action that is not a private right
    (R13.2). Without forbidding modules, a thrower decides exactly when he may pass."""
    plan = b.plan
    s = b.s
    if not plan.checkers:
        if not s.table:
            return p == s.attacker  # he holds a card (R4.2), and nothing forbids a lead
        if p == s.defender:
            return bool(b.unbeaten) and not s.taken  # he may always take (R4.8)
        if plan.plain:  # the listing is the candidates: is his pass among them?
            return any(type(a) is Pass for a in _legal(b, p))
        owner = plan.owners.get(Pass)
        return owner is not None and owner.violation(b, one(Pass, p)) is None
    private = plan.private
    return any(type(a) not in private for a in _legal(b, p))


def _apply(state: GameState, action: Action, log: list[Event] | None) -> GameState:
    """:func:`durak.engine.apply` once its arguments are checked (a state, an action): the
    listing's check, the action's effect, the new state, and the bout end if it ends the bout.

    Raises:
        IllegalActionError: ``action`` is not listed; nothing changes.
    """
    global _last
    kind = type(action)
    b = _last
    if b is None or b.s is not state:
        b = _bout(state)
    p = action.player
    listed = b.legal.get(p)  # filled only for a running game's players (the listing)
    if listed is not None:
        for x in listed:
            if x is action:
                break
        else:
            listed = None
    if listed is None:
        bad = _refusal(b, action)
        if bad is not None:
            raise IllegalActionError(action, p, bad[0], bad[1])
    s = state
    plan = b.plan
    owner = plan.owners[kind]
    if log is not None:
        log.append(owner.event(b, action))
    effect = owner.effect(b, action)
    if type(effect) is dict:
        changes = effect
    elif isinstance(effect, GameState | RedealRequest):
        # a new deal (R12.2), or a whole new state
        new = redeal(s) if isinstance(effect, RedealRequest) else effect
        if log is not None:
            log.append(NewBout(new.attacker, new.defender))
        return new
    else:
        changes = dict(effect)
    for module in plan.adjusters:
        module.adjust(b, action, changes)
    if "hands" in changes and s.known and s.known[p] and "known" not in changes:
        mine = s.known[p]
        still = mine.intersection(changes["hands"][p])
        if len(still) != len(mine):  # he played a card everyone knew he held
            changes["known"] = with_known(s.known, p, still)
    new = evolve(s, changes)
    if new.result is not None:  # a module's action ended the game
        if log is not None:
            log.append(GameOver(new.result))
        return new
    after = _last = Bout(new, plan, b)
    if after.over():
        return _end_bout(new, log, plan)
    return new


def _end_bout(s: GameState, log: list[Event] | None = None, plan: Plan | None = None) -> GameState:
    """R4.10, R5, R6, R7: clear or take the table, draw, record outs, end or rotate."""
    rules = s.rules
    if plan is None:
        plan = _plan(rules)
    n = len(s.hands)
    hands = list(s.hands)
    known = list(s.known)
    table_cards = tuple([c for pair in s.table for c in pair if c is not None])
    discard = s.discard
    defences = s.defences
    single = plan.single
    if s.taken:
        taker = hands[s.defender] + table_cards
        hands[s.defender] = tuple(sorted(taker)) if single else _sorted(taker)
        known[s.defender] = known[s.defender].union(table_cards)  # everyone saw them
    else:
        discard = discard + table_cards
        defences += 1
    if log is not None:
        log.append(BoutEnded(s.defender, s.taken, table_cards))
    stock = s.stock
    size = rules.hand_size
    if stock:
        for p in plan.order_of(s.leader, s.joined, s.defender, s.places):
            need = size - len(hands[p])
            if need > 0 and stock:
                drawn, stock = stock[:need], stock[need:]
                hand = hands[p] + drawn
                hands[p] = tuple(sorted(hand)) if single else _sorted(hand)
                face_up = None
                if not stock and drawn[-1] == s.trump_card:
                    # he drew the face-up trump card, in sight of all (R5.2); a stock of jokers
                    # alone has none (R15.1)
                    face_up = drawn[-1]
                    known[p] = known[p] | {face_up}
                if log is not None:
                    log.append(Drew(p, len(drawn), drawn, face_up))
    newly_out = [] if stock else [p for p in range(n) if s.places[p] is None and not hands[p]]
    places, left, result = plan.settle(rules, s.places, s.left, newly_out, s.defender)
    if result is not None:
        for module in plan.resulters:
            result = module.result(s, result)
    if log is not None and newly_out:
        durak = result.durak if result is not None else None
        log.extend(PlayerOut(p, places[p] or n) for p in newly_out if p != durak)
        log.extend(
            PlayerLeft(p, places[p] or n, next(q for q in newly_out if not rules.opponents(p, q)))
            for p in sorted(left - s.left)
        )
    attacker = s.attacker
    defender = s.defender
    if result is None:
        active = plan.active_of(places)
        if not s.taken and active[s.defender]:
            attacker = s.defender  # R6.1
        else:
            nxt = next_active(active, s.defender)  # R6.1 (defender out), R6.2
            assert nxt is not None
            attacker = nxt
        nxt_def = plan.opponent_of(active, attacker)  # R4.1, R6.3, R10.4
        assert nxt_def is not None
        defender = nxt_def
    if plan.enders:
        changes: dict[str, Any] = {
            "hands": tuple(hands),
            "stock": stock,
            "discard": discard,
            "attacker": attacker,
            "defender": defender,
            "leader": attacker,
            **_NO_BOUT,
            "bouts": s.bouts + 1,
            "defences": defences,
            "places": places,
            "result": result,
            "known": tuple(known),
            "left": left,
        }
        for module in plan.enders:
            module.bout_end(s, changes)
        new = evolve(s, changes)
    else:  # the same fields, set without a mapping
        new = _next_bout(
            s,
            tuple(hands),
            stock,
            discard,
            attacker,
            defender,
            attacker,
            s.bouts + 1,
            defences,
            places,
            result,
            tuple(known),
            left,
        )
    if log is not None:
        log.append(GameOver(result) if result is not None else NewBout(attacker, defender))
    return new
