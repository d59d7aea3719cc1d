"""What a player types, read in its position: short forms, his language's words and cards.

:func:`durak.notation.parse_action` reads the full notation (``p1 beat 7h 9h``) and nothing else.
A player types less: ``9h`` (lead it, throw it in, beat the one open card it beats, transfer
with it), ``7h 9h`` (beat 7h with 9h, or lead both), ``take``, ``pass``, ``show 7h``. Read in a
position (a :class:`~durak.state.GameState` or the player's :class:`~durak.views.PlayerView`)
such text names exactly one of his legal actions, or it is refused saying why:

>>> from durak import Rules, new_game, next_actor, view
>>> state = new_game(Rules(players=2), seed=1)
>>> me = view(state, next_actor(state))
>>> [str(c) for c in me.hand]
['6c', 'Tc', '6d', 'Td', 'Jd', '7s']
>>> parse_move("6c", me)
Lead(player=0, cards=(Card('6c'),))
>>> parse_move("t", me)
Traceback (most recent call last):
...
durak.errors.IllegalActionError: player 0 cannot take: no bout has been led yet (R4.2)

What is read, in any case, words and cards of every shipped language mixed freely:

- cards as :meth:`durak.i18n.Language.card` prints them in English, German, Polish and Russian
  (``Q♥``, ``Qh``, ``D♥``, ``Dh``, ``Д♥``, ``10h``, ``Th``; the jack ``J``/``B``/``W``/``В``, the
  queen ``Q``/``D``/``Д``, the king ``K``/``К``, the ace ``A``/``Т`` or a Cyrillic ``А``;
  ``Jk`` the joker), and with the suit letters Russian players write (``ч`` черви, ``п``
  пики, ``к`` крести or ``т`` трефы, ``б`` бубны: ``10ч``, ``Тк``, ``Дб``);
- one card: every legal action that plays it (lead, throw in, beat an open card, transfer,
  show a trump); two or more: a beat ``attack defence`` (either order), a lead or a transfer of
  them all;
- a word, before or after the cards: :data:`WORDS` (``take``, ``t``, ``беру``, ``забрал``,
  ``nehme``, ``biorę``; ``pass``, ``d``, ``done``, ``bito``, ``бито``, ``отбой``, ``weiter``,
  ``pas``; ``show``, ``transfer``, ``lead``, ``throw``, ``beat``, ``exchange``, ``redeal``,
  ``catch`` and their translations; words such as ``with``, ``in``, ``trump``, ``картой`` are
  skipped, and so is punctuation around a word), so that everything the library says of a move
  in any of its languages (``Language(code).say(action.describe())``: ``throw in 6♦``,
  ``9♠ mit K♠ schlagen``, ``wyjdź kartą 9♠``, ``перевести картой 9♠``) reads back as that move;
- any other kind of action as its notation without the seat (``exchange 6h``, ``redeal``, a
  rule module's ``catch 7c``), and the full notation (``p0 lead 7h``) of the player himself.

Text that fits several legal actions raises :class:`AmbiguousMoveError`, whose ``readings``
lists them; text that fits none raises the engine's
:class:`~durak.errors.IllegalActionError` for the action it most likely means (its ``reason``
is a :class:`~durak.messages.Message` that :meth:`durak.i18n.Language.say` renders in the
player's language), or :class:`MoveTextError` when it is not a move at all. Every one of
them carries ``code``, ``params`` and ``reason``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from durak.actions import (
    ACTION_KINDS,
    Action,
    Beat,
    Lead,
    Pass,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from durak.cards import Card
from durak.engine import apply, legal_actions, next_actor
from durak.errors import IllegalActionError, InvalidError
from durak.messages import Message, message
from durak.notation import parse_action as notation_action
from durak.state import GameState
from durak.views import PlayerView, determinize

__all__ = [
    "WORDS",
    "AmbiguousMoveError",
    "MoveTextError",
    "parse_action",
    "parse_move",
    "read_card",
    "readings",
]

#: The words a player may type for an action, by the verb of the notation they stand for, in
#: English, German, Polish and Russian, in lower case (read in any case, before or after the
#: cards, with or without Polish diacritics, punctuation such as ``!`` ignored): every word the
#: library's own descriptions use (``Language(code).say(action.describe())``) and the common
#: words players type. ``"play"`` words name no kind (``lege 7h`` reads as ``7h``); ``"with"``
#: holds the words skipped wherever they stand (``with``, ``in``, ``trump``, ``картой`` ...).
WORDS: dict[str, frozenset[str]] = {
    verb: frozenset(words.split())
    for verb, words in {
        "take": "t take takes taking nehme nehmen aufnehmen biorę wezmę zabieram "
        "beru беру взял взять забираю забрал заберу",
        "pass": "d done pass passing bito fertig passe passen weiter pas pasuję "
        "бито бита отбой пас пасую",
        "show": "show zeige zeigen pokaż pokazuję показать показываю покажу",
        "transfer": "transfer schiebe schieben weiterschieben przekaż przekazuję przekazać "
        "перевод перевожу перевести переведу",
        "lead": "lead ausspielen spiele wyjdź wychodzę хожу сходить схожу",
        "throw": "throw throwin dazu zuwerfen werfe dorzucam dorzuć dołóż dokładam "
        "подкидываю подкинуть подкину",
        "beat": "beat schlage schlagen stechen steche biję przebij przebijam бью крою "
        "побить покрыть покрываю",
        "exchange": "exchange tauschen tausche wymień обменять обменяю",
        "redeal": "redeal neu rozdania rozdanie пересдачу пересдача",
        "catch": "catch erwischen erwische przyłap поймать ловлю",
        "play": "play lege legen zagraj gram кладу",
        "with": "with in mit z ze чем card cards karte karten kartą karta kartami kartę "
        "картой картами карту карта trump trumpf atut atutem atutu козырь козыря козырем "
        "for the face-up a gegen die offene trumpfkarte geben lassen na odkrytą "
        "atutową на открытый demand żądaj ponownego потребовать",
    }.items()
}

#: Polish letters with diacritics as players type them without (``dołóż`` as ``doloz``).
_PLAIN = str.maketrans("ąćęłńóśźż", "acelnoszz")

#: Each word of :data:`WORDS` (and its form without diacritics): the verb it stands for.
_VERB = {
    form: verb
    for verb, words in WORDS.items()
    if verb != "with"
    for word in words
    for form in (word, word.translate(_PLAIN))
}
_SKIPPED = WORDS["with"] | {word.translate(_PLAIN) for word in WORDS["with"]}

#: Characters around a word that are not part of it (``беру!``, ``6c,``).
_PUNCTUATION = ".,!?;:…\"'«»„“”()"

#: The rank letters of the shipped languages (``Language(code).rank``) in the library's own:
#: German and Polish jack, queen; Russian jack, queen, king, ace (Cyrillic letters).
_RANK_LETTERS = {"B": "J", "W": "J", "D": "Q", "В": "J", "Д": "Q", "К": "K", "Т": "A", "А": "A"}

_CARD_WORD = re.compile(
    r"^(10|[2-9TJQKAjqkatBWDbwdВДКТАвдкта])([cdhsCDHS♣♦♥♠♧♢♡♤чпкбтЧПКБТ])(#\d+)?$"
)

_WHITE_SUITS = {"♧": "♣", "♢": "♦", "♡": "♥", "♤": "♠"}

#: The suits as Russian players write them: черви, пики, крести (or трефы), бубны.
_RUSSIAN_SUITS = {"ч": "h", "п": "s", "к": "c", "т": "c", "б": "d"}

#: The longest text read as a move, in characters.
MAX_MOVE_TEXT = 200


class MoveTextError(InvalidError):
    """Text that is not a move at all (an unknown word, a card that does not parse, no player
    to read it for).

    Attributes:
        text: the text as typed.
        reason: why, in English: a :class:`~durak.messages.Message` (codes ``move.*``).
        code: the reason's code; params: its parameters.
    """

    def __init__(self, text: str, reason: Message) -> None:
        self.text = text
        super().__init__(reason)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.text, self.reason)


class AmbiguousMoveError(MoveTextError):
    """Text that names several legal actions (``9h`` beats either of two open cards).

    Attributes:
        readings: the legal actions it could mean, in the order of the legal actions.
    """

    def __init__(self, text: str, readings: Sequence[Action]) -> None:
        self.readings = tuple(readings)
        reason = message(
            "move.ambiguous",
            given=_shown(text),
            readings=tuple(a.describe() for a in self.readings),
        )
        super().__init__(text, reason)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.text, self.readings)


def _shown(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= 40 else text[:37] + "...")


def read_card(word: str) -> Card | None:
    """``word`` as a card in the text form of any shipped language (``Qh``, ``Q♥``, ``Dh``,
    ``Д♥``, ``10h``; see the module docs), or ``None`` if it is not one.

    >>> read_card("Д♥"), read_card("Bs"), read_card("Т♣"), read_card("take")
    (Card('Qh'), Card('Js'), Card('Ac'), None)
    """
    found = _CARD_WORD.match(word)
    if found is None:
        try:
            return Card.parse(word)
        except InvalidError:
            return None
    rank, suit, copy = found.groups()
    rank = _RANK_LETTERS.get(rank.upper(), rank)
    suit = _WHITE_SUITS.get(suit, _RUSSIAN_SUITS.get(suit.lower(), suit))
    try:
        return Card.parse(rank + suit + (copy or ""))
    except InvalidError:
        return None


def _position(
    text: str, position: GameState | PlayerView, player: int | None
) -> tuple[int, tuple[Action, ...], GameState | None]:
    """The seat read for, his legal actions, and the state (``None`` for a view)."""
    if isinstance(position, PlayerView):
        if player is not None and player != position.player:
            raise TypeError(f"this view is seat {position.player}'s, not seat {player}'s")
        if position.player is None:
            raise MoveTextError(text, message("move.onlooker"))
        return position.player, position.legal_actions, None
    if not isinstance(position, GameState):
        raise TypeError(f"expected a GameState or a PlayerView, not {type(position).__name__}")
    if player is None:
        if position.result is not None:
            raise MoveTextError(text, message("move.game-over"))
        player = next_actor(position)
        assert player is not None
    return player, legal_actions(position, player), position


def _words(text: str) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"a move is text, not {type(text).__name__}")
    if len(text) > MAX_MOVE_TEXT:
        raise MoveTextError(text[:MAX_MOVE_TEXT], message("move.too-long", n=MAX_MOVE_TEXT))
    return text.replace(",", " ").split()


def _plays(action: Action) -> tuple[Card, ...]:
    """The cards of the hand a bare card list may name for ``action``."""
    match action:
        case Lead(cards=cards) | Transfer(cards=cards):
            return cards
        case ThrowIn(card=card) | Beat(card=card) | ShowTrump(card=card):
            return (card,)
    return ()


def _match(
    player: int, verb: str | None, cards: tuple[Card, ...], legal: Sequence[Action]
) -> tuple[list[Action], Action | None]:
    """The legal actions ``verb`` and ``cards`` name, and the action to explain when none does
    (``None``: let the caller choose)."""
    count = len(cards)
    if verb in ("take", "pass"):
        kind: type = Take if verb == "take" else Pass
        if count:
            return [], None
        return [a for a in legal if type(a) is kind], kind(player)
    if verb == "show":
        if count != 1:
            return [], None
        return [a for a in legal if a == ShowTrump(player, cards[0])], ShowTrump(player, cards[0])
    if verb == "transfer":
        if not count:
            return [a for a in legal if type(a) is Transfer], None
        probe: Action = Transfer(player, cards)
        return [a for a in legal if a == probe], probe
    if verb == "lead":
        if not count:
            return [], None
        probe = Lead(player, cards)
        return [a for a in legal if a == probe], probe
    if verb == "throw":
        if count != 1:
            return [], None
        probe = ThrowIn(player, cards[0])
        return [a for a in legal if a == probe], probe
    if verb == "beat":
        if count == 1:
            return [a for a in legal if type(a) is Beat and a.card == cards[0]], None
        if count != 2:
            return [], None
        found, first = _pair(player, cards, legal)
        return found, first
    # bare cards
    if count == 1:
        return [a for a in legal if _plays(a) == cards], None
    found = _pair(player, cards, legal)[0] if count == 2 else []
    found += [a for a in legal if type(a) in (Lead, Transfer) and _plays(a) == tuple(sorted(cards))]
    return found, None


def _pair(
    player: int, cards: tuple[Card, ...], legal: Sequence[Action]
) -> tuple[list[Action], Action]:
    """``a b`` as a beat of ``a`` with ``b``, or of ``b`` with ``a``; the first to explain."""
    first, second = Beat(player, cards[0], cards[1]), Beat(player, cards[1], cards[0])
    return [a for a in legal if a in (first, second)], first


def readings(
    text: str, position: GameState | PlayerView, player: int | None = None
) -> tuple[Action, ...]:
    """Every legal action of the player that ``text`` may mean in ``position`` (see the module
    docs), in the order of his legal actions; empty when it names none.

    Args:
        text: what the player typed.
        position: a state, or the player's view.
        player: the seat that typed it; for a state, default the seat
            :func:`~durak.engine.next_actor` names; for a view, its player.

    Raises:
        MoveTextError: ``text`` is not a move (an unknown word, a bad card) or the view is an
            onlooker's.
        TypeError: ``text`` is not text, ``position`` neither a state nor a view.
    """
    words = _words(text)
    seat, legal, _ = _position(text, position, player)
    return tuple(_read(text, words, seat, legal)[0])


def _notation(notation: str, text: str) -> Action:
    """``notation`` read by :func:`durak.notation.parse_action`; what does not parse is no move.

    Raises:
        MoveTextError: naming ``text`` (code ``move.unknown``).
    """
    try:
        return notation_action(notation)
    except InvalidError:
        raise MoveTextError(text, message("move.unknown", given=_shown(text))) from None


def _read(
    text: str, words: list[str], player: int, legal: Sequence[Action]
) -> tuple[list[Action], Action | None]:
    if not words:
        raise MoveTextError(text, message("move.empty"))
    head = words[0].lower()
    if len(head) > 1 and head[0] == "p" and head[1:].isdigit():  # the full notation
        action = _notation(text, text)
        if action.player != player:
            raise MoveTextError(text, message("move.other-seat", given=_shown(text), seat=player))
        return [a for a in legal if a == action], action
    if head not in _VERB and head in ACTION_KINDS:  # another kind, by its notation sans seat
        action = _notation(f"p{player} {' '.join(words)}", text)
        return [a for a in legal if a == action], action
    verbs: list[str] = []
    cards: list[Card] = []
    for raw in words:
        word = raw.strip(_PUNCTUATION)
        key = word.lower()
        if not word or key in _SKIPPED:
            continue
        if key in _VERB:
            if _VERB[key] != "play":
                verbs.append(_VERB[key])
            continue
        card = read_card(word)
        if card is None:
            raise MoveTextError(text, message("move.unknown", given=_shown(word)))
        cards.append(card)
    if len(set(verbs)) > 1:  # two kinds of move in one line
        raise MoveTextError(text, message("move.unknown", given=_shown(text)))
    verb = verbs[0] if verbs else None
    if verb in ("take", "pass") and cards:
        raise MoveTextError(text, message("move.unknown", given=_shown(text)))
    if verb in ("show", "throw") and len(cards) > 1:  # not a beat of the first with the second
        raise MoveTextError(text, message("move.one-card", given=_shown(text)))
    if verb in ("exchange", "redeal", "catch"):  # kinds read by their notation
        notation = " ".join([f"p{player}", verb, *(str(c) for c in cards)])
        action = _notation(notation, text)
        return [a for a in legal if a == action], action
    found, probe = _match(player, verb, tuple(cards), legal)
    unique: list[Action] = []
    for action in found:
        if action not in unique:
            unique.append(action)
    return unique, probe


def _probe(player: int, cards: Sequence[Card], position: GameState) -> Action:
    """The action bare cards most likely mean, to say why it is refused."""
    if not position.table:
        return Lead(player, tuple(cards))
    unbeaten = position.unbeaten
    if player == position.defender and unbeaten and not position.taken:
        if len(cards) == 2:
            return Beat(player, cards[0], cards[1])
        return Beat(player, unbeaten[0], cards[0])
    return ThrowIn(player, cards[0])


def parse_action(
    text: str, position: GameState | PlayerView | None = None, player: int | None = None
) -> Action:
    """Read an action's full text form (:func:`durak.notation.parse_action`); given a
    ``position`` (a state or a player's view), read what a player types there instead: short
    forms (``9h``, ``7h 9h``, ``take``, ``беру``), the one legal action they name
    (:func:`parse_move`, with ``player`` the seat that typed it). This is
    :func:`durak.parse_action`.

    Raises:
        InvalidError: without a position, naming the text, if it is not an action (unknown
            verb, wrong number of cards, a bad card or seat) or not text.
        IllegalActionError, AmbiguousMoveError, MoveTextError: with a ``position``, text that
            names no single legal action there (:func:`parse_move`).
    """
    if position is None:
        return notation_action(text)
    return parse_move(text, position, player)


def parse_move(text: str, position: GameState | PlayerView, player: int | None = None) -> Action:
    """The one legal action of the player that ``text`` means in ``position``, read as the
    module docs say (python-chess's ``Board.parse_san`` for Durak).

    Args:
        text: what the player typed: ``9h``, ``7h 9h``, ``take``, ``беру``, ``show 7h``,
            ``p0 lead 7h`` ...
        position: a :class:`~durak.state.GameState`, or the player's
            :class:`~durak.views.PlayerView` (then nothing hidden from him is used).
        player: the seat that typed it: for a state, default the seat
            :func:`~durak.engine.next_actor` names; for a view, its own player.

    Raises:
        AmbiguousMoveError: ``text`` names several legal actions (``readings`` lists them).
        IllegalActionError: it names none: the engine's error for the action it most likely
            means (``reason``, ``code`` and ``rule`` say why, in the player's position).
        MoveTextError: it is no move (an empty line, an unknown word, a card that does not
            parse, a seat that is not the player's, an onlooker's view, a finished game).
        TypeError: ``text`` is not text, ``position`` neither a state nor a view, or a view's
            own player is not ``player``.
    """
    words = _words(text)
    seat, legal, state = _position(text, position, player)
    found, probe = _read(text, words, seat, legal)
    if len(found) == 1:
        return found[0]
    if found:
        raise AmbiguousMoveError(text, found)
    if state is None:
        assert isinstance(position, PlayerView)
        if position.result is not None:
            raise MoveTextError(text, message("move.game-over"))
        state = determinize(position, random.Random(0))  # his legality depends on what he sees
    if probe is None:
        cards = [c for c in (read_card(w) for w in words) if c is not None]
        if not cards:
            raise MoveTextError(text, message("move.needs-cards", given=_shown(text)))
        probe = _probe(seat, cards, state)
    try:
        apply(state, probe)
    except IllegalActionError:
        raise
    # legal in the sampled state but not listed for the player: say so plainly
    raise MoveTextError(text, message("move.not-now", given=_shown(text)))  # pragma: no cover
