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
:class:`~durak.errors.RulesError` naming the key and the reason.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import attrs
import tomli_w

from durak.errors import RulesError
from durak.rules.settings import SETTINGS, Rules

__all__ = [
    "DEFAULT_PRESET",
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
        description: one line.
        source: where the rules come from.
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
        "Throw-in Durak: the classic game, every other player may throw in",
        "seeds' Podkidnoy page; pagat.com",
        aliases=("default", "classic", "throw-in"),
    ),
    Preset(
        "perevodnoy",
        "Transfer Durak: the defender may pass the attack on with a card of its rank",
        "Polish seed; German seed; pagat.com",
        {"transfer_by_card": True},
        aliases=("transfer", "passing"),
    ),
    Preset(
        "perevodnoy-show-trump",
        "Transfer Durak where showing a trump of the attack rank also transfers",
        "German seed",
        {"transfer_by_card": True, "transfer_by_showing_trump": True},
        aliases=("show-trump",),
    ),
    Preset(
        "german-classic",
        "Only the attacker and the defender's other neighbour attack; lead several of a rank",
        "German seed",
        {"throwers": "neighbours", "lead": "same_rank"},
        aliases=("german",),
    ),
    Preset(
        "polish",
        "The first player out wins; no first-bout limit; draw in the order players joined",
        "Polish seed",
        {"objective": "first_out", "first_bout_max": None, "draw_order": "join_order"},
        aliases=("zwykla",),
    ),
    Preset(
        "polish-transfer",
        "The Polish game with transfers (gra przekazywana)",
        "Polish seed",
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
        "Clubs are beaten only by higher clubs, never by a trump (Kreuzregel)",
        "German seed",
        {"strict_suits": ["c"]},
        aliases=("kreuzregel",),
    ),
    Preset(
        "deck-32",
        "Podkidnoy with 32 cards (7 to ace)",
        "German seed; apps",
        {"deck_size": 32},
        aliases=("32",),
    ),
    Preset(
        "deck-24", "Podkidnoy with 24 cards (9 to ace)", "apps", {"deck_size": 24}, aliases=("24",)
    ),
    Preset(
        "deck-52",
        "Podkidnoy with 52 cards (2 to ace)",
        "German seed; apps",
        {"deck_size": 52},
        aliases=("52",),
    ),
    Preset(
        "pairs",
        "Two pairs of partners sitting crosswise; when one partner is out, his team has won",
        "German seed",
        {"players": 4, "teams": [[0, 2], [1, 3]], "team_win": "first_out"},
        aliases=("teams", "2x2"),
    ),
    Preset(
        "pairs-3x2",
        "Three pairs of partners; a pair wins when both partners are out",
        "German seed; pagat.com",
        {"players": 6, "teams": [[0, 3], [1, 4], [2, 5]], "team_win": "all_out"},
        aliases=("3x2",),
    ),
    Preset(
        "double-deck",
        "Two 36-card decks shuffled together, for up to 12 players",
        "German seed",
        {"decks": 2},
        aliases=("two-decks",),
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
        RulesError: no such preset; the message lists the known names.
    """
    preset = _LOOKUP.get(str(name).strip().casefold())
    if preset is None:
        raise RulesError("preset", f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
    return preset


def rules_from_mapping(data: Mapping[str, Any]) -> Rules:
    """Rules from a rules file's table: an optional ``preset`` base, then settings.

    Raises:
        RulesError: naming the key, for an unknown key or preset, a wrong type, an invalid or
            contradicting value.
    """
    if not isinstance(data, Mapping):
        raise RulesError("rules", f"a rules file holds a table of settings, not {data!r}")
    settings = dict(data)
    base = settings.pop("preset", DEFAULT_PRESET)
    if not isinstance(base, str):
        raise RulesError("preset", f"must be a preset name, not {base!r}")
    for key, value in settings.items():
        if key not in SETTINGS:
            raise RulesError(key, f"unknown setting (known: preset, {', '.join(SETTINGS)})")
        if key in _OPTIONAL and isinstance(value, str) and value.lower() == "none":
            settings[key] = None
    return get_preset(base).rules(**settings)


def loads_rules(text: str, format: Format = "toml") -> Rules:
    """Rules from the text of a TOML or JSON rules file.

    Raises:
        RulesError: the text does not parse (key ``file``), or a setting is rejected (its key).
    """
    try:
        data = tomllib.loads(text) if format == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise RulesError("file", f"not valid {format.upper()}: {exc}") from None
    return rules_from_mapping(data)


def load_rules(path: str | Path) -> Rules:
    """Rules from a ``.toml`` or ``.json`` rules file (the suffix picks the format; TOML
    otherwise).

    Raises:
        RulesError: the file cannot be read or parsed (key ``file``), or a setting is rejected.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError("file", f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RulesError("file", f"{path} is not a UTF-8 text file") from None
    return loads_rules(text, "json" if path.suffix.lower() == ".json" else "toml")


def dumps_rules(rules: Rules, format: Format = "toml") -> str:
    """The text of a rules file holding every setting of ``rules``; :func:`loads_rules` reads it
    back to an equal object."""
    data = rules.to_dict()
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return tomli_w.dumps({k: ("none" if v is None else v) for k, v in data.items()})


def dump_rules(rules: Rules, path: str | Path) -> None:
    """Write ``rules`` to a ``.toml`` or ``.json`` file (the suffix picks the format)."""
    path = Path(path)
    path.write_text(
        dumps_rules(rules, "json" if path.suffix.lower() == ".json" else "toml"), encoding="utf-8"
    )
