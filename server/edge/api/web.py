"""The web client: the files of `clients/web/`, served at `/` with caching and a strict CSP.

The page is one more client of the public protocol and REST API; the server only hands
out its files. `index.html` is served at `/` (revalidated on every load); every other
file is served under `/web/<digest>/`, where the digest covers all the files, so a
browser may keep them for a year and a new version of the page gets new addresses.
The files are read once, when the application is built, and compressed once too: a
browser that accepts gzip is sent a file's gzip form (about a third of its size), which
costs the server nothing per request.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import PurePosixPath

from aiohttp import web

from dominion.protocol import ErrorCode

from ..rest import error_response
from ..state import STATE
from .operation import Operation, Param, Reply, Routes, Tag, Where

CONTENT_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".txt": "text/plain",
}
"""The kinds of file the page is made of; any other file in the folder is not served."""

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",  # REST and the same-origin WebSocket (ws: and wss: included)
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
ASSET_CACHE = "public, max-age=31536000, immutable"
PAGE_CACHE = "no-cache"
"""The page itself is revalidated on every load (a 304 when unchanged), so an upgraded
server's page, and through it the new asset addresses, is seen at once."""
ASSET_PREFIX = "{{assets}}"
"""Written in index.html where the versioned asset path belongs."""
COMPRESSED_KINDS = (".html", ".js", ".mjs", ".css", ".svg", ".txt")
"""Text compresses; a PNG is compressed already."""


@dataclass(frozen=True)
class WebFiles:
    """The page's files in memory: the page, and the assets by their relative path."""

    page: bytes
    assets: dict[str, bytes]
    digest: str
    gzipped: dict[str, bytes]
    """The gzip form of the page (under "index.html") and of each text asset."""

    @classmethod
    def load(cls) -> WebFiles:
        root = resources.files("dominion.clients").joinpath("web")
        found: dict[str, bytes] = {}
        _collect(root, PurePosixPath(), found)
        digest = hashlib.sha256()
        for path in sorted(found):
            digest.update(path.encode() + b"\0" + found[path] + b"\0")
        short = digest.hexdigest()[:16]
        page = found.pop("index.html").replace(ASSET_PREFIX.encode(), f"/web/{short}".encode())
        texts = {path: body for path, body in found.items() if path.endswith(COMPRESSED_KINDS)}
        gzipped = {path: gzip.compress(body, 9, mtime=0)
                   for path, body in {**texts, "index.html": page}.items()}
        return cls(page, found, short, gzipped)

    def body(self, request: web.Request, path: str, plain: bytes,
             headers: dict[str, str]) -> bytes:
        """The file as the request accepts it; `headers` gain what says which form it is."""
        packed = self.gzipped.get(path)
        if packed is None:
            return plain
        headers["Vary"] = "Accept-Encoding"
        if not accepts_gzip(request):
            return plain
        headers["Content-Encoding"] = "gzip"
        return packed


def accepts_gzip(request: web.Request) -> bool:
    """Whether Accept-Encoding names gzip with a weight above zero (RFC 9110 12.5.3)."""
    for coding in request.headers.get("Accept-Encoding", "").split(","):
        name, _, weight = coding.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            value = weight.strip().removeprefix("q=").strip() if weight else "1"
            try:
                return float(value) > 0
            except ValueError:
                return False
    return False


def _collect(folder: resources.abc.Traversable, relative: PurePosixPath,
             found: dict[str, bytes]) -> None:
    for entry in folder.iterdir():
        path = relative / entry.name
        if entry.is_dir():
            _collect(entry, path, found)
        elif path.suffix in CONTENT_TYPES:
            found[str(path)] = entry.read_bytes()


GUIDE = "guide.html"
"""The player's guide (docs/PLAYING.md as a page, written by tools/guide_page.py)."""


def _load_files(app: web.Application) -> None:
    app[STATE].web_files = WebFiles.load()


ROUTES = Routes(prefix="", setup=_load_files)
"""`GET /`, `GET /@/NAME` and `GET /stats` (the page), `GET /web/{digest}/{path}` (its scripts and
styles), `GET /guide` (the player's guide, at an address that outlives versions)."""
PAGE = (Reply(200, "The page", {"type": "string"}, "text/html"),
        Reply(304, "The page has not changed (If-None-Match)"))


@ROUTES(Operation("GET", "/stats", "webClientStatistics", Tag.WEB,
                  "The web client's page, showing the card statistics (docs/STATISTICS.md)",
                  PAGE))
@ROUTES(Operation("GET", "/@/{name}", "webClientProfile", Tag.WEB,
                  "The web client's page, showing a player's profile", PAGE,
                  parameters=(Param("name", Where.PATH, {"type": "string"}),)))
@ROUTES(Operation("GET", "/", "webClient", Tag.WEB,
                  "The web client's page (docs/CLIENTS.md); revalidated on every load", PAGE))
async def page(request: web.Request) -> web.Response:
    files = request.config_dict[STATE].web_files
    etag = f'"{files.digest}"'
    headers = {**SECURITY_HEADERS, "Cache-Control": PAGE_CACHE, "ETag": etag}
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers=headers)
    body = files.body(request, "index.html", files.page, headers)
    return web.Response(body=body, content_type="text/html", charset="utf-8", headers=headers)


@ROUTES(Operation(
    "GET", "/web/{digest}/{path:.+}", "webClientFile", Tag.WEB,
    "A script, style sheet, licence or the player's guide of the web client; cached for a "
    "year (a new version of the page has a new digest)",
    (Reply(200, "The file", {"type": "string"}, "text/javascript"),), (ErrorCode.NOT_FOUND,),
    parameters=(Param("digest", Where.PATH, {"type": "string"}),
                Param("path", Where.PATH, {"type": "string"})),
    notes={404: "No such file in this version of the page"}))
async def asset(request: web.Request) -> web.Response:
    files = request.config_dict[STATE].web_files
    path = request.match_info["path"]
    body = files.assets.get(path)
    if request.match_info["digest"] != files.digest or body is None:
        # the JSON error every other path answers (a page of an older version asks for
        # files under its own digest: reloading the page fixes it)
        return error_response(ErrorCode.NOT_FOUND, f"no file {path!r} in this version of the "
                                                   "page; reload it")
    kind = CONTENT_TYPES[PurePosixPath(path).suffix]
    headers = {**SECURITY_HEADERS, "Cache-Control": ASSET_CACHE}
    return web.Response(body=files.body(request, path, body, headers), content_type=kind,
                        charset=None if kind.startswith("image/") else "utf-8",
                        headers=headers)


@ROUTES(Operation("GET", "/guide", "playersGuide", Tag.WEB,
                  "The player's guide (docs/PLAYING.md): a redirect to this version's copy "
                  "among the web client's files",
                  (Reply(302, "Location: /web/{digest}/guide.html"),)))
async def guide(request: web.Request) -> web.Response:
    # to this version's copy, asked again every time: a bookmark outlives the digest
    raise web.HTTPFound(f"/web/{request.config_dict[STATE].web_files.digest}/{GUIDE}", headers={
        **SECURITY_HEADERS, "Cache-Control": PAGE_CACHE})
