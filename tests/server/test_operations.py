"""The one layer every REST operation goes through: a declaration mounts the route,
encodes the answer and documents both (server/edge/api/operation.py, models.py), and
reads and documents a query string from one declaration (query.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, make_mocked_request

from dominion.protocol import ErrorCode
from dominion.protocol.spec import Int
from dominion.server.edge.api.filters import LISTING, GameFilters, Paging, game_filters
from dominion.server.edge.api.models import (
    MODELS,
    SCHEMAS,
    TIMESTAMP,
    decode,
    encode,
    member,
    model,
    ref,
    schema_of,
)
from dominion.server.edge.api.operation import (
    Operation,
    Param,
    Reply,
    Routes,
    Tag,
    Where,
    documented_path,
    paths,
)
from dominion.server.edge.api.query import query_parameters, read_query
from dominion.server.refusal import Refusal


@model("A thing.")
class Thing:
    id: int = member(Int(1, 9), "its number")
    at: datetime = member(TIMESTAMP)
    note: str | None = member({"type": "string"}, omitted_if_none=True)


@model(closed=False)
class Wish:
    name: object = member({"type": "string"})
    size: object = member({"type": "integer"}, default=3)


@model()
class Box:
    things: list[Thing] = member({"type": "array", "items": ref(Thing)})


def test_a_model_encodes_as_its_schema_says() -> None:
    thing = Thing(1, datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    assert encode(Box([thing])) == {"things": [{"id": 1, "at": "2026-01-02T03:04:05Z"}]}
    assert encode(Thing(2, thing.at, "n"))["note"] == "n"
    assert schema_of(Thing) == {
        "type": "object", "description": "A thing.", "additionalProperties": False,
        "properties": {"id": {"type": "integer", "minimum": 1, "maximum": 9,
                              "description": "its number"},
                       "at": TIMESTAMP, "note": {"type": "string"}},
        "required": ["id", "at"]}  # a member left out when None is not required
    assert MODELS["Thing"] is Thing


def test_every_body_of_the_api_is_a_model_but_a_few_shapes_it_does_not_own() -> None:
    """A component schema written by hand is a second description of a shape built
    somewhere else; the few left are shared strings, the refusal the layer writes,
    py_webauthn's options and the replay format's own schema file."""
    import dominion.server.edge.api.openapi  # noqa: F401 (every route module: every model)

    assert sorted(SCHEMAS) == ["Error", "Name", "PasskeyOptions", "Replay", "ReplayTime",
                               "ReplayTimeOrNull", "Token"]


def test_a_request_model_takes_members_as_sent() -> None:
    wish = decode(Wish, {"name": 5, "other": "ignored"})
    assert (wish.name, wish.size) == (5, 3)  # the service refuses a bad value by its code
    assert decode(Wish, {}).name is None
    schema = schema_of(Wish)
    assert schema["required"] == ["name"] and "additionalProperties" not in schema


def test_two_models_may_not_share_a_name() -> None:
    with pytest.raises(ValueError, match="Thing"):
        @model()
        class Thing:
            id: int = member({"type": "integer"})


def test_an_operation_lists_its_refusals_by_their_status() -> None:
    operation = Operation("POST", "/things/{thing_id:\\d+}", "makeThing", Tag.GAMES, "Make one",
                          (Reply(201, "Made", Thing),), (ErrorCode.GAME_FULL, ErrorCode.BAD_NAME),
                          body=Wish, notes={409: "No room"},
                          parameters=(Param("thing_id", Where.PATH, {"type": "string"}),))
    table = Routes()
    table(operation)(_made)
    item = paths([table])["/api/v1/things/{thing_id}"]
    assert item["parameters"] == [{"name": "thing_id", "in": "path", "required": True,
                                   "schema": {"type": "string"}}]
    responses = item["post"]["responses"]
    # its own codes, reading the body's, and internal_error, each under its code's status
    assert set(responses) == {"201", "400", "408", "409", "413", "415", "500"}
    assert _codes(responses["400"]) == ["bad_name", "bad_json"]
    assert _codes(responses["409"]) == ["game_full"]
    assert responses["409"]["description"].startswith("No room. Codes: `game_full`: ")
    assert responses["500"]["description"].startswith("Internal Server Error. Codes:")
    assert item["post"]["requestBody"]["content"]["application/json"]["schema"] == ref(Wish)


def test_the_document_writes_a_path_without_its_patterns() -> None:
    assert documented_path("/api/v1", r"/a/{id:\d{1,18}}/b/{rest:.+}") == "/api/v1/a/{id}/b/{rest}"


async def _made(request: web.Request) -> Thing:
    return Thing(7, datetime(2026, 1, 1, tzinfo=UTC))


async def test_a_handler_returns_its_model_and_the_layer_answers(
        aiohttp_client: Any) -> None:
    table = Routes(prefix="")
    table(Operation("GET", "/thing", "thing", Tag.GAMES, "One", (Reply(201, "It", Thing),),
                    secret=True))(_made)
    app = web.Application()
    table.add_to(app)
    client: TestClient[Any, Any] = await aiohttp_client(app)
    response = await client.get("/thing")
    assert response.status == 201  # the first reply's status
    assert await response.json() == {"id": 7, "at": "2026-01-01T00:00:00Z"}
    assert response.headers["Cache-Control"] == "no-store"  # a secret is never cached
    assert (await client.head("/thing")).status == 201  # a GET answers HEAD too


def _codes(response: dict[str, Any]) -> list[str]:
    schema = response["content"]["application/json"]["schema"]
    codes: list[str] = schema["allOf"][1]["properties"]["error"]["properties"]["code"]["enum"]
    return codes


def test_a_paging_reads_what_it_documents() -> None:
    paging = Paging(5, 10)
    limit, offset = (p.document()["schema"] for p in paging.parameters())
    assert (limit["maximum"], limit["default"], offset["minimum"]) == (10, 5, 0)
    assert paging.of(make_mocked_request("GET", "/x")) == (5, 0)
    assert paging.of(make_mocked_request("GET", "/x?limit=10&offset=3")) == (10, 3)
    for query in ("limit=11", "limit=0", "offset=-1", "limit=x"):
        with pytest.raises(Refusal) as refused:
            paging.of(make_mocked_request("GET", f"/x?{query}"))
        assert refused.value.code is ErrorCode.BAD_PAGING


def _refused(query: str) -> ErrorCode:
    with pytest.raises(Refusal) as refused:
        read_query(make_mocked_request("GET", f"/x?{query}"), GameFilters)
    return refused.value.code


def test_a_query_model_reads_what_it_documents() -> None:
    documented = [p.name for p in query_parameters(GameFilters, LISTING)]
    assert documented == ["state", "player", "account", "since", "until", "edition",
                          "players", "card", "limit", "offset"]
    read = read_query(make_mocked_request(
        "GET", "/x?state=open&edition=2&players=3&since=2026-11-30&card=moat"), GameFilters)
    assert (read.state, read.edition, read.players, read.card) == ("open", 2, 3, "moat")
    assert read.since == "2026-11-30T00:00:00Z" and read.player is None
    for query, code in [("state=lost", ErrorCode.BAD_STATE), ("edition=3", ErrorCode.BAD_FILTER),
                        ("edition=two", ErrorCode.BAD_FILTER), ("players=7", ErrorCode.BAD_FILTER),
                        ("since=yesterday", ErrorCode.BAD_FILTER),
                        ("until=99999-01-01", ErrorCode.BAD_FILTER),
                        ("card=copper", ErrorCode.BAD_FILTER)]:
        assert _refused(query) is code, query


def test_the_listings_filters_and_page_come_from_the_one_declaration() -> None:
    filters = game_filters(make_mocked_request("GET", "/x?player=Ada&offset=40"), LISTING)
    assert filters == {"state": None, "player": "Ada", "since": None, "until": None,
                       "edition": None, "players": None, "card": None, "limit": 20,
                       "offset": 40}


def test_a_written_parameter_documents_a_models_own_otherwise() -> None:
    own = Param("state", Where.QUERY, {"type": "string", "enum": ["ended"]}, "ended only")
    documented = query_parameters(own, GameFilters, Paging(5, 10))
    assert [p.name for p in documented].count("state") == 1
    assert documented[0] is own and documented[-1].name == "offset"
