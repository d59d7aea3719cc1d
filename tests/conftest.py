"""Test configuration.

Hypothesis explores new random examples on every local run. In CI (the ``CI`` environment
variable is set) it runs a fixed, derandomized set of examples instead, so that a run's verdict
depends only on the code under test.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
