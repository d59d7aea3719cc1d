"""pytest: collect the doctests of the web front-end only when the ``web`` extra (Starlette,
uvicorn) is installed."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
    collect_ignore += ["__init__.py", "app.py", "tables.py", "protocol.py"]
