"""The optional parts in the tests: which extra brings a library, the one way a test or a docs
page asks for one, and the size of the long runs.

Outside CI a test of an optional part is skipped, naming the extra to install, when its library
is missing; under CI (``CI`` set) every extra is installed, so a missing library fails the run
instead. Which extra brings a library is read from ``pyproject.toml``'s optional dependencies,
not kept by hand here.
"""

from __future__ import annotations

import importlib
import os
import re
import tomllib
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Whether the run is CI's (``CI`` set): every extra installed, so a missing one fails the run.
FULL = bool(os.environ.get("CI"))

#: Whether the long property and differential runs take their full size: in CI, and wherever
#: ``DURAK_FULL_TESTS`` is set (README's full test command).
FULL_SIZE = FULL or bool(os.environ.get("DURAK_FULL_TESTS"))


def examples(full: int) -> int:
    """How many examples (games, Hypothesis examples) a long property or differential run takes:
    ``full`` at full size, a quarter of it (at least 1) in the fast run, each a fixed count.

    >>> examples(50) in (50, 12)
    True
    """
    return full if FULL_SIZE else max(1, full // 4)

#: Import names that differ from their distribution's name.
_DISTRIBUTION = {
    "pyspiel": "open_spiel",
    "absl": "open_spiel",
    "yaml": "pyyaml",
    "griffe": "mkdocstrings",
}


@cache
def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def extra_of(library: str) -> str | None:
    """The first extra of ``pyproject.toml`` that installs ``library`` (an import name), or None.

    >>> extra_of("jax"), extra_of("pettingzoo"), extra_of("pyspiel"), extra_of("nothing")
    ('jax', 'rl', 'openspiel', None)
    """
    wanted = _normal(_DISTRIBUTION.get(library, library))
    for extra, requirements in _extras().items():
        for requirement in requirements:
            name = re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0]
            if _normal(name) == wanted:
                return extra
    return None


def why(library: str) -> str:
    """The reason a test of ``library`` is skipped: the extra to install."""
    extra = extra_of(library)
    if extra is None:
        return f"needs {library} (optional)"
    return f"needs {library}, the '{extra}' extra: pip install -e '.[{extra}]'"


def need(library: str) -> ModuleType:
    """Import ``library`` for a test module: skipped naming its extra where it is missing, an
    import error under CI."""
    if FULL:
        return importlib.import_module(library)
    return pytest.importorskip(library, reason=why(library))


def missing_optional(error: BaseException | None) -> str | None:
    """The library outside the package whose absence raised ``error`` (a ModuleNotFoundError),
    or None for any other error: a module of the package or of the tests that is missing is a
    bug, never an optional part."""
    if not isinstance(error, ModuleNotFoundError) or not error.name:
        return None
    top = error.name.split(".")[0]
    if top == "durak" or (ROOT / "tests" / f"{top}.py").exists():
        return None
    return top


def skip_if_optional(error: ModuleNotFoundError, where: str) -> None:
    """Skip the running test, naming the extra, when ``error`` is a missing optional library and
    the run is not CI's; otherwise return, so the caller re-raises."""
    library = missing_optional(error)
    if library is not None and not FULL:
        pytest.skip(f"{where}: {why(library)}")


def skip_if_optional_output(stderr: str, where: str) -> None:
    """As :func:`skip_if_optional`, for a program that ended on a missing library: its
    traceback's last line in ``stderr``."""
    found = re.search(r"^ModuleNotFoundError: No module named '([\w.]+)'", stderr, re.M)
    if found is not None:
        skip_if_optional(ModuleNotFoundError(name=found.group(1)), where)
