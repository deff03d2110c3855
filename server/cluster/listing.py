"""Listings across nodes: the storage's filters applied to published summaries, and
pages from several nodes merged into one (pure functions, tested on their own)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..storage.keyset import encode_keyset
from ..storage.records import ENDED, ENDED_STATES

PAGING = ("limit", "offset")
NODE_PAGE_MAX = 10_000
"""Most games one node lists for another: a merged page ends at offset + limit <= this."""


def only_paging(filters: dict[str, Any]) -> bool:
    """True when nothing but the state and the page is asked for (Redis can page that
    itself); False when summaries must be read and filtered."""
    return all(value is None for key, value in filters.items()
               if key not in PAGING and key != "state")


def needs_every_node(filters: dict[str, Any]) -> bool:
    """True when only each node's own storage can answer: an account's games are found
    by its id, which published summaries do not hold (they would tie a deleted account's
    games together for anyone)."""
    return filters.get("account_id") is not None


def matches(summary: dict[str, Any], filters: dict[str, Any]) -> bool:
    """Does a live game's summary pass `filters`, exactly as `Storage.list_games` would
    (a live game's time is its `created_at`)? Not `account_id`: a summary names no
    account (`needs_every_node`)."""
    when = summary["finished_at"] or summary["created_at"]
    checks = (
        ("state", lambda value: summary["state"] in (ENDED_STATES if value == ENDED
                                                     else (value,))),
        ("player", lambda value: any(seat["name"] == value for seat in summary["seats"])),
        ("since", lambda value: when >= value),
        ("until", lambda value: when < value),
        ("edition", lambda value: summary["edition"] == value),
        ("players", lambda value: len(summary["seats"]) == value),
        ("card", lambda value: value in summary["kingdom"]),
    )
    return all(filters.get(key) is None or check(filters[key]) for key, check in checks)


def newest_first(summary: dict[str, Any]) -> tuple[str, str]:
    """The storage's order (descending): a game's time, then its id."""
    return (summary["finished_at"] or summary["created_at"], summary["id"])


def merge_pages(pages: Iterable[tuple[list[dict[str, Any]], int]], offset: int,
                limit: int) -> tuple[list[dict[str, Any]], int]:
    """One page out of every node's first `offset + limit` games (each newest first):
    the merged order's games `offset` to `offset + limit`, and the sum of the totals. A
    game in two parts (the archive took it while its node listed it, before the node
    marked it) counts once."""
    games: dict[str, dict[str, Any]] = {}
    total = 0
    for node_games, node_total in pages:
        total += node_total
        for game in node_games:
            total -= game["id"] in games
            games.setdefault(game["id"], game)
    merged = sorted(games.values(), key=newest_first, reverse=True)
    return merged[offset:offset + limit], total


def node_query(filters: dict[str, Any]) -> dict[str, str]:
    """`filters` as another node's listing route reads them back: the export's keyset as
    its cursor, cards comma-separated, yes-or-no filters as `true` or `false`."""
    params: dict[str, str] = {}
    for key, value in filters.items():
        if value is None or value == ():
            continue
        if key == "before":
            params["cursor"] = encode_keyset(value)
        elif isinstance(value, bool):
            params[key] = "true" if value else "false"
        elif isinstance(value, tuple):
            params[key] = ",".join(value)
        else:
            params[key] = str(value)
    return params
