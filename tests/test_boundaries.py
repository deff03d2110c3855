"""The architecture's import rules, checked on the source: the engine does no I/O and
reads no clock; clients reach the engine only to verify replays."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FORBIDDEN = {"aiohttp", "asyncio", "sqlite3", "sqlite_utils", "socket", "time",
                    "datetime", "os", "msgpack", "dominion.protocol"}


def imports(path: Path) -> list[tuple[str, ast.AST]]:
    """Every module a file imports, with the node that does it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, node) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.module, node))
    return found


def test_the_engine_does_no_io_and_reads_no_clock() -> None:
    for path in (ROOT / "server" / "engine").rglob("*.py"):
        for module, _ in imports(path):
            root = module.split(".")[0]
            assert root not in ENGINE_FORBIDDEN and module not in ENGINE_FORBIDDEN, \
                f"{path.relative_to(ROOT)} imports {module}"


def test_clients_use_the_engine_only_to_verify_replays() -> None:
    for path in (ROOT / "clients").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for function in [None, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
            nodes = ast.walk(function) if function else iter(tree.body)
            for node in nodes:
                module = getattr(node, "module", None) or ""
                names = [a.name for a in getattr(node, "names", [])] \
                    if isinstance(node, ast.Import) else [module]
                if any(name.startswith("dominion.server") for name in names):
                    allowed = (function is not None and function.name == "verify_file"
                               and module == "dominion.server.replays")
                    assert allowed, f"{path.relative_to(ROOT)} imports {names} outside verify"


def test_the_protocol_imports_neither_engine_nor_server() -> None:
    for path in (ROOT / "protocol").rglob("*.py"):
        for module, _ in imports(path):
            assert not module.startswith(("dominion.server", "dominion.clients", "aiohttp")), \
                f"{path.relative_to(ROOT)} imports {module}"
