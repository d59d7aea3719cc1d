"""Named presets (R14): house rules as data.

A preset has a name, aliases, a one-line description, its source, and the settings that differ
from the defaults. Look one up by name or alias, case-insensitive:

>>> get_preset("Perevodnoy").rules().transfer_by_card
True
>>> get_preset("podkidnoy").rules(players=4).players
4
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

from durak.errors import RulesError
from durak.rules.settings import Rules

__all__ = ["DEFAULT_PRESET", "PRESETS", "Preset", "get_preset"]


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
