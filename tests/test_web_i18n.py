"""``durak serve`` in its players' languages (R13): every error of the server carries a stable
``server.`` code and its parameters beside the English text, and ``localized``, the same said
in the language of the request (``?lang=``, else ``Accept-Language``) or of the WebSocket; the
set-up page's preset descriptions come from the catalogs; game records stay data in no
language."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import starlette  # noqa: F401
from starlette.testclient import TestClient
from web_helpers import next_error, next_state

from durak.cards import Card
from durak.i18n import LANGUAGES, language
from durak.messages import TEMPLATES, message
from durak.presets import PRESETS
from durak.web import create_app
from durak.web.app import MAX_MESSAGE
from durak.web.config import ServerConfig
from durak.web.protocol import sentence
from durak.web.tables import TableManager

Message = dict[str, Any]

#: Server codes whose text is a JSON key of the request and the library's English detail: the
#: same in every language (tests/test_i18n_catalogs.py, SAME_CODE).
SAME_CODE = {
    "server.bad-rules",
    "server.engine-bad-seed",
    "server.engine-bad-state",
    "server.engine-bad-action",
}

SERVER_CODES = {code for code in TEMPLATES if code.startswith("server.")}


def _app(**config: Any) -> Any:
    settings = {"bot_delay": 0, **config}
    return create_app(tables=TableManager(ServerConfig(**settings)))


def _said(body: Message, lang: str) -> None:
    """``body`` is an error with a ``server.`` code whose ``localized`` text is its English
    one said anew in ``lang``: no field left unfilled, and not English in de, pl, ru."""
    code, english = body["code"], body.get("error", body.get("message"))
    assert code in SERVER_CODES, body
    assert isinstance(body["params"], dict)
    said = body["localized"]
    assert said and "{" not in said, body
    if lang != "en" and code not in SAME_CODE:
        assert said.lower() != english.lower(), (lang, body)


def _http_errors(client: TestClient, lang: str) -> dict[str, Message]:
    """Error answers of the HTTP routes, by code, asked for in ``lang``."""
    q = f"?lang={lang}"
    made = client.post("/api/tables" + q, json={"seats": ["human", "rule"]}).json()
    answers = [
        client.post("/api/tables" + q, content=b"x" * 20_000),
        client.post("/api/tables" + q, content=b"{nope"),
        client.post("/api/tables" + q, json=[1]),
        client.post("/api/tables" + q, json={"seats": ["human"], "colour": 1}),
        client.post("/api/tables" + q, json={"seats": ["human", "rule"], "rules": 3}),
        client.post("/api/tables" + q, json={"preset": 7, "seats": ["human", "rule"]}),
        client.post("/api/tables" + q, json={"preset": "skat", "seats": ["human", "rule"]}),
        client.post("/api/tables" + q, json={"seats": "human"}),
        client.post("/api/tables" + q, json={"seats": ["human", "robot"]}),
        client.post("/api/tables" + q, json={"seats": ["rule", "rule"]}),
        client.post("/api/tables" + q, json={"seats": ["human", "rule"], "seed": 1}),
        client.post("/api/tables" + q, json={"seats": ["human", "rule"], "timer": "soon"}),
        client.post("/api/tables" + q, json={"seats": ["human", "rule"], "timer": 10**6}),
        client.post(
            "/api/tables" + q, json={"seats": ["human", "rule"], "rules": {"preset": "polish"}}
        ),
        client.post("/api/tables" + q, json={"seats": ["human", "rule"], "rules": {"players": 3}}),
        client.post(
            "/api/tables" + q, json={"seats": ["human", "rule"], "rules": {"throwers": "x"}}
        ),
        client.post("/api/tables" + q, json={"preset": "pairs", "seats": ["human", "rule"]}),
        client.get("/api/tables/nope" + q),
        client.get(f"/api/tables/{made['id']}/record{q}&game=x"),
        client.get(f"/api/tables/{made['id']}/record{q}"),
        client.post("/api/replay" + q, content=b"[[["),
        client.post("/api/replay" + q, json={"format": "durak-record"}),
    ]
    out: dict[str, Message] = {}
    for answer in answers:
        assert answer.status_code >= 400, answer.text
        body = answer.json()
        out[body["code"]] = body
    return out


ENGINE_REQUESTS: list[Any] = [
    [1],
    {"seed": 1, "colour": 2},
    {"rules": {}},
    {"seed": 1, "rules": 5},
    {"seed": 1, "rules": {"throwers": "x"}},
    {"seed": None},
    {"seed": "x" * 10_000},
    {"state": {}, "seed": 1},
    {"state": 5},
    {"state": {}},
    {"seed": 1, "action": 5},
    {"seed": 3, "rules": {"players": 2}, "action": "p0 take"},
    {"seed": 1, "player": 9},
]


def _engine_errors(client: TestClient, lang: str) -> dict[str, Message]:
    out: dict[str, Message] = {}
    for body in ENGINE_REQUESTS:
        answer = client.post(f"/api/engine?lang={lang}", json=body)
        assert answer.status_code in (400, 422), (body, answer.text)
        out[answer.json()["code"]] = answer.json()
    big = client.post(f"/api/engine?lang={lang}", content=b" " * (300 * 1024))
    out[big.json()["code"]] = big.json()
    junk = client.post(f"/api/engine?lang={lang}", content=b"{nope")
    out[junk.json()["code"]] = junk.json()
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R13_every_http_error_code_is_said_in_the_request_s_language(lang: str) -> None:
    with TestClient(_app(tables_per_client=100)) as client:
        found = {**_http_errors(client, lang), **_engine_errors(client, lang)}
    for body in found.values():
        _said(body, lang)
    expected = {
        "server.body-too-big", "server.settings-not-json", "server.settings-not-object",
        "server.unknown-key", "server.rules-not-object", "server.preset-not-name",
        "server.unknown-preset", "server.no-seats", "server.unknown-seat-kind",
        "server.no-person", "server.no-fixed-seeds", "server.timer-type", "server.timer-range",
        "server.preset-in-rules", "server.players-mismatch", "server.bad-rules",
        "server.cannot-deal", "server.no-table", "server.bad-game-number", "server.no-record",
        "server.record-not-json", "server.not-a-record", "server.engine-not-object",
        "server.engine-unknown-field", "server.engine-no-state", "server.engine-rules-type",
        "server.engine-seed-type", "server.engine-bad-seed", "server.engine-both",
        "server.engine-state-type", "server.engine-bad-state", "server.engine-bad-action",
        "server.engine-illegal", "server.engine-bad-player", "server.engine-too-big",
        "server.engine-not-json",
    }  # fmt: skip
    assert expected <= set(found), expected - set(found)
    illegal = found["server.engine-illegal"]
    assert illegal["rule"] == "R4.2" and illegal["reason"]["code"] == "illegal.not-led"
    assert illegal["error"] == "p0 take: no bout has been led yet (R4.2)"
    assert illegal["localized"] == "p0 take: " + language(lang).template("not-led") + " (R4.2)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R13_the_seed_and_limit_errors_are_said_in_the_request_s_language(lang: str) -> None:
    headers = {"Accept-Language": f"{lang};q=0.9, en;q=0.1"}
    with TestClient(_app(allow_fixed_seeds=True, tables_per_client=1, max_timer=60)) as client:
        seats = ["human", "rule"]
        answers = [
            client.post("/api/tables", json={"seats": seats, "seed": seed}, headers=headers)
            for seed in (True, -1, "x" * 65, None, None)
        ]
    assert [a.status_code for a in answers] == [400, 400, 400, 201, 429]
    codes = [a.json()["code"] for a in answers if a.status_code >= 400]
    assert codes == [
        "server.seed-type",
        "server.seed-number",
        "server.seed-text",
        "server.too-many-tables",
    ]
    for answer in answers:
        if answer.status_code >= 400:
            _said(answer.json(), lang)
    assert answers[-1].json()["params"] == {"count": 1, "limit": 1}
    with TestClient(_app(max_tables=1)) as client:
        client.post("/api/tables", json={"seats": ["human", "rule"]})
        full = client.post(f"/api/tables?lang={lang}", json={"seats": ["human", "rule"]})
    assert full.status_code == 503 and full.json()["code"] == "server.server-full"
    _said(full.json(), lang)


def test_R13_the_plural_forms_of_a_limit_are_right_in_each_language() -> None:
    with TestClient(_app(max_tables=1)) as client:
        client.post("/api/tables", json={"seats": ["human", "rule"]})
        said = {
            lang: client.post(f"/api/tables?lang={lang}", json={"seats": ["human", "rule"]}).json()
            for lang in LANGUAGES
        }
    assert said["en"]["error"] == "the server is full (1 table in play): try again later"
    assert said["de"]["localized"] == (
        "der Server ist voll (1 Tisch in Betrieb): versuch es später noch einmal"
    )
    assert "(1 stół w grze)" in said["pl"]["localized"]
    assert "за 1 столом" in said["ru"]["localized"]
    forms = {n: language("pl").say(message("server.server-full", n=n)) for n in (2, 5, 22)}
    assert "(2 stoły" in forms[2] and "(5 stołów" in forms[5] and "(22 stoły" in forms[22]
    ru = {n: language("ru").say(message("server.record-too-long", n=n)) for n in (1, 3, 1000)}
    assert ru[1].endswith("1 хода") and ru[3].endswith("3 ходов") and ru[1000].endswith("ходов")


def test_an_unknown_lang_falls_back_to_accept_language_then_english() -> None:
    with TestClient(_app()) as client:
        asked = client.get("/api/tables/nope?lang=xx", headers={"Accept-Language": "ru"})
        plain = client.get("/api/tables/nope", headers={"Accept-Language": "fr, de;q=0.5"})
        none = client.get("/api/tables/nope")
    assert asked.json()["localized"] == "такого стола нет"
    assert plain.json()["localized"] == "diesen Tisch gibt es nicht"
    assert none.json() == {
        "error": "there is no such table",
        "code": "server.no-table",
        "params": {},
        "localized": "there is no such table",
    }


def _table(client: TestClient, seats: list[str], seed: int = 5) -> str:
    made = client.post("/api/tables", json={"seats": seats, "seed": seed})
    assert made.status_code == 201, made.text
    table_id: str = made.json()["id"]
    return table_id


def test_R13_a_german_websocket_hears_german_errors_for_an_illegal_action_and_a_refusal() -> None:
    with TestClient(_app(allow_fixed_seeds=True)) as client:
        table_id = _table(client, ["human", "rule"])
        with client.websocket_connect(f"/ws/{table_id}?lang=de") as ws:
            seat = ws.receive_json()["seat"]
            state = next_state(ws)
            hand = state["view"]["hand"]
            # An illegal action: a card he does not hold (R13.1) ...
            foreign = next(c for c in ("6c", "6d", "6h", "6s", "7c", "7d") if c not in hand)
            ws.send_text(f"p{seat} lead {foreign}")
            illegal = next_error(ws)
            assert illegal["code"] == "server.illegal-action"
            assert illegal["message"] == (
                f"Illegal action p{seat} lead {foreign}: {foreign} is not in player {seat}'s hand"
                " (R13.1)."
            )
            card = language("de").card(Card.parse(foreign))
            assert illegal["localized"] == (
                f"Unerlaubter Zug p{seat} lead {foreign}: {card} hast du nicht auf der Hand "
                "(R13.1)."
            )
            assert illegal["rule"] == "R13.1" and illegal["reason"]["code"] == "illegal.not-in-hand"
            assert illegal["params"]["reason"] == illegal["reason"]
            # ... and refused requests: the next game while this one is played, another seat.
            ws.send_text(json.dumps({"type": "restart"}))
            refused = next_error(ws)
            assert (refused["code"], refused["message"], refused["localized"]) == (
                "server.game-running",
                "The game is still being played.",
                "Das Spiel läuft noch.",
            )
            ws.send_text(f"p{1 - seat} take")
            other = next_error(ws)
            assert other["code"] == "server.not-your-seat"
            assert other["localized"] == (
                f"Du sitzt auf Platz {seat} (P{seat}): du kannst nicht für P{1 - seat} spielen "
                f"(p{1 - seat} take)."
            )
            ws.send_text("x" * (MAX_MESSAGE + 1))
            long = next_error(ws)
            assert long["code"] == "server.message-too-long"
            assert long["localized"] == "Nachricht zu lang (mehr als 4096 Zeichen)."
            ws.send_text(json.dumps({"type": "dance"}))
            assert next_error(ws)["localized"] == (
                "Nicht verstanden: unbekannte Nachrichtenart 'dance'."
            )
            ws.send_text("p0 frobnicate")
            unclear = next_error(ws)
            assert unclear["code"] == "server.not-understood"
            assert unclear["localized"].startswith("Nicht verstanden: ")
            assert (
                unclear["localized"][len("Nicht verstanden: ") :]
                == (unclear["message"][len("Not understood: ") :])
            )  # the reader's own reason stays English: it is the library's, not the server's


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R13_a_websocket_s_language_is_its_lang_else_its_accept_language(lang: str) -> None:
    with TestClient(_app()) as client:
        with client.websocket_connect("/ws/nope", headers={"Accept-Language": lang}) as ws:
            by_header = ws.receive_json()
        with client.websocket_connect(f"/ws/nope?lang={lang}") as ws:
            by_query = ws.receive_json()
        table_id = client.post("/api/tables", json={"seats": ["human", "rule"]}).json()["id"]
        with client.websocket_connect(f"/ws/{table_id}") as player:
            player.receive_json()
            with client.websocket_connect(f"/ws/{table_id}?lang={lang}") as onlooker:
                assert onlooker.receive_json()["seat"] is None
                onlooker.send_text(json.dumps({"type": "leave"}))
                leave = next_error(onlooker)
                onlooker.send_text("p0 take")
                act = next_error(onlooker)
                onlooker.send_text(json.dumps({"type": "restart"}))
                restart = next_error(onlooker)
    assert by_header == by_query and by_header["code"] == "server.no-table"
    assert by_header["localized"] == sentence(language(lang).template("server.no-table"))
    assert [leave["code"], act["code"], restart["code"]] == [
        "server.no-seat-to-leave",
        "server.onlooker-acts",
        "server.onlooker-restart",
    ]
    for frame in (by_header, leave, act, restart):
        _said(frame, lang)


def test_R13_a_full_table_and_another_origin_are_refused_in_the_connection_s_language() -> None:
    with TestClient(_app(sockets_per_table=1)) as client:
        table_id = client.post("/api/tables", json={"seats": ["human", "rule"]}).json()["id"]
        with client.websocket_connect(f"/ws/{table_id}") as first:
            first.receive_json()
            with client.websocket_connect(f"/ws/{table_id}?lang=pl") as second:
                crowded = second.receive_json()
        headers = {"Origin": "http://evil.example", "Accept-Language": "ru"}
        with client.websocket_connect(f"/ws/{table_id}", headers=headers) as foreign:
            origin = foreign.receive_json()
    assert crowded["code"] == "server.table-crowded" and crowded["params"] == {"n": 1}
    assert crowded["localized"] == (
        "Ten stół ma 1 połączenie, więcej nie przyjmie: spróbuj później."
    )
    assert origin["code"] == "server.origin-refused"
    assert origin["localized"] == "Страницам этого сайта здесь играть нельзя."
    with TestClient(_app(sockets_per_client=1)) as client:
        table_id = client.post("/api/tables", json={"seats": ["human", "rule"]}).json()["id"]
        with client.websocket_connect(f"/ws/{table_id}") as first:
            first.receive_json()
            with client.websocket_connect(f"/ws/{table_id}?lang=de") as second:
                many = second.receive_json()
    assert many["code"] == "server.client-crowded" and many["params"] == {"count": 1, "limit": 1}
    assert many["localized"] == "Zu viele Verbindungen von deiner Adresse (1; höchstens 1)."


def test_the_set_up_page_s_presets_are_described_in_polish() -> None:
    pl = language("pl")
    with TestClient(_app()) as client:
        answer = client.get("/api/presets", headers={"Accept-Language": "pl-PL,pl;q=0.9"})
        asked = client.get("/api/presets?lang=pl", headers={"Accept-Language": "de"})
    assert answer.json() == asked.json()
    body = answer.json()
    assert body["lang"] == "pl"
    by_name = {p["name"]: p for p in body["presets"]}
    assert set(by_name) == set(PRESETS)
    podkidnoy = by_name["podkidnoy"]
    assert podkidnoy["description"] == PRESETS["podkidnoy"].description  # English kept
    assert podkidnoy["localized_description"] == (
        "Dureń z dokładaniem: klasyczna gra, wszyscy pozostali gracze mogą dokładać"
    )
    assert podkidnoy["localized_source"] == "niemiecka strona pomocy; pagat.com"
    for preset in by_name.values():
        assert preset["localized_description"] == pl.gettext(preset["description"])
        assert preset["localized_description"] != preset["description"]
        assert preset["localized_source"] != preset["source"]


def _play_to_the_end(ws: Any, seat: int, rng: random.Random) -> Message:
    message = next_state(ws)
    for _ in range(3000):
        v = message["view"]
        if v["result"] is not None:
            return message
        if v["next_actor"] == seat and v["legal_actions"]:
            ws.send_text(rng.choice(v["legal_actions"]))
        version = message["version"]
        while True:
            message = next_state(ws)
            if message["version"] > version:
                break
    raise AssertionError("the game did not end")


def test_R13_a_record_is_the_same_whatever_the_language_of_who_played_or_downloads_it() -> None:
    texts: dict[str, str] = {}
    with TestClient(_app(allow_fixed_seeds=True)) as client:
        for lang in ("de", "ru"):
            table_id = _table(client, ["human", "rule", "random"], seed=11)
            headers = {"Accept-Language": lang}
            with client.websocket_connect(f"/ws/{table_id}?lang={lang}", headers=headers) as ws:
                seat = ws.receive_json()["seat"]
                _play_to_the_end(ws, seat, random.Random(4))
            for viewer in LANGUAGES:
                got = client.get(
                    f"/api/tables/{table_id}/record?lang={viewer}",
                    headers={"Accept-Language": viewer},
                )
                assert got.status_code == 200
                texts.setdefault(lang, got.text)
                assert got.text == texts[lang], viewer  # the same bytes for every viewer
            replays = {
                viewer: client.post(f"/api/replay?lang={viewer}", content=texts[lang]).json()
                for viewer in LANGUAGES
            }
            assert all(r == replays["en"] for r in replays.values())
            assert replays["en"]["players"] == ["P0", "P1", "P2"]
            assert replays["en"]["seats"] == ["human", "rule", "random"]
    german, russian = (json.loads(texts[lang]) for lang in ("de", "ru"))
    assert german["players"] == ["P0", "P1", "P2"]
    assert german["meta"]["seats"] == ["human", "rule", "random"]
    for record in (german, russian):
        del record["meta"]["table"]
    assert german == russian  # played in German or in Russian: the same record


def test_the_protocol_page_lists_every_server_error_code_with_its_english_text() -> None:
    page = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text("utf-8")
    section = page.split("### Error codes", 1)[1]
    rows = re.findall(r"^\| `(server\.[a-z-]+)` \| [^|]+ \| (.+) \|$", section, re.M)
    listed = dict(rows)
    assert len(rows) == len(listed) and set(listed) == SERVER_CODES
    for code, text in listed.items():
        singular, plural = TEMPLATES[code]
        assert text == (plural or singular), code
