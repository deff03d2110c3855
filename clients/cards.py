"""The card catalogue this client names cards by: the copy cached in the config folder,
else the server's (`GET /api/v1/cards`, then cached), else the cards' ids."""

from __future__ import annotations

import json

import aiohttp

from . import config
from .i18n import LANGUAGES
from .lobby import Lobby, LobbyError
from .render import Names


async def card_names(session: aiohttp.ClientSession | None, server: str | None,
                     lang: str) -> Names:
    """Names from the cached catalogue, else from the server (then cached), else ids."""
    cache = config.config_dir() / "cards.json"
    try:
        cached = json.loads(cache.read_text(encoding="utf-8"))
        # a catalogue cached from an older server lacks some language's texts: fetch it again
        if all(f"text_{lang}" in entry for cards in cached["editions"].values()
               for entry in cards for lang in LANGUAGES[1:]):
            return Names.from_cards_endpoint(cached, lang)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    if session is None or server is None:
        return Names(lang=lang)
    try:
        body = await Lobby(server, session).cards()
    except (aiohttp.ClientError, LobbyError, OSError):
        return Names(lang=lang)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(body), encoding="utf-8")
    except OSError:
        pass
    return Names.from_cards_endpoint(body, lang)
