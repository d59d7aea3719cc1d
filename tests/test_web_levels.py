"""The web server's strength levels (issue 29, item 4): a seat holds a bot of a level, the
hardest thinking for the server's per-move budget; the set-up page lists the levels."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from durak.bots import RuleBot, SearchBot
from durak.levels import LEVELS
from durak.web import create_app
from durak.web.config import ServerConfig
from durak.web.tables import TableError, TableManager, level_catalogue
from durak.web.thinking import searches


@pytest.fixture
def tables() -> TableManager:
    return TableManager(ServerConfig(bot_delay=0, allow_fixed_seeds=True, move_budget=0.2))


@pytest.fixture
def client(tables: TableManager) -> Iterator[TestClient]:
    with TestClient(create_app(tables=tables)) as c:
        yield c


def test_issue29_a_seat_of_each_level_gets_its_bot_and_the_best_the_servers_budget(
    tables: TableManager,
) -> None:
    table = tables.create("podkidnoy", ["human", "easy", "normal", "hard", "best"], seed=1)
    easy, normal, hard, best = (seat.bot for seat in table.seats[1:])
    assert isinstance(easy, RuleBot) and easy.blunder == 0.3
    assert isinstance(normal, RuleBot) and normal.blunder == 0
    assert isinstance(hard, SearchBot) and hard.time_limit == 0.05
    assert isinstance(best, SearchBot) and best.time_limit == 0.2  # move_budget, not 0.5
    assert type(best).__name__ == "LeafBot"
    assert [searches(bot) for bot in (easy, normal, hard, best)] == [False, False, True, True]
    titles = [info["title"] for info in table.seat_info()]
    assert titles == ["Person", "Easy bot", "Normal bot", "Hard bot", "Best bot"]
    # The old kinds are still seats; an unknown one is refused as before.
    tables.create("podkidnoy", ["human", "rule", "search"])
    with pytest.raises(TableError) as err:
        tables.create("podkidnoy", ["human", "expert"])
    assert err.value.message.code == "server.unknown-seat-kind"


def test_issue29_a_short_server_budget_caps_the_hard_level_too() -> None:
    manager = TableManager(ServerConfig(bot_delay=0, move_budget=0.02))
    table = manager.create("podkidnoy", ["human", "hard", "best"])
    assert [seat.bot.time_limit for seat in table.seats[1:]] == [0.02, 0.02]
    assert [level["budget"] for level in level_catalogue(0.02)] == [0, 0, 0.02, 0.02]


def test_issue29_the_set_up_page_gets_the_levels_in_its_language(client: TestClient) -> None:
    data = client.get("/api/presets?lang=de").json()
    levels = data["levels"]
    assert [level["name"] for level in levels] == list(LEVELS)
    assert [level["budget"] for level in levels] == [0, 0, 0.05, 0.2]
    assert levels[0]["description"] == LEVELS["easy"].description
    assert levels[0]["localized_description"].startswith("Leicht:")
    assert {level["name"] for level in levels} <= set(data["seat_kinds"])
    answer = client.post("/api/tables", json={"preset": "podkidnoy", "seats": ["human", "best"]})
    assert answer.status_code == 201, answer.text
    assert [s["kind"] for s in answer.json()["seats"]] == ["human", "best"]
