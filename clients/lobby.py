"""The REST lobby (docs/SERVER.md): create, list, show and join tables; cards; replays."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from dominion.bots import BotPace

from .args import DEFAULT_CLOCK
from .i18n import _

HTTP_ERROR = "http_error"
"""The code of a refusal that was not in the lobby's JSON error shape."""


class LobbyError(Exception):
    """A refusal from the lobby: `{"error": {"code", "message"}}` and an HTTP status."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.status = code, message, status


class Lobby:
    def __init__(self, server: str, session: aiohttp.ClientSession,
                 headers: dict[str, str] | None = None) -> None:
        self.base = server.rstrip("/") + "/api/v1"
        self.session = session
        self.headers = headers or {}
        """Sent with every request: the account's, once `dominion login` signed in."""

    async def _fetch(self, method: str, path: str, **kwargs: Any) -> tuple[bytes, str]:
        """The body and its content type, or LobbyError."""
        async with self.session.request(method, self.base + path, headers=self.headers,
                                        **kwargs) as response:
            body = await response.read()
            if response.status >= 400:
                try:
                    error = json.loads(body)["error"]
                    raise LobbyError(error["code"], error["message"], response.status)
                except (ValueError, KeyError, TypeError):
                    raise LobbyError(HTTP_ERROR, _("the server answered {status}").format(
                        status=response.status), response.status) from None
            return body, response.content_type

    async def call(self, method: str, path: str, **kwargs: Any) -> Any:
        """The JSON answer (or the body, when it is not JSON), or LobbyError."""
        body, content_type = await self._fetch(method, path, **kwargs)
        return json.loads(body) if content_type == "application/json" else body

    async def server(self) -> dict[str, Any]:
        info: dict[str, Any] = await self.call("GET", "/server")
        return info

    async def create(self, name: str, seats: int, *, edition: int = 2,
                     kingdom: str | list[str] | None = None,
                     bots: dict[int, str] | None = None, rated: bool = False,
                     clock: object = DEFAULT_CLOCK,
                     bot_pace: BotPace | None = None) -> dict[str, Any]:
        """`{"game": summary, "seat": 0, "token": ...}`; `rated` asks for a rated table
        (the request must be signed in); `clock` a `time_control` (None: no clock;
        `DEFAULT_CLOCK`: the server's default); `bot_pace` how fast its bots answer (None:
        the server's default)."""
        body: dict[str, Any] = {"name": name, "seats": seats, "edition": edition}
        if rated:
            body["rated"] = True
        if bot_pace is not None:
            body["bot_pace"] = bot_pace.value
        if clock is not DEFAULT_CLOCK:
            body["time_control"] = clock
        if kingdom is not None:
            body["kingdom"] = kingdom
        if bots:
            body["bots"] = {str(seat): strategy for seat, strategy in bots.items()}
        created: dict[str, Any] = await self.call("POST", "/games", json=body)
        return created

    async def join(self, game: str, name: str) -> dict[str, Any]:
        """`{"game": summary, "seat": n, "token": ...}`."""
        joined: dict[str, Any] = await self.call("POST", f"/games/{game}/join",
                                                  json={"name": name})
        return joined

    async def games(self, **filters: Any) -> dict[str, Any]:
        """`{"games": [summary...], "total", "limit", "offset"}`."""
        params = {k: str(v) for k, v in filters.items() if v is not None}
        listing: dict[str, Any] = await self.call("GET", "/games", params=params)
        return listing

    async def game(self, game: str) -> dict[str, Any]:
        summary: dict[str, Any] = await self.call("GET", f"/games/{game}")
        return summary

    async def leaderboard(self, pool: str, *, limit: int, offset: int) -> dict[str, Any]:
        """`{"pool", "total", "limit", "offset", "players": [row...]}`, best first."""
        board: dict[str, Any] = await self.call(
            "GET", f"/ratings/{pool}", params={"limit": str(limit), "offset": str(offset)})
        return board

    async def cards(self) -> dict[str, Any]:
        """`{"editions": {"1": [entry...], "2": [...]}}`."""
        cards: dict[str, Any] = await self.call("GET", "/cards")
        return cards

    async def replay(self, game: str, fmt: str = "json") -> Any:
        return await self.call("GET", f"/games/{game}/replay", params={"format": fmt})

    async def replay_file(self, game: str, fmt: str) -> bytes:
        """The replay as the server sends it in `fmt` (json, msgpack, text), to save."""
        body, _content_type = await self._fetch("GET", f"/games/{game}/replay",
                                                params={"format": fmt})
        return body
