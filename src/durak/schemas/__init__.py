"""The JSON Schemas (draft 2020-12) of every JSON form of the library and of ``durak serve``.

They ship with the package as ``durak/schemas/<name>.schema.json``; each has an ``$id`` of the
form ``urn:durak:schema:<name>`` and refers to the others by those ids (a validator is given
all of them: :func:`all_schemas`). The library itself reads JSON with its own checks, which
name the field that is wrong (:class:`durak.records.RecordError`); the schemas are the contract
for programs in other languages, and the test suite validates real data against them.

- ``card``: a card's text form (R1.3);
- ``result``: a finished game's result (:func:`durak.records.result_to_dict`);
- ``rules``: the rules (:meth:`durak.rules.Rules.to_dict`, rules files in JSON);
- ``action``: an action, its text form or the object form the web protocol reads;
- ``event``: an event (:func:`durak.serialize.event_to_dict`);
- ``state``: a whole state, hidden cards included (:func:`durak.serialize.state_to_dict`);
- ``view``: a player's view (:func:`durak.serialize.view_to_dict`);
- ``record-v1``: a game record, format version 1 (:mod:`durak.records`);
- ``web-event``: an event in a ``state`` message of ``durak serve``;
- ``ws-server``: a WebSocket message from ``durak serve`` (``welcome``, ``state``, ``error``);
- ``ws-client``: a WebSocket message to ``durak serve``;
- ``http``: the bodies of ``durak serve``'s HTTP routes, under ``$defs``.

>>> schema("rules")["$id"]
'urn:durak:schema:rules'
>>> sorted(all_schemas()) == sorted(schema_id(name) for name in NAMES)
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["NAMES", "all_schemas", "schema", "schema_id", "schema_text"]

#: The names of the shipped schemas (``<name>.schema.json``).
NAMES: tuple[str, ...] = (
    "card",
    "result",
    "rules",
    "action",
    "event",
    "state",
    "view",
    "record-v1",
    "web-event",
    "ws-server",
    "ws-client",
    "http",
)


def schema_id(name: str) -> str:
    """The ``$id`` of the schema called ``name``: ``urn:durak:schema:<name>``.

    Raises:
        KeyError: an unknown name (the message lists the known ones).
    """
    if name not in NAMES:
        raise KeyError(f"no schema called {name!r} (known: {', '.join(NAMES)})")
    return f"urn:durak:schema:{name}"


def schema_text(name: str) -> str:
    """The text of the shipped file ``durak/schemas/<name>.schema.json``.

    Raises:
        KeyError: an unknown name.
    """
    schema_id(name)
    return resources.files(__name__).joinpath(f"{name}.schema.json").read_text("utf-8")


@cache
def _load(name: str) -> str:
    return schema_text(name)


def schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (one of :data:`NAMES`), as JSON values (a fresh copy).

    Raises:
        KeyError: an unknown name.
    """
    data: dict[str, Any] = json.loads(_load(name))
    return data


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every shipped schema by its ``$id``: what a validator needs to follow the ``$ref`` of
    one schema to another."""
    return {schema_id(name): schema(name) for name in NAMES}
