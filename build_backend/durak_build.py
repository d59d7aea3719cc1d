"""The build backend of durak-engine: setuptools' own, with one switch.

By default the package builds as pure Python (a ``py3-none-any`` wheel) and needs no compiler.
With ``DURAK_COMPILE=1`` in the environment the build also compiles the engine's hot modules
(:data:`COMPILED`) with mypyc into C extensions that stand beside their sources; it then asks
for mypy (which carries mypyc) and attrs in the build environment and needs a C compiler and
the Python headers. Both builds run the same sources, so they play the same games.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every other hook is setuptools' own

#: The modules the compiled build compiles: the step of a game (listing, applying, the bout end)
#: and the rule book's modules it asks.
COMPILED = (
    "src/durak/_step.py",
    "src/durak/rules/bout.py",
    "src/durak/rules/families.py",
    "src/durak/rules/shared.py",
)

#: What the compiled build needs besides setuptools: mypyc comes with mypy; mypy reads attrs'
#: types to compile the modules that use the state classes.
COMPILE_REQUIRES = ("mypy>=1.14", "attrs>=23.1")


def compiling() -> bool:
    """Whether ``DURAK_COMPILE`` asks for the compiled build (``1``, ``true`` or ``yes``)."""
    value = os.environ.get("DURAK_COMPILE", "").strip().lower()
    if value in ("", "0", "false", "no"):
        return False
    if value in ("1", "true", "yes"):
        return True
    raise ValueError(f"DURAK_COMPILE must be 1 or 0 (or true/false, yes/no), not {value!r}")


# setuptools' own answers run setup.py, which imports mypyc when compiling: before it is there.
# The project declares no setup_requires, so the compiled build needs exactly COMPILE_REQUIRES.


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    if compiling():
        return list(COMPILE_REQUIRES)
    return list(_setuptools.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    if compiling():
        return list(COMPILE_REQUIRES)
    return list(_setuptools.get_requires_for_build_editable(config_settings))


# An sdist holds the sources alone, the same with the switch on or off: built without it.


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    with _plain():
        return list(_setuptools.get_requires_for_build_sdist(config_settings))


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    with _plain():
        return str(_setuptools.build_sdist(sdist_directory, config_settings))


@contextmanager
def _plain() -> Iterator[None]:
    saved = os.environ.pop("DURAK_COMPILE", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["DURAK_COMPILE"] = saved
