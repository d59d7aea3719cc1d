"""Rules: the frozen settings object and one module per rule family.

- :mod:`durak.rules.settings`: :class:`Rules` and its choice enums (R2-R9).
- :mod:`durak.rules.beating`: which card beats which (R4.7, R8).
- :mod:`durak.rules.throwing`: throwers, order and the attack limit (R4.4-R4.6).
- :mod:`durak.rules.drawing`: the drawing order (R5).
- :mod:`durak.rules.seating`: clockwise order and the next active player (R2.2, R4.1, R6).
- :mod:`durak.rules.objective`: the end of the game and its result (R7).
- :mod:`durak.rules.extensions`: the R15 variants as rule modules (jokers, suit throw-ins, the
  reverse show, pogony, cheating), registered on import and switched on by their settings.
"""

from durak.rules.settings import (
    MAX_LISTING,
    SETTINGS,
    DrawOrder,
    FirstBoutScope,
    Lead,
    NextLeader,
    NoTrumpLead,
    Objective,
    OnLastCleared,
    Rules,
    TeamWin,
    Throwers,
    ThrowOrder,
    listing_bound,
)

__all__ = [
    "MAX_LISTING",
    "SETTINGS",
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

# The rule book's modules and the R15 extensions register themselves (their modules read the
# settings above).
import durak.rules.extensions
import durak.rules.families  # noqa: F401
