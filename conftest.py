"""pytest, for the whole run (the tests and the doctests under ``src/``): a module that cannot be
imported because a library of an optional part is missing is skipped, naming the extra that
installs it, whichever extras are installed. What is left out is found by importing each module,
not from a list kept by hand: a test module or a module of the package whose import fails for
want of a library outside the package is reported as skipped; any other import error (a bug in
the package or a test) still fails the run. With ``CI`` set nothing is skipped, so a missing
library fails the run there.

This file sits at the project root, so no test configuration ships inside the package.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
from optional_parts import FULL, missing_optional, why


@pytest.hookimpl(tryfirst=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport | None:
    """A module whose import misses an optional library: a skipped collection naming its extra."""
    if FULL or not isinstance(collector, pytest.Module):
        return None
    try:
        collector.obj  # noqa: B018 - imports the module; pytest keeps it for the collection
    except pytest.Collector.CollectError as error:
        library = missing_optional(error.__cause__)
        if library is not None:
            where = str(collector.path)
            return pytest.CollectReport(
                collector.nodeid, "skipped", (where, 0, f"Skipped: {why(library)}"), []
            )
    except (Exception, pytest.skip.Exception):  # a module-level skip or error: pytest reports it
        return None
    return None
