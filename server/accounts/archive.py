"""The archive of ended games that every node reads: its records and the interface the
account store implements beside the ledger (sql_archive.py), in the same database
(PostgreSQL shared by the nodes, or the SQLite file beside a single server's games).

Each ended game is archived once, by its id, from its node's outbox (the node's games
database marks it archived once the archive has it: play/archive.py). A game's body is
opaque here (the stored game, packed by `storage.rows.pack_game`); what the listings
filter on, and what may change after the end (a deleted account's name, a removed chat
line), is kept beside it in columns. So is its replay, made once from its answers
when it is archived (opaque here too: `replays.stored_replay.pack`, under its version),
which dumps and exports splice in instead of playing the game back. Games archived at the
accounts' schema version 10 kept only their events (`replays.build.pack_derived`), and
those before it nothing: their readers make the replay from the events, or the answers.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

Keyset = tuple[str, str]
"""(finished_at, game id): a game's place in the archive's order."""


@dataclass(frozen=True, slots=True)
class ArchivedSeat:
    seat: int
    name: str | None
    account_id: int | None = None


@dataclass(frozen=True, slots=True)
class ArchivedLine:
    """A chat line as its node numbered it (`line`)."""

    line: int
    at: str
    seat: int | None
    name: str
    text: str
    removed_at: str | None = None


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """An ended game as the archive takes it."""

    game_id: str
    finished_at: str
    state: str
    edition: int
    players: int
    rated: bool
    people: bool
    """No seat was a bot from the start (in-server or a bot account)."""
    takeovers: bool
    """A bot took a seat over from its absent player."""
    cards: tuple[str, ...]
    seats: tuple[ArchivedSeat, ...]
    chat: tuple[ArchivedLine, ...]
    body: bytes
    replay: bytes
    """Its replay's parts that never change (`replays.stored_replay.pack`)."""
    replay_version: int
    """How `replay` was made (`replays.stored_replay.STORED_VERSION`)."""


@dataclass(frozen=True, slots=True)
class ArchivedBody:
    """An archived game as it is read back: its body, and its seats' names as they are now
    (a deleted account's seats renamed since)."""

    game_id: str
    finished_at: str
    body: bytes
    names: Mapping[int, str | None]
    replay: bytes | None = None
    """As `ArchivedGame.replay`; None for a game archived before the archive kept it."""
    replay_version: int | None = None
    events: bytes | None = None
    """Its events, for a game archived at the schema's version 10 (not since)."""


class ArchiveStore(Protocol):
    async def archive_games(self, games: Sequence[ArchivedGame], now: datetime) -> int:
        """In one transaction: each game with its seats, Kingdom and chat, except those
        the archive has already (a second delivery changes nothing); how many it took."""

    async def archived(self, game_ids: Collection[str]) -> list[ArchivedBody]:
        """These games as archived, in the archive's order (newest first); those it lacks
        are left out."""

    async def archived_ids(self, game_ids: Collection[str]) -> set[str]:
        """Which of these games the archive has."""

    async def list_archived(self, filters: Mapping[str, Any], counted: bool = True
                            ) -> tuple[list[ArchivedBody], int]:
        """A page of archived games, newest first, and how many match in all (0 without
        `counted`): the filters of `Storage.list_games` (state, player, account_id, since,
        until, edition, players, card, cards, rated, people, takeovers, before, limit,
        offset), on the games' end."""

    async def archived_between(self, since: str | None, until: str | None, after: Keyset,
                               limit: int) -> list[ArchivedBody]:
        """Up to `limit` games that ended in [since, until) after `after`, oldest first
        (a dump reads them a batch at a time)."""

    async def archived_chat(self, game_id: str, removed: bool = False
                            ) -> list[dict[str, Any]]:
        """A game's chat lines in order, as `Storage.chat` gives them."""

    async def archived_chats(self, game_ids: Collection[str], removed: bool = False
                             ) -> dict[str, list[dict[str, Any]]]:
        """These games' chat lines, each game's in order (an export's page in one query),
        every game asked for a key."""

    async def remove_archived_chat(self, game_id: str, line: int, at: str) -> bool:
        """Mark a line removed; False when the game has no such line not removed already."""

    async def rename_archived_seats(self, account_id: int, name: str) -> None:
        """The account's seats, and its chat lines said from them, show `name` (its account
        was deleted)."""
