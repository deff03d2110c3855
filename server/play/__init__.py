"""Live play: the lobby (tables created, joined, left, restored at start), one `Room` per
live game (the only place a game changes: check, store, apply, tell; composed of its
rematches, absence timers, bot loop, resumes and moderation, a module each), the frames each
viewer gets (`frames.py`), in-process bots (`bots.py`), seat tokens, and a live game's
answers and re-derived histories (`answer_log.py`, `history.py`).

Play knows the engine, the protocol's messages, storage and replays; it never imports
the edge (HTTP, WebSocket) or the cluster layer: rooms and the lobby talk outwards only
through what they are handed (subscribers, `on_changed`).
"""

from __future__ import annotations

from dominion.protocol.loader import choose

choose()  # before bots.py and frames.py are imported: compiled, or all from their sources
