"""pytest, for the doctests under ``src/``: the modules of optional parts are collected only when
their libraries are installed (the ``rl``, ``openspiel``, ``jax``, ``train`` and ``web``
extras). With ``CI`` set nothing is left out, so a missing library fails the run there instead of
skipping it.

This file sits at the project root, so no test configuration ships inside the package.
"""

from __future__ import annotations

import os
from importlib.util import find_spec

RL = "src/durak/rl"
WEB = "src/durak/web"

collect_ignore: list[str] = []
if not os.environ.get("CI"):
    if find_spec("numpy") is None:
        collect_ignore += [
            f"{RL}/encoding.py",
            f"{RL}/pettingzoo_env.py",
            f"{RL}/openspiel_game.py",
            "src/durak/agent.py",
        ]
    if find_spec("pettingzoo") is None or find_spec("gymnasium") is None:
        collect_ignore.append(f"{RL}/pettingzoo_env.py")
    if find_spec("pyspiel") is None:
        collect_ignore.append(f"{RL}/openspiel_game.py")
    if find_spec("jax") is None:
        collect_ignore += [
            f"src/durak/jax/{name}" for name in ("__init__.py", "_core.py", "_convert.py")
        ]
    if find_spec("jax") is None or find_spec("optax") is None:
        collect_ignore.append("src/durak/learn.py")
    if find_spec("starlette") is None or find_spec("uvicorn") is None:
        collect_ignore += [
            f"{WEB}/{name}" for name in ("__init__.py", "app.py", "tables.py", "protocol.py")
        ]
