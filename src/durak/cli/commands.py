"""What the human types in ``durak play``'s line mode (:func:`parse_command`, see
:data:`LINE_HELP`): read by the library's own reader, :mod:`durak.moves`, where it names one
legal action, with the terminal's preferences where it names several; and why a card or an
action cannot be played now: the engine's own :class:`~durak.errors.IllegalActionError` text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from durak.actions import ACTION_KINDS, Action, Beat, Lead, Pass, ShowTrump, Take, ThrowIn, Transfer
from durak.cards import Card, Rank, parse_cards
from durak.cli.render import _cards_used, _Look, action_text, listed_actions
from durak.engine import apply
from durak.errors import IllegalActionError, InvalidCardError, InvalidError
from durak.i18n import N_
from durak.moves import readings
from durak.notation import parse_action
from durak.state import GameState

#: What a line-mode player may type.
LINE_HELP = N_(
    "Commands: a card such as 7h plays it (lead, throw in, or beat the first card it can beat); "
    "7h 9h beats 7h with 9h; t or take; d, done or pass; transfer 7s; show 7h (show a trump to "
    "transfer); a number picks one of your listed actions; help; q or quit."
)


@dataclass(frozen=True)
class Command:
    """What a line of input asks for: an action, quitting, or only a message to show (an error
    or the help)."""

    action: Action | None = None
    quit: bool = False
    message: str | None = None


def _explain_card(
    state: GameState,
    player: int,
    card: Card,
    look: _Look | None = None,
    name: Callable[[int], str] | None = None,
) -> str:
    """Why ``card`` cannot be played now: the :class:`IllegalActionError` reason of the action
    the player most likely meant, said to him (``look``), or that the game has no such card."""
    look = look or _Look(ascii=True, you=player)
    if not _in_game(state, card):
        return _no_such_card(state, card, look)
    probe: Action
    if not state.table:
        probe = Lead(player, (card,))
    elif player == state.defender and state.unbeaten and not state.taken:
        probe = Beat(player, state.unbeaten[0], card)
    else:
        probe = ThrowIn(player, card)
    return _illegal_text(state, probe, look, name) or look._("{card} cannot be played now").format(
        card=look.card(card)
    )


def _in_game(state: GameState, card: Card) -> bool:
    """Whether ``card`` is one of the game's cards (in a hand, the stock, on the table or in the
    discard pile): ``2h`` is none in a 36-card game."""
    if any(card in hand for hand in state.hands) or card in state.stock or card in state.discard:
        return True
    return any(card in pair for pair in state.table)


def _no_such_card(state: GameState, card: Card, look: _Look) -> str:
    return look._("there is no {card} in this deck ({n} cards)").format(
        card=look.card(card), n=state.rules.deck_size * state.rules.decks
    )


def _illegal_text(
    state: GameState,
    action: Action,
    look: _Look | None = None,
    name: Callable[[int], str] | None = None,
) -> str | None:
    """Why ``action`` is illegal, said to its player in the screen's words (``look``: his
    language, ``you``, the cards as the screen shows them) with the rule id, or ``None`` if it
    is legal. A defender's done (pass) is explained as such: passing is for the attackers."""
    look = look or _Look(ascii=True, you=action.player)
    try:
        apply(state, action)
    except IllegalActionError as exc:
        if isinstance(action, Pass) and action.player == state.defender and state.table:
            return look._(
                "you are the defender: done (D) is for the attackers; beat the cards or take (T)"
            )
        return f"{look.say(exc.reason, name)} ({exc.rule})"
    return None


def _try(
    state: GameState,
    action: Action,
    legal: Sequence[Action],
    look: _Look | None = None,
    name: Callable[[int], str] | None = None,
) -> Command:
    if action in legal:
        return Command(action=action)
    for card in _cards_used(action) + ((action.attack,) if isinstance(action, Beat) else ()):
        if not _in_game(state, card):
            return Command(message=_no_such_card(state, card, look or _Look(ascii=True)))
    return Command(
        message=_illegal_text(state, action, look, name) or f"{action} is not possible now"
    )


def card_actions(actions: Sequence[Action], card: Card) -> list[Action]:
    """The actions among ``actions`` that use ``card`` from the hand."""
    return [a for a in actions if card in _cards_used(a)]


def _single_card(
    state: GameState,
    player: int,
    legal: Sequence[Action],
    card: Card,
    look: _Look,
    name: Callable[[int], str] | None,
) -> Command:
    """``7h`` alone: lead it, throw it in, or beat the first unbeaten card it beats; else the only
    transfer it makes."""
    uses = card_actions(legal, card)
    plain = [
        a
        for a in uses
        if isinstance(a, ThrowIn | Beat) or (isinstance(a, Lead) and a.cards == (card,))
    ]
    if plain:
        return Command(action=plain[0])
    if len(uses) == 1:
        return Command(action=uses[0])
    if uses:
        options = look._(" or ").join(f"'{action_text(a, typed=True)}'" for a in uses)
        return Command(
            message=look._("{card} can do several things: type {options}").format(
                card=look.card(card), options=options
            )
        )
    return Command(message=_explain_card(state, player, card, look, name))


_SUIT_PART = re.compile(r"^[cdhsCDHS♣♦♥♠](#\d+)?$")


def _card_word(word: str, look: _Look) -> str:
    """A card typed with the screen language's rank letter (German ``D♥`` or ``Dh`` for the
    Dame, Russian ``Т♠`` for the туз) in the library's text form (``Q♥``, ``As``); any other
    word as it is."""
    if len(word) < 2 or not _SUIT_PART.match(word[1:]):
        return word
    for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE):
        letter = look.lang.rank(rank)
        if letter != rank.letter and word[0].upper() == letter.upper():
            return rank.letter + word[1:]
    return word


def _not_a_card(words: Sequence[str], look: _Look) -> str:
    """The first of ``words`` that is not a card, said plainly."""
    bad = words[0]
    for word in words:
        try:
            Card.parse(word)
        except InvalidError:
            bad = word
            break
    shown = bad if len(bad) <= 20 else bad[:20] + "..."
    return look._("not a card or a command: '{text}' (help lists the commands)").format(text=shown)


def _reading(text: str, state: GameState, player: int) -> Action | None:
    """The one legal action :func:`durak.moves.readings` reads in ``text`` (the words and cards
    of every shipped language), or ``None``: then the terminal's own preferences (beat the first
    card, play before transfer) and explanations apply."""
    try:
        found = readings(text, state, player)
    except InvalidError:
        return None
    return found[0] if len(found) == 1 else None


_QUIT = {"q", "quit", "exit"}
_TAKE = {"t", "take"}
_PASS = {"d", "done", "pass", "bito"}
_HELP = {"h", "help", "?"}

#: The action kinds :func:`parse_command` reads with a syntax of its own. Every other registered
#: kind (the trump exchange, the redeal, a rule module's kind) is typed as its notation without
#: the seat (``exchange 6h``, ``redeal``, ``concede``): :func:`durak.notation.parse_action`.
_OWN_SYNTAX: frozenset[type] = frozenset({Lead, ThrowIn, Beat, Take, Pass, Transfer, ShowTrump})


def parse_command(
    text: str,
    state: GameState,
    player: int,
    look: _Look | None = None,
    name: Callable[[int], str] | None = None,
) -> Command:
    """Understand one line typed by ``player``.

    Accepted: a card (``7h``: lead it, throw it in, or beat the first unbeaten card it can beat;
    if it can only transfer, transfer), two cards (``7h 9h``: beat 7h with 9h; when leading, a lead
    of both), ``t``/``take``, ``d``/``done``/``pass``, ``transfer 7s [7c]``, ``show 7h``,
    ``lead 7h [7d]``, ``throw 7h``, ``beat 7h 9h``, a number ``k`` (the k-th of the player's legal
    actions as :func:`listed_actions` orders them), ``help``, ``q``/``quit``; and any other
    registered kind of action as its notation without the seat (:func:`action_text` with
    ``typed``): ``exchange 6h``, ``redeal``, or a rule module's kind such as ``concede``.

    Never raises for bad input: an unknown word, a bad card or an illegal action gives a
    :class:`Command` with a message (the :class:`~durak.errors.InvalidCardError` or
    :class:`~durak.errors.IllegalActionError` reason, said to the player in ``look``'s
    language with the cards as the screen shows them; ``name`` names the other seats).
    """
    look = look or _Look(ascii=True, you=player)
    _ = look._
    words = [_card_word(w, look) for w in text.replace(",", " ").split()]
    if not words:
        return Command(message=_("type a command (help lists them)"))
    head = words[0].lower()
    if head in _QUIT and len(words) == 1:
        return Command(quit=True)
    if head in _HELP and len(words) == 1:
        return Command(message=_(LINE_HELP))
    legal = listed_actions(state, player)

    def attempt(action: Action) -> Command:
        return _try(state, action, legal, look, name)

    try:
        if head in _TAKE and len(words) == 1:
            return attempt(Take(player))
        if head in _PASS and len(words) == 1:
            return attempt(Pass(player))
        if head.isdigit() and len(words) == 1:
            k = int(head)
            if not legal:
                return Command(message=_("you have no action to choose now"))
            if not 1 <= k <= len(legal):
                return Command(
                    message=_("no action {k}: choose a number from 1 to {n}").format(
                        k=k, n=len(legal)
                    )
                )
            return Command(action=legal[k - 1])
        found = _reading(text, state, player)
        if found is not None:  # the library's reading (durak.moves): one legal action
            return Command(action=found)
        rest = words[1:]
        if head == "transfer":
            if not rest:
                transfers = [a for a in legal if isinstance(a, Transfer)]
                if len(transfers) == 1:
                    return Command(action=transfers[0])
                return Command(message=_("say which card(s) to transfer with, e.g. transfer 7s"))
            return attempt(Transfer(player, parse_cards(rest)))
        if head == "show":
            if len(rest) != 1:
                return Command(message=_("say which trump to show, e.g. show 7h"))
            return attempt(ShowTrump(player, Card.parse(rest[0])))
        if head == "lead":
            return attempt(Lead(player, parse_cards(rest)))
        if head in ("throw", "throwin"):
            if len(rest) != 1:
                return Command(message=_("say which card to throw in, e.g. throw 7h"))
            return attempt(ThrowIn(player, Card.parse(rest[0])))
        if head == "beat":
            pair = [w for w in rest if w.lower() != "with"]
            if len(pair) != 2:
                return Command(message=_("say which card to beat with which, e.g. beat 7h 9h"))
            return attempt(Beat(player, Card.parse(pair[0]), Card.parse(pair[1])))
        typed = " ".join(words).lower()
        for action in legal:  # any other action by its typed text, e.g. "redeal", "concede"
            if action_text(action, typed=True).lower() == typed:
                return Command(action=action)
        kind = ACTION_KINDS.get(head)
        if kind is not None and kind not in _OWN_SYNTAX:  # not legal now: the engine says why
            return attempt(parse_action(f"p{player} {' '.join(words)}"))
    except InvalidCardError:
        return Command(message=_not_a_card(words[1:] or words, look))
    except InvalidError as exc:
        return Command(message=str(exc))
    try:
        cards = parse_cards(words)
    except InvalidError:
        return Command(message=_not_a_card(words, look))
    if len(cards) == 1:
        return _single_card(state, player, legal, cards[0], look, name)
    if not state.table and player == state.attacker:
        return attempt(Lead(player, cards))
    if len(cards) == 2:
        beat = Beat(player, cards[0], cards[1])
        if beat not in legal and Beat(player, cards[1], cards[0]) in legal:
            beat = Beat(player, cards[1], cards[0])
        return attempt(beat)
    return Command(
        message=_("too many cards: {text} (help lists the commands)").format(text=" ".join(words))
    )
