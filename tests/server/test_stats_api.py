"""The card statistics and the dumps over REST (stats_api.py), and the dumps the server
makes on its schedule (tasks/dumps.py): docs/STATISTICS.md."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dominion.server.edge.app import create_app
from dominion.server.edge.tasks.dumps import Dumps, ended_period, next_period_start
from dominion.server.main import main
from dominion.server.play.clock import LOOP_CLOCK
from dominion.server.settings import DumpEvery, Settings
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .restapi import Api
from .test_statistics import december

pytest.importorskip("duckdb", reason="pip install -e '.[stats]'")
pytest.importorskip("zstandard", reason="pip install -e '.[dumps]'")


@pytest.fixture
def make_api(aiohttp_client: Any, tmp_path: Path) -> Any:
    async def make(**settings: Any) -> Api:
        app = create_app(Settings(db=str(tmp_path / "games.sqlite3"), **settings))
        return Api(await aiohttp_client(app))
    return make


async def counted(api: Api) -> bool:
    return bool((await api.call("GET", "/api/v1/stats/games", 200))["periods"])


async def test_the_statistics_of_the_dumps_with_their_intervals(make_api: Any,
                                                                tmp_path: Path) -> None:
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    december(dumps)
    api = await make_api(dumps=str(dumps))
    await eventually(lambda: counted(api))
    cards = await api.call("GET", "/api/v1/stats/cards", 200)
    assert cards["periods"] == ["2026-12"]
    smithy = next(card for card in cards["cards"] if card["card"] == "smithy")
    assert smithy["in_supply"] == 6
    assert (smithy["with_card"]["hits"], smithy["with_card"]["n"]) == (2, 3)
    assert smithy["with_card"]["low"] < smithy["with_card"]["rate"] < smithy["with_card"]["high"]
    assert smithy["gain_rate"]["rate"] == 0.5
    bots = await api.call("GET", "/api/v1/stats/cards?who=bots&edition=2&players=2", 200)
    assert next(card for card in bots["cards"] if card["card"] == "smithy")["in_supply"] == 2
    openings = await api.call("GET", "/api/v1/stats/openings?limit=1", 200)
    assert openings["seats"] == 6 and len(openings["openings"]) == 1
    games = await api.call("GET", "/api/v1/stats/games", 200)
    assert games["first_player"] == [{"players": 2, "fair": 0.5, "wins": {
        "n": 3, "hits": 2, "rate": 0.6667, "low": 0.2077, "high": 0.9385}}]
    assert games["lengths"] == [{"turns": 15, "games": 2}, {"turns": 18, "games": 1}]
    rated = await api.call("GET", "/api/v1/stats/games?rated=true&band=1400", 200)
    assert rated["first_player"] == rated["lengths"] == []
    for query in ("band=150", "who=cats", "rated=yes", "players=7", "edition=3"):
        body = await api.call("GET", f"/api/v1/stats/cards?{query}", 400)
        assert body["error"]["code"] == "bad_filter"
    await api.call("GET", "/api/v1/stats/openings?limit=0", 400)


async def test_the_dumps_are_listed_with_their_manifests_and_served(make_api: Any,
                                                                   tmp_path: Path) -> None:
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    december(dumps)
    (dumps / "notes.txt").write_text("not a dump's")
    api = await make_api(dumps=str(dumps))
    listed = await api.call("GET", "/api/v1/dumps", 200)
    assert listed["licence"].startswith("CC0-1.0")
    [december_dump] = listed["dumps"]
    assert december_dump["period"] == "2026-12"
    games = next(f for f in december_dump["files"] if f["name"].endswith(".games.parquet"))
    body = (dumps / games["name"]).read_bytes()
    assert games["bytes"] == len(body) and games["url"] == f"/dumps/{games['name']}"
    response = await api.client.get(games["url"])
    assert response.status == 200 and await response.read() == body
    response = await api.client.get(games["url"], headers={"Range": "bytes=0-3"})
    assert response.status == 206 and await response.read() == b"PAR1"
    for name in ("notes.txt", "dominion-2027-01.games.parquet"):
        await api.call("GET", f"/dumps/{name}", 404)
    assert (await api.client.get("/dumps/..%2Fgames.sqlite3")).status == 404


async def test_a_server_without_dumps_has_no_statistics(make_api: Any) -> None:
    api = await make_api()
    for path in ("/api/v1/stats/cards", "/api/v1/dumps", "/dumps/dominion-all.games.parquet"):
        assert (await api.call("GET", path, 404))["error"]["code"] == "not_found"


async def test_a_dump_made_by_others_is_counted_at_the_next_refresh(
        aiohttp_client: Any, tmp_path: Path) -> None:
    clock = VirtualClock()
    settings = Settings(db=str(tmp_path / "games.sqlite3"), dumps=str(tmp_path / "dumps"),
                        stats_refresh_seconds=60)
    api = Api(await aiohttp_client(create_app(settings, clock=clock)))
    await eventually(lambda: clock.asleep == 1)  # the first refresh found nothing
    assert not await counted(api)
    december(tmp_path / "dumps")  # a timer's, or a person's
    clock.advance(59)
    assert not await counted(api)
    clock.advance(1)
    await eventually(lambda: counted(api))


def test_the_period_that_ended_last_and_when_the_next_ends() -> None:
    now = datetime(2026, 12, 1, 0, 0, 30, tzinfo=UTC)
    assert ended_period(DumpEvery.DAY, now) == "2026-11-30"
    assert ended_period(DumpEvery.MONTH, now) == "2026-11"
    assert ended_period(DumpEvery.MONTH, datetime(2027, 1, 15, tzinfo=UTC)) == "2026-12"
    assert next_period_start(DumpEvery.DAY, now) == datetime(2026, 12, 2, tzinfo=UTC)
    assert next_period_start(DumpEvery.MONTH, datetime(2026, 12, 31, 23, tzinfo=UTC)) == \
        datetime(2027, 1, 1, tzinfo=UTC)


def test_a_day_is_dumped_once_it_has_ended_and_once_only(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    assert main(["fill", "--db", str(db), "--games", "2", "--seed", "4"]) == 0
    settings = Settings(db=str(db), dumps=str(tmp_path), dump_every=DumpEvery.DAY)
    dumps = Dumps(settings, None, LOOP_CLOCK)
    today = datetime.now(UTC)
    assert dumps.make_due(today) == (today - timedelta(days=1)).strftime("%Y-%m-%d")
    assert dumps.make_due(today + timedelta(days=1)) == today.strftime("%Y-%m-%d")
    manifest = (tmp_path / f"dominion-{today:%Y-%m-%d}.manifest.json").read_text()
    assert '"rows": 2' in manifest
    assert dumps.make_due(today + timedelta(days=1)) is None  # made already


async def test_the_server_makes_the_dump_that_is_due_and_lists_it(make_api: Any,
                                                                 tmp_path: Path) -> None:
    api = await make_api(dumps=str(tmp_path / "made"), dump_every=DumpEvery.DAY)
    yesterday = (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%d")

    async def listed() -> bool:
        dumps = (await api.call("GET", "/api/v1/dumps", 200))["dumps"]
        return [dump["period"] for dump in dumps] == [yesterday]
    await eventually(listed)
    await eventually(lambda: counted(api))  # and the statistics read it


def test_a_schedule_needs_a_folder() -> None:
    assert "--dump-every needs --dumps" in (Settings(dump_every=DumpEvery.DAY).problem() or "")
