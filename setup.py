"""Setuptools reads the project from pyproject.toml; this file adds the optional compiled build
(``DURAK_COMPILE=1``: build_backend/durak_build.py, and docs/performance.md)."""

import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "build_backend"))
from durak_build import COMPILED, compiling  # noqa: E402 (found through the path above)

if compiling():
    from mypyc.build import mypycify

    config = ["--config-file", str(HERE / "build_backend" / "mypyc.ini")]
    setup(ext_modules=mypycify([*config, *COMPILED], opt_level="3", group_name="durak"))
else:
    setup()
