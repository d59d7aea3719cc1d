"""Test configuration.

Hypothesis explores new random examples on every local run. In CI (the ``CI`` environment
variable is set) it runs a fixed, derandomized set of examples instead, so that a run's verdict
depends only on the code under test.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")



@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read English unless they choose a language: the machine's LANGUAGE, LC_ALL,
    LC_MESSAGES and LANG do not change what the terminal game says."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
