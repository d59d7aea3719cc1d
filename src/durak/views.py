"""Player views (R13): what one player may know about a game.

:func:`view` is the only way a bot or a front-end should look at a game: it holds that player's
own hand, every opponent's card count, the cards everyone knows a player holds, the table, the
discard pile, the stock count and trump, the roles, and the player's legal actions. The stock
order, the other hands' unknown cards and the deal's seed are left out, so two states that
differ only in what the player cannot see give equal views.

>>> from durak import Rules, new_game
>>> state = new_game(Rules(players=3), seed=5)
>>> v = view(state, 0)
>>> v.hand == state.hands[0], v.hand_sizes, v.stock_size
(True, (6, 6, 6), 18)
"""

from __future__ import annotations

import random

import attrs

from durak._input import brief
from durak._step import _bout
from durak.actions import Action
from durak.cards import Card, Suit, sort_cards
from durak.engine import (
    _need_state,
    acting,
    legal_actions,
    new_position,
    next_actor,
)
from durak.errors import InvalidError, PositionError, check_seat
from durak.messages import message
from durak.rules.modules import plan_for
from durak.rules.settings import Rules
from durak.state import Extra, GameState, Pair, Result, _bout_fields, _cards, _result_text

__all__ = ["PlayerView", "determinize", "view"]


@attrs.frozen
class PlayerView:
    """One player's view of a game (R13).

    Attributes:
        player: whose view it is (``None``: an onlooker who sees no hand).
        rules: the rules in force.
        hand: his own hand in display order (empty for an onlooker).
        hand_sizes: every seat's number of cards.
        known: per seat, the cards every player knows that seat holds (R2.4, R3.1, R5.2,
            R9.5, R12.1, and cards picked up in a take and not played since).
        table: the bout's pairs ``(attack, beating card or None)`` in the order played.
        discard: the discard pile, oldest first (public, R4.10).
        stock_size: cards left in the stock, the face-up trump card included.
        trump: the trump suit.
        trump_card: the card that fixed trump (it was face up, so everyone knows it).
        dealer, attacker, defender, leader: seats (R2.3, R4.1, R5.1).
        throwers: the seats that may throw in against the defender now (R4.4).
        joined: seats that put attack cards on the table in this bout (R5.1).
        passed: seats whose pass stands (R4.9).
        done: throwers who have passed or have nothing to add, so are not asked (R4.9). At the
            table a player with nothing to add says so: this is public.
        taken: whether the defender has declared take (R4.8).
        defender_hand: ``H`` of R4.6.
        attack_limit: the most attack cards this bout may hold now (R4.6).
        can_throw_in: whether the bout has room for another attack card and throwing in is
            still allowed (R4.6, R4.8): with it false, every thrower is done.
        shown: trumps shown for a transfer in this bout (R9.5).
        bouts: bouts finished so far.
        defences: successful defences so far (R4.6 ``until_first_discard``).
        exchange: the cards of his own hand that give him the trump-six exchange (R12.1).
        places: finishing places of the seats that are out or have left (R7.2), else ``None``;
            once the game is over every seat's place, equal to ``result.places``.
        active: per seat, whether he is still in play (R7.1).
        out: the seats that went out (R7.1); see :attr:`durak.GameState.out`.
        left: the seats that left holding cards with a winning partner (R10.3): placed, but
            not out.
        legal_actions: this player's legal actions (empty for an onlooker).
        acting: the players who may act now on the table (:func:`durak.engine.acting`).
        next_actor: the one-actor choice of R13.2 (it follows from the roles and ``done``).
        extra: the rule modules' public facts (:attr:`RuleModule.public
            <durak.rules.modules.RuleModule.public>`; say the cheats on the table, R15.5), pairs
            ``(name, value)`` as in :attr:`durak.GameState.extra`.
        result: the result once the game is over.
    """

    player: int | None
    rules: Rules
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known: tuple[frozenset[Card], ...]
    table: tuple[Pair, ...]
    discard: tuple[Card, ...]
    stock_size: int
    trump: Suit
    trump_card: Card | None
    dealer: int
    attacker: int
    defender: int
    leader: int
    throwers: tuple[int, ...]
    joined: tuple[int, ...]
    passed: frozenset[int]
    done: frozenset[int]
    taken: bool
    defender_hand: int
    attack_limit: int
    can_throw_in: bool
    shown: frozenset[Card]
    bouts: int
    defences: int
    exchange: frozenset[Card]
    places: tuple[int | None, ...]
    active: tuple[bool, ...]
    out: frozenset[int]
    left: frozenset[int]
    legal_actions: tuple[Action, ...]
    acting: tuple[int, ...]
    next_actor: int | None
    result: Result | None
    extra: tuple[tuple[str, Extra], ...] = ()

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hand_sizes)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    def outcome(self) -> Result:
        """The result of the finished game: :attr:`result` typed as there.

        Raises:
            PositionError: the game is still running (code ``game.running``).
        """
        if self.result is None:
            raise PositionError(message("game.running"))
        return self.result

    def actor(self) -> int:
        """The seat to ask now, :attr:`next_actor` (R13.2) typed as a seat.

        Raises:
            PositionError: the game is over (code ``game.finished``).
        """
        if self.next_actor is None:
            raise PositionError(message("game.finished"))
        return self.next_actor

    @property
    def unbeaten(self) -> tuple[Card, ...]:
        """The attack cards not yet beaten."""
        return tuple(a for a, b in self.table if b is None)

    @property
    def face_up(self) -> Card | None:
        """The face-up trump card under the stock (R2.4), or ``None``: once it is drawn, after
        a full deal, and when the stock holds jokers alone (R15.1): the dealt card that fixed
        trump is then known in a hand, or was played since."""
        card = self.trump_card
        if not self.stock_size or card is None or card in self.hand or card in self.discard:
            return None
        if any(card in cards for cards in self.known) or any(card in p for p in self.table):
            return None  # held, known to all, or played since: not under the stock
        return card

    def __str__(self) -> str:
        """The position as this player sees it, in the fields of the state's text form
        (:meth:`durak.GameState.__str__`): his own hand, the other hands as counts with the
        cards known to all, the stock as a count with its face-up card; never a hidden card::

            player: 0; hand: 6h 7h 8c; hands: 3 / 2 / 0; stock: 12 cards, face up Qd; trump: d; ...
        """
        who = "onlooker" if self.player is None else str(self.player)
        fields = [f"player: {who}"]
        if self.player is not None:
            fields.append(f"hand: {_cards(self.hand)}")
        fields.append(f"hands: {' / '.join(str(n) for n in self.hand_sizes)}")
        known = [
            f"p{p} {_cards(sorted(cards))}"
            for p, cards in enumerate(self.known)
            if cards and p != self.player
        ]
        if known:
            fields.append(f"known: {', '.join(known)}")
        stock = f"stock: {self.stock_size} card{'s' if self.stock_size != 1 else ''}"
        face_up = self.face_up
        fields.append(f"{stock}, face up {face_up}" if face_up is not None else stock)
        fields += [f"trump: {self.trump.letter}", f"attacker: {self.attacker}"]
        fields += _bout_fields(self.defender, self.table, self.taken)
        fields.append(f"discard: {_cards(self.discard)}")
        if self.result is not None:
            fields.append(_result_text(self.result))
        return "; ".join(fields)

    def unseen(self) -> tuple[Card, ...]:
        """The cards this player cannot locate: the stock (but the face-up trump card) and the
        other hands' unknown cards, sorted by card value. Card counting starts here."""
        seen = set(self.hand) | set(self.discard)
        seen.update(c for pair in self.table for c in pair if c is not None)
        for cards in self.known:
            seen.update(cards)
        if self.stock_size and self.trump_card is not None:
            seen.add(self.trump_card)
        return tuple(c for c in sorted(plan_for(self.rules).deck) if c not in seen)


def view(state: GameState, player: int | None) -> PlayerView:
    """What ``player`` may know about ``state`` (R13); ``None`` for an onlooker.

    Raises:
        TypeError: ``state`` is not a state, or ``player`` is not a seat number.
        SeatError: ``player`` is not a seat of the game (also an :class:`IndexError`).
    """
    _need_state(state)
    n = len(state.hands)
    if player is not None:
        check_seat(player, n)
    b = _bout(state)
    return PlayerView(
        player=player,
        rules=state.rules,
        hand=state.hands[player] if player is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        known=state.known or tuple(frozenset() for _ in range(n)),
        table=state.table,
        discard=state.discard,
        stock_size=len(state.stock),
        trump=state.trump,
        trump_card=state.trump_card,
        dealer=state.dealer,
        attacker=state.attacker,
        defender=state.defender,
        leader=state.leader,
        throwers=b.throwers,
        joined=state.joined,
        passed=state.passed,
        done=frozenset(p for p in b.throwers if b.done(p)),
        taken=state.taken,
        defender_hand=state.defender_hand,
        attack_limit=b.limit if state.result is None else 0,
        can_throw_in=b.can_add,
        shown=state.shown,
        bouts=state.bouts,
        defences=state.defences,
        exchange=frozenset(
            c for c in state.exchange if player is not None and c in state.hands[player]
        ),
        places=state.places,
        active=b.active,
        out=state.out,
        left=state.left,
        legal_actions=legal_actions(state, player) if player is not None else (),
        acting=acting(state),
        next_actor=next_actor(state),
        result=state.result,
        extra=_public_facts(state),
    )


def _public_facts(state: GameState) -> tuple[tuple[str, Extra], ...]:
    """The facts of ``state.extra`` that its modules declare public."""
    if not state.extra:
        return ()
    public = {name for m in plan_for(state.rules).modules for name in m.public}
    return tuple((k, v) for k, v in state.extra if k in public)


def _check_view(v: PlayerView) -> None:
    """The seats and per-seat lists of ``v`` fit its rules (a view read from a file may not)."""
    n = v.rules.players
    for name in ("hand_sizes", "known", "active", "places"):
        if len(getattr(v, name)) != n:
            raise PositionError(message("position.entries-count", field=name, n=n))
    seats = [v.player, v.dealer, v.attacker, v.defender, v.leader]
    seats += [*v.throwers, *v.joined, *v.passed, *v.done, *v.acting, *v.out, *v.left]
    for seat in seats:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise PositionError(f"seats: {brief(seat)} is not a seat 0-{n - 1}")
    if any(size < 0 for size in v.hand_sizes) or v.stock_size < 0:
        raise PositionError("hand_sizes: card counts cannot be negative")


def determinize(v: PlayerView, rng: random.Random) -> GameState:
    """A full game state consistent with the view ``v``: the cards ``v`` cannot locate are dealt
    at random to the other hands' unknown places and the stock (the face-up trump card stays the
    last stock card). For search bots that sample the hidden information (determinized
    Monte-Carlo search).

    What play has made public is respected: a thrower who is done without having passed holds
    no card he could add, and one who is not done holds at least one (R4.9). Under R4.3 alone
    the cards are dealt so; when rule modules change what may be thrown in
    (:meth:`~durak.rules.modules.RuleModule.may_throw` or ``check``), states are sampled until
    the engine agrees with the view on who is done. Other
    players' rights to the trump-six exchange (R12.1) are unknown and left out, and so is the
    deal's seed (it would tell the stock's order): a sampled state offers no misdeal redeal
    (R12.2), which needs it.

    Raises:
        TypeError: ``v`` is not a view or ``rng`` not a :class:`random.Random`.
        InvalidError: ``v`` is an onlooker's view.
        PositionError: ``v`` is of a finished game, or not a view the library could give (its
            counts contradict each other, say one read from a tampered file): the state is
            built by :func:`durak.new_position`, with its validation.
    """
    if not isinstance(v, PlayerView):
        raise TypeError(f"expected a PlayerView, not {type(v).__name__}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"expected a random.Random, not {type(rng).__name__}")
    if v.player is None:
        raise InvalidError("an onlooker's view has no hand to build a state around")
    if v.result is not None:
        raise PositionError("result: the game is over, so there is nothing to sample")
    _check_view(v)
    plan = plan_for(v.rules)
    if not plan.throw_filters and not plan.throw_checkers:
        return _sample(v, rng, by_rank=True)
    # Modules change what may be thrown in: propose states, dealt by R4.3's rank rule and
    # plainly in turn, and keep the first one in which the engine agrees with the view on who
    # is done (R4.9), so the same legality decides.
    for attempt in range(_TRIES):
        try:
            state = _sample(v, rng, by_rank=attempt % 2 == 0)
        except PositionError:
            continue
        b = _bout(state)
        if frozenset(p for p in b.throwers if b.done(p)) == v.done:
            return state
    raise PositionError(
        f"done: no state in {_TRIES} samples agrees with the view on who is done (R4.9)"
    )


#: How many samples :func:`determinize` tries when rule modules change what may be thrown in.
_TRIES = 200


def _sample(v: PlayerView, rng: random.Random, *, by_rank: bool) -> GameState:
    """One sampled state for :func:`determinize`; ``by_rank``: deal so that who is done agrees
    with the view under R4.3's rank rule (without it the cards are dealt plainly)."""
    unseen = list(v.unseen())
    rng.shuffle(unseen)
    jokers: list[Card] = []
    if v.stock_size and v.face_up is None and v.trump_card is not None:
        # R15.1: every card left in the stock was turned up, a joker each time
        jokers = [c for c in unseen if c.special][: v.stock_size]
        unseen = [c for c in unseen if c not in jokers]
    can_add = v.can_throw_in and by_rank
    empty = (v.done - v.passed) if can_add else frozenset()
    ranks = {c & 15 for pair in v.table for c in pair if c is not None}
    hidden: dict[int, list[Card]] = {seat: [] for seat in range(v.players) if seat != v.player}

    def give(seat: int, pool: list[Card], count: int) -> None:
        chosen = pool[:count]
        hidden[seat].extend(chosen)
        gone = set(chosen)
        unseen[:] = [c for c in unseen if c not in gone]

    if can_add:
        # A thrower still to act holds a card he could add: give one if none is known.
        for seat in v.throwers:
            known_match = any(c & 15 in ranks for c in v.known[seat])
            # A standing pass means he had a card to add, and the table has not changed.
            still = seat not in v.done or seat in v.passed
            if seat in hidden and still and not known_match:
                give(seat, [c for c in unseen if c & 15 in ranks], 1)
    # A thrower who is done without passing holds none of the table's ranks.
    for seat in sorted(empty - {v.player}):
        need = v.hand_sizes[seat] - len(v.known[seat]) - len(hidden[seat])
        give(seat, [c for c in unseen if c & 15 not in ranks], need)
    for seat in hidden:
        give(seat, unseen, v.hand_sizes[seat] - len(v.known[seat]) - len(hidden[seat]))
    hands = tuple(
        v.hand if seat == v.player else sort_cards([*v.known[seat], *hidden[seat]])
        for seat in range(v.players)
    )
    stock = tuple(unseen)
    if jokers:
        stock = (*jokers, *stock)
    elif v.stock_size:
        if v.trump_card is None:
            raise PositionError("trump_card: a view with a stock names the face-up card (R2.4)")
        stock = (*stock, v.trump_card)
    if len(stock) != v.stock_size or any(
        len(hands[seat]) != v.hand_sizes[seat] for seat in range(v.players)
    ):
        raise PositionError("hand_sizes: the view's card counts do not add up to the deck")
    state = new_position(
        v.rules,
        hands=hands,
        stock=stock,
        trump=v.trump,
        trump_card=v.trump_card,
        attacker=v.attacker,
        discard=v.discard,
        dealer=v.dealer,
        exchange=tuple(v.exchange),
        defender=v.defender,
        table=v.table,
        defender_hand=v.defender_hand,
        taken=v.taken,
        passed=v.passed,
        shown=tuple(v.shown),
        known=[tuple(k) for k in v.known],
        leader=v.leader,
        joined=v.joined,
        bouts=v.bouts,
        defences=v.defences,
        places=v.places,
        left=v.left,
        # The modules' public facts (R15.5's cheats and benched throwers) are the view's, and
        # the position is checked with them; hidden ones are unknown.
        extra=v.extra,
    )
    return state
