"""The frozen, validated settings object :class:`Rules` (R2-R9, R13).

Every field is a setting named in the rule book, with the rule book's default. Choice settings
are string enums and also accept their plain string value (``Rules(lead="same_rank")``).
Settings that are unknown, of the wrong type, out of range or that cannot be dealt raise
:class:`~durak.errors.RulesError` naming the setting.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, TypeVar

import attrs

from durak._input import brief, brief_name, nearest
from durak.cards import DECK_SIZES, MAX_COPIES, Suit
from durak.errors import InvalidCardError, RulesError
from durak.messages import Message, message
from durak.rules.hooks import get_module

__all__ = [
    "EXTENSION_SETTINGS",
    "MAX_LISTING",
    "DrawOrder",
    "FirstBoutScope",
    "Lead",
    "NextLeader",
    "NoTrumpLead",
    "Objective",
    "OnLastCleared",
    "Rules",
    "TeamWin",
    "ThrowOrder",
    "Throwers",
    "listing_bound",
]

#: The most legal actions one position may list under an accepted :class:`Rules`, all players
#: together (:func:`listing_bound`): rules whose bound exceeds it are refused. At this size a
#: first listing takes a few tenths of a second; the rule book's largest settings (two decks,
#: ``lead = same_rank``) stay below 5,000.
MAX_LISTING = 100_000


class Lead(StrEnum):
    """Setting ``lead`` (R4.2)."""

    SINGLE = "single"  #: one card of any rank (default)
    SAME_RANK = "same_rank"  #: one or more cards of one rank


class Throwers(StrEnum):
    """Setting ``throwers`` (R4.4): who may throw in."""

    ALL = "all"  #: every active player but the defender (default)
    NEIGHBOURS = "neighbours"  #: the main attacker and the player after the defender
    ATTACKER = "attacker"  #: the main attacker alone


class ThrowOrder(StrEnum):
    """Setting ``throw_order`` (R4.5)."""

    ATTACKER_FIRST = "attacker_first"  #: others only while the main attacker's pass stands
    FREE = "free"  #: any thrower at any time


class FirstBoutScope(StrEnum):
    """Setting ``first_bout_scope`` (R4.6): how long ``first_bout_max`` applies."""

    FIRST_BOUT = "first_bout"  #: the game's very first bout (default)
    UNTIL_FIRST_DISCARD = "until_first_discard"  #: every bout until the first successful defence


class DrawOrder(StrEnum):
    """Setting ``draw_order`` (R5.1): the order in which the bout's attackers draw."""

    CLOCKWISE = "clockwise"  #: clockwise from the leader (default)
    JOIN_ORDER = "join_order"  #: in the order they first put a card on the table


class Objective(StrEnum):
    """Setting ``objective`` (R7.3)."""

    DURAK = "durak"  #: play until at most one player is left: the durak (default)
    FIRST_OUT = "first_out"  #: the first players out win, everyone else loses


class OnLastCleared(StrEnum):
    """Setting ``on_last_cleared`` (R7.3): when the last two players empty their hands at once."""

    DRAW = "draw"  #: the game is drawn (default)
    DEFENDER_LOSES = "defender_loses"  #: the last defender is the durak


class TeamWin(StrEnum):
    """Setting ``team_win`` (R10.3)."""

    FIRST_OUT = "first_out"  #: a team wins when one member is out (default)
    ALL_OUT = "all_out"  #: a team wins when all its members are out


class NextLeader(StrEnum):
    """Setting ``next_leader`` (R11.2): who leads the next game of a match."""

    ATTACK_DURAK = "attack_durak"  #: the durak's right neighbour leads against him (default)
    LEFT_OF_DURAK = "left_of_durak"  #: the durak's left neighbour leads
    DURAK_LEADS = "durak_leads"  #: the durak leads
    LOWEST_TRUMP = "lowest_trump"  #: R3 every game


class NoTrumpLead(StrEnum):
    """Setting ``no_trump_lead`` (R3.3): who leads when no player holds a trump."""

    DEALER_LEFT = "dealer_left"  #: the dealer's left neighbour (default)
    REDEAL = "redeal"  #: the same dealer deals again from a fresh shuffle


E = TypeVar("E", bound=StrEnum)


def unknown_setting(name: str, known: Iterable[str]) -> Message:
    """The reason for an unknown setting ``name``: the known names, and the nearest of them
    when one is near (``rules.unknown-setting-near``: "did you mean players?")."""
    names = list(known)
    near = nearest(name, names)
    if near is None:
        return message("rules.unknown-setting", known=", ".join(names))
    return message("rules.unknown-setting-near", near=near, known=", ".join(names))


def _choice(enum: type[E], setting: str, value: Any) -> E:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return enum(value)
    known = ", ".join(repr(m.value) for m in enum)
    near = nearest(value, [m.value for m in enum])
    if near is not None:
        raise RulesError(
            setting,
            message("rules.unknown-value-near", given=brief(value), near=repr(near), known=known),
        )
    raise RulesError(setting, message("rules.unknown-value", given=brief(value), known=known))


def _lead(value: Any) -> Lead:
    return _choice(Lead, "lead", value)


def _throwers(value: Any) -> Throwers:
    return _choice(Throwers, "throwers", value)


def _throw_order(value: Any) -> ThrowOrder:
    return _choice(ThrowOrder, "throw_order", value)


def _first_bout_scope(value: Any) -> FirstBoutScope:
    return _choice(FirstBoutScope, "first_bout_scope", value)


def _draw_order(value: Any) -> DrawOrder:
    return _choice(DrawOrder, "draw_order", value)


def _objective(value: Any) -> Objective:
    return _choice(Objective, "objective", value)


def _on_last_cleared(value: Any) -> OnLastCleared:
    return _choice(OnLastCleared, "on_last_cleared", value)


def _no_trump_lead(value: Any) -> NoTrumpLead:
    return _choice(NoTrumpLead, "no_trump_lead", value)


def _int(setting: str, low: int, high: int | None = None, optional: bool = False) -> Any:
    def check(_inst: Any, _attr: Any, value: Any) -> None:
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            if optional:
                raise RulesError(setting, message("rules.not-integer-or-none", given=brief(value)))
            raise RulesError(setting, message("rules.not-integer", given=brief(value)))
        if value < low or (high is not None and value > high):
            if high is None:
                raise RulesError(setting, message("rules.too-small", low=low, given=brief(value)))
            raise RulesError(
                setting, message("rules.out-of-range", low=low, high=high, given=brief(value))
            )

    return check


def _bool(setting: str) -> Any:
    def check(_inst: Any, _attr: Any, value: Any) -> None:
        if not isinstance(value, bool):
            raise RulesError(setting, message("rules.not-bool", given=brief(value)))

    return check


def _next_leader(value: Any) -> NextLeader:
    return _choice(NextLeader, "next_leader", value)


def _team_win(value: Any) -> TeamWin:
    return _choice(TeamWin, "team_win", value)


def _teams(value: Any) -> tuple[tuple[int, ...], ...] | None:
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise RulesError("teams", message("rules.not-teams", given=brief(value)))
    teams = []
    for team in value:
        if isinstance(team, str | bytes) or not isinstance(team, Iterable):
            raise RulesError("teams", message("rules.team-not-list", given=brief(team)))
        seats = tuple(team)
        for seat in seats:
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise RulesError("teams", message("rules.seat-not-integer", given=brief(seat)))
        teams.append(tuple(sorted(seats)))
    return tuple(sorted(teams))


def _names(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Iterable):
        raise RulesError("house_rules", message("rules.not-house-rules", given=brief(value)))
    names = tuple(value)
    for name in names:
        if not isinstance(name, str):
            raise RulesError("house_rules", message("rules.house-rule-not-text", given=brief(name)))
        setting = get_module(name).setting
        if setting:
            raise RulesError(
                "house_rules",
                message("rules.house-rule-extension", given=brief(name), setting=setting),
            )
    if len(set(names)) != len(names):
        raise RulesError("house_rules", message("rules.house-rule-twice"))
    return names


def _suits(value: Any) -> frozenset[Suit]:
    if isinstance(value, str | Suit):
        value = [value]
    if not isinstance(value, Iterable):
        raise RulesError("strict_suits", message("rules.not-suits", given=brief(value)))
    out = set()
    for item in value:
        if not isinstance(item, str | Suit):
            raise RulesError("strict_suits", message("rules.suit-not-letter", given=brief(item)))
        try:
            out.add(item if isinstance(item, Suit) else Suit.parse(item))
        except InvalidCardError as exc:
            raise RulesError("strict_suits", exc.message) from None
    return frozenset(out)


@attrs.frozen(kw_only=True, cache_hash=True)
class Rules:
    """Every setting of the rule book's rules R1-R9, frozen and validated, with the defaults of
    the Podkidnoy preset.

    Attributes:
        players: number of seats, at least 2 (R2.1).
        deck_size: 24, 32, 36 or 52 cards (R1.2).
        decks: copies of the deck shuffled together (R1.2).
        hand_size: cards dealt and drawn up to (R2.1, R5.1).
        lead: :class:`Lead` (R4.2).
        throwers: :class:`Throwers` (R4.4).
        throw_order: :class:`ThrowOrder` (R4.5).
        max_attack: the attack cap of a bout (R4.6), 1 up to the number of cards in play
            (:attr:`cards`).
        first_bout_max: the cap while the first-bout restriction applies, ``None`` for none
            (R4.6); 1 up to the number of cards in play.
        first_bout_scope: :class:`FirstBoutScope` (R4.6).
        throw_after_take: whether throwers may add cards after a take (R4.8).
        draw_order: :class:`DrawOrder` (R5.1).
        objective: :class:`Objective` (R7.3).
        on_last_cleared: :class:`OnLastCleared` (R7.3).
        no_trump_lead: :class:`NoTrumpLead` (R3.3).
        strict_suits: suits beaten only by a higher card of the same suit (R8.1).
        transfer_by_card: the defender may transfer by adding a card of the attack rank (R9.1).
        transfer_several: a transfer may add several cards at once (R9.4).
        transfer_by_showing_trump: the defender may transfer by showing a trump (R9.5).
        transfer_first_bout: whether transfers are allowed in the game's first bout (R9.6).
        teams: ``None``, or the teams as tuples of seats; seats alternate between teams
            (R10.1), e.g. ``((0, 2), (1, 3))``.
        team_win: :class:`TeamWin` (R10.3).
        trump_six_exchange: the holder of the deck's lowest trump may swap it for the face-up
            trump card (R12.1).
        misdeal_suit_count: a player dealt this many cards of one suit may demand a redeal
            before the first lead; ``None`` for off (R12.2); 2 up to ``hand_size`` (no hand is
            dealt more).
        house_rules: names of registered rule modules to switch on
            (:func:`durak.rules.modules.register`); not the R15 extensions, which their own
            settings switch on (``jokers`` ... ``cheating`` below).
        next_leader: :class:`NextLeader`, who leads the next game of a match (R11.2).
        jokers: jokers per deck, 0-2, only with ``deck_size = 52`` (R15.1).
        throw_in_by_suit: a card may also be thrown in on a suit on the table (R15.2).
        show_sends_back: a shown trump sends the attack counterclockwise; needs
            ``transfer_by_showing_trump`` (R15.3).
        pogony: a durak who took the last bout gets an epaulette per six in it, at most two
            (R15.4).
        cheating: throw-ins and beats that break R4.3, R4.7 or R8 are allowed, and other
            players may catch them (R15.5).

    The settings of the R15 extensions (:data:`EXTENSION_SETTINGS`) are played by the rule
    modules of :mod:`durak.rules.extensions`; :meth:`to_dict` writes them only when they differ
    from their defaults, so rules without them read and write exactly as before.

    Settings are given by name; ``Rules(bogus=1)`` raises :class:`~durak.errors.RulesError`
    (``bogus: unknown setting``), as :meth:`replace` and :meth:`from_dict` do.

    Raises:
        RulesError: naming the setting, for an unknown setting, a wrong type, an unknown value,
            a value out of range (also ``max_attack`` or ``first_bout_max`` above the number of
            cards in play, or ``misdeal_suit_count`` above ``hand_size``), or players and hand
            size that the deck(s) cannot deal (R2.1).
        TypeError: a setting given by position (``Rules(4)``).

    >>> Rules(players=4).players
    4
    >>> Rules(players=7)
    Traceback (most recent call last):
    ...
    durak.errors.RulesError: players: 7 players x 6 cards need 42 cards, but the deck has 36 (R2.1)
    """

    players: int = attrs.field(default=2, validator=_int("players", 2))
    deck_size: int = attrs.field(default=36)
    decks: int = attrs.field(default=1, validator=_int("decks", 1, MAX_COPIES))
    hand_size: int = attrs.field(default=6, validator=_int("hand_size", 1))
    lead: Lead = attrs.field(default=Lead.SINGLE, converter=_lead)
    throwers: Throwers = attrs.field(default=Throwers.ALL, converter=_throwers)
    throw_order: ThrowOrder = attrs.field(default=ThrowOrder.ATTACKER_FIRST, converter=_throw_order)
    max_attack: int = attrs.field(default=6, validator=_int("max_attack", 1))
    first_bout_max: int | None = attrs.field(
        default=5, validator=_int("first_bout_max", 1, optional=True)
    )
    first_bout_scope: FirstBoutScope = attrs.field(
        default=FirstBoutScope.FIRST_BOUT,
        converter=_first_bout_scope,
    )
    throw_after_take: bool = attrs.field(default=True, validator=_bool("throw_after_take"))
    draw_order: DrawOrder = attrs.field(default=DrawOrder.CLOCKWISE, converter=_draw_order)
    objective: Objective = attrs.field(default=Objective.DURAK, converter=_objective)
    on_last_cleared: OnLastCleared = attrs.field(
        default=OnLastCleared.DRAW, converter=_on_last_cleared
    )
    no_trump_lead: NoTrumpLead = attrs.field(
        default=NoTrumpLead.DEALER_LEFT, converter=_no_trump_lead
    )
    strict_suits: frozenset[Suit] = attrs.field(default=frozenset(), converter=_suits)
    transfer_by_card: bool = attrs.field(default=False, validator=_bool("transfer_by_card"))
    transfer_several: bool = attrs.field(default=False, validator=_bool("transfer_several"))
    transfer_by_showing_trump: bool = attrs.field(
        default=False, validator=_bool("transfer_by_showing_trump")
    )
    transfer_first_bout: bool = attrs.field(default=True, validator=_bool("transfer_first_bout"))
    teams: tuple[tuple[int, ...], ...] | None = attrs.field(default=None, converter=_teams)
    team_win: TeamWin = attrs.field(default=TeamWin.FIRST_OUT, converter=_team_win)
    trump_six_exchange: bool = attrs.field(default=False, validator=_bool("trump_six_exchange"))
    misdeal_suit_count: int | None = attrs.field(
        default=None, validator=_int("misdeal_suit_count", 2, optional=True)
    )
    house_rules: tuple[str, ...] = attrs.field(default=(), converter=_names)
    next_leader: NextLeader = attrs.field(default=NextLeader.ATTACK_DURAK, converter=_next_leader)
    jokers: int = attrs.field(default=0, validator=_int("jokers", 0, 2))
    throw_in_by_suit: bool = attrs.field(default=False, validator=_bool("throw_in_by_suit"))
    show_sends_back: bool = attrs.field(default=False, validator=_bool("show_sends_back"))
    pogony: bool = attrs.field(default=False, validator=_bool("pogony"))
    cheating: bool = attrs.field(default=False, validator=_bool("cheating"))

    @deck_size.validator
    def _check_deck_size(self, _attr: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value not in DECK_SIZES:
            sizes = ", ".join(str(s) for s in DECK_SIZES)
            raise RulesError(
                "deck_size", message("rules.deck-size", known=sizes, given=brief(value))
            )

    def __attrs_post_init__(self) -> None:
        if self.jokers and self.deck_size != 52:
            raise RulesError("jokers", message("rules.jokers-deck", size=self.deck_size))
        if self.jokers * self.decks > MAX_COPIES:
            raise RulesError(
                "jokers",
                message(
                    "rules.jokers-copies", count=self.jokers, decks=self.decks, limit=MAX_COPIES
                ),
            )
        if self.show_sends_back and not self.transfer_by_showing_trump:
            raise RulesError("show_sends_back", message("rules.show-sends-back-alone"))
        need = self.players * self.hand_size
        if need > self.cards:
            counts = {"count": self.players, "hand": self.hand_size}
            counts.update(need=need, total=self.cards)
            if self.decks > 1:
                reason = message(
                    "rules.deal-too-big-decks", decks=self.decks, size=self.deck_size, **counts
                )
            else:
                reason = message("rules.deal-too-big", **counts)
            raise RulesError("players", reason)
        for setting in ("max_attack", "first_bout_max"):
            cap = getattr(self, setting)
            if cap is not None and cap > self.cards:
                raise RulesError(
                    setting, message("rules.over-cards", total=self.cards, given=brief(cap))
                )
        if self.misdeal_suit_count is not None and self.misdeal_suit_count > self.hand_size:
            raise RulesError(
                "misdeal_suit_count",
                message(
                    "rules.over-hand-size",
                    hand=self.hand_size,
                    given=brief(self.misdeal_suit_count),
                ),
            )
        if self.teams is not None:
            self._check_teams(self.teams)
        if self.transfer_several and not self.transfer_by_card:
            raise RulesError("transfer_several", message("rules.several-alone"))
        bound = listing_bound(self)
        if bound > MAX_LISTING:
            raise RulesError(
                _largest_term(self),
                message(
                    "rules.listing-too-large",
                    settings=_listing_settings(self),
                    count=bound,
                    limit=MAX_LISTING,
                ),
            )

    def _check_teams(self, teams: tuple[tuple[int, ...], ...]) -> None:
        k = len(teams)
        seats = sorted(s for team in teams for s in team)
        if seats != list(range(self.players)):
            raise RulesError("teams", message("rules.teams-split", high=self.players - 1))
        if k < 2 or any(len(team) < 2 for team in teams):
            raise RulesError("teams", message("rules.teams-small"))
        for team in teams:
            if any(seat % k != team[0] % k for seat in team):
                raise RulesError(
                    "teams", message("rules.teams-alternate", count=k, given=brief(list(team)))
                )

    def team_of(self, seat: int) -> int:
        """The team index of ``seat`` (R10.1); each seat is its own team without teams."""
        return seat % len(self.teams) if self.teams is not None else seat

    def opponents(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` play against each other (R10.2)."""
        if self.teams is None:
            return a != b
        k = len(self.teams)
        return a % k != b % k

    @property
    def cards(self) -> int:
        """The number of physical cards in play: ``(deck_size + jokers) * decks``."""
        return (self.deck_size + self.jokers) * self.decks

    @property
    def transfers(self) -> bool:
        """Whether any kind of transfer (R9) is on."""
        return self.transfer_by_card or self.transfer_by_showing_trump

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed, validated again.

        Raises:
            RulesError: an unknown setting name, or an invalid value.
        """
        unknown = sorted(set(changes) - set(SETTINGS))
        if unknown:
            raise RulesError(brief_name(unknown[0]), unknown_setting(unknown[0], SETTINGS))
        return attrs.evolve(self, **changes)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Build rules from a mapping of setting names to plain values (as in a rules file).

        Raises:
            RulesError: an unknown setting name (or one that is not text), a wrong type or an
                invalid value.
        """
        if not isinstance(data, Mapping):
            raise RulesError("rules", f"must be a table of settings, not {type(data).__name__}")
        settings = dict(data)
        for key in settings:
            if not isinstance(key, str):
                raise RulesError(brief(key), "a setting is named by text")
        return cls().replace(**settings)

    def to_dict(self, *, every: bool = False) -> dict[str, Any]:
        """The settings as plain values (strings, numbers, booleans, lists), ready for JSON or
        TOML; :meth:`from_dict` reads it back to an equal object. The R15 extension settings
        (:data:`EXTENSION_SETTINGS`) are left out while at their defaults, unless ``every``."""
        out: dict[str, Any] = {}
        for name in SETTINGS:
            value = getattr(self, name)
            if not every and name in EXTENSION_SETTINGS and value == _EXTENSION_DEFAULTS[name]:
                continue
            if isinstance(value, StrEnum):
                value = value.value
            elif isinstance(value, frozenset):
                value = sorted(s.letter for s in value)
            elif name == "teams" and value is not None:
                value = [list(team) for team in value]
            elif name == "house_rules":
                value = list(value)
            out[name] = value
        return out


def _several(n: int, limit: int) -> int:
    """How many sets of 1 up to ``limit`` cards ``n`` cards make: ``sum(C(n, k), k = 1..limit)``."""
    return sum(math.comb(n, k) for k in range(1, min(n, limit) + 1))


def _listing_terms(rules: Rules) -> dict[str, int]:
    """The terms of :func:`listing_bound`, by the setting that makes each one large."""
    cards = rules.cards
    limit = min(max(rules.max_attack, rules.first_bout_max or 0), cards)  # R4.6's cap at most
    copies = 4 * rules.decks  # the physical cards of one rank (R1.2)
    if rules.lead is Lead.SAME_RANK:  # R4.2: every set of copies of one rank, within R4.6
        leads = (rules.deck_size // 4) * _several(copies, limit)
        leads += _several(rules.jokers * rules.decks, limit)  # a joker's rank is its own
    else:
        leads = cards
    transfers = 0
    if rules.transfer_by_card:  # R9.1, R9.4: cards of the attack rank, one or several
        transfers = _several(copies, limit) if rules.transfer_several else copies
    players = rules.players
    return {
        "lead": leads,
        "max_attack": limit * cards,  # beats: an unbeaten attack card x a card in hand
        "transfer_several": transfers,
        "decks": cards  # throw-ins: one per card in a thrower's hand
        + 2 * rules.decks  # shows (R9.5) and exchanges (R12.1): one per copy of a card
        + 1  # the take
        + 2 * players  # passes (R4.9) and misdeal redeals (R12.2): one per player
        + (2 * limit * players if rules.cheating else 0),  # catches (R15.5)
    }


def listing_bound(rules: Rules) -> int:
    """An upper bound on the number of legal actions any one position under ``rules`` lists,
    all players together (``len(legal_actions(state))``, R13.1). Actions that house rules
    (:mod:`durak.rules.modules`) add are not counted; the rule book's and R15's are.

    With ``N`` the physical cards in play (:attr:`Rules.cards`), ``L`` the larger of
    ``max_attack`` and ``first_bout_max`` (R4.6's cap, at most ``N``), ``R = 4 * decks`` the
    copies of one rank, ``P`` the players and ``S(n) = C(n, 1) + ... + C(n, L)`` the sets of
    one up to ``L`` of ``n`` cards, the bound is the sum of:

    - the leads: ``N`` (R4.2, ``single``), or ``deck_size / 4 * S(R) + S(jokers * decks)``
      (``same_rank``: every set of copies of one rank);
    - the beats: ``L * N`` (an unbeaten attack card, at most ``L``, and a card in hand);
    - the throw-ins: ``N`` (a card in a thrower's hand each);
    - the transfers: ``R``, or ``S(R)`` with ``transfer_several`` (R9.1, R9.4);
    - shows and exchanges ``2 * decks``, the take 1, passes and misdeal redeals ``2 * P``, and
      with ``cheating`` the catches ``2 * L * P`` (R15.5).

    :class:`Rules` refuses rules whose bound exceeds :data:`MAX_LISTING`.

    >>> listing_bound(Rules())
    295
    >>> listing_bound(Rules(decks=2, deck_size=52, lead="same_rank"))
    3935
    """
    return sum(_listing_terms(rules).values())


def _largest_term(rules: Rules) -> str:
    """The setting behind the largest term of :func:`listing_bound`."""
    terms = _listing_terms(rules)
    return max(terms, key=lambda name: terms[name])


def _listing_settings(rules: Rules) -> str:
    """The settings that :func:`listing_bound` reads and that differ from the defaults."""
    names: tuple[str, ...] = ("deck_size", "decks", "lead", "max_attack", "first_bout_max")
    names += ("transfer_several", "players", "jokers", "cheating")
    default = attrs.fields_dict(Rules)
    parts = []
    for name in names:
        value = getattr(rules, name)
        if value != default[name].default:
            parts.append(f"{name} = {value.value if isinstance(value, StrEnum) else value}")
    return ", ".join(parts)


#: The names of all settings, in declaration order.
SETTINGS: tuple[str, ...] = tuple(a.name for a in attrs.fields(Rules))

_KNOWN = frozenset(SETTINGS)

#: The settings of the R15 extensions (:mod:`durak.rules.extensions`), last in :data:`SETTINGS`.
EXTENSION_SETTINGS: tuple[str, ...] = (
    "jokers",
    "throw_in_by_suit",
    "show_sends_back",
    "pogony",
    "cheating",
)

_EXTENSION_DEFAULTS: dict[str, Any] = {
    a.name: a.default for a in attrs.fields(Rules) if a.name in EXTENSION_SETTINGS
}


def _checked_init(init: Callable[..., None]) -> Callable[..., None]:
    """Rules' ``__init__``: attrs' own (validating each setting), after a check of the names
    that raises :class:`RulesError` for an unknown one instead of attrs' ``TypeError``. It is
    installed on the class after attrs built it, so type checkers still see attrs' signature
    with every setting and its type; hashing, equality and pickling are attrs' own."""

    @functools.wraps(init)
    def __init__(self: Rules, *args: Any, **settings: Any) -> None:
        if args:
            raise TypeError(
                "Rules takes its settings by name, e.g. Rules(players=4), not by position "
                f"(got {len(args)} positional argument{'s' if len(args) > 1 else ''})"
            )
        unknown = sorted(name for name in settings if name not in _KNOWN)
        if unknown:
            raise RulesError(brief_name(unknown[0]), unknown_setting(unknown[0], SETTINGS))
        init(self, **settings)

    return __init__


Rules.__init__ = _checked_init(Rules.__init__)  # type: ignore[method-assign]


_DEFAULTS: tuple[tuple[str, Any], ...] = tuple(
    (a.name, a.default) for a in attrs.fields(Rules) if a.default is not attrs.NOTHING
)


@functools.lru_cache(maxsize=256)
def _unpickle_rules(changes: tuple[tuple[str, Any], ...]) -> Rules:
    """The rules with ``changes`` from the defaults; the same changes give the same object,
    so states read back from pickles share their rules as states built by play do."""
    return Rules(**dict(changes))


def _reduce_rules(self: Rules) -> tuple[Callable[..., Rules], tuple[Any, ...]]:
    """Pickle only the settings that differ from the defaults (a few bytes instead of every
    setting with its name)."""
    changes = tuple(
        (name, getattr(self, name)) for name, default in _DEFAULTS if getattr(self, name) != default
    )
    return _unpickle_rules, (changes,)


Rules.__reduce__ = _reduce_rules  # type: ignore[method-assign,assignment]
