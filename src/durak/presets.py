"""Named presets (R14): house rules as data.

A preset has a name, aliases, a one-line description, its source, and the settings that differ
from the defaults. Look one up by name or alias, case-insensitive:

>>> get_preset("Perevodnoy").rules().transfer_by_card
True
>>> get_preset("podkidnoy").rules(players=4).players
4

Rules files (TOML or JSON) hold a table of settings, optionally on top of a preset::

    preset = "perevodnoy"      # optional: start from this preset's settings
    players = 4
    transfer_several = true
    first_bout_max = "none"    # TOML has no null: "none" switches an optional setting off

Unknown keys, wrong types and contradicting settings are rejected with a
:class:`~durak.errors.RulesError` naming the key and the reason. A rules file is at most
:data:`MAX_RULES_BYTES` (64 KiB), refused before it is parsed when it is bigger; its lists and
tables nest at most :data:`MAX_DEPTH` (32) levels deep and its integers have at most
:data:`MAX_INT_DIGITS` (4,300) digits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import attrs

from durak._input import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    brief,
    brief_name,
    check_size,
    nearest,
    parse_json,
    parse_toml,
    read_limited,
)
from durak.errors import RulesError
from durak.i18n import N_
from durak.messages import message
from durak.rules.settings import SETTINGS, Rules, unknown_setting

__all__ = [
    "DEFAULT_PRESET",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_RULES_BYTES",
    "PRESETS",
    "Preset",
    "dump_rules",
    "dumps_rules",
    "get_preset",
    "load_rules",
    "loads_rules",
    "rules_from_mapping",
]

Format = Literal["toml", "json"]

#: The largest rules file :func:`loads_rules` and :func:`load_rules` read: 64 KiB (UTF-8). A
#: file with every setting takes about 700 bytes.
MAX_RULES_BYTES = 64 * 1024

#: Settings that may be ``None``; rules files write ``None`` as the string ``"none"``.
_OPTIONAL = ("first_bout_max", "misdeal_suit_count", "teams")


def _freeze(settings: Mapping[str, Any]) -> Mapping[str, Any]:
    Rules.from_dict(settings)  # validate once, at definition
    return MappingProxyType(dict(settings))


@attrs.frozen
class Preset:
    """A named set of house rules (R14).

    Attributes:
        name: the canonical name, e.g. ``"perevodnoy"``.
        aliases: other names it answers to.
        description: one line, in English (the message catalogs translate it:
            ``durak.i18n.language("de").gettext(preset.description)``).
        source: where the rules come from, in English (translated as ``description``).
        settings: the settings that differ from the defaults of :class:`~durak.rules.Rules`.
    """

    name: str
    description: str
    source: str
    settings: Mapping[str, Any] = attrs.field(converter=_freeze, factory=dict)
    aliases: tuple[str, ...] = ()

    def rules(self, **overrides: Any) -> Rules:
        """The preset's :class:`~durak.rules.Rules`, with ``overrides`` applied on top.

        Raises:
            RulesError: an unknown setting or an invalid value, naming the setting.
        """
        return Rules.from_dict({**self.settings, **overrides})


_ALL: tuple[Preset, ...] = (
    Preset(
        "podkidnoy",
        N_("Throw-in Durak: the classic game, every other player may throw in"),
        N_("German help page; pagat.com"),
        aliases=("default", "classic", "throw-in"),
    ),
    Preset(
        "perevodnoy",
        N_("Transfer Durak: the defender may pass the attack on with a card of its rank"),
        N_("Polish rules page; German article; pagat.com"),
        {"transfer_by_card": True},
        aliases=("transfer", "passing"),
    ),
    Preset(
        "perevodnoy-show-trump",
        N_("Transfer Durak where showing a trump of the attack rank also transfers"),
        N_("German article"),
        {"transfer_by_card": True, "transfer_by_showing_trump": True},
        aliases=("show-trump",),
    ),
    Preset(
        "german-classic",
        N_("Only the attacker and the defender's other neighbour attack; lead several of a rank"),
        N_("German article"),
        {"throwers": "neighbours", "lead": "same_rank"},
        aliases=("german",),
    ),
    Preset(
        "polish",
        N_("The first player out wins; no first-bout limit; draw in the order players joined"),
        N_("Polish rules page"),
        {"objective": "first_out", "first_bout_max": None, "draw_order": "join_order"},
        aliases=("zwykla",),
    ),
    Preset(
        "polish-transfer",
        N_("The Polish game with transfers (gra przekazywana)"),
        N_("Polish rules page"),
        {
            "objective": "first_out",
            "first_bout_max": None,
            "draw_order": "join_order",
            "transfer_by_card": True,
        },
        aliases=("przekazywana",),
    ),
    Preset(
        "clubs-rule",
        N_("Clubs are beaten only by higher clubs, never by a trump (Kreuzregel)"),
        N_("German article"),
        {"strict_suits": ["c"]},
        aliases=("kreuzregel",),
    ),
    Preset(
        "deck-32",
        N_("Podkidnoy with 32 cards (7 to ace)"),
        N_("German article; apps"),
        {"deck_size": 32},
        aliases=("32",),
    ),
    Preset(
        "deck-24",
        N_("Podkidnoy with 24 cards (9 to ace)"),
        N_("apps"),
        {"deck_size": 24},
        aliases=("24",),
    ),
    Preset(
        "deck-52",
        N_("Podkidnoy with 52 cards (2 to ace)"),
        N_("German article; apps"),
        {"deck_size": 52},
        aliases=("52",),
    ),
    Preset(
        "pairs",
        N_("Two pairs of partners sitting crosswise; when one partner is out, his team has won"),
        N_("German article"),
        {"players": 4, "teams": [[0, 2], [1, 3]], "team_win": "first_out"},
        aliases=("teams", "2x2"),
    ),
    Preset(
        "pairs-3x2",
        N_("Three pairs of partners; a pair wins when both partners are out"),
        N_("German article; pagat.com"),
        {"players": 6, "teams": [[0, 3], [1, 4], [2, 5]], "team_win": "all_out"},
        aliases=("3x2",),
    ),
    Preset(
        "double-deck",
        N_("Two 36-card decks shuffled together, for up to 12 players"),
        N_("German article"),
        {"decks": 2},
        aliases=("two-decks",),
    ),
    Preset(
        "shchelkovsky",
        N_(
            "Two 52-card decks with jokers; transfers by card, and a shown trump sends the "
            "attack back counterclockwise; 2-10 players"
        ),
        N_("shram.kiev.ua, Fool Shchelkovsky (Durak Shchelkovsky)"),
        {
            "players": 4,
            "deck_size": 52,
            "decks": 2,
            "jokers": 2,
            "transfer_by_card": True,
            "transfer_by_showing_trump": True,
            "show_sends_back": True,
        },
        aliases=("shchelkovo", "jokers"),
    ),
)

#: Every preset by canonical name, in the rule book's order.
PRESETS: Mapping[str, Preset] = MappingProxyType({p.name: p for p in _ALL})

#: The preset used when none is named.
DEFAULT_PRESET = "podkidnoy"

_LOOKUP: dict[str, Preset] = {}
for _p in _ALL:
    for _key in (_p.name, *_p.aliases):
        _LOOKUP[_key.casefold()] = _p


def get_preset(name: str) -> Preset:
    """The preset called ``name`` or one of its aliases, case-insensitive (R14).

    Raises:
        RulesError: no such preset, or a name that is not text; the message lists the known
            names.
    """
    if not isinstance(name, str):
        raise RulesError("preset", message("rules.preset-not-text", given=brief(name)))
    preset = _LOOKUP.get(name.strip().casefold())
    if preset is None:
        known = ", ".join(PRESETS)
        near = nearest(name, _LOOKUP)
        if near is not None:
            near = _LOOKUP[near].name
            reason = message("rules.unknown-preset-near", given=brief(name), near=near, known=known)
            raise RulesError("preset", reason)
        raise RulesError("preset", message("rules.unknown-preset", given=brief(name), known=known))
    return preset


def rules_from_mapping(data: Mapping[str, Any]) -> Rules:
    """Rules from a rules file's table: an optional ``preset`` base, then settings.

    Raises:
        RulesError: naming the key, for an unknown key or preset, a wrong type, an invalid or
            contradicting value.
    """
    if not isinstance(data, Mapping):
        raise RulesError("rules", message("rules.not-a-table", given=brief(data)))
    settings = dict(data)
    base = settings.pop("preset", DEFAULT_PRESET)
    if not isinstance(base, str):
        raise RulesError("preset", message("rules.preset-not-name", given=brief(base)))
    for key, value in settings.items():
        if not isinstance(key, str):
            raise RulesError(brief(key), message("rules.setting-not-text"))
        if key not in SETTINGS:
            raise RulesError(brief_name(key), unknown_setting(key, ("preset", *SETTINGS)))
        if key in _OPTIONAL and isinstance(value, str) and value.lower() == "none":
            settings[key] = None
    return get_preset(base).rules(**settings)


def _file_error(where: str, reason: str) -> RulesError:
    """A problem of a rules file's text at the JSON path ``where``, as a :class:`RulesError`
    naming the setting (``file`` for the whole text)."""
    setting, _, rest = where.partition("/")
    return RulesError(setting or "file", f"{reason} (at {where})" if rest else reason)


def loads_rules(text: str, format: Format = "toml") -> Rules:
    """Rules from the text of a TOML or JSON rules file.

    Text longer than :data:`MAX_RULES_BYTES` (64 KiB in UTF-8) is refused before it is parsed.

    Raises:
        RulesError: the text is too big or does not parse, or nests deeper than
            :data:`MAX_DEPTH` levels (key ``file``, with the position); an integer of more than
            :data:`MAX_INT_DIGITS` digits (its key); a setting is rejected (its key; in TOML
            text with the line it is set on: code ``rules.at-line``, its ``reason`` and
            ``line`` parameters); an unknown ``format`` (key ``format``).
        TypeError: ``text`` is not text.
    """
    if not isinstance(text, str):
        raise TypeError(f"a rules file's text is a str, not {type(text).__name__}")
    if format not in ("toml", "json"):
        raise RulesError("format", message("rules.unknown-format", given=brief(format)))
    check_size(text, MAX_RULES_BYTES, "the rules file", _file_error)
    if format == "toml":
        data: Any = parse_toml(text, _file_error, "the rules file")
    else:
        data = parse_json(text, _file_error, "the rules file")
    try:
        return rules_from_mapping(data)
    except RulesError as exc:
        line = _line_of(text, exc.setting) if format == "toml" else None
        if line is None:
            raise
        raise RulesError(
            exc.setting, message("rules.at-line", reason=exc.reason, line=line)
        ) from None


def _line_of(text: str, setting: str) -> int | None:
    """The line (from 1) of TOML ``text`` where the top-level key ``setting`` is set, if any."""
    key = re.escape(setting)
    found = re.search(rf"""^[ \t]*(?:{key}|"{key}"|'{key}')[ \t]*=""", text, re.MULTILINE)
    return None if found is None else text.count("\n", 0, found.start()) + 1


def load_rules(path: str | Path) -> Rules:
    """Rules from a ``.toml`` or ``.json`` rules file (the suffix picks the format; TOML
    otherwise).

    A file bigger than :data:`MAX_RULES_BYTES` (64 KiB) is refused before it is read.

    Raises:
        RulesError: the file cannot be read, is too big or does not parse (key ``file``), or a
            setting is rejected (its key); see :func:`loads_rules`.
        TypeError: ``path`` is not a path.
    """
    path = Path(path)
    data = read_limited(path, MAX_RULES_BYTES, "a rules file", _file_error)
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        given = brief_name(str(path))
        raise RulesError("file", message("rules.not-text-file", given=given)) from None
    return loads_rules(text, "json" if path.suffix.lower() == ".json" else "toml")


def dumps_rules(rules: Rules, format: Format = "toml") -> str:
    """The text of a rules file holding every setting of ``rules``; :func:`loads_rules` reads it
    back to an equal object.

    TOML is written with tomli-w, imported here: the ``toml`` (or ``cli``) extra. JSON needs
    nothing beyond the core, and reading either format needs nothing either (TOML is read with
    the standard library's ``tomllib``).

    Raises:
        TypeError: ``rules`` is not a :class:`~durak.rules.Rules`.
        RulesError: an unknown ``format`` (key ``format``).
        ModuleNotFoundError: TOML asked for without tomli-w installed; the message names the
            extra to install.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"expected a Rules object, not {type(rules).__name__}")
    if format not in ("toml", "json"):
        raise RulesError("format", message("rules.unknown-format", given=brief(format)))
    data = rules.to_dict()
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        import tomli_w
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "writing a TOML rules file needs tomli-w: pip install 'durak-engine[toml]' "
            "(or write JSON: format='json', a .json path)",
            name="tomli_w",
        ) from None
    return tomli_w.dumps({k: ("none" if v is None else v) for k, v in data.items()})


def dump_rules(rules: Rules, path: str | Path) -> None:
    """Write ``rules`` to a ``.toml`` or ``.json`` file (the suffix picks the format).

    Raises:
        TypeError: ``rules`` is not a :class:`~durak.rules.Rules`, or ``path`` is not a path.
        OSError: the file cannot be written.
        ModuleNotFoundError: a TOML file without tomli-w installed (:func:`dumps_rules`).
    """
    path = Path(path)
    text = dumps_rules(rules, "json" if path.suffix.lower() == ".json" else "toml")
    path.write_text(text, encoding="utf-8")
