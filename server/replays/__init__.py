"""Replays: building them from what storage and the live rooms hold (`build.py`, and
`text_log.py` for people), the file format and the commitment to the seed
(`format.py`), and checking a finished game's replay on its own (`verify.py`, which the
`dominion replay verify` command runs without a server).

Replays depend on the engine and on storage's records only: a live room hands over its
parts, and the edge serves the result (server/edge/api/replay_api.py).
"""

from __future__ import annotations

from .build import finished_replay, logged_events, replay_work, spectator_replay
from .format import FORMAT, VERSION, abandoned_result, commitment_of
from .text_log import text_log
from .verify import Verification, verify_replay

__all__ = ["FORMAT", "VERSION", "Verification", "abandoned_result", "commitment_of",
           "finished_replay", "logged_events", "replay_work", "spectator_replay", "text_log",
           "verify_replay"]
