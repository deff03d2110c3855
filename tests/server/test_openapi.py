"""The OpenAPI document: valid, complete, true to the routes and to the error statuses."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate as validate_spec

from dominion.bots import STRATEGIES
from dominion.protocol import ErrorCode
from dominion.server.edge.api.openapi import openapi_document
from dominion.server.edge.api.operation import REST_CODES, described
from dominion.server.edge.app import create_app
from dominion.server.edge.rest import error_response
from dominion.server.engine.setup import RECOMMENDED_KINGDOMS
from dominion.server.settings import Settings

from .restapi import DOCUMENT, check_response, template_of, validate

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SCHEMAS = ("GameSummary", "Seat", "CreateGameRequest", "Seated", "JoinRequest", "LeaveRequest",
           "Left", "ServerInfo", "Cards", "Card", "GameList", "Error", "Health")


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, item[method]) for path, item in document["paths"].items()
            for method in METHODS if method in item]


@pytest.mark.integration  # the validator takes over the unit tier's CPU budget
def test_the_document_is_valid_openapi_3_1() -> None:
    document = openapi_document()
    assert document["openapi"].startswith("3.1")
    validate_spec(document)


def test_every_schema_is_valid_json_schema() -> None:
    for name in SCHEMAS:
        assert name in DOCUMENT["components"]["schemas"], name
    for schema in DOCUMENT["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_the_document_is_a_fresh_copy() -> None:
    document = openapi_document()
    document["paths"].clear()
    assert openapi_document()["paths"]


async def test_the_served_document_is_the_document(aiohttp_client: Any, tmp_path: Path) -> None:
    client = await aiohttp_client(create_app(Settings(db=str(tmp_path / "x.sqlite3"))))
    response = await client.get("/api/v1/openapi.json")
    assert response.status == 200 and response.content_type == "application/json"
    assert await response.json() == openapi_document()


def test_every_route_is_documented_and_every_documented_operation_is_routed(
        tmp_path: Path) -> None:
    app = create_app(Settings(db=str(tmp_path / "x.sqlite3")))
    routed = set()
    for route in app.router.routes():
        if route.method in ("HEAD", "*"):  # "*" only refuses other methods (tested in
            continue                         # test_rest.py's wrong-method cases)
        info = route.resource.get_info() if route.resource else {}
        path = info.get("path") or info.get("formatter")
        routed.add((path, route.method.lower()))
    documented = {(path, method) for path, method, _ in operations(DOCUMENT)}
    assert routed == documented


def test_every_api_operation_lists_its_errors_with_their_statuses() -> None:
    for path, method, operation in operations(DOCUMENT):
        assert operation.get("operationId") and operation.get("summary"), (path, method)
        for status, response in operation["responses"].items():
            assert response["description"], (path, method, status)
            if not path.startswith("/api/v1/") or path == "/api/v1/ws" or status < "400":
                continue
            schema = response["content"]["application/json"]["schema"]
            assert schema["allOf"][0] == {"$ref": "#/components/schemas/Error"}
            codes = schema["allOf"][1]["properties"]["error"]["properties"]["code"]["enum"]
            for code in codes:
                assert ErrorCode(code) in REST_CODES
                assert ErrorCode(code).status == int(status), (path, method, status, code)
        if path.startswith("/api/v1/") and path != "/api/v1/ws":
            assert "500" in operation["responses"], (path, method)
        if "requestBody" in operation:
            for status in ("400", "413", "415"):
                assert status in operation["responses"], (path, method, status)


def test_every_error_code_is_documented_somewhere() -> None:
    text = repr([DOCUMENT["paths"], DOCUMENT["components"]["responses"]])
    for code in REST_CODES:
        assert re.search(rf"'enum': \[[^\]]*'{code}'", text), code


def test_a_rest_refusal_has_its_codes_status() -> None:
    response = error_response(ErrorCode.GAME_FULL, "full")
    assert response.status == 409 == ErrorCode.GAME_FULL.status
    assert error_response(ErrorCode.BAD_SEATS, "no").status == 400
    assert ErrorCode.BAD_SEATS.value == "bad_seats"  # the wire value stays the code
    assert "from 2 to 6" in described(ErrorCode.BAD_SEATS)  # the server's limits filled in


def test_the_request_schemas_follow_the_code() -> None:
    schemas = DOCUMENT["components"]["schemas"]
    create = {"$ref": "#/components/schemas/CreateGameRequest"}
    good = [
        {"name": "A", "seats": 2},
        {"name": "A", "seats": 6, "edition": 1, "kingdom": "Big Money",
         "bots": {str(seat): "big_money" for seat in range(1, 6)}},
        {"name": "A", "seats": 3, "kingdom": list(RECOMMENDED_KINGDOMS[2]["First Game"])},
        {"name": "A", "seats": 3, "kingdom": None, "bots": {}},
        {"name": "A", "seats": 2, "kingdom": " first  GAME"},
    ]
    for body in good:
        validate(DOCUMENT, create, body)
    bad = [
        {"seats": 2}, {"name": "", "seats": 2}, {"name": "  ", "seats": 2},
        {"name": "x" * 41, "seats": 2}, {"name": "A", "seats": 7}, {"name": "A", "seats": 1},
        {"name": "A", "seats": 2, "edition": 3}, {"name": "A", "seats": 2, "kingdom": 5},
        {"name": "A", "seats": 2, "kingdom": "No Such Set"},
        {"name": "A", "seats": 2, "kingdom": ["cellar"] * 10},
        {"name": "A", "seats": 2, "kingdom": ["cellar"]},
        {"name": "A", "seats": 2, "bots": {"0": "big_money"}},
        {"name": "A", "seats": 2, "bots": {"1": "genius"}},
        {"name": "A", "seats": 2, "bots": {"01": "big_money"}},
    ]
    for body in bad:
        with pytest.raises(jsonschema.ValidationError):
            validate(DOCUMENT, create, body)
    bots = schemas["CreateGameRequest"]["properties"]["bots"]
    assert bots["additionalProperties"]["enum"] == list(STRATEGIES)


def test_the_response_check_is_not_vacuous() -> None:
    summary = {"id": "g-0123456789ab", "state": "open", "edition": 2,
               "kingdom": list(RECOMMENDED_KINGDOMS[2]["First Game"]), "kingdom_name": None,
               "seats": [{"seat": 0, "name": "A", "bot": None, "bot_account": False,
                          "left": None, "connected": False, "account": True},
                         {"seat": 1, "name": None, "bot": None, "bot_account": False,
                          "left": None, "connected": False, "account": False}],
               "created_at": "2026-01-01T00:00:00Z", "started_at": None, "finished_at": None,
               "commitment": None, "spectator_chat": True, "rated": False,
               "time_control": None, "bot_pace": "instant", "turn": 0, "result": None}
    ok = json.dumps(summary)
    assert check_response(DOCUMENT, "GET", "/api/v1/games/g-0123456789ab", 200,
                          "application/json", ok) == summary
    for broken in ({**summary, "token": "x" * 32}, {**summary, "state": "lost"},
                   {k: v for k, v in summary.items() if k != "turn"}):
        with pytest.raises(jsonschema.ValidationError):
            check_response(DOCUMENT, "GET", "/api/v1/games/g-1", 200, "application/json",
                           json.dumps(broken))
    with pytest.raises(AssertionError):  # an undocumented status
        check_response(DOCUMENT, "GET", "/api/v1/games/g-1", 409, "application/json",
                       '{"error": {"code": "game_full", "message": "m"}}')
    with pytest.raises(jsonschema.ValidationError):  # a code not listed for this status
        check_response(DOCUMENT, "GET", "/api/v1/games", 400, "application/json",
                       '{"error": {"code": "bad_name", "message": "m"}}')
    assert template_of(DOCUMENT, "/api/v1/games/g-1/join") == "/api/v1/games/{game_id}/join"
    assert template_of(DOCUMENT, "/api/v1/games/g-1/join/x") is None


def test_the_websocket_is_described() -> None:
    ws = DOCUMENT["paths"]["/api/v1/ws"]["get"]
    assert "docs/PROTOCOL.md" in ws["description"]
    assert "101" in ws["responses"]
    assert "/api/v1/ws" in DOCUMENT["info"]["description"]
