"""The library's messages in English, German, Polish and Russian (gettext catalogs).

A :class:`Language` says a :class:`~durak.messages.Message` (an illegal action's reason, an
action, an event) in its language and in a front-end's voice: ``you`` for the seat it
addresses, its own names for the others, cards in the language's custom (``D♥`` for the
German Dame, ``В♠`` for the Russian валет) and the plural forms right.

>>> from durak.cards import Card
>>> from durak.messages import message
>>> m = message("not-in-hand", card=Card.parse("Qh"), player=0)
>>> Language("de").say(m, you=0)
'D♥ hast du nicht auf der Hand'
>>> Language("ru").say(message("event.picked-up", player=2, n=5))
'игрок 2 забирает 5 карт'

The catalogs are the gettext ``.po`` files in ``durak/locale/<lang>/LC_MESSAGES/``, compiled
to the ``.mo`` files next to them that the package ships; only the standard library's
:mod:`gettext` reads them at run time. ``LANGUAGES`` lists the languages.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from durak._input import brief
from durak.cards import Card, Rank, Suit
from durak.errors import InvalidError
from durak.messages import PLAYER_PARAMS, TEMPLATES, Message, canonical, is_number, message

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "Language",
    "choose_language",
    "from_accept_language",
    "language",
    "language_names",
    "message_params",
    "normalize",
    "web_catalog",
]

#: The languages the catalogs cover; the first is the default.
LANGUAGES = ("en", "de", "pl", "ru")

#: The gettext domain: the catalogs are ``durak.po`` / ``durak.mo``.
DOMAIN = "durak"

_NAMES = {"en": "English", "de": "Deutsch", "pl": "Polski", "ru": "Русский"}


def N_(text: str) -> str:
    """Mark ``text`` for the catalogs where it is defined; translate it where it is shown."""
    return text


def _c(context: str, text: str) -> tuple[str, str]:
    """A text to translate in ``context`` (the marker the catalog extraction looks for)."""
    return context, text


_RANK_LETTERS = {
    Rank.JACK: _c("rank letter", "J"),
    Rank.QUEEN: _c("rank letter", "Q"),
    Rank.KING: _c("rank letter", "K"),
    Rank.ACE: _c("rank letter", "A"),
}
_RANK_NAMES = {
    Rank.TWO: _c("rank", "two"),
    Rank.THREE: _c("rank", "three"),
    Rank.FOUR: _c("rank", "four"),
    Rank.FIVE: _c("rank", "five"),
    Rank.SIX: _c("rank", "six"),
    Rank.SEVEN: _c("rank", "seven"),
    Rank.EIGHT: _c("rank", "eight"),
    Rank.NINE: _c("rank", "nine"),
    Rank.TEN: _c("rank", "ten"),
    Rank.JACK: _c("rank", "jack"),
    Rank.QUEEN: _c("rank", "queen"),
    Rank.KING: _c("rank", "king"),
    Rank.ACE: _c("rank", "ace"),
}
_SUIT_NAMES = {
    Suit.CLUBS: _c("suit", "clubs"),
    Suit.DIAMONDS: _c("suit", "diamonds"),
    Suit.HEARTS: _c("suit", "hearts"),
    Suit.SPADES: _c("suit", "spades"),
}
#: A card's full name: the rank, then the suit in the form that goes with it (genitive ...).
_SUITS_OF = {
    Suit.CLUBS: _c("card name", "{rank} of clubs"),
    Suit.DIAMONDS: _c("card name", "{rank} of diamonds"),
    Suit.HEARTS: _c("card name", "{rank} of hearts"),
    Suit.SPADES: _c("card name", "{rank} of spades"),
}
_SEAT = _c("seat", "player {n}")
# The seats, besides ``player``, whose "you" has a text of its own (``event.left:partner-you``).
_OBJECT_PARAMS = ("to", "partner", "defender")
_ORDINAL = _c("ordinal", "{n}th")
_AND = _c("list", "{first} and {last}")


def normalize(tag: str) -> str | None:
    """The catalog language of a locale name or language tag (``de_DE.UTF-8``, ``pl-PL``,
    ``RU``), or ``None`` if there is none for it. ``C`` and ``POSIX`` are English.

    Raises:
        TypeError: ``tag`` is not text.
    """
    if not isinstance(tag, str):
        raise TypeError(f"a language tag is text, not {brief(tag)}")
    base = tag.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    if base in ("c", "posix"):
        return "en"
    return base if base in LANGUAGES else None


def choose_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``explicit`` (``--lang``) if given, else the first catalog
    language named by the environment as gettext reads it (``LANGUAGE``, a colon-separated
    list, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

    Raises:
        InvalidError: ``explicit`` names no catalog language (a :class:`ValueError`).
        TypeError: ``explicit`` is not text.
    """
    if explicit is not None:
        found = normalize(explicit)
        if found is None:
            raise _no_catalog(explicit)
        return found
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if not value:
            continue
        for part in value.split(":") if key == "LANGUAGE" else (value,):
            found = normalize(part) if part else None
            if found is not None:
                return found
        if key != "LANGUAGE":
            # gettext stops at the first of LC_ALL, LC_MESSAGES, LANG that is set.
            return "en"
    return LANGUAGES[0]


def from_accept_language(header: str | None) -> str:
    """The catalog language an HTTP ``Accept-Language`` header prefers most (by its ``q``
    weights, then its order), else English. A malformed entry is skipped."""
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((header or "").split(",")[:50]):
        tag, _, rest = part.strip().partition(";")
        weight = 1.0
        rest = rest.strip()
        if rest.startswith("q="):
            try:
                weight = float(rest[2:])
            except ValueError:
                continue
        found = normalize(tag) if tag and tag != "*" else None
        if found is None or not 0 < weight <= 1:
            continue
        if best is None or (weight, -i) > (best[0], best[1]):
            best = (weight, -i, found)
    return best[2] if best else LANGUAGES[0]


def _no_catalog(code: str) -> InvalidError:
    return InvalidError(
        message("input.unknown-language", given=brief(code), known=", ".join(LANGUAGES))
    )


@cache
def _catalog(code: str) -> gettext.NullTranslations:
    """The compiled catalog of ``code``, read from the package (a wheel, a source tree or an
    editable install alike), or none (the English texts) if it is missing."""
    path = resources.files("durak").joinpath(f"locale/{code}/LC_MESSAGES/{DOMAIN}.mo")
    try:
        data = path.read_bytes()
    except OSError:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(data))


class Language:
    """One language's texts: gettext lookups, cards, seats and messages.

    Args:
        code: a language of :data:`LANGUAGES` (or a locale name that :func:`normalize` maps to
            one).

    Raises:
        InvalidError: no catalog for ``code`` (a :class:`ValueError`).
        TypeError: ``code`` is not text.
    """

    def __init__(self, code: str = "en") -> None:
        found = normalize(code)
        if found is None:
            raise _no_catalog(code)
        self.code = found
        self.name = _NAMES[found]
        self._t = _catalog(found)

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    # -- gettext ------------------------------------------------------------------------------

    def gettext(self, text: str) -> str:
        """``text`` translated."""
        return self._t.gettext(text)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` of ``singular``/``plural``, translated (the language's plural
        rule: Polish and Russian have three forms)."""
        return self._t.ngettext(singular, plural, n)

    def pgettext(self, context: str, text: str) -> str:
        """``text`` translated in ``context``."""
        return self._t.pgettext(context, text)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        """:meth:`ngettext` in ``context``."""
        return self._t.npgettext(context, singular, plural, n)

    # -- cards and seats --------------------------------------------------------------------

    def rank(self, rank: Rank) -> str:
        """A rank's letter as the language writes it on cards (``10`` for the ten; German
        ``B D K A``, Polish ``W D K A``, Russian ``В Д К Т``)."""
        _need(rank, Rank, "rank")
        if rank == Rank.TEN:
            return "10"
        pair = _RANK_LETTERS.get(rank)
        return self.pgettext(*pair) if pair else rank.letter

    def rank_name(self, rank: Rank) -> str:
        """A rank's name (``Dame``, ``dama``, ``дама``)."""
        _need(rank, Rank, "rank")
        return self.pgettext(*_RANK_NAMES[rank])

    def suit_name(self, suit: Suit) -> str:
        """A suit's name (``Herz``, ``kier``, ``червы``)."""
        _need(suit, Suit, "suit")
        return self.pgettext(*_SUIT_NAMES[suit])

    def card_name(self, card: Card) -> str:
        """A card's full name (``queen of hearts``, ``Herz-Dame``, ``dama kier``,
        ``дама червей``); a card outside the 52 is its text."""
        _need(card, Card, "card")
        if card.special:
            return str(card)
        return self.pgettext(*_SUITS_OF[card.suit]).format(rank=self.rank_name(card.rank))

    def card(self, card: Card, ascii: bool = False) -> str:
        """A card as the screen shows it: the language's rank letter and the suit symbol
        (``D♥``), or with ``ascii`` the suit letter (English: the card's text form, ``Qh``)."""
        _need(card, Card, "card")
        if card.special:
            return str(card)
        if ascii and self.code == "en":
            return str(card)
        suit = card.suit.letter if ascii else card.suit.symbol
        text = self.rank(card.rank) + suit
        copy = int(card) >> 6
        return text if copy == 0 else f"{text}#{copy + 1}"

    def cards(self, cards: Iterable[Card], ascii: bool = False) -> str:
        """Cards as :meth:`card`, separated by spaces."""
        return " ".join(self.card(c, ascii) for c in cards)

    def seat(self, seat: int) -> str:
        """A seat's default name (``player 2``, ``Spieler 2``); a seat number of many digits is
        described, not written out."""
        return self.pgettext(*_SEAT).format(n=brief(seat))

    def ordinal(self, n: int) -> str:
        """A place as an ordinal (``2nd``, ``2.``, ``2-е``)."""
        if not is_number(n) or not -(10**6) < n < 10**6:
            return brief(n)
        if self.code == "en":
            suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            return f"{n}{suffix}"
        return self.pgettext(*_ORDINAL).format(n=n)

    def join(self, items: Iterable[str]) -> str:
        """Items as a list in words: ``a, b and c``."""
        items = list(items)
        if len(items) < 2:
            return "".join(items)
        return self.pgettext(*_AND).format(first=", ".join(items[:-1]), last=items[-1])

    # -- messages -----------------------------------------------------------------------------

    def template(self, code: str, n: int | None = None) -> str:
        """The translated template of a message ``code`` (for the count ``n`` if the code has
        plural forms).

        Raises:
            KeyError: an unknown code.
            TypeError: ``code`` is not text.
        """
        if not isinstance(code, str):
            raise TypeError(f"a message code is text, not {brief(code)}")
        code = canonical(code)
        singular, plural = TEMPLATES[code]
        if plural is None:
            return self.pgettext(code, singular)
        return self.npgettext(code, singular, plural, 1 if n is None else n)

    def say(
        self,
        msg: Message | str,
        you: int | None = None,
        name: Callable[[int], str] | None = None,
        ascii: bool = False,
    ) -> str:
        """``msg`` in this language. A message whose ``player`` is ``you`` is said to him
        (its ``:you`` text) where the code has one, else one whose ``to``, ``partner`` or
        ``defender`` is ``you`` by its ``:to-you``, ``:partner-you`` or ``:defender-you`` text
        where it has one; ``name`` names the other seats (default
        :meth:`seat`); cards as :meth:`card`. Plain text is returned as it is.

        Raises:
            KeyError: the message lacks a parameter its template names.
            TypeError: ``msg`` is not text.
        """
        if not isinstance(msg, Message):
            if not isinstance(msg, str):
                raise TypeError(f"a message is a Message or text, not {brief(msg)}")
            return str(msg)
        params = msg.params
        if msg.code == "other":
            return str(params.get("text", msg))
        code = msg.code
        if you is not None and params.get("player") == you and f"{code}:you" in TEMPLATES:
            code = f"{code}:you"
        elif you is not None:
            for key in _OBJECT_PARAMS:
                if params.get(key) == you and f"{code}:{key}-you" in TEMPLATES:
                    code = f"{code}:{key}-you"
                    break
        n = params.get("n")
        template = self.template(code, n if isinstance(n, int) else None)
        values = {k: self._value(k, v, you, name, ascii) for k, v in params.items()}
        return template.format_map(values)

    def _value(
        self, key: str, value: Any, you: int | None, name: Callable[[int], str] | None, ascii: bool
    ) -> str:
        seat = name or self.seat
        if key in PLAYER_PARAMS and is_number(value):
            return seat(value)
        if key == "players" and isinstance(value, tuple) and all(map(is_number, value)):
            return self.join(seat(p) for p in value)
        if key == "place" and is_number(value):
            return self.ordinal(value)
        if isinstance(value, Message):
            return self.say(value, you, name, ascii)
        if isinstance(value, Suit):
            return self.suit_name(value)
        if isinstance(value, Rank):
            return self.rank(value)
        if isinstance(value, Card):
            return self.card(value, ascii)
        if isinstance(value, tuple) and value and all(isinstance(v, Message) for v in value):
            return ", ".join(self.say(v, you, name, ascii) for v in value)
        if isinstance(value, tuple) and all(isinstance(v, Card) for v in value):
            return self.cards(value, ascii)
        return value if isinstance(value, str) else brief(value)


def _need(value: object, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"a {what} is a {kind.__name__}, not {brief(value)}")


@cache
def language(code: str = "en") -> Language:
    """The :class:`Language` of ``code``, made once.

    Raises:
        InvalidError: no catalog for ``code`` (a :class:`ValueError`).
        TypeError: ``code`` is not text.
    """
    return Language(code)


def language_names() -> dict[str, str]:
    """Each catalog language's code and its own name (``{"de": "Deutsch", ...}``), for a
    language menu."""
    return {code: _NAMES[code] for code in LANGUAGES}


#: A count for each plural category of Unicode's plural rules (the browser's
#: ``Intl.PluralRules``) that falls in it, per language.
_CATEGORY_SAMPLES = {
    "en": {"one": 1, "other": 2},
    "de": {"one": 1, "other": 2},
    "pl": {"one": 1, "few": 2, "many": 5, "other": 5},
    "ru": {"one": 1, "few": 2, "many": 5, "other": 5},
}


def message_params(msg: Message) -> dict[str, Any]:
    """A message's parameters as JSON values: cards as their text form (``Qh``), a rank as its
    letter, a suit as its letter, seats as numbers, lists for tuples, a nested message as
    ``{"code", "params"}``."""

    def value(v: Any) -> Any:
        if isinstance(v, Message):
            return {"code": v.code, "params": message_params(v)}
        if isinstance(v, Card):
            return str(v)
        if isinstance(v, Rank | Suit):
            return v.letter
        if isinstance(v, tuple | list):
            return [value(x) for x in v]
        return v

    return {k: value(v) for k, v in msg.params.items()}


def web_catalog(code: str) -> dict[str, Any]:
    """What a browser needs to speak ``code``'s language from the catalogs (``GET
    /api/i18n``): ``lang``; ``languages`` (code and own name, for a menu); ``strings``
    (English text to translation, the page's texts: the catalog's entries without context);
    ``plurals`` (those with plural forms, by plural category of ``Intl.PluralRules``);
    ``templates`` (each message code's text by plural category of ``Intl.PluralRules``:
    ``{"event.drew": {"one": ..., "few": ..., "many": ..., "other": ...}}``); ``ranks`` (the
    rank letters ``J Q K A`` as written), ``suits`` (suit letter to name), ``seat`` and
    ``ordinal`` (the templates for ``player {n}`` and ``{n}th``).

    Raises:
        ValueError: no catalog for ``code``.
    """
    lang = language(code)
    samples = _CATEGORY_SAMPLES[lang.code]
    catalog = getattr(lang._t, "_catalog", {})  # the stdlib gettext catalog: msgid -> text
    strings = {k: v for k, v in catalog.items() if isinstance(k, str) and k and "\x04" not in k}
    singulars = {k[0] for k in catalog if isinstance(k, tuple) and "\x04" not in k[0]}
    plurals = {
        s: {category: lang.ngettext(s, s, n) for category, n in samples.items()} for s in singulars
    }
    templates = {
        key: {category: lang.template(key, n) for category, n in samples.items()}
        for key in TEMPLATES
    }
    return {
        "lang": lang.code,
        "languages": language_names(),
        "strings": strings,
        "plurals": plurals,
        "templates": templates,
        "ranks": {rank.letter: lang.rank(rank) for rank in _RANK_LETTERS},
        "suits": {suit.letter: lang.suit_name(suit) for suit in Suit},
        "rank_names": {rank.letter: lang.rank_name(rank) for rank in Rank},
        "card_names": {suit.letter: lang.pgettext(*_SUITS_OF[suit]) for suit in Suit},
        "seat": lang.pgettext(*_SEAT),
        "you": lang.pgettext("seat", "you"),
        "ordinal": "" if lang.code == "en" else lang.pgettext(*_ORDINAL),
    }
