"""A reference web front-end for durak: ``durak serve`` (the optional ``web`` extra).

Start a table on the start page, share its link (``/table/<id>``), and play in the browser
against people and bots. The server keeps each table's game and sends each seat only its own
view and events (R13) over a WebSocket; see :mod:`durak.web.protocol` for the messages,
:mod:`durak.web.tables` for the tables and :mod:`durak.web.app` for the routes.

Needs the ``web`` extra (``pip install 'durak-engine[web]'``): Starlette and uvicorn with WebSocket
support.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from durak.web.app import create_app, serve
    from durak.web.tables import Table, TableManager

__all__ = ["Table", "TableManager", "create_app", "serve"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so that ``import durak.web`` (and test collection) works without
    # the ``web`` extra; using a name then raises the ImportError that says what is missing.
    if name in ("create_app", "serve"):
        from durak.web import app

        return getattr(app, name)
    if name in ("Table", "TableManager"):
        from durak.web import tables

        return getattr(tables, name)
    raise AttributeError(f"module 'durak.web' has no attribute {name!r}")
