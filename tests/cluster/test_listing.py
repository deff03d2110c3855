"""The cluster's pure parts: node names and game ids, the storage's filters applied to
published summaries, pages merged across nodes, and the node settings."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dominion.server.cluster.listing import (
    matches,
    merge_pages,
    needs_every_node,
    newest_first,
    only_paging,
)
from dominion.server.cluster.node import node_url, owner_of, ws_url
from dominion.server.play.seat_tokens import new_game_id
from dominion.server.settings import Settings


def test_a_nodes_game_ids_name_it_and_a_single_servers_do_not() -> None:
    assert owner_of(new_game_id("b7")) == "b7"
    assert owner_of(new_game_id()) is None
    assert owner_of("g-a-") is None and owner_of("g-A-0123456789ab") is None
    assert ws_url("g-b7-0123456789ab") == "/api/v1/ws?game=g-b7-0123456789ab"


@pytest.mark.parametrize(("options", "problem"), [
    ({"node": "a"}, "--node and --redis go together"),
    ({"redis": "redis://127.0.0.1:6379/0"}, "--node and --redis go together"),
    ({"node": "Node-1", "redis": "redis://r"}, "--node is 1 to 16 characters"),
    ({"node": "a", "redis": "http://r"}, "--redis is a redis://"),
    ({"node": "a", "redis": "redis://r", "host": "0.0.0.0"}, "--node-url is needed"),
    ({"node": "a", "redis": "redis://r", "cluster_refresh_seconds": 0.0}, "more than 0"),
])
def test_node_settings_that_cannot_work_are_refused(options: dict[str, Any],
                                                    problem: str) -> None:
    found = Settings(**options).problem()
    assert found is not None and problem in found


def test_a_node_is_reached_at_its_own_url_or_its_address() -> None:
    node = Settings(node="a", redis="redis://r", host="0.0.0.0",
                    node_url="http://node-a:8080/")
    assert node.problem() is None and node_url(node) == "http://node-a:8080"
    assert node_url(Settings(port=9001)) == "http://127.0.0.1:9001"
    assert node_url(Settings(host="::1", port=9001)) == "http://[::1]:9001"


def summary(game_id: str, created: str, *, finished: str | None = None, state: str = "open",
            names: tuple[str | None, ...] = ("Ann", None), edition: int = 2,
            kingdom: tuple[str, ...] = ("smithy",)) -> dict[str, Any]:
    return {"id": game_id, "state": state, "edition": edition, "kingdom": list(kingdom),
            "seats": [{"seat": i, "name": name} for i, name in enumerate(names)],
            "created_at": created, "finished_at": finished}


NO_FILTER = {"state": None, "player": None, "since": None, "until": None, "edition": None,
             "players": None, "card": None, "limit": 20, "offset": 0}


def test_summaries_pass_the_filters_as_the_storage_applies_them() -> None:
    game = summary("g-a-1", "2026-11-30T10:00:00Z", names=("Ann", "Bob", None))
    def passes(**filters: Any) -> bool:
        return matches(game, NO_FILTER | filters)
    assert passes()
    assert passes(state="open") and not passes(state="playing")
    assert passes(player="Bob") and not passes(player="bob")
    assert passes(since="2026-11-30T10:00:00Z") and not passes(since="2026-11-30T10:00:01Z")
    assert passes(until="2026-11-30T10:00:01Z") and not passes(until="2026-11-30T10:00:00Z")
    assert passes(edition=2) and not passes(edition=1)
    assert passes(players=3) and not passes(players=2)
    assert passes(card="smithy") and not passes(card="moat")
    assert only_paging(NO_FILTER | {"state": "open", "limit": 5, "offset": 10})
    assert not only_paging(NO_FILTER | {"card": "moat"})
    assert not only_paging(NO_FILTER | {"account_id": 7})


def test_an_accounts_games_are_found_by_every_node_not_in_published_summaries() -> None:
    """A summary says a seat was an account's, not whose: a guest who played as Ann
    before Ann registered looks the same in it (Storage.list_games finds them by id)."""
    assert needs_every_node(NO_FILTER | {"state": "playing", "account_id": 7})
    assert not needs_every_node(NO_FILTER | {"state": "playing", "player": "Ann"})


def test_pages_merged_across_nodes_are_the_pages_of_one_merged_list() -> None:
    """Each node gives its first offset + limit games (newest first); paging through the
    merge gives every game once, in the order a single database would list them."""
    rng = random.Random(5)
    nodes: dict[str, list[dict[str, Any]]] = {name: [] for name in "abc"}
    for n in range(40):
        name = rng.choice("abc")
        second = rng.randrange(10)  # many games share a second: the id breaks ties
        nodes[name].append(summary(f"g-{name}-{n:012x}", f"2026-11-30T10:00:0{second}Z",
                                   finished=None if n % 3 else f"2026-12-01T00:00:0{second}Z"))
    everything = sorted((g for games in nodes.values() for g in games), key=newest_first,
                        reverse=True)

    def page(offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        parts = [(sorted(games, key=newest_first, reverse=True)[:offset + limit], len(games))
                 for games in nodes.values()]
        return merge_pages(parts, offset, limit)

    paged = []
    for offset in range(0, 40, 7):
        games, total = page(offset, 7)
        assert total == 40
        paged += games
    assert paged == everything
    assert page(38, 7)[0] == everything[38:]
