"""The engine as a stateless HTTP service: ``POST /api/engine``.

A thin client in any language can use the rules engine without a table and without keeping a
connection: it sends the game so far as JSON and gets back the legal actions, or the state
after an action. Nothing is stored between requests; the client keeps the state it is given
(it holds hidden cards, so a client that shows several players their cards should keep it on
its own server and send each player his ``view``).

The request body is a JSON object (at most :data:`MAX_ENGINE_BODY` bytes; the schema is
``$defs/engine-request`` of ``durak/schemas/http.schema.json``):

- ``state``: a state as :func:`durak.serialize.state_to_dict` writes it; its ``rules`` may be
  left out and given beside it as ``rules`` (given in both places, they must be equal); or
- ``seed`` (an integer or text) with optional ``rules`` and ``preset``: a new deal
  (:func:`durak.new_game`; ``rules`` are set on top of the preset, default ``podkidnoy``);
- ``action`` (optional): an action in its text form (``"p0 lead 7h"``) or as an object
  (``{"kind": "lead", "player": 0, "cards": ["7h"]}``), applied to the state;
- ``player`` (optional): a seat (or ``null`` for an onlooker) whose ``view`` to add.

The answer (``200``, ``$defs/engine-answer``) holds the ``state`` (after the action), the
``events`` the action made, every seat's ``legal_actions`` (R13.1), the seats ``acting`` now,
the one-actor ``next_actor`` (R13.2), the ``result`` (``null`` until the game is over) and the
``view`` if a player was named. Errors answer with ``{"error": ...}`` (English), the reason's
``code`` and ``params`` (an ``server.engine-`` code of :mod:`durak.messages`) and
``localized``, the same in the request's language (``?lang=de``, else its
``Accept-Language``): ``400`` for a body that is not the JSON asked for (the message names the
field, as the library's readers do), ``413`` for a body that is too big, and ``422`` for an
illegal action, with its ``rule`` id and the rule's ``reason`` (code and parameters).

Rules whose positions may list more than :data:`MAX_ENGINE_LISTING` legal actions
(:func:`durak.rules.listing_bound`) are refused with ``400`` (``server.listing-too-large``)
before anything is dealt or listed; an answer is worked out in a thread, off the event loop;
an error answer quotes at most :data:`MAX_QUOTE` characters of the request (:func:`excerpt`).

>>> status, body = answer({"seed": 3, "rules": {"players": 2}})
>>> status, body["acting"], body["legal_actions"][0]
(200, [1], 'p1 lead 8c')
>>> status, after = answer({"state": body["state"], "action": "p1 lead 8c"})
>>> status, after["events"], after["acting"]
(200, [{'type': 'Led', 'player': 1, 'cards': ['8c'], 'defender': 0}], [0])
>>> status, refused = answer({"state": after["state"], "action": "p1 take"}, "de")
>>> status, refused["error"], refused["rule"], refused["reason"]["code"]
(422, 'p1 take: player 0 is the defender (R4.1)', 'R4.1', 'illegal.not-defender')
>>> refused["localized"]
'p1 take: Verteidiger ist P0 (R4.1)'
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from durak._input import brief, check_size, parse_json
from durak.engine import acting, apply_with_events, check, legal_actions, new_game, next_actor
from durak.errors import DurakError
from durak.i18n import from_accept_language, message_params, normalize
from durak.messages import Message, as_message, message
from durak.presets import DEFAULT_PRESET, get_preset
from durak.records import RecordError, result_to_dict
from durak.rules.settings import Rules
from durak.serialize import event_to_dict, state_from_dict, state_to_dict, view_to_dict
from durak.state import GameState
from durak.views import view
from durak.web.protocol import action_from_message, error_fields, listing_refusal

__all__ = [
    "MAX_ENGINE_BODY",
    "MAX_ENGINE_LISTING",
    "MAX_QUOTE",
    "EngineRequestError",
    "answer",
    "engine_routes",
    "excerpt",
]

#: The largest request body (bytes): a state of a long game of many players with several decks
#: is a few tens of kilobytes of JSON.
MAX_ENGINE_BODY = 256 * 1024

#: The most legal actions one position of a request's rules may list
#: (:func:`durak.rules.listing_bound`, R13.1): rules that allow more are refused with ``400``.
#: Every preset is within it.
MAX_ENGINE_LISTING = 2000

#: The most characters of the request an error answer quotes (:func:`excerpt`).
MAX_QUOTE = 300

#: Requests worked out at once (each in a thread of its own, off the event loop).
WORKERS = 2


def excerpt(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` as an error answer quotes it: whole when it has at most ``limit`` characters,
    else its beginning and end around ``...``.

    >>> excerpt("a" * 10 + "b" * 10, 9)
    'aaa...bbb'
    """
    if len(text) <= limit:
        return text
    half = max(1, (limit - 3) // 2)
    return f"{text[:half]}...{text[-half:]}"

_FIELDS = ("state", "rules", "preset", "seed", "action", "player")


class EngineRequestError(Exception):
    """A request the service refuses; ``status`` is the HTTP status, ``rule`` the rule id an
    illegal action breaks (or ``None``), ``message`` the reason as a
    :class:`~durak.messages.Message` (plain text is taken as the code ``other``)."""

    def __init__(self, message: str, status: int = 400, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.rule = rule
        self.message: Message = as_message(message)

    def body(self, lang: str = "en") -> dict[str, Any]:
        """The JSON answer: ``{"error": ...}`` in English with the reason's ``code``,
        ``params`` and ``localized`` (said in ``lang``), and ``"rule"`` and ``"reason"`` (the
        rule's reason as code and parameters) for an illegal action.

        Raises:
            ValueError: no catalog for ``lang``.
        """
        out: dict[str, Any] = {"error": str(self), **error_fields(self.message, lang)}
        if self.rule is not None:
            out["rule"] = self.rule
            reason = self.message.params.get("reason")
            if isinstance(reason, Message):
                out["reason"] = {"code": reason.code, "params": message_params(reason)}
        return out


def _rules(data: Mapping[str, Any]) -> Rules:
    """The rules of a new deal: the preset's (default podkidnoy) with ``rules`` set on top."""
    settings = data.get("rules", {})
    if not isinstance(settings, Mapping):
        raise EngineRequestError(message("server.engine-rules-type", given=brief(settings)))
    try:
        return get_preset(data.get("preset", DEFAULT_PRESET)).rules(**settings)
    except DurakError as exc:
        raise EngineRequestError(message("server.bad-rules", detail=excerpt(str(exc)))) from None


def _state(data: Mapping[str, Any], max_listing: int = MAX_ENGINE_LISTING) -> GameState:
    """The state of the request: read from ``state`` (with ``rules`` beside it), or dealt;
    refused when its rules may list more than ``max_listing`` actions in a position."""
    state = _read_state(data, max_listing)
    too_long = listing_refusal(state.rules, max_listing)
    if too_long is not None:
        raise EngineRequestError(too_long)
    return state


def _read_state(data: Mapping[str, Any], max_listing: int) -> GameState:
    if "state" not in data:
        if "seed" not in data:
            raise EngineRequestError(message("server.engine-no-state"))
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise EngineRequestError(message("server.engine-seed-type", given=brief(seed)))
        rules = _rules(data)
        too_long = listing_refusal(rules, max_listing)
        if too_long is not None:  # refused before the deal
            raise EngineRequestError(too_long)
        try:
            return new_game(rules, seed=seed)
        except DurakError as exc:
            raise EngineRequestError(
                message("server.engine-bad-seed", detail=excerpt(str(exc)))
            ) from None
    for name in ("seed", "preset"):
        if name in data:
            raise EngineRequestError(message("server.engine-both", given=name))
    given = data["state"]
    if not isinstance(given, Mapping):
        raise EngineRequestError(message("server.engine-state-type", given=brief(given)))
    if "rules" in data:
        if "rules" in given and given["rules"] != data["rules"]:
            raise EngineRequestError(message("server.engine-rules-differ"))
        given = {**given, "rules": data["rules"]}
    try:
        return state_from_dict(given)
    except RecordError as exc:
        where = excerpt(f"/{exc.where}", MAX_QUOTE // 3) if exc.where else ""
        raise EngineRequestError(
            message("server.engine-bad-state", where=where, detail=excerpt(exc.reason))
        ) from None
    except DurakError as exc:
        raise EngineRequestError(
            message("server.engine-bad-state", where="", detail=excerpt(str(exc)))
        ) from None


def answer(
    data: Any, lang: str = "en", max_listing: int = MAX_ENGINE_LISTING
) -> tuple[int, dict[str, Any]]:
    """The service's answer to a request body (already parsed JSON): ``(status, body)``; an
    error's ``localized`` text is in the language ``lang``. Rules whose positions may list more
    than ``max_listing`` legal actions (:func:`durak.rules.listing_bound`) are refused with
    ``400`` (``server.listing-too-large``, naming the settings), before anything is listed.

    Never raises for bad input: every problem is an error answer (see the module docs).

    Raises:
        ValueError: no catalog for ``lang``.
    """
    try:
        return 200, _answer(data, max_listing)
    except EngineRequestError as exc:
        return exc.status, exc.body(lang)


def _answer(data: Any, max_listing: int = MAX_ENGINE_LISTING) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise EngineRequestError(message("server.engine-not-object", given=brief(data)))
    unknown = [key for key in data if key not in _FIELDS]
    if unknown:
        raise EngineRequestError(
            message(
                "server.engine-unknown-field", given=brief(unknown[0]), known=", ".join(_FIELDS)
            )
        )
    state = _state(data, max_listing)
    events: list[dict[str, Any]] = []
    if "action" in data:
        try:
            action = action_from_message(data["action"])
        except DurakError as exc:
            raise EngineRequestError(
                message("server.engine-bad-action", detail=excerpt(str(exc)))
            ) from None
        bad = check(state, action)
        if bad is not None:
            said = message(
                "server.engine-illegal",
                notation=str(action),
                reason=as_message(bad[1]),
                rule=bad[0],
            )
            raise EngineRequestError(said, 422, bad[0])
        state, made = apply_with_events(state, action)
        events = [event_to_dict(e) for e in made]
    out: dict[str, Any] = {
        "state": state_to_dict(state),
        "events": events,
        "legal_actions": [str(a) for a in legal_actions(state)],
        "acting": list(acting(state)),
        "next_actor": next_actor(state),
        "result": None if state.result is None else result_to_dict(state.result),
    }
    if "player" in data:
        seat = data["player"]
        ok = seat is None or (type(seat) is int and 0 <= seat < state.rules.players)
        if not ok:
            last = state.rules.players - 1
            raise EngineRequestError(
                message("server.engine-bad-player", limit=last, given=brief(seat))
            )
        out["view"] = view_to_dict(view(state, seat))
    return out


async def _body(request: Request) -> Any:
    """The request's JSON, read up to :data:`MAX_ENGINE_BODY` bytes."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        check_size(body, MAX_ENGINE_BODY, "the request", _too_big)

    def bad(where: str, reason: str) -> EngineRequestError:
        detail = excerpt(f"{where or 'the request'}: {reason}")
        return EngineRequestError(message("server.engine-not-json", detail=detail))

    return parse_json(bytes(body), bad, "the request")


def _too_big(where: str, reason: str) -> EngineRequestError:
    return EngineRequestError(message("server.engine-too-big", n=MAX_ENGINE_BODY), 413)


def _encoded(data: Any, lang: str, max_listing: int) -> tuple[int, bytes]:
    """:func:`answer` as the JSON bytes of the HTTP answer (worked out in a thread)."""
    status, body = answer(data, lang, max_listing)
    return status, bytes(JSONResponse(body).body)


def engine_endpoint(max_listing: int = MAX_ENGINE_LISTING) -> Callable[[Request], Any]:
    """``POST /api/engine`` (see the module docs) for a server that lists at most
    ``max_listing`` actions a position; errors said in the request's language. The answer is
    worked out and encoded in a thread (at most :data:`WORKERS` at once), never on the event
    loop that serves the tables."""
    workers = asyncio.Semaphore(WORKERS)

    async def endpoint(request: Request) -> Response:
        asked = normalize(request.query_params.get("lang", "")[:35])
        lang = asked or from_accept_language(request.headers.get("accept-language"))
        try:
            data = await _body(request)
        except EngineRequestError as exc:
            return JSONResponse(exc.body(lang), status_code=exc.status)
        async with workers:
            status, body = await asyncio.to_thread(_encoded, data, lang, max_listing)
        return Response(body, status_code=status, media_type="application/json")

    return endpoint


def engine_routes(max_listing: int = MAX_ENGINE_LISTING) -> list[Route]:
    """The service's routes, to mount in an application: ``POST /api/engine``, refusing rules
    whose positions may list more than ``max_listing`` legal actions."""
    return [Route("/api/engine", engine_endpoint(max_listing), methods=["POST"])]
