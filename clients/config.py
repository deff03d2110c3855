"""The client's settings and saved seat tokens, in a small folder of JSON files.

`client.json` holds defaults, for example `{"server": "https://dominion.example.org",
"name": "Ann", "lang": "pl", "confirm": "off"}`. A command-line option wins over the
environment (`DOMINION_SERVER`, `DOMINION_NAME` (your player name), `DOMINION_LANG`,
`DOMINION_CONFIRM`), which wins over the file, which wins over the built-in defaults; the
language then comes from the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`). `confirm` off turns
off the questions `dominion play` asks before a slip (ending a turn with coins left,
resigning). `tokens.json` keeps the seat tokens that `dominion create`, `join` and `bot`
received, per game and seat (two local bots at one table each keep their own), so that
`dominion bot --game GAME` and later commands can take the seat again without being told
the token. `account.json` keeps, per server, what `dominion login` signed in with: a
session (after a name and password) or a personal access token (`login --token`); like
`tokens.json` it is readable only by you.

The folder is `$DOMINION_CONFIG_DIR`, else `$XDG_CONFIG_HOME/dominion`, else
`~/.config/dominion`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .i18n import from_locale

DEFAULT_SERVER = "http://127.0.0.1:8080"
DEFAULT_NAME = "player"
DEFAULT_LANG = "en"
KEYS = ("server", "name", "lang", "confirm")
OFF = ("off", "no", "false", "0")


def config_dir() -> Path:
    explicit = os.environ.get("DOMINION_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "dominion"


def _read(path: Path) -> dict[str, Any]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _write(path: Path, data: dict[str, Any], private: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if private:
        temporary.chmod(0o600)
    temporary.replace(path)


@dataclass(frozen=True)
class Settings:
    server: str
    name: str
    lang: str
    confirm: bool = True


def shown(settings: Settings) -> dict[str, str]:
    """The settings as `client.json` and the options write them (`confirm` on or off)."""
    return {"server": settings.server, "name": settings.name, "lang": settings.lang,
            "confirm": "on" if settings.confirm else "off"}


def load_file() -> dict[str, str]:
    return {k: str(v) for k, v in _read(config_dir() / "client.json").items() if k in KEYS}


def save_file(values: dict[str, str]) -> Path:
    path = config_dir() / "client.json"
    _write(path, {**load_file(), **{k: v for k, v in values.items() if k in KEYS}})
    return path


def settings(server: str | None = None, name: str | None = None,
             lang: str | None = None, confirm: str | None = None) -> Settings:
    """Options, then DOMINION_SERVER / DOMINION_NAME / DOMINION_LANG / DOMINION_CONFIRM,
    then the file; then the locale for the language. (The server's own name is
    DOMINION_SERVER_NAME: the two may share an environment.)"""
    stored = load_file()

    def pick(option: str | None, key: str, default: str) -> str:
        return option or os.environ.get(f"DOMINION_{key.upper()}") or stored.get(key) or default

    return Settings(server=pick(server, "server", DEFAULT_SERVER).rstrip("/"),
                    name=pick(name, "name", DEFAULT_NAME),
                    lang=pick(lang, "lang", from_locale() or DEFAULT_LANG),
                    confirm=pick(confirm, "confirm", "on").lower() not in OFF)


def _seats(entry: object) -> dict[str, dict[str, Any]]:
    """A game's saved seats, seat number (as text) -> entry. Files written before tokens
    were kept per seat hold one entry per game."""
    if not isinstance(entry, dict):
        return {}
    if "token" in entry:
        entry = {str(entry.get("seat")): entry}
    return {seat: saved for seat, saved in entry.items()
            if isinstance(saved, dict) and isinstance(saved.get("token"), str)}


def save_token(game: str, seat: int, token: str, server: str, name: str) -> Path:
    """Remember a seat's token (the file is readable only by you)."""
    path = config_dir() / "tokens.json"
    tokens = _read(path)
    seats = _seats(tokens.get(game))
    seats[str(seat)] = {"seat": seat, "token": token, "server": server, "name": name}
    tokens[game] = seats
    _write(path, tokens, private=True)
    return path


def save_credential(server: str, kind: str, secret: str, name: str | None) -> Path:
    """Remember what `dominion login` signed in to `server` with: `kind` is "session" or
    "token" (the file is readable only by you)."""
    path = config_dir() / "account.json"
    _write(path, {**_read(path), server: {"kind": kind, "secret": secret, "name": name}},
           private=True)
    return path


def load_credential(server: str) -> dict[str, Any] | None:
    """`{"kind", "secret", "name"}` saved for `server` by `dominion login`, or None."""
    saved = _read(config_dir() / "account.json").get(server)
    return saved if isinstance(saved, dict) and isinstance(saved.get("secret"), str) else None


def forget_credential(server: str) -> None:
    path = config_dir() / "account.json"
    saved = _read(path)
    if saved.pop(server, None) is not None:
        _write(path, saved, private=True)


def load_token(game: str, name: str | None = None) -> dict[str, Any] | None:
    """`{"seat", "token", "server", "name"}` saved for a seat of this game (the one
    saved under `name`, when given), or None."""
    for saved in _seats(_read(config_dir() / "tokens.json").get(game)).values():
        if name is None or saved.get("name") == name:
            return saved
    return None
