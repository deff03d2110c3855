"""The documents against the code, for the kinds of drift a stranger once hit: an error
or close code the server sends but PROTOCOL.md does not list (or lists but never sends),
a setting SERVER.md leaves out, /healthz keys, the replay endpoints' error codes, an
OpenAPI id pattern that refuses ids the server makes, defaults quoted wrongly; a player's
guide whose Kingdoms or editions are not the code's, or whose web page is not the guide;
and documents that speak of the project's history instead of to their readers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from dominion.protocol import CloseCode, ErrorCode
from dominion.server.cluster.node import ws_url
from dominion.server.edge.api.openapi import openapi_document
from dominion.server.edge.app import create_app
from dominion.server.engine.cards import EDITIONS, catalogue, kingdom_cards
from dominion.server.engine.setup import RECOMMENDED_KINGDOMS
from dominion.server.play.seat_tokens import new_game_id
from dominion.server.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
WIRE_TESTS = [ROOT / "tests" / name for name in ("server", "clients", "adversarial", "cluster",
                                                  "automatch")]
"""Tests that talk to a real server over a socket."""


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end)]


def test_protocol_error_codes_are_exactly_the_servers_and_each_is_sent_by_a_test() -> None:
    table = section((DOCS / "PROTOCOL.md").read_text(), "## 10. Error codes",
                    "## 11. Close codes")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert documented == {code.value for code in ErrorCode}
    engine_only = set(re.findall(r"^\| `([a-z_]+)` \|",
                                 table[table.index("which no server sends"):], re.M))
    wire_tests = "\n".join(path.read_text() for folder in WIRE_TESTS
                           for path in folder.rglob("test_*.py"))
    unsent = [code.value for code in ErrorCode
              if code not in engine_only and f'"{code.value}"' not in wire_tests]
    assert unsent == [], "no test over a socket expects these codes"
    engine_tests = "\n".join(path.read_text() for path in (ROOT / "tests" / "engine").rglob(
        "test_*.py"))
    untested = [code for code in sorted(engine_only) if f'"{code}"' not in engine_tests]
    assert untested == [], "no engine test expects these engine-only codes"


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


def patterns(document: Any) -> list[str]:
    """Every `pattern` in a JSON Schema document, however deep."""
    if isinstance(document, dict):
        found = [document["pattern"]] if isinstance(document.get("pattern"), str) else []
        return found + [p for value in document.values() for p in patterns(value)]
    if isinstance(document, list):
        return [p for value in document for p in patterns(value)]
    return []


def test_openapi_game_id_patterns_accept_every_id_the_server_makes() -> None:
    ids = [new_game_id(), new_game_id("a"), new_game_id("node7"), new_game_id("z" * 16)]
    game_patterns = [p for p in patterns(openapi_document()) if "g-" in p]
    assert len(game_patterns) >= 2  # a game's id and its ws_url
    for pattern in game_patterns:
        for game_id in ids:
            made = ws_url(game_id) if "game=" in pattern else game_id
            assert re.search(pattern, made), (pattern, made)


def test_every_close_code_the_server_sends_is_in_protocol_md() -> None:
    table = section((DOCS / "PROTOCOL.md").read_text(), "## 11. Close codes",
                    "## 12. Versions")
    documented = {int(code) for code in re.findall(r"^\| (\d{4}) \|", table, re.M)}
    assert documented == {int(code) for code in CloseCode}
    source = "\n".join(path.read_text() for path in (ROOT / "server").rglob("*.py"))
    sent = {CloseCode[name] for name in re.findall(r"CloseCode\.([A-Z_]+)", source)}
    assert sent and sent <= documented


def test_defaults_quoted_in_protocol_md_are_the_settings_defaults() -> None:
    text = (DOCS / "PROTOCOL.md").read_text()
    defaults = {f.name: f.default for f in fields(Settings)}
    # "`name`, 10 s by default" / "(`name`, 60 s by default)"
    quoted = re.findall(r"`([a-z_]+)`,? ([\d,]+) s by default", text)
    assert {name for name, _ in quoted} >= {"hello_timeout_seconds", "ended_room_seconds"}
    for name, value in quoted:
        assert float(value.replace(",", "")) == defaults[name], name
    # every welcome example shows the default limits
    limits = [json.loads(block)["limits"] for block in re.findall(
        r"^```json server-to-client\n(\{\"type\": \"welcome\".*)$", text, re.M)]
    assert limits
    for shown in limits:
        assert shown == {key: defaults[key] for key in shown}


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


GUIDE = DOCS / "PLAYING.md"


def guide_section(heading: str) -> str:
    """A `## heading` section of the player's guide, up to the next one."""
    text = GUIDE.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def card_ids(names: str, edition: int) -> set[str]:
    """The ids of a list of card names ("Throne Room, Village and Witch")."""
    by_name = {card.name: card.id for card in catalogue(edition).values()}
    listed = re.split(r",\s*|\s+and\s+", names.strip().rstrip("."))
    return {by_name[name] for name in listed}


def test_the_players_guide_lists_each_editions_recommended_kingdoms_as_the_code() -> None:
    """A guide that drifts from the sets a table can be made with misleads its reader."""
    section = guide_section("The recommended Kingdoms")
    for edition in EDITIONS:
        table = section[section.index(f"\nEdition {edition}:\n"):]
        rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|$",
                          table[:table.index("\n\n", table.index("|"))], re.M)
        listed = {name: card_ids(cards, edition) for name, cards in rows if name != "Kingdom"}
        assert listed == {name: set(cards) for name, cards in
                          RECOMMENDED_KINGDOMS[edition].items()}, f"edition {edition}"


def test_the_players_guide_names_the_cards_of_each_edition_as_the_code() -> None:
    section = guide_section("Edition 1 and Edition 2")
    lists = dict(re.findall(r"^- \*\*(.+?)\*\*[^:]*: (.+?)\.$",
                            section.replace("\n  ", " "), re.M))
    first, second = set(kingdom_cards(1)), set(kingdom_cards(2))
    assert card_ids(lists["Both editions"], 2) == first & second
    assert card_ids(lists["Edition 1 only"], 1) == first - second
    assert card_ids(lists["Edition 2 only"], 2) == second - first
    changed = {card for card in first & second
               if catalogue(1)[card].text != catalogue(2)[card].text}
    sentence = re.search(r"In Edition 2, (.+?) say", section.replace("\n", " "))
    assert sentence and card_ids(sentence.group(1), 2) == changed


@pytest.mark.integration  # a real server or socket
def test_the_web_clients_guide_page_is_the_players_guide() -> None:
    """clients/web/guide.html, which the installed server serves, is docs/PLAYING.md
    rendered (docs/ is not installed)."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "guide_page.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


async def test_the_page_links_the_guide_and_the_server_serves_it(aiohttp_client: Any,
                                                                 tmp_path: Path) -> None:
    """`/guide`, the address the page links and a player may keep, leads to this version's
    copy of the guide, among the page's files; asked again each time, so that after an
    upgrade it leads to the new one."""
    client = await aiohttp_client(create_app(Settings(db=str(tmp_path / "g.sqlite3"))))
    page = await (await client.get("/")).text()
    assert '<a id="guide-link" href="/guide" hreflang="en">' in page
    files = re.search(r'href="(/web/[0-9a-f]+/)app\.css"', page)
    assert files
    moved = await client.get("/guide", allow_redirects=False)
    assert moved.status == 302 and moved.headers["Cache-Control"] == "no-cache"
    assert moved.headers["Location"] == files.group(1) + "guide.html"
    guide = await client.get("/guide")
    assert guide.status == 200 and guide.content_type == "text/html"
    text = await guide.text()
    assert "<h1>Playing Dominion" in text and "<h2>How a turn goes</h2>" in text
    assert '<link rel="stylesheet" href="app.css">' in text  # beside it, under the digest


HISTORY_TALK = re.compile(
    r"\bissues? \d+|\bissue's\b|(?<![(\w])#\d+\b"  # an issue, by its number or as "the issue"
    r"|\b(?:session|round)'s (?:end|start)\b|\b(?:this|last|previous|next) (?:session|round)\b"
    r"|\bthis (?:evening|morning|afternoon)\b|\bother engineers\b", re.I)
"""How the project's own history or its workers would creep into a document ("issue 27",
"measured at the session's end", "cut this evening", "beside other engineers' tests"); a
login session, an automatch wave and the links of a table of contents (`(#1-transport)`)
are none of it."""


def test_the_docs_speak_to_their_readers_not_of_the_projects_history() -> None:
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(DOCS.glob("*.md"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if HISTORY_TALK.search(line)]
    assert found == []


def test_history_talk_is_found_where_it_is() -> None:
    for line in ("How ratings change (issue 27).", "### Issue 25's measures",
                 "far inside issue 29's budget", "Measured again at the session's end",
                 "see #12", "The issue's target", "beside other engineers' test runs",
                 "before this evening's cuts"):
        assert HISTORY_TALK.search(line), line
    for line in ("1. [Transport](#1-transport)", "the session cookie ends the session",
                 "in waves every `automatch_wave_seconds`", "a session may manage tokens",
                 "signs out (that session)", "the session's hash"):
        assert not HISTORY_TALK.search(line), line


def test_the_documented_schema_versions_are_the_codes() -> None:
    """Every "games schema version N" and "accounts schema version N" in the hosting and
    storage guides is the version this code migrates to; the migration list names each."""
    from dominion.server.accounts import migrations
    from dominion.server.storage import SCHEMA_VERSION

    versions = {"games": SCHEMA_VERSION, "accounts": migrations.LATEST}
    for name in ("HOSTING.md", "STORAGE.md"):
        text = (DOCS / name).read_text()
        said = re.findall(r"\b(games|accounts)\s+schema\s+version\s+(\d+)", text)
        assert {store for store, _ in said} == set(versions), name
        assert all(int(number) == versions[store] for store, number in said), (name, said)
        unnamed = re.sub(r"\b(games|accounts)\s+schema\s+version", "", text)
        assert not re.search(r"schema\s+version\s+\d", unnamed), name  # whose?
    steps = section((DOCS / "STORAGE.md").read_text(), "## Schema version and migration",
                    "All steps, the marker")
    listed = {int(number) for number in re.findall(r"\bversion (\d+)", steps)}
    assert listed == set(range(1, SCHEMA_VERSION + 1))


def test_what_a_change_touches_names_files_that_are_there_and_counts_them() -> None:
    """CONTRIBUTING.md's table: each file (or pattern) a row names now is in the tree (the
    baseline's column names files as they were then), and a cell's count, "(N" or "(N to
    M", is the number of files it names (M, for a range)."""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    rows = [line for line in section(text, "**What a change touches**", "**Add a card**")
            .splitlines() if line.startswith("| A ") and not line.startswith("| A change")]
    assert len(rows) == 4
    missing, miscounted = [], []
    for row in rows:
        for column, cell in enumerate(row.split("|")[2:]):
            named = re.findall(r"`([\w./*]+/[\w./*]+)`", cell)
            if column != 1:  # the baseline's files
                missing += [name for name in named if not list(ROOT.glob(name))]
            count = re.search(r"\((\d+)(?: to (\d+))?", cell)
            if count is not None and "the same" not in cell:
                most = int(count.group(2) or count.group(1))
                if most != len(named):
                    miscounted.append(cell.strip())
    assert missing == [], "CONTRIBUTING.md names files that are not there"
    assert miscounted == [], "a count is not the number of files its cell names"
