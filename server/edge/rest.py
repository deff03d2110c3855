"""The REST API's refusals: every failure under /api/v1 is a JSON error with a stable code
(the error shape, and the middlewares that give it)."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ..refusal import Refusal

log = logging.getLogger("dominion.rest")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
MAX_BODY_BYTES = 64 * 1024
"""The largest request body the server reads."""

def error_body(code: ErrorCode, message: str, retry_after_ms: int | None = None
               ) -> dict[str, Any]:
    """Every refusal's body: `error_schema` says it."""
    error: dict[str, Any] = {"code": code, "message": message}
    if retry_after_ms is not None:
        error["retry_after_ms"] = retry_after_ms
    return {"error": error}


def error_schema(codes: Iterable[ErrorCode]) -> dict[str, Any]:
    """The JSON Schema of `error_body` with any of `codes` (the OpenAPI document's
    `Error`)."""
    return {
        "type": "object", "required": ["error"], "additionalProperties": False,
        "description": "Every refusal. Nothing was created or changed.",
        "properties": {"error": {
            "type": "object", "required": ["code", "message"], "additionalProperties": False,
            "properties": {
                "code": {"type": "string", "enum": [code.value for code in codes],
                         "description": "stable, for programs"},
                "message": {"type": "string", "description": "for people"},
                "retry_after_ms": {"type": "integer", "minimum": 1,
                                   "description": "with `rate_limited` only: milliseconds "
                                                  "until the request may be paid for (also "
                                                  "in the Retry-After header, in seconds)"},
            }}}}


def error_response(code: ErrorCode, message: str, retry_after_ms: int | None = None
                   ) -> web.Response:
    response = web.json_response(error_body(code, message, retry_after_ms),
                                 status=code.status)
    if retry_after_ms is not None:  # when to come back, as HTTP says it too
        response.headers["Retry-After"] = str(math.ceil(retry_after_ms / 1000))
    return response


def method_not_allowed(method: str, allowed: Iterable[str]) -> web.Response:
    response = error_response(ErrorCode.METHOD_NOT_ALLOWED, f"{method} is not allowed here")
    response.headers["Allow"] = ",".join(sorted(allowed))
    return response


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn every failure under /api/v1 into the JSON error shape (the REST sub-application
    only: the WebSocket route is outside it, so its connections carry no middleware)."""
    try:
        return await handler(request)
    except Refusal as error:
        return error_response(error.code, error.message, error.retry_after_ms)
    except web.HTTPRequestEntityTooLarge:
        return error_response(ErrorCode.BODY_TOO_LARGE, "the request body is too large")
    except web.HTTPNotFound:
        return error_response(ErrorCode.NOT_FOUND, f"no resource at {request.path}")
    except web.HTTPMethodNotAllowed as error:
        return method_not_allowed(request.method, error.allowed_methods)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("a REST request failed", extra={"path": request.path})
        return error_response(ErrorCode.INTERNAL_ERROR, "the server failed; try again later")


@web.middleware
def unmatched_as_json(request: web.Request, handler: Handler) -> Awaitable[web.StreamResponse]:
    """The main application's requests that match no route (a path outside /api/v1, a
    CONNECT whose target is not a path) get the JSON error shape too. A plain function,
    not a coroutine: a matched request (a WebSocket's, above all) goes on to its handler
    without a middleware frame on its stack for its whole life."""
    error = request.match_info.http_exception
    if error is None:
        return handler(request)
    return _refusal(request, error)


@web.middleware
def declared_body_fits(request: web.Request, handler: Handler
                       ) -> Awaitable[web.StreamResponse]:
    """A body declared larger than the server reads is refused at once, before any of it
    is waited for (a plain function, like `unmatched_as_json`)."""
    declared = request.content_length
    if declared is None or declared <= request.client_max_size:
        return handler(request)
    return _too_large()


async def _too_large() -> web.Response:
    return error_response(ErrorCode.BODY_TOO_LARGE, "the request body is larger than "
                                            f"{MAX_BODY_BYTES} bytes")


async def _refusal(request: web.Request, error: web.HTTPException) -> web.Response:
    if isinstance(error, web.HTTPMethodNotAllowed):
        return method_not_allowed(request.method, error.allowed_methods)
    return error_response(ErrorCode.NOT_FOUND, f"no resource at {request.path or request.raw_path}")
