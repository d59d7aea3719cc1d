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
``view`` if a player was named. Errors answer with ``{"error": ...}``: ``400`` for a body that
is not the JSON asked for (the message names the field, as the library's readers do),
``413`` for a body that is too big, and ``422`` for an illegal action, with its ``rule`` id.

>>> status, body = answer({"seed": 3, "rules": {"players": 2}})
>>> status, body["acting"], body["legal_actions"][0]
(200, [1], 'p1 lead 8c')
>>> status, after = answer({"state": body["state"], "action": "p1 lead 8c"})
>>> status, after["events"], after["acting"]
(200, [{'type': 'Led', 'player': 1, 'cards': ['8c'], 'defender': 0}], [0])
>>> answer({"state": after["state"], "action": "p1 take"})
(422, {'error': 'p1 take: player 0 is the defender (R4.1)', 'rule': 'R4.1'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from durak._input import brief, check_size, parse_json
from durak.engine import acting, apply_with_events, check, legal_actions, new_game, next_actor
from durak.errors import DurakError
from durak.presets import DEFAULT_PRESET, get_preset
from durak.records import RecordError, result_to_dict
from durak.rules.settings import Rules
from durak.serialize import event_to_dict, state_from_dict, state_to_dict, view_to_dict
from durak.state import GameState
from durak.views import view
from durak.web.protocol import action_from_message

__all__ = ["MAX_ENGINE_BODY", "EngineRequestError", "answer", "engine_routes"]

#: The largest request body (bytes): a state of a long game of many players with several decks
#: is a few tens of kilobytes of JSON.
MAX_ENGINE_BODY = 256 * 1024

_FIELDS = ("state", "rules", "preset", "seed", "action", "player")


class EngineRequestError(Exception):
    """A request the service refuses; ``status`` is the HTTP status, ``rule`` the rule id an
    illegal action breaks (or ``None``)."""

    def __init__(self, message: str, status: int = 400, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.rule = rule

    def body(self) -> dict[str, Any]:
        """The JSON answer: ``{"error": ...}``, with ``"rule"`` for an illegal action."""
        out: dict[str, Any] = {"error": str(self)}
        if self.rule is not None:
            out["rule"] = self.rule
        return out


def _rules(data: Mapping[str, Any]) -> Rules:
    """The rules of a new deal: the preset's (default podkidnoy) with ``rules`` set on top."""
    settings = data.get("rules", {})
    if not isinstance(settings, Mapping):
        raise EngineRequestError(f"rules: the rules are a JSON object, not {brief(settings)}")
    try:
        return get_preset(data.get("preset", DEFAULT_PRESET)).rules(**settings)
    except DurakError as exc:
        raise EngineRequestError(f"rules: {exc}") from None


def _state(data: Mapping[str, Any]) -> GameState:
    """The state of the request: read from ``state`` (with ``rules`` beside it), or dealt."""
    if "state" not in data:
        if "seed" not in data:
            raise EngineRequestError("send a 'state', or a 'seed' (and 'rules') for a new deal")
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise EngineRequestError(f"seed: a seed is an integer or text, not {brief(seed)}")
        rules = _rules(data)
        try:
            return new_game(rules, seed=seed)
        except DurakError as exc:
            raise EngineRequestError(f"seed: {exc}") from None
    for name in ("seed", "preset"):
        if name in data:
            raise EngineRequestError(f"{name}: give either a state or a new deal, not both")
    given = data["state"]
    if not isinstance(given, Mapping):
        raise EngineRequestError(f"state: a state is a JSON object, not {brief(given)}")
    if "rules" in data:
        if "rules" in given and given["rules"] != data["rules"]:
            raise EngineRequestError("rules: differ from the rules inside the state")
        given = {**given, "rules": data["rules"]}
    try:
        return state_from_dict(given)
    except RecordError as exc:
        raise EngineRequestError(f"state/{exc.where}: {exc.reason}".replace("/:", ":")) from None
    except DurakError as exc:
        raise EngineRequestError(f"state: {exc}") from None


def answer(data: Any) -> tuple[int, dict[str, Any]]:
    """The service's answer to a request body (already parsed JSON): ``(status, body)``.

    Never raises for bad input: every problem is an error answer (see the module docs).
    """
    try:
        return 200, _answer(data)
    except EngineRequestError as exc:
        return exc.status, exc.body()


def _answer(data: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise EngineRequestError(f"the request is a JSON object, not {brief(data)}")
    unknown = [key for key in data if key not in _FIELDS]
    if unknown:
        raise EngineRequestError(
            f"{brief(unknown[0])}: unknown field (known: {', '.join(_FIELDS)})"
        )
    state = _state(data)
    events: list[dict[str, Any]] = []
    if "action" in data:
        try:
            action = action_from_message(data["action"])
        except DurakError as exc:
            raise EngineRequestError(f"action: {exc}") from None
        bad = check(state, action)
        if bad is not None:
            raise EngineRequestError(f"{action}: {bad[1]} ({bad[0]})", 422, bad[0])
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
            raise EngineRequestError(f"player: a seat from 0 to {last} or null, not {brief(seat)}")
        out["view"] = view_to_dict(view(state, seat))
    return out


async def _body(request: Request) -> Any:
    """The request's JSON, read up to :data:`MAX_ENGINE_BODY` bytes."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        check_size(body, MAX_ENGINE_BODY, "the request", _too_big)

    def bad(where: str, reason: str) -> EngineRequestError:
        return EngineRequestError(f"{where or 'the request'}: {reason}")

    return parse_json(bytes(body), bad, "the request")


def _too_big(where: str, reason: str) -> EngineRequestError:
    return EngineRequestError(reason, 413)


async def engine_endpoint(request: Request) -> Response:
    """``POST /api/engine`` (see the module docs)."""
    try:
        data = await _body(request)
    except EngineRequestError as exc:
        return JSONResponse(exc.body(), status_code=exc.status)
    status, body = answer(data)
    return JSONResponse(body, status_code=status)


def engine_routes() -> list[Route]:
    """The service's routes, to mount in an application: ``POST /api/engine``."""
    return [Route("/api/engine", engine_endpoint, methods=["POST"])]
