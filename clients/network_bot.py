"""A bot that plays one seat of a game over the network, with any strategy.

It holds a seat's token, joins over WebSocket, and answers every decision that the
server puts to its seat until the game is over. The strategy reads the decision as
data (`WireDecision`) and a `SeatTable` read from the latest view the server sent (the
table every bot reads, in the server too: bots/seat.py). A dropped connection is
reconnected and resumed by the client; the bot then answers whatever decision is
pending.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

import aiohttp

from dominion.bots import Strategy, make_strategy
from dominion.bots.seat import SeatTable
from dominion.bots.strong.knowledge import CardFacts
from dominion.bots.wire import WireDecision

from .net import Client, ConnectionLost, ServerError
from .state import GameState

log = logging.getLogger("dominion.bot")


class NetworkBot:
    """Plays `game` with `token` on `client` using `strategy` until the game ends."""

    def __init__(self, client: Client, game: str, token: str, strategy: Strategy | str, *,
                 seed: int | None = None, delay: float = 0.0,
                 on_decision: Callable[[GameState, dict[str, Any], list[int]], None] | None = None
                 ) -> None:
        self.client = client
        self.game = game
        self.token = token
        self.strategy = (make_strategy(strategy, random.Random(seed))
                         if isinstance(strategy, str) else strategy)
        self.delay = delay
        """Seconds to wait before each answer (so that people can watch)."""
        self.on_decision = on_decision
        self.answers = 0
        self.state: GameState | None = None

    async def play(self) -> dict[str, Any]:
        """Join and play to the end; return the result map."""
        catalogue = CardFacts(await self.client.catalogue())
        state = await self.client.join(self.game, self.token)
        self.state = state
        answered: int | None = None
        while not state.over:
            decision = state.my_decision()
            if decision is not None and decision["id"] != answered:
                if self.delay:
                    await asyncio.sleep(self.delay)
                    if state.my_decision() is not decision:
                        continue  # it changed meanwhile (a resume, say): look again
                assert state.view is not None  # a decision comes with a view
                choice = self.strategy.choose(WireDecision.from_map(decision),
                                              SeatTable.from_view(state.view, catalogue))
                if self.on_decision is not None:
                    self.on_decision(state, decision, choice)
                try:
                    await self.client.answer(self.game, decision["id"], choice)
                    answered = decision["id"]
                    self.answers += 1
                    continue
                except ConnectionLost:
                    pass  # resumed soon: the decision is pushed again
                except ServerError as error:
                    if error.code == "rate_limited":  # never, when one request is in flight
                        await asyncio.sleep((error.retry_after_ms or 100) / 1000)
                        continue
                    if error.code in ("stale_decision", "game_over"):
                        answered = decision["id"]
                    else:
                        raise
            await self.client.next_push()
        assert state.result is not None
        return state.result


async def play_seat(server: str, game: str, token: str, strategy: str, *,
                    name: str = "dominion-bot", seed: int | None = None,
                    session: aiohttp.ClientSession | None = None) -> dict[str, Any]:
    """Connect to `server` (its base URL), play the seat to the end, return the result."""
    own = session is None
    session = session or aiohttp.ClientSession()
    try:
        async with Client(server, name=f"{name}/{strategy}", session=session,
                          game=game) as client:
            bot = NetworkBot(client, game, token, strategy, seed=seed)
            return await bot.play()
    finally:
        if own:
            await session.close()


__all__ = ["NetworkBot", "play_seat"]
