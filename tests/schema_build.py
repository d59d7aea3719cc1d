"""Writes the JSON Schemas (draft 2020-12) that ship in ``src/durak/schemas/``.

Run ``python tests/schema_build.py`` after changing a JSON form; ``tests/test_schemas.py``
fails while a shipped file differs from what this builds, and checks real data (whole games,
every golden record, the web server's traffic) against the files.

The settings' choices, the deck sizes and the action and event kinds come from the library;
the fields and their types are written out here, so a changed form shows up as a failing test
of real data rather than as a silently regenerated schema.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs

import durak.rules.extensions  # noqa: F401  (registers the R15 action kinds and the joker)
from durak import events as _events
from durak.actions import ACTION_KINDS
from durak.cards import DECK_SIZES, MAX_COPIES
from durak.rules import settings as _settings
from durak.rules.settings import SETTINGS

OUT = Path(__file__).resolve().parents[1] / "src" / "durak" / "schemas"
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: The text form of a card (R1.3) as the library reads it: rank, suit, and ``#n`` for the copy
#: of a card in a game of several decks, or the joker ``Jk`` (R15.1). The library writes ``T``
#: for ten and suit letters.
CARD_PATTERN = "^((10|[2-9TJQKAtjqka])[cdhsCDHS♣♦♥♠]|Jk)(#[0-9]+)?$"
#: The text form of an action (:mod:`durak.notation`): ``p<seat> <verb> <cards>``.
ACTION_PATTERN = "^p[0-9]+ [a-z]+( \\S+)*$"


#: The library's own action kinds: the rule book's and those of the shipped R15 rule modules
#: (``catch``). A plug-in may register more at run time; its kinds are not part of the shipped
#: contract.
BUILT_IN_ACTIONS = {
    k: c
    for k, c in ACTION_KINDS.items()
    if c.__module__ == "durak.actions" or c.__module__.startswith("durak.rules.extensions.")
}


def urn(name: str) -> str:
    return f"urn:durak:schema:{name}"


def ref(name: str) -> dict[str, Any]:
    return {"$ref": urn(name)}


SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "description": "a seat, from 0 (R2.2)"}
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
PLACE: dict[str, Any] = {"type": "integer", "minimum": 1, "description": "1 is first out"}
BOOL: dict[str, Any] = {"type": "boolean"}
TEXT: dict[str, Any] = {"type": "string"}
CARD = ref("card")
CARDS: dict[str, Any] = {"type": "array", "items": CARD}
SEATS: dict[str, Any] = {"type": "array", "items": SEAT}
SEAT_SET: dict[str, Any] = {"type": "array", "items": SEAT, "uniqueItems": True}
CARD_SET: dict[str, Any] = {
    "type": "array",
    "items": CARD,
    "uniqueItems": True,
    "description": "a set of cards, sorted",
}
SUIT: dict[str, Any] = {"enum": ["c", "d", "h", "s"], "description": "a suit letter (R1.1)"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object"}
    out.update(extra)
    out["additionalProperties"] = False
    out["required"] = list(properties) if required is None else required
    out["properties"] = properties
    return out


def document(name: str, title: str, description: str, body: dict[str, Any]) -> dict[str, Any]:
    head = {"$schema": DIALECT, "$id": urn(name), "title": title, "description": description}
    return {**head, **body}


# --- the pieces ------------------------------------------------------------------------------


def card() -> dict[str, Any]:
    return document(
        "card",
        "card",
        "A card in its text form (R1.3): rank (2-9, T or 10, J, Q, K, A) and suit (c, d, h, s "
        "or the suit symbols), then '#2', '#3', ... for the second, third copy in a game of "
        "several decks. The joker of R15.1 is 'Jk' ('Jk#2', ... for its further copies). The "
        "library writes 'T' and lower-case suit letters: '7h', 'Ts', 'Ac#2', 'Jk'.",
        {"type": "string", "pattern": CARD_PATTERN},
    )


def extra_value() -> dict[str, Any]:
    return {
        "description": "a value of a rule module's fact: a number, text, a boolean, null or a "
        "list of these",
        "type": ["number", "string", "boolean", "null", "array"],
        "items": {"$ref": "#/$defs/value"},
    }


def result() -> dict[str, Any]:
    return document(
        "result",
        "result",
        "The result of a finished game (R7.4; durak.records.result_to_dict).",
        {
            **obj(
                {
                    "durak": nullable({**SEAT, "description": "the durak, or null"}),
                    "draw": {**BOOL, "description": "nobody is the durak (R7.3)"},
                    "places": {"type": "array", "items": PLACE, "description": "by seat"},
                    "winners": SEATS,
                    "losers": SEATS,
                    "extra": {
                        "type": "object",
                        "description": "facts rule modules add (a score, a mark on the durak); "
                        "written only when there are some",
                        "additionalProperties": {"$ref": "#/$defs/value"},
                    },
                },
                ["durak", "draw", "places", "winners", "losers"],
            ),
            "$defs": {"value": extra_value()},
        },
    )


def _enum_of(setting: str) -> list[str] | None:
    for name in _settings.__all__:
        cls = getattr(_settings, name)
        if isinstance(cls, type) and issubclass(cls, str) and name != "Rules":
            doc = cls.__doc__ or ""
            if f"``{setting}``" in doc:
                return [member.value for member in cls]  # type: ignore[attr-defined]
    return None


def rules() -> dict[str, Any]:
    ints: dict[str, dict[str, Any]] = {
        "players": {"type": "integer", "minimum": 2, "description": "R2.1"},
        "deck_size": {"enum": sorted(DECK_SIZES), "description": "R1.2"},
        "decks": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES, "description": "R1.2"},
        "hand_size": {"type": "integer", "minimum": 1, "description": "R2.3"},
        "max_attack": {"type": "integer", "minimum": 1, "description": "R4.6"},
        "jokers": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2,
            "description": "jokers per deck, with 52-card decks only (R15.1)",
        },
        "first_bout_max": nullable({"type": "integer", "minimum": 1}),
        "misdeal_suit_count": nullable({"type": "integer", "minimum": 2}),
    }
    special: dict[str, dict[str, Any]] = {
        "strict_suits": {"type": "array", "items": SUIT, "uniqueItems": True},
        "teams": nullable({"type": "array", "items": {"type": "array", "items": SEAT}}),
        "house_rules": {
            "type": "array",
            "items": TEXT,
            "description": "the names of switched-on house-rule modules",
        },
    }
    properties: dict[str, Any] = {}
    for name in SETTINGS:
        if name in ints:
            properties[name] = ints[name]
        elif name in special:
            properties[name] = special[name]
        elif (choices := _enum_of(name)) is not None:
            properties[name] = {"enum": choices}
        else:
            properties[name] = BOOL
    return document(
        "rules",
        "rules",
        "Every setting of the rules (durak.Rules.to_dict writes them all; a missing setting "
        "takes its default when read). Which combinations can be dealt is checked when the "
        "rules are made (R2.1): the schema gives each setting's own range.",
        obj(properties, []),
    )


def _action_objects() -> list[dict[str, Any]]:
    fields = {"cards": {**CARDS, "minItems": 1}, "card": CARD, "attack": CARD}
    out = []
    for kind, cls in BUILT_IN_ACTIONS.items():
        names = [f.name for f in attrs.fields(cls)]
        props: dict[str, Any] = {"kind": {"const": kind}, "player": SEAT}
        props.update({n: fields[n] for n in names if n != "player"})
        out.append(obj(props))
    out.append(
        {
            "type": "object",
            "description": "an action kind a rule module registers (durak.actions."
            "register_action): its verb and its fields",
            "required": ["kind", "player"],
            "properties": {
                "kind": {
                    "type": "string",
                    "pattern": "^[a-z]+$",
                    "not": {"enum": [*BUILT_IN_ACTIONS]},
                },
                "player": SEAT,
            },
        }
    )
    return out


def action() -> dict[str, Any]:
    return document(
        "action",
        "action",
        "An action: its text form (durak.notation, 'p1 beat 7h 9h'), or the JSON object the "
        "web protocol also reads ({'kind': 'beat', 'player': 1, 'attack': '7h', 'card': "
        "'9h'}). The text form's grammar is on the protocol page.",
        {
            "oneOf": [
                {"type": "string", "pattern": ACTION_PATTERN, "description": "the text form"},
                {"oneOf": _action_objects()},
            ]
        },
    )


_ACTION_TEXT: dict[str, Any] = {"type": "string", "pattern": ACTION_PATTERN}

_EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "player": SEAT,
    "defender": SEAT,
    "attacker": SEAT,
    "to": SEAT,
    "partner": SEAT,
    "count": COUNT,
    "place": PLACE,
    "card": CARD,
    "attack": CARD,
    "face_up": CARD,
    "shown": CARD,
    "taken": BOOL,
    "action": {**_ACTION_TEXT, "description": "a rule module's action, in its text form"},
    "result": ref("result"),
}
#: Event fields that may be null, and why.
_EVENT_NULLABLE = {
    ("Drew", "cards"): "null when another player drew: the cards are hidden (R13.2)",
    ("Drew", "face_up"): "the face-up trump card, when it was among the drawn cards",
    ("Transferred", "shown"): "the trump shown for a transfer by showing (R9.4)",
}


def _event_types() -> dict[str, type[Any]]:
    return {
        name: getattr(_events, name)
        for name in _events.__all__
        if name not in ("Event", "events_for") and attrs.has(getattr(_events, name))
    }


def _event_object(name: str, cls: type[Any], type_name: str, text: bool) -> dict[str, Any]:
    props: dict[str, Any] = {"type": {"const": type_name}}
    required = ["type"]
    for f in attrs.fields(cls):
        schema = CARDS if f.name == "cards" else _EVENT_FIELDS[f.name]
        why = _EVENT_NULLABLE.get((name, f.name))
        if why is not None:
            schema = {**nullable(schema), "description": why}
        props[f.name] = schema
        if f.default is attrs.NOTHING or text:  # the web protocol writes every field
            required.append(f.name)
    if text:
        props["text"] = {**TEXT, "description": "the event in English words, for the "
                         "receiving seat"}
        props["message"] = {**_MESSAGE, "description": "the event as a message code and its "
                            "parameters (durak.events.describe_event), to say in any language"}
        required += ["text", "message"]
    return {**obj(props, required), "title": name}


def event() -> dict[str, Any]:
    return document(
        "event",
        "event",
        "An event of the engine (durak.events; durak.serialize.event_to_dict): 'type' is the "
        "event's class name. Filter events with durak.events.events_for before sending them "
        "to a player: another player's drawn cards are then null.",
        {"oneOf": [_event_object(n, c, n, False) for n, c in _event_types().items()]},
    )


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))


def web_event() -> dict[str, Any]:
    return document(
        "web-event",
        "web event",
        "An event as durak serve sends it in a 'state' message (durak.web.protocol."
        "event_to_dict): 'type' is the event's class name in snake case ('thrown_in'), every "
        "field is written, 'text' tells the event in English words for the receiving seat "
        "and 'message' gives its message code and parameters.",
        {"oneOf": [_event_object(n, c, _snake(n), True) for n, c in _event_types().items()]},
    )


def _pairs() -> dict[str, Any]:
    return {
        "type": "array",
        "description": "the table: [attack, defence] pairs in the order played; the defence is "
        "null while the attack is unbeaten",
        "items": {
            "type": "array",
            "prefixItems": [CARD, nullable(CARD)],
            "minItems": 2,
            "maxItems": 2,
        },
    }


def _common_position() -> dict[str, Any]:
    return {
        "rules": ref("rules"),
        "known": {
            "type": "array",
            "items": CARD_SET,
            "description": "by seat: the cards of the hand every player has seen (taken or "
            "shown)",
        },
        "table": _pairs(),
        "discard": {**CARDS, "description": "the discard pile, in order"},
        "trump": SUIT,
        "trump_card": nullable({**CARD, "description": "the face-up card under the stock"}),
        "dealer": SEAT,
        "attacker": SEAT,
        "defender": SEAT,
        "leader": SEAT,
        "joined": {**SEATS, "description": "the throwers who threw in this bout, in order"},
        "defender_hand": {**COUNT, "description": "the defender's hand when the bout began"},
        "taken": {**BOOL, "description": "the defender declared a take (R4.8)"},
        "passed": {**SEAT_SET, "description": "the throwers whose pass stands (R4.9)"},
        "shown": CARD_SET,
        "bouts": COUNT,
        "defences": COUNT,
        "places": {"type": "array", "items": nullable(PLACE), "description": "by seat"},
        "result": nullable(ref("result")),
        "exchange": CARD_SET,
        "left": SEAT_SET,
    }


def state() -> dict[str, Any]:
    from durak.state import GameState

    common = _common_position()
    props: dict[str, Any] = {
        "rules": common["rules"],
        "hands": {"type": "array", "items": CARDS, "description": "every hand, by seat"},
        "stock": {**CARDS, "description": "the stock, top card first (hidden information)"},
        **{k: v for k, v in common.items() if k != "rules"},
        "seed": nullable({"type": ["integer", "string"], "description": "the deal's seed"}),
        "shuffles": COUNT,
        "appointed": nullable(SEAT),
        "extra": {
            "type": "array",
            "description": "rule modules' facts: [name, value] pairs, sorted by name",
            "items": {
                "type": "array",
                "prefixItems": [TEXT, {"$ref": "#/$defs/value"}],
                "minItems": 2,
                "maxItems": 2,
            },
        },
    }
    names = [f.name for f in attrs.fields(GameState)]
    props = {n: props[n] for n in names}
    required = [f.name for f in attrs.fields(GameState) if f.default is attrs.NOTHING]
    return document(
        "state",
        "game state",
        "A whole game state (durak.serialize.state_to_dict), hidden cards included: every hand "
        "and the stock order. Keep it on the server or in the engine service; send players "
        "their view. Reading it back also checks that the cards are the rules' deck exactly "
        "once and that the engine can play on (durak.engine.validate_state).",
        {**obj(props, required), "$defs": {"value": extra_value()}},
    )


def view() -> dict[str, Any]:
    from durak.views import PlayerView

    common = _common_position()
    props: dict[str, Any] = {
        **common,
        "player": nullable({**SEAT, "description": "the seat this view is for; null for an "
                            "onlooker"}),
        "hand": {**CARDS, "description": "the player's own hand (empty for an onlooker)"},
        "hand_sizes": {"type": "array", "items": COUNT, "description": "by seat"},
        "stock_size": COUNT,
        "throwers": {**SEATS, "description": "who may throw in this bout (R4.4)"},
        "done": SEAT_SET,
        "attack_limit": COUNT,
        "can_throw_in": BOOL,
        "active": {"type": "array", "items": BOOL, "description": "by seat: still playing"},
        "out": SEAT_SET,
        "legal_actions": {
            "type": "array",
            "items": _ACTION_TEXT,
            "description": "what this player may do now (empty for an onlooker)",
        },
        "acting": {**SEATS, "description": "every seat that may act now (R13.1)"},
        "next_actor": nullable({**SEAT, "description": "the one-actor view's next seat (R13.2)"}),
        "extra": {
            "type": "array",
            "description": "rule modules' public facts (the cheats on the table, R15.5): "
            "[name, value] pairs, sorted by name; empty without such modules",
            "items": {
                "type": "array",
                "prefixItems": [TEXT, {"$ref": "#/$defs/value"}],
                "minItems": 2,
                "maxItems": 2,
            },
        },
    }
    names = [f.name for f in attrs.fields(PlayerView)]
    props = {n: props[n] for n in names}
    required = [f.name for f in attrs.fields(PlayerView) if f.default is attrs.NOTHING]
    return document(
        "view",
        "player view",
        "What one player may know (durak.serialize.view_to_dict of durak.views.view): his "
        "own hand, the others' hand sizes, the cards known to all. Safe to send to that "
        "player.",
        {**obj(props, required), "$defs": {"value": extra_value()}},
    )


def record() -> dict[str, Any]:
    text = (OUT / "record-v1.schema.json").read_text("utf-8")
    shipped: dict[str, Any] = json.loads(text)
    shipped["properties"]["rules"] = {
        "description": "the rules (every setting; a missing one takes its default)",
        **ref("rules"),
    }
    shipped["properties"]["result"] = nullable(ref("result"))
    shipped["properties"]["deal"]["properties"]["deck"]["items"] = CARD
    return shipped


# --- durak serve -----------------------------------------------------------------------------

_SEAT_INFO = obj(
    {
        "seat": SEAT,
        "kind": {**TEXT, "description": "'human' or a kind of bot"},
        "label": TEXT,
        "title": TEXT,
        "taken": {**BOOL, "description": "a person holds the seat's token, or a bot plays it"},
        "online": BOOL,
        "away": {**BOOL, "description": "the seat's stand-in bot plays for its person (his "
                 "turn timer ran out, or he has been gone longer than it)"},
    }
)

#: A message as data (durak.i18n): a code of the catalogs and its parameters, for a page to
#: say it in its own language.
_MESSAGE: dict[str, Any] = obj(
    {
        "code": {**TEXT, "description": "the message's code in the catalogs ('event.beaten')"},
        "params": {
            "type": "object",
            "description": "the parameters: cards as text, seats as numbers, a nested "
            "message as {code, params}",
        },
    }
)

#: The fields every error of the server carries beside its English text (durak.web.protocol.
#: error_fields).
_ERROR_FIELDS: dict[str, Any] = {
    "code": {
        **TEXT,
        "pattern": "^(server\\.[a-z-]+|other)$",
        "description": "the reason's stable code (durak.messages: 'server.no-table' ...)",
    },
    "params": {
        "type": "object",
        "description": "the code's parameters: numbers, text, a nested message as {code, params}",
    },
    "localized": {
        **TEXT,
        "description": "the reason in the language of the request or connection (its 'lang' "
        "query parameter, else its Accept-Language; English by default)",
    },
}

_FIXED_SEED: dict[str, Any] = {
    "type": ["integer", "string", "null"],
    "description": "the seed the table was created with (a server started with "
    "--allow-fixed-seeds), shown to every seat; null for a secret deal",
}
_TIMER: dict[str, Any] = {
    "type": "number",
    "minimum": 0,
    "description": "seconds a person has for a move; 0 for no timer",
}


def ws_server() -> dict[str, Any]:
    welcome = obj(
        {
            "type": {"const": "welcome"},
            "seat": nullable({**SEAT, "description": "the seat taken; null for an onlooker"}),
            "token": nullable({**TEXT, "description": "the seat token: send it back as "
                               "?token=... to return to the seat"}),
            "table": TEXT,
        },
        title="welcome",
    )
    state_message = obj(
        {
            "type": {"const": "state"},
            "table": TEXT,
            "preset": TEXT,
            "game": {"type": "integer", "minimum": 1, "description": "1, 2, ... after restarts"},
            "version": {**COUNT, "description": "grows with every action of the game"},
            "seat": nullable(SEAT),
            "started": BOOL,
            "seats": {"type": "array", "items": _SEAT_INFO},
            "acting": SEATS,
            "view": ref("view"),
            "events": {"type": "array", "items": ref("web-event")},
            "result_text": nullable(TEXT),
            "fixed_seed": _FIXED_SEED,
            "timer": _TIMER,
            "restart_votes": {**SEAT_SET, "description": "the seats that asked for the next "
                              "game"},
            "history": {
                "type": "array",
                "items": ref("web-event"),
                "description": "in the first state message after connecting only: the seat's "
                "part of the current game's events so far (the last 120)",
            },
        },
        [
            "type", "table", "preset", "game", "version", "seat", "started", "seats",
            "acting", "view", "events", "result_text", "fixed_seed", "timer", "restart_votes",
        ],
        title="state",
    )
    error = obj(
        {
            "type": {"const": "error"},
            "message": {**TEXT, "description": "what was refused, in English"},
            **_ERROR_FIELDS,
            "rule": {**TEXT, "description": "the rule a refused action breaks ('R4.3')"},
            "reason": {**_MESSAGE, "description": "why the rule refuses it, as a message code "
                       "and its parameters"},
        },
        ["type", "message", "code", "params", "localized"],
        title="error",
    )
    return document(
        "ws-server",
        "durak serve: a WebSocket message from the server",
        "Every JSON text frame durak serve sends on /ws/<table>: 'welcome' once, then a "
        "'state' after every change and an 'error' for a refused message (also sent before "
        "the server closes a connection it refuses).",
        {"oneOf": [welcome, state_message, error]},
    )


def ws_client() -> dict[str, Any]:
    return document(
        "ws-client",
        "durak serve: a WebSocket message from a client",
        "A JSON text frame a client sends on /ws/<table> (a plain text frame holding an "
        "action's text form, 'p0 lead 7h', is read too).",
        {
            "oneOf": [
                obj({"type": {"const": "action"}, "action": ref("action")}, title="action"),
                {**ref("action"), "title": "bare action object"},
                obj({"type": {"const": "restart"}}, title="restart",
                    description="a vote for the next game, once a game is over"),
                obj({"type": {"const": "leave"}}, title="leave",
                    description="give up one's seat: the token no longer returns there"),
                obj({"type": {"const": "ping"}}, title="ping"),
            ]
        },
    )


def http() -> dict[str, Any]:
    seat_kind = {**TEXT, "description": "'human', a strength level or a kind of bot"}
    table = obj(
        {
            "id": TEXT,
            "preset": TEXT,
            "players": {"type": "integer", "minimum": 2},
            "seats": {"type": "array", "items": _SEAT_INFO},
            "started": BOOL,
            "over": BOOL,
            "game": {"type": "integer", "minimum": 1},
            "fixed_seed": _FIXED_SEED,
            "timer": _TIMER,
            "rules": {**ref("rules"), "description": "the table's rules: the preset's, changed "
                      "by the 'rules' it was created with"},
            "games": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "description": "the finished games whose records can be downloaded",
            },
            "url": {**TEXT, "description": "the table's page (in the answer to POST only)"},
        },
        [
            "id", "preset", "players", "seats", "started", "over", "game", "fixed_seed",
            "timer", "rules", "games",
        ],
    )
    preset = obj(
        {
            "name": TEXT,
            "description": {**TEXT, "description": "in English"},
            "source": {**TEXT, "description": "in English"},
            "localized_description": {**TEXT, "description": "the description in the answer's "
                                      "language"},
            "localized_source": {**TEXT, "description": "the source in the answer's language"},
            "players": {"type": "array", "items": {"type": "integer", "minimum": 2}},
            "default_players": {"type": "integer", "minimum": 2},
            "rules": {**ref("rules"), "description": "the preset's rules"},
        }
    )
    level = obj(
        {
            "name": {**TEXT, "description": "a seat kind: easy, normal, hard, best"},
            "description": {**TEXT, "description": "in English"},
            "localized_description": {**TEXT, "description": "the description in the answer's "
                                      "language"},
            "budget": {"type": "number", "minimum": 0, "description": "the seconds its bot "
                       "may think about a move at this server (0: it does not search)"},
        }
    )
    texts: dict[str, Any] = {"type": "object", "additionalProperties": TEXT}
    by_plural: dict[str, Any] = {
        "type": "object",
        "additionalProperties": texts,
        "description": "texts by plural category of Intl.PluralRules (one, few, many, other)",
    }
    i18n = {
        "type": "object",
        "description": "GET /api/i18n?lang=...: what a page needs to speak a language (durak."
        "i18n.web_catalog)",
        "required": ["lang", "languages", "strings", "plurals", "templates"],
        "properties": {
            "lang": {**TEXT, "description": "the language given: en, de, pl or ru"},
            "languages": {**texts, "description": "every language's code and own name"},
            "strings": {**texts, "description": "the page's English texts and their "
                        "translations"},
            "plurals": {**by_plural, "description": "texts with plural forms"},
            "templates": {**by_plural, "description": "each message code's text"},
        },
        "additionalProperties": {"type": ["string", "object"]},
    }
    step = obj(
        {
            "index": {**COUNT, "description": "0 before the first action"},
            "action": nullable({**_ACTION_TEXT, "description": "the action just played"}),
            "view": {**ref("view"), "description": "an onlooker's view"},
            "hands": {"type": "array", "items": CARDS, "description": "every hand, face up"},
            "events": {"type": "array", "items": ref("web-event"),
                       "description": "what the action made happen"},
        }
    )
    replay = obj(
        {
            "players": {"type": "array", "items": TEXT, "description": "the record's players"},
            "seats": {"type": "array", "items": TEXT, "description": "each seat's kind "
                      "(human, rule ...) from the record's meta, if it has them"},
            "steps": {"type": "array", "items": step, "description": "every position"},
        },
        description="POST /api/replay (200): every position of a finished game's record",
    )
    return document(
        "http",
        "durak serve: HTTP bodies",
        "The JSON bodies of durak serve's HTTP routes, one definition each under $defs. GET "
        "/api/tables/<id>/record?game=N answers a game record (record-v1).",
        {
            "$defs": {
                "presets": obj(
                    {"lang": {**TEXT, "description": "the language of the localized texts: "
                              "'lang' if given, else the best of Accept-Language"},
                     "presets": {"type": "array", "items": preset},
                     "seat_kinds": {"type": "array", "items": seat_kind},
                     "levels": {"type": "array", "items": level, "description": "the bots' "
                                "strength levels, weakest first (durak.levels)"},
                     "max_timer": {**_TIMER, "description": "the longest turn timer a table "
                                   "may have (seconds)"},
                     "fixed_seeds": {**BOOL, "description": "whether a new table may fix its "
                                     "deal with a seed"}},
                    description="GET /api/presets",
                ),
                "i18n": i18n,
                "replay": replay,
                "create-table": {
                    "type": "object",
                    "description": "POST /api/tables (request)",
                    "additionalProperties": False,
                    "properties": {
                        "preset": {**TEXT, "description": "a preset's name (default podkidnoy)"},
                        "seats": {"type": "array", "items": seat_kind, "minItems": 2},
                        "rules": {
                            "type": "object",
                            "description": "settings changing the preset's (as in a rules "
                            "file)",
                        },
                        "seed": {
                            "type": ["integer", "string", "null"],
                            "description": "a fixed deal: only where the server allows it "
                            "(fixed_seeds in GET /api/presets)",
                        },
                        "timer": _TIMER,
                    },
                },
                "table": {**table, "description": "GET /api/tables/<id>; POST /api/tables (201)"},
                "error": obj(
                    {"error": {**TEXT, "description": "what was wrong, in English"},
                     **_ERROR_FIELDS,
                     "rule": {**TEXT, "description": "the rule an illegal "
                              "action breaks (POST /api/engine, 422)"},
                     "reason": {**_MESSAGE, "description": "why the rule refuses the action "
                                "(POST /api/engine, 422)"}},
                    ["error", "code", "params", "localized"],
                    description="any 4xx or 5xx answer (400, 404, 413, 422, 429, 503)",
                ),
                "engine-request": engine_request(),
                "engine-answer": engine_answer(),
            },
        },
    )


def engine_request() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "POST /api/engine (request): deal a game from 'rules' (or a 'preset') "
        "and a 'seed', or send a 'state' (its 'rules' may be left out and given beside it); "
        "with an 'action', the answer is the state after it. 'player' asks for that seat's "
        "view too.",
        "additionalProperties": False,
        "properties": {
            "rules": ref("rules"),
            "preset": TEXT,
            "seed": {"type": ["integer", "string"]},
            "state": {"type": "object"},
            "action": ref("action"),
            "player": nullable(SEAT),
        },
        "anyOf": [{"required": ["state"]}, {"required": ["seed"]}],
    }


def engine_answer() -> dict[str, Any]:
    return obj(
        {
            "state": ref("state"),
            "events": {"type": "array", "items": ref("event"),
                       "description": "what the action did (empty without one)"},
            "legal_actions": {"type": "array", "items": _ACTION_TEXT,
                              "description": "every seat's legal actions (R13.1)"},
            "acting": SEATS,
            "next_actor": nullable(SEAT),
            "result": nullable(ref("result")),
            "view": ref("view"),
        },
        ["state", "events", "legal_actions", "acting", "next_actor", "result"],
        description="POST /api/engine (200)",
    )


BUILDERS = {
    "card.schema.json": card,
    "result.schema.json": result,
    "rules.schema.json": rules,
    "action.schema.json": action,
    "event.schema.json": event,
    "state.schema.json": state,
    "view.schema.json": view,
    "record-v1.schema.json": record,
    "web-event.schema.json": web_event,
    "ws-server.schema.json": ws_server,
    "ws-client.schema.json": ws_client,
    "http.schema.json": http,
}


def text_of(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def build() -> dict[str, str]:
    """Every schema file's name and text."""
    return {name: text_of(make()) for name, make in BUILDERS.items()}


if __name__ == "__main__":
    for name, text in build().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"wrote {name}", file=sys.stderr)
