"""Dump parts written by hand for the statistics' tests: the dump's own Parquet schemas
and manifest, rows a test chooses, so that every figure can be counted on one's fingers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dominion.server.replays.dump import LICENCE, DumpFile
from dominion.server.replays.tables import schemas

KINGDOM = ["cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy",
           "village", "workshop"]


def game(game_id: str, *, players: int = 2, first: int = 0, rated: bool = False,
         edition: int = 2, state: str = "finished", kingdom: list[str] | None = None
         ) -> dict[str, Any]:
    return {"game_id": game_id, "finished_at": "2026-12-01T10:00:00Z", "date": "2026-12-01",
            "state": state, "edition": edition, "kingdom": kingdom or KINGDOM,
            "players": players, "first_player": first, "end_reason": "provinces",
            "rated": rated, "initial_seconds": None, "increment_seconds": None,
            "turns": 30, "winners": []}


def seat(game_id: str, seat_number: int, *, winner: bool, turns: int = 15,
         kind: str = "person", rating: int | None = None, taken_over: bool = False
         ) -> dict[str, Any]:
    return {"game_id": game_id, "seat": seat_number, "name": f"P{seat_number}", "kind": kind,
            "strategy": None, "level": None, "account": None, "rating_before": rating,
            "rating_after": rating, "score": 10, "turns": turns, "rank": 1 if winner else 2,
            "winner": winner, "resigned": False, "taken_over": taken_over}


def gain(game_id: str, seat_number: int, card: str, player_turn: int) -> dict[str, Any]:
    return {"game_id": game_id, "seat": seat_number, "turn": player_turn * 2,
            "player_turn": player_turn, "card": card, "how": "bought", "source": None,
            "zone": "discard"}


def write_part(folder: Path, period: str, games: list[dict[str, Any]],
               seats: list[dict[str, Any]], gains: list[dict[str, Any]]) -> None:
    """A period's three tables and its manifest, as `dominion-server dump` writes them."""
    import pyarrow
    from pyarrow import parquet

    files = []
    for name, rows in (("games", games), ("seats", seats), ("gains", gains)):
        written = DumpFile(f"dominion-{period}.{name}.parquet", rows=len(rows))
        parquet.write_table(pyarrow.Table.from_pylist(rows, schemas()[name]),
                            written.partial(folder))
        written.seal(folder)
        written.publish(folder)
        files.append({"name": written.name, "rows": written.rows, "bytes": written.bytes,
                      "sha256": written.sha256})
    manifest = {"period": period, "made_at": "2026-12-02T00:00:00Z", "licence": LICENCE,
                "files": files}
    (folder / f"dominion-{period}.manifest.json").write_text(json.dumps(manifest))
