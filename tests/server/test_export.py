"""The replay export for analysts: cursor paging, its filters, NDJSON or msgpack, and
gzip or zstd (docs/REPLAYS.md, "Exporting many replays"), through the real app."""

from __future__ import annotations

import asyncio
import gzip
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import msgpack  # type: ignore[import-untyped]
import pytest
import zstandard
from aiohttp.test_utils import TestClient as HttpClient
from aiohttp.test_utils import make_mocked_request

from dominion.server.cluster.listing import node_query
from dominion.server.edge.api.export_body import coding_of
from dominion.server.edge.api.export_query import export_filters
from dominion.server.edge.api.filters import game_filters
from dominion.server.edge.api.node_api import NODE_PAGING
from dominion.server.edge.app import create_app
from dominion.server.play.fill import fill
from dominion.server.replays.fields import SeatRating
from dominion.server.settings import Settings
from dominion.server.storage import Storage
from dominion.server.storage.keyset import encode_keyset

from .restapi import DOCUMENT, case, check_response

GAMES = 7
EXPORT = "/api/v1/replays/export"
NEXT = "X-Dominion-Next-Cursor"


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven finished bot games; games 0 and 1 marked rated, 2 played by people, 3 taken
    over (ids in the order `ids` gives, newest first)."""
    db = tmp_path_factory.mktemp("export") / "games.sqlite3"

    async def store() -> None:
        storage = Storage.open(str(db))
        await storage.start()
        try:
            await fill(storage, GAMES, seed=5)
        finally:
            await storage.close()

    asyncio.run(store())
    with closing(sqlite3.connect(db)) as conn, conn:
        # ends two by two in the same second: pages of three end between two such games,
        # and the cursor breaks their tie by id
        for index, (game,) in enumerate(conn.execute("SELECT id FROM games").fetchall()):
            conn.execute("UPDATE games SET finished_at = ? WHERE id = ?",
                         [f"2026-11-0{1 + index // 2}T12:00:00Z", game])
        ids = [row[0] for row in conn.execute(
            "SELECT id FROM games ORDER BY finished_at DESC, id DESC")]
        conn.execute("UPDATE games SET options = json_set(options, '$.rated', json('true')) "
                     "WHERE id IN (?, ?)", ids[:2])
        conn.execute("UPDATE seats SET bot = NULL WHERE game_id = ?", [ids[2]])
        conn.execute("UPDATE seats SET taken_over_at = finished_at FROM games "
                     "WHERE games.id = seats.game_id AND game_id = ? AND seat = 0", [ids[3]])
    return db


@pytest.fixture
async def http(aiohttp_client: Any, filled: Path, tmp_path: Path) -> HttpClient:
    copy = tmp_path / "games.sqlite3"
    with closing(sqlite3.connect(filled)) as source, closing(sqlite3.connect(copy)) as target:
        source.backup(target)  # the write-ahead log's pages too
    settings = Settings(db=str(copy), work_per_second=10**7, work_burst=10**7,
                        server_work_per_second=10**7)
    client: HttpClient = await aiohttp_client(create_app(settings))
    return client


def ids_of(filled: Path) -> list[str]:
    with closing(sqlite3.connect(filled)) as conn:
        return [row[0] for row in conn.execute(
            "SELECT id FROM games ORDER BY finished_at DESC, id DESC")]


async def exported(http: HttpClient, query: str = "", **headers: str
                   ) -> tuple[list[dict[str, Any]], str | None]:
    response = await http.get(EXPORT + query, headers=headers)
    assert response.status == 200, await response.text()
    body = await response.read()  # aiohttp decodes gzip (and zstd, where it can) itself
    return [json.loads(line) for line in body.splitlines()], response.headers.get(NEXT)


async def test_paging_with_cursors_returns_each_game_once_newest_first(
        http: HttpClient, filled: Path) -> None:
    seen: list[str] = []
    query = "?limit=3"
    pages = 0
    while True:
        replays, cursor = await exported(http, query)
        seen += [replay["game"]["id"] for replay in replays]
        pages += 1
        if cursor is None:
            break
        query = f"?limit=3&cursor={cursor}"
    assert seen == ids_of(filled) and pages == 3


async def test_a_full_last_page_ends_with_an_empty_one(http: HttpClient) -> None:
    replays, cursor = await exported(http, f"?limit={GAMES}")
    assert len(replays) == GAMES and cursor is not None
    assert await exported(http, f"?limit={GAMES}&cursor={cursor}") == ([], None)


FILTERS: list[tuple[str, list[int]]] = [
    ("?rated=true", [0, 1]),
    ("?rated=false", [2, 3, 4, 5, 6]),
    ("?people=true", [2]),
    ("?people=false", [0, 1, 3, 4, 5, 6]),
    ("?takeovers=false", [0, 1, 2, 4, 5, 6]),
    ("?takeovers=true", [3]),
    ("?edition=1", []),
    ("?players=2&edition=2", [0, 1, 2, 3, 4, 5, 6]),
    ("?until=2000-01-01", []),
    ("?since=2000-01-01", [0, 1, 2, 3, 4, 5, 6]),
]


async def test_each_filter_keeps_its_games(http: HttpClient, filled: Path) -> None:
    ids = ids_of(filled)
    for query, which in FILTERS:  # on one app (an app a case cost more than its query)
        with case(query):
            replays, _ = await exported(http, query)
            assert [replay["game"]["id"] for replay in replays] == [ids[i] for i in which]


async def test_a_kingdom_holds_every_card_asked_for(http: HttpClient, filled: Path) -> None:
    every, _ = await exported(http)
    kingdom = every[0]["game"]["kingdom"]
    both, _ = await exported(http, f"?cards={kingdom[0]},{kingdom[1]}")
    assert every[0] in both
    assert all({kingdom[0], kingdom[1]} <= set(r["game"]["kingdom"]) for r in both)
    others = [r for r in every if r not in both]
    assert all(not {kingdom[0], kingdom[1]} <= set(r["game"]["kingdom"]) for r in others)


async def test_rating_min_reads_the_ledgers_ratings_after_selection(
        http: HttpClient, filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = ids_of(filled)
    ratings = {ids[0]: 1500, ids[1]: 1200}

    async def ledger_ratings(request: Any, game_id: str) -> dict[int, SeatRating]:
        return {seat: SeatRating(ratings[game_id], ratings[game_id] + 1) for seat in (0, 1)}

    monkeypatch.setattr("dominion.server.edge.api.replay_api.ledger_ratings", ledger_ratings)
    high, _ = await exported(http, "?rating_min=1400")
    assert [replay["game"]["id"] for replay in high] == [ids[0]]
    assert high[0]["players"][0]["rating_before"] == 1500
    both, _ = await exported(http, "?rating_min=1000")
    assert [replay["game"]["id"] for replay in both] == ids[:2]


async def test_msgpack_and_ndjson_hold_the_same_replays(http: HttpClient) -> None:
    as_json, _ = await exported(http)
    response = await http.get(EXPORT, headers={"Accept": "application/msgpack"})
    assert response.headers["Content-Type"] == "application/msgpack"
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(await response.read())
    assert list(unpacker) == as_json and len(as_json) == GAMES


@pytest.mark.parametrize("coding", ["gzip", "zstd"])
async def test_compressed_bodies_decode_to_the_same_replays(http: HttpClient,
                                                            coding: str) -> None:
    plain = await (await http.get(EXPORT)).read()
    response = await http.get(EXPORT, headers={"Accept-Encoding": coding},
                              auto_decompress=False)
    assert response.headers["Content-Encoding"] == coding
    raw = await response.read()
    decoded = (gzip.decompress(raw) if coding == "gzip"
               else zstandard.ZstdDecompressor().decompressobj().decompress(raw))
    assert decoded == plain and len(raw) < len(plain) / 3


@pytest.mark.parametrize(("header", "coding"), [
    ("zstd, gzip", "zstd"), ("gzip;q=0.5, zstd;q=0", "gzip"), ("zstd;q=0.000", None),
    ("GZIP ; Q=1", "gzip"), ("br, identity", None), ("zstd;q=x", "zstd")])
def test_a_coding_weighted_zero_is_refused(header: str, coding: str | None) -> None:
    request = make_mocked_request("GET", EXPORT, headers={"Accept-Encoding": header})
    assert coding_of(request) == coding


BAD_QUERIES: list[tuple[str, int, str]] = [
    ("?cursor=not-a-cursor", 400, "bad_cursor"),
    ("?cursor=" + encode_keyset(("2026-01-01T00:00:00Z", "g-0123456789ab"))[:-2], 400,
     "bad_cursor"),
    ("?cursor=" + encode_keyset(("2026-01-01T00:00:00Z", "g-0123456789ab")) + "&offset=3",
     400, "bad_paging"),
    ("?rated=yes", 400, "bad_filter"),
    ("?cards=witch,dragon", 400, "bad_filter"),
    ("?rating_min=-1", 400, "bad_filter"),
]


async def test_a_bad_cursor_or_filter_gets_a_typed_error(http: HttpClient) -> None:
    for query, status, code in BAD_QUERIES:  # on one app
        with case(query):
            response = await http.get(EXPORT + query)
            text = await response.text()
            assert response.status == status
            assert json.loads(text)["error"]["code"] == code
            check_response(DOCUMENT, "GET", EXPORT, status, response.content_type, text)


async def test_the_old_offset_still_pages(http: HttpClient, filled: Path) -> None:
    replays, _ = await exported(http, "?offset=5")
    assert [replay["game"]["id"] for replay in replays] == ids_of(filled)[5:]


def test_another_node_reads_an_exports_filters_back_as_they_were_sent() -> None:
    """Behind several nodes, the node asked sends every node the export's filters and
    cursor (node_query); each reads them as its own export would."""
    sent = {"state": "ended", "player": None, "since": None, "until": None, "edition": 2,
            "players": None, "card": None, "limit": 50, "offset": 0,
            "before": ("2026-01-01T00:00:00Z", "g-a-0123456789ab"), "cards": ("witch", "moat"),
            "people": True, "takeovers": False, "rated": True}
    request = make_mocked_request("GET", "/api/v1/node/games?" + urlencode(node_query(sent)))
    read = game_filters(request, NODE_PAGING)
    export_filters(request, read)
    assert read == sent
