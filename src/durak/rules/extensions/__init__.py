"""The rule book's extensions (R15) as rule modules, written against the public hooks only.

Each module below uses nothing a third party does not have
(:class:`~durak.rules.modules.RuleModule`, :func:`~durak.rules.modules.register`,
:func:`~durak.actions.register_action`, :func:`~durak.cards.special_card`); nothing in the
engine names them. Each switches itself on
from its setting of :class:`~durak.rules.Rules` (:meth:`~durak.rules.modules.RuleModule.applies`)
and is off by default, so rules without them play exactly as before.

=========================================  =====================  ==========================
module                                     setting                rule
=========================================  =====================  ==========================
:class:`~.jokers.Jokers`                   ``jokers``             R15.1 (Shchelkovsky durak)
:class:`~.suits.SuitThrowIns`              ``throw_in_by_suit``   R15.2 (*parnomastny*)
:class:`~.reverse_show.ReverseShow`        ``show_sends_back``    R15.3
:class:`~.pogony.Pogony`                   ``pogony``             R15.4 (epaulettes)
:class:`~.cheating.Cheating`               ``cheating``           R15.5 (the ``catch`` action)
=========================================  =====================  ==========================

They are registered when :mod:`durak.rules` is imported, in the order above (their plan order).
"""

from __future__ import annotations

from durak.rules.extensions.cheating import (
    Catch,
    Cheating,
    cheats_on_table,
    fair_beat_table,
    is_cheat,
)
from durak.rules.extensions.jokers import JOKER, Jokers, is_joker, jokers_of
from durak.rules.extensions.pogony import Pogony, epaulettes
from durak.rules.extensions.reverse_show import ReverseShow, previous_opponent
from durak.rules.extensions.suits import SuitThrowIns
from durak.rules.modules import register

__all__ = [
    "EXTENSIONS",
    "JOKER",
    "SETTINGS",
    "Catch",
    "Cheating",
    "Jokers",
    "Pogony",
    "ReverseShow",
    "SuitThrowIns",
    "cheats_on_table",
    "epaulettes",
    "fair_beat_table",
    "is_cheat",
    "is_joker",
    "jokers_of",
    "previous_opponent",
]

#: The R15 modules, registered in this order.
EXTENSIONS = (Jokers(), SuitThrowIns(), ReverseShow(), Pogony(), Cheating())

#: The setting that switches each R15 module on: the module is not named in ``house_rules``,
#: where it would skip the setting's own checks.
SETTINGS = {module.name: module.setting for module in EXTENSIONS}

for _module in EXTENSIONS:
    register(_module)
