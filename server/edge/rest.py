"""The REST API's refusals: every failure under /api/v1 is a JSON error with a stable code
(the error shape, and the middlewares that give it)."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web

from dominion.protocol import ErrorCode

from ..refusal import Refusal

log = logging.getLogger("dominion.rest")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
MAX_BODY_BYTES = 64 * 1024
"""The largest request body the server reads."""

def error_response(code: ErrorCode, message: str, retry_after_ms: int | None = None
                   ) -> web.Response:
    if retry_after_ms is None:
        return web.json_response({"error": {"code": code, "message": message}},
                                 status=code.status)
    # a refusal for the rate says when to come back, in the body and as HTTP says it
    return web.json_response(
        {"error": {"code": code, "message": message, "retry_after_ms": retry_after_ms}},
        status=code.status,
        headers={"Retry-After": str(math.ceil(retry_after_ms / 1000))})


def method_not_allowed(method: str, allowed: Iterable[str]) -> web.Response:
    return web.json_response(
        {"error": {"code": ErrorCode.METHOD_NOT_ALLOWED,
                   "message": f"{method} is not allowed here"}},
        status=405, headers={"Allow": ",".join(sorted(allowed))})


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
