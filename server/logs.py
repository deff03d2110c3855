"""Logs on standard error, one line per event with any `extra=` fields: a JSON object
for programs (journald, docker, jq), or plain text for a person at a terminal."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from enum import StrEnum
from typing import Any, TextIO

from aiohttp.http_exceptions import HttpProcessingError

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}


class LogFormat(StrEnum):
    AUTO = "auto"
    """text when standard error is a terminal, JSON otherwise"""
    TEXT = "text"
    JSON = "json"


def _fields(record: logging.LogRecord) -> Iterator[tuple[str, Any]]:
    """The record's own fields: what was given with `extra=`."""
    return ((k, v) for k, v in record.__dict__.items() if k not in _STANDARD)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """`2026-01-01 12:00:00 info    game created game=g-…`: the time, the level, the
    message, then the fields it does not already say (a URL or path it names is not
    repeated; a number always is, lest a coincidence hide it)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        said = [f"{k}={v}" for k, v in _fields(record)
                if v is not None and not (isinstance(v, str) and v in message)]
        line = " ".join([self.formatTime(record, "%Y-%m-%d %H:%M:%S"),
                         f"{record.levelname.lower():<7}", message, *said])
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


CLIENT_FAULTS = (HttpProcessingError, ConnectionError)
"""What a client does, not the server: a request HTTP cannot parse (too long, too many
headers, bytes HTTP does not allow, a body shorter than it said), a connection dropped."""


class ClientFaults(logging.Filter):
    """aiohttp logs a request it could not parse, or a client gone mid-request, at ERROR
    with a traceback. Those are the client's doing, and anyone can cause them: they are
    logged at DEBUG in one line instead, and ERROR is kept for the server's own faults."""

    def filter(self, record: logging.LogRecord) -> bool:
        fault = record.exc_info[1] if record.exc_info else None
        if not isinstance(fault, CLIENT_FAULTS):
            return True
        record.msg, record.args = f"a client's fault: {type(fault).__name__}: %s", (
            str(fault).replace("\n", " "),)
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info = record.exc_text = None
        return logging.getLogger().isEnabledFor(logging.DEBUG)


def formatter_for(log_format: LogFormat, stream: TextIO) -> logging.Formatter:
    """The formatter `log_format` asks for on `stream`."""
    if log_format is LogFormat.AUTO:
        log_format = LogFormat.TEXT if stream.isatty() else LogFormat.JSON
    return TextFormatter() if log_format is LogFormat.TEXT else JsonFormatter()


def configure(level: str, log_format: LogFormat) -> None:
    handler = logging.StreamHandler()  # standard error
    handler.setFormatter(formatter_for(log_format, handler.stream))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    logging.getLogger("aiohttp.server").addFilter(ClientFaults())
