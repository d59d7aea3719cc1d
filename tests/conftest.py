"""Test configuration.

Hypothesis explores new random examples on every fast local run, a quarter of the full count
for the long property runs (``optional_parts.examples``). At full size (CI, where the ``CI``
environment variable is set, and README's full command, ``DURAK_FULL_TESTS``) it runs a fixed,
derandomized set of examples instead, so that a run's verdict depends only on the code under
test.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from optional_parts import FULL_SIZE

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if FULL_SIZE:
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read English unless they choose a language: the machine's LANGUAGE, LC_ALL,
    LC_MESSAGES and LANG do not change what the terminal game says."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
