"""What a replay file is: its format name and version, answers as plain records, and
the commitment to the seed that a game publishes when it starts (docs/REPLAYS.md).

Shared by building replays (`build.py`) and checking them (`verify.py`), which a client
runs on its own (`dominion replay verify`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..engine import Answer, Resignation, ResignReason, Result

FORMAT = "dominion-replay"
VERSION = 1
MINOR = 1
"""Keys added within version 1 (docs/REPLAYS.md, "Versions"): 1 added what analysts read
(seat kinds, public account ids, ratings, the clock, the first player, the end reason,
each event's turn). A reader of version 1 reads every minor one."""
SHUFFLE = "mt19937-fisher-yates-1"
"""How the seed becomes shuffles: docs/ENGINE.md, "Shuffling and the seed"."""


def commitment_of(seed: int) -> str:
    """The published commitment to a game's secret seed: SHA-256 of its decimal digits."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def abandoned_result(standing: Result) -> dict[str, Any]:
    """The result stored for a game the server abandoned: the standing when it stopped,
    nobody winning. A verifier recomputes it from the answers."""
    return standing.to_dict() | {"winners": [], "abandoned": True}


def answer_record(entry: Answer | Resignation) -> dict[str, Any]:
    if isinstance(entry, Resignation):
        return {"player": entry.player, "resign": True} | (
            {} if entry.reason is None else {"reason": entry.reason.value})
    return {"player": entry.player, "decision": entry.decision, "choices": list(entry.choices)}


def answer_entry(record: dict[str, Any]) -> Answer | Resignation:
    if record.get("resign"):
        reason = record.get("reason")
        return Resignation(record["player"], None if reason is None else ResignReason(reason))
    return Answer(record["player"], record["decision"], tuple(record["choices"]))
