"""One live rated seat per account across every node of a cluster.

The lobby's lock makes the rule on one node (`Lobby._rated_seating`). A claim in the
directory every node shares makes it across nodes: before an account takes a seat at a
rated table here, this node claims the account's live rated seat, atomically (a claim
another live node holds refuses it, `already_seated`), and gives the claim up once the
account holds no live rated seat here any more (the game ended or was abandoned, the
seat was freed). A node keeps its claims alive with its heartbeat, so a crashed node's
claims expire with it (cluster/rated_seats.py). One process has nobody to share with:
`NodeClaims` grants every claim, the lobby's lock being the whole rule.

A claim is this node's name and a nonce: giving one up removes that claim only, never a
later one this node made for the same account meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from .room import OPEN, PLAYING

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("dominion.lobby")


class ClaimStore(Protocol):
    async def claim(self, account_id: int, claim: str) -> str | None:
        """Hold the account's live rated seat as `claim` unless another live node holds
        it: None, or the name of the node that does. `cluster_unavailable` when the
        store cannot be reached."""

    async def release(self, account_id: int, claim: str) -> None:
        """Give the claim up, if the account's is still `claim`."""

    async def holder(self, account_id: int) -> str | None:
        """The other live node that holds the account's live rated seat, if one does."""


class NodeClaims:
    """One process: the lobby's lock is the whole rule."""

    async def claim(self, account_id: int, claim: str) -> str | None:
        return None

    async def holder(self, account_id: int) -> str | None:
        return None

    async def release(self, account_id: int, claim: str) -> None:
        pass


def claim_node(claim: str) -> str:
    """The node that made a claim."""
    return claim.split(" ", 1)[0]


class RatedClaims:
    """This node's claims: which account's live rated seat it holds, and for which game."""

    def __init__(self, node: str) -> None:
        self.store: ClaimStore = NodeClaims()
        """Where claims are shared (the cluster's directory sets it)."""
        self._node = node
        self._held: dict[int, str] = {}
        """Account -> this node's claim of its live rated seat."""
        self._games: dict[str, set[int]] = {}
        """Game -> the accounts claimed for their seats in it."""
        self._game_of: dict[int, str] = {}
        self._releasing: set[asyncio.Future[None]] = set()

    @property
    def held(self) -> Mapping[int, str]:
        """The claims this node holds (its heartbeat keeps them alive)."""
        return self._held

    async def claim(self, account_id: int) -> None:
        """Claim the account's live rated seat for this node, or refuse (`already_seated`
        when another node holds it)."""
        claim = self._held.get(account_id) or f"{self._node} {secrets.token_hex(8)}"
        holder = await self.store.claim(account_id, claim)
        if holder is not None:
            raise Refusal(ErrorCode.ALREADY_SEATED, "you hold a seat in a live rated game "
                          f"on node {holder}: finish it, or leave its table, first")
        self._held[account_id] = claim

    async def refuse_if_seated(self, account_id: int) -> None:
        """Refuse (`already_seated`) an account that holds a live rated seat, on this node
        or another: automatch would make it a rated game it cannot be seated at."""
        game = self._game_of.get(account_id)
        where = f"game {game}" if game is not None else await self._elsewhere(account_id)
        if where is not None:
            raise Refusal(ErrorCode.ALREADY_SEATED, f"you hold a seat in the rated {where}: "
                          "finish it, or leave its table, first")

    async def _elsewhere(self, account_id: int) -> str | None:
        node = await self.store.holder(account_id)
        return None if node is None else f"game on node {node}"

    def settle(self, account_id: int, game_id: str | None) -> None:
        """The account's live rated game on this node now (None: it holds no live rated
        seat here, and the claim is given up)."""
        before = self._game_of.pop(account_id, None)
        if before is not None:
            accounts = self._games[before]
            accounts.discard(account_id)
            if not accounts:
                del self._games[before]
        if game_id is not None:
            self._game_of[account_id] = game_id
            self._games.setdefault(game_id, set()).add(account_id)
            self._held.setdefault(account_id, f"{self._node} {secrets.token_hex(8)}")
            return
        claim = self._held.pop(account_id, None)
        if claim is not None:
            task = asyncio.ensure_future(self._release(account_id, claim))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    def room_changed(self, room: Room) -> None:
        """A rated room changed: the accounts claimed for it that no longer hold a live
        seat in it give their claims up."""
        for account_id in list(self._games.get(room.id, ())):
            if room.state not in (OPEN, PLAYING) or room.seat_of_account(account_id) is None:
                self.settle(account_id, None)

    async def _release(self, account_id: int, claim: str) -> None:
        # failing, the claim is no longer renewed by the heartbeat: it expires soon
        try:
            await self.store.release(account_id, claim)
        except Refusal:
            pass
        except Exception:
            log.exception("giving up a rated seat's claim failed")

    async def close(self) -> None:
        for task in list(self._releasing):
            with contextlib.suppress(asyncio.CancelledError):
                await task
