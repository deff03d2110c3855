"""The documents against the code, for the kinds of drift a stranger once hit: an error
code the server sends but PROTOCOL.md does not list (or lists but never sends), a
setting SERVER.md leaves out, /healthz keys, the replay endpoints' error codes."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from dominion.protocol import ErrorCode
from dominion.server.edge.app import create_app
from dominion.server.edge.openapi import openapi_document
from dominion.server.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
WIRE_TESTS = [ROOT / "tests" / "server", ROOT / "tests" / "clients", ROOT / "tests" / "adversarial"]
"""Tests that talk to a real server over a socket."""


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end)]


def test_protocol_error_codes_are_exactly_the_servers_and_each_is_sent_by_a_test() -> None:
    table = section((DOCS / "PROTOCOL.md").read_text(), "## 10. Error codes",
                    "## 11. Close codes")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert documented == {code.value for code in ErrorCode}
    wire_tests = "\n".join(path.read_text() for folder in WIRE_TESTS
                           for path in folder.rglob("test_*.py"))
    unsent = [code.value for code in ErrorCode if f'"{code.value}"' not in wire_tests]
    assert unsent == [], "no test over a socket expects these codes"


def test_every_setting_is_in_server_md() -> None:
    text = (DOCS / "SERVER.md").read_text()
    rows = "\n".join(line for line in text.splitlines() if line.startswith("| `"))
    missing = [f.name for f in fields(Settings) if f"`{f.name}`" not in rows]
    assert missing == []


async def test_healthz_answers_the_keys_server_md_shows(aiohttp_client: Any,
                                                        tmp_path: Path) -> None:
    row = next(line for line in (DOCS / "SERVER.md").read_text().splitlines()
               if line.startswith("| `GET /healthz`"))
    shown = json.loads(re.search(r"`(\{.*?\})`", row).group(1))  # type: ignore[union-attr]
    client = await aiohttp_client(create_app(Settings(db=str(tmp_path / "h.sqlite3"))))
    body = await (await client.get("/healthz")).json()
    assert set(body) == set(shown)


def test_replays_md_lists_the_replay_endpoints_error_codes() -> None:
    text = (DOCS / "REPLAYS.md").read_text()
    sentence = section(text, "Errors are JSON", "## The format")
    listed = set(re.findall(r"`([a-z_]+)`", sentence)) - {"error", "code", "message"}
    paths = openapi_document()["paths"]
    served = set()
    for path in ("/api/v1/games/{game_id}/replay", "/api/v1/replays/export"):
        for status, response in paths[path]["get"]["responses"].items():
            if status.startswith(("4", "5")) and "application/json" in response.get(
                    "content", {}):
                schema = response["content"]["application/json"]["schema"]
                served |= set(schema["allOf"][1]["properties"]["error"]["properties"]["code"][
                    "enum"])
    filters = {"state", "player", "since", "until", "edition", "players", "card", "limit",
               "offset", "json", "msgpack", "text", "finished", "abandoned", "open",
               "playing", "ended", "missing_nodes", "retry_after_ms"}
    assert listed - filters == served


def test_every_file_architecture_md_names_exists() -> None:
    """A file ARCHITECTURE.md names is there: in a table row, from the row's folder (or the
    top); elsewhere, from the top, from server/, or in one of server/'s parts (the tree)."""
    parts = [ROOT, ROOT / "server", *(path for path in (ROOT / "server").iterdir()
                                      if path.is_dir())]
    missing = []
    for line in (DOCS / "ARCHITECTURE.md").read_text().splitlines():
        row = re.match(r"\| `([\w/]+/)(?:\*\.py)?` \|", line)
        folders = [ROOT / row.group(1), ROOT] if row else parts
        missing += [name for name in re.findall(r"[\w/]+\.py\b", line)
                    if not any((folder / name).is_file() for folder in folders)]
    assert missing == [], "ARCHITECTURE.md names files that are not there"
