"""Structured logs: one JSON object per line, with any `extra=` fields."""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update((k, v) for k, v in record.__dict__.items() if k not in _STANDARD)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


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


def configure(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    logging.getLogger("aiohttp.server").addFilter(ClientFaults())
