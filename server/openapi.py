"""The OpenAPI document of the REST lobby (filled in with the REST issue's details)."""

from __future__ import annotations

from typing import Any


def openapi_document() -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "Dominion server", "version": "1"},
            "paths": {}}
