"""A complete Dominion bot in about 100 lines: join a seat, answer until the game ends.

    python -m dominion.clients.examples.minimal_bot http://127.0.0.1:8080 GAME SEAT_TOKEN
    DOMINION_TOKEN=dom_... python -m dominion.clients.examples.minimal_bot SERVER GAME

With a seat's token it plays that seat. With a personal access token instead (--token,
or $DOMINION_TOKEN; scope bot:play for a bot account), it signs in as its account with
the upgrade's `Authorization: Bearer` header and joins without a seat token: the
account's seat in the game, or a free one.

It uses only aiohttp and `dominion.protocol` (to build and read frames) and speaks
protocol version 2: after the snapshot, one `update` per change carries the decision
now pending and the game as it now stands (`view`: the coins of the turn, the Supply,
what everyone owns, their points), so it needs no rules of its own. Its play: play
all Treasures, buy Province, Gold or Silver when offered, otherwise end the phase; any
other decision gets its first `min` options (for a `forced` decision, which has one
answer, that is every option). On its Buy phases it says the view's counters on
standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
from typing import Any

import aiohttp

from dominion.protocol import (
    Ack,
    Answer,
    Error,
    GameOver,
    Hello,
    Join,
    Snapshot,
    Update,
    decode_server,
    encode_client,
)

WANTED = ("province", "gold", "silver")


def choose(decision: dict[str, Any]) -> list[int]:
    options = decision["options"]
    kinds = [(option["kind"], option["card"]) for option in options]
    if decision["kind"] == "buy":
        if ("play_all_treasures", None) in kinds:
            return [kinds.index(("play_all_treasures", None))]
        for card in WANTED:
            if ("buy", card) in kinds:
                return [kinds.index(("buy", card))]
    if decision["kind"] in ("buy", "play_action"):
        return [kinds.index(("end_phase", None))]
    return list(range(decision["min"]))


async def play(server: str, game: str, seat_token: str | None,
               access_token: str | None = None) -> dict[str, Any]:
    ids = itertools.count(1)
    # the game's ws_url: behind one address with several nodes, `game` picks its node
    url = server.replace("http", "ws", 1).rstrip("/") + f"/api/v1/ws?game={game}"
    # never in the URL (it would land in logs): a header, or hello's access_token
    headers = {"Authorization": f"Bearer {access_token}"} if access_token else {}
    async with aiohttp.ClientSession() as session, \
            session.ws_connect(url, protocols=("dominion.v2.msgpack",), headers=headers) as ws:

        async def send(message: Any) -> None:
            await ws.send_bytes(encode_client(message))

        await send(Hello(id=next(ids), versions=(2,), client="minimal-bot/1"))
        await send(Join(id=next(ids), game=game, token=seat_token))
        seat, view = None, None
        async for frame in ws:
            if frame.type is not aiohttp.WSMsgType.BINARY:
                break
            message = decode_server(frame.data)
            decision = None
            if isinstance(message, Ack) and message.seat is not None:
                seat = message.seat  # the join's answer: our seat
            elif isinstance(message, Error):
                print(f"refused: {message.code} {message.message}", file=sys.stderr)
            elif isinstance(message, Snapshot):
                view, decision = message.view, message.view["decision"]
            elif isinstance(message, Update):  # a change: the game now, and what is pending
                view, decision = message.view, message.decision
            elif isinstance(message, GameOver):
                return message.result
            if decision and decision["player"] == seat and "options" in decision:
                if view is not None and decision["kind"] == "buy":  # counters: the view's
                    turn, me = view["turn"], view["players"][seat]
                    print(f"turn {turn['player_turn']}: ${turn['coins']}, {turn['buys']} "
                          f"buys, {me['points']} VP", file=sys.stderr)
                await send(Answer(id=next(ids), game=game, decision=decision["id"],
                                  options=tuple(choose(decision))))
    raise ConnectionError("the connection closed before the game ended")


def main() -> None:
    parser = argparse.ArgumentParser(description="Play one seat of a game to its end.")
    parser.add_argument("server")
    parser.add_argument("game")
    parser.add_argument("seat_token", nargs="?", help="the seat's token")
    parser.add_argument("--token", default=os.environ.get("DOMINION_TOKEN"),
                        help="a personal access token (default: $DOMINION_TOKEN)")
    args = parser.parse_args()
    if args.seat_token is None and not args.token:
        parser.error("give a seat's token, or an access token (--token, $DOMINION_TOKEN)")
    result = asyncio.run(play(args.server, args.game, args.seat_token, args.token))
    print(f"scores {result['scores']}, winners {result['winners']}")


if __name__ == "__main__":
    main()
