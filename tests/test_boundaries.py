"""The architecture's import rules, checked on the source (docs/ARCHITECTURE.md): no
module imports another that imports it back, not even from inside a function; each part
of the server imports only the parts below it; the engine does no I/O and reads no
clock; the protocol knows neither server nor clients; the bots know only the protocol; the
server never imports the clients; clients reach the engine only to verify replays; a
rematch travels one way, connection → room → rematch → lobby."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"server": "dominion.server", "protocol": "dominion.protocol",
           "bots": "dominion.bots", "clients": "dominion.clients"}
"""Each folder and its installed name (setup.py)."""
ENGINE_FORBIDDEN = {"aiohttp", "asyncio", "sqlite3", "sqlite_utils", "socket", "time",
                    "datetime", "os", "msgpack", "dominion.protocol"}
ENGINE_MAY_IMPORT = {"dominion.protocol.errors", "dominion.protocol.buy_menu"}
"""The modules outside the engine it imports, plain data with no I/O: the error codes every
refusal carries, so that the engine's refusals and the server's are one list; and the Buy
menu a Buy decision carries ready-made, which the bots also build from a decision off the
wire."""
ENGINE_INIT = ROOT / "server" / "engine" / "__init__.py"
ENGINE_INIT_MAY_IMPORT = {"dominion.protocol.loader"}
"""Not rules: the loader that the package calls to pick compiled or pure-Python modules on
import, reading the build's stamp and DOMINION_PURE_PYTHON (docs/ENGINE.md, "Compiled
engine"); no game calls it."""
ENTRY_POINTS = {"dominion.server.main", "dominion.server.sim"}
"""Top-level modules that start a program: they may import any part."""
MAY_IMPORT = {
    "engine": {"protocol"},  # only its error codes (ENGINE_MAY_IMPORT)
    "storage": {"engine"},
    "ratings": {"engine"},
    "replays": {"engine", "storage", "ratings"},
    "accounts": {"ratings", "shared", "protocol", "bots"},
    "play": {"engine", "storage", "ratings", "replays", "accounts", "shared", "protocol",
             "bots"},
    "cluster": {"engine", "storage", "replays", "play", "shared", "protocol"},
    "automatch": {"engine", "storage", "replays", "accounts", "ratings", "play", "cluster",
                  "shared", "protocol", "bots"},
    "edge": {"engine", "storage", "replays", "accounts", "ratings", "play", "cluster",
             "automatch", "shared", "protocol", "bots"},
    "shared": {"protocol", "bots"},
    "protocol": set(),
    "bots": {"protocol"},
}
"""Each part -> the parts it may import (type-only imports too: a part does not even
name what is above it). `shared` is the server's top-level modules other than the entry
points (settings, errors, metrics, logs, gc_tuning); `bots` is `dominion.bots`, the
strategies that the server's bot seats, the simulator and the clients' bots all play: it
may import the protocol only (the loader that picks its compiled modules), never the
server or the clients."""

EDGE = "dominion.server.edge"
EDGE_MAY_IMPORT = {
    "transport": set(),
    "tasks": {"transport"},
    "api": {"transport", "tasks"},
}
"""The edge's folders -> the folders they may import. Each may import the modules at the
edge's top other than the app (`state.py`, the shared state; `rest.py`, the JSON error
shape every part answers with); only `app.py` imports all three."""
API_MAY_IMPORT_FROM_TRANSPORT = {"addresses", "prefixes", "origins", "bearer_header",
                                 "connection"}
"""The one arrow more than "through the state": what a request is known by (its address,
its prefix, the names it may use, its bearer token), and the `Connection` the WebSocket's
route serves each socket with. The rest of transport (the connection count, the budgets,
the outboxes) the handlers reach through `ServerState`."""


@cache
def modules() -> dict[str, Path]:
    """Every module of the three packages by its installed name."""
    found = {}
    for folder, name in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((name, *parts))] = path
    return found


def part_of(module: str) -> str | None:
    """The part a module belongs to, as named in MAY_IMPORT (None: not governed here)."""
    if module.startswith("dominion.protocol"):
        return "protocol"
    if module.startswith("dominion.bots"):
        return "bots"
    names = module.split(".")
    if names[:2] != ["dominion", "server"] or module in ENTRY_POINTS:
        return None
    if len(names) > 3 or (len(names) == 3 and (ROOT / "server" / names[2]).is_dir()):
        return names[2]
    return "shared"


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


STATEMENT_NODES = (ast.stmt, ast.excepthandler, ast.match_case)
"""What an import may be inside: a statement, an `except` or a `case` (never an expression,
which `nodes` skips: most of a tree, and most of the time a walk takes)."""


def nodes(tree: ast.AST, type_checking: bool) -> Iterator[ast.AST]:
    """Every statement below `tree`, inside functions too; without `type_checking`, not the
    bodies of `if TYPE_CHECKING:` (imports for annotations only, never run)."""
    for node in ast.iter_child_nodes(tree):
        if not isinstance(node, STATEMENT_NODES):
            continue
        if not type_checking and isinstance(node, ast.If) and is_type_checking(node.test):
            for other in node.orelse:
                yield other
                yield from nodes(other, type_checking)
            continue
        yield node
        yield from nodes(node, type_checking)


def imports(path: Path) -> list[tuple[str, ast.AST]]:
    """Every module a file names in an absolute import, with the node that does it."""
    found: list[tuple[str, ast.AST]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, node) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.module, node))
    return found


@cache  # three tests read every module's
def our_imports(module: str, *, type_checking: bool) -> frozenset[str]:
    """The modules of ours that `module` imports (see `imports_in`)."""
    path = modules()[module]
    return frozenset(imports_in(path.read_text(), module, path.name == "__init__.py",
                                set(modules()), type_checking=type_checking))


def imports_in(source: str, module: str, is_package: bool, known: set[str], *,
               type_checking: bool) -> set[str]:
    """The `known` modules that `module`'s `source` imports, relative imports resolved:
    `from a import b` is the module `a.b` when there is one, else `a` (its __init__)."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = set()
    for node in nodes(ast.parse(source), type_checking):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[:len(package) - node.level + 1],
                                 *([node.module] if node.module else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for name in targets:
            while name and name not in known:
                name = name.rpartition(".")[0]  # noqa: PLW2901 (the module a name is in)
            if name and name != module:
                found.add(name)
    return found


def test_imports_count_inside_functions_and_not_for_type_checking_only() -> None:
    source = """
from typing import TYPE_CHECKING
from . import b
from .c import thing
import p.q.d.deep
if TYPE_CHECKING:
    from .e import Type
def later():
    from ..f import g
"""
    known = {"p.q.a", "p.q.b", "p.q.c", "p.q.d", "p.q.e", "p.f"}
    run = {"p.q.b", "p.q.c", "p.q.d", "p.f"}
    assert imports_in(source, "p.q.a", False, known, type_checking=False) == run
    assert imports_in(source, "p.q.a", False, known, type_checking=True) == run | {"p.q.e"}
    assert imports_in("from . import b", "p.q", True, {"p.q", "p.q.b"},
                      type_checking=False) == {"p.q.b"}


@pytest.mark.integration  # reads every module: over the unit tier's CPU budget
def test_no_modules_import_each_other_in_a_circle() -> None:
    # imports inside functions count: they only hide a circle until the function runs
    graph = {module: our_imports(module, type_checking=False) for module in modules()}
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        pytest.fail("modules import each other in a circle: " + " -> ".join(error.args[1]))


def test_each_part_imports_only_the_parts_below_it() -> None:
    """The server's parts, the protocol and the bots (the clients are checked below)."""
    wrong = []
    for module in modules():
        part = part_of(module)
        if part is None:
            continue
        for target in our_imports(module, type_checking=True):
            other = part_of(target)
            if other != part and other not in MAY_IMPORT[part]:
                wrong.append(f"{module} ({part}) imports {target} ({other or 'not a part'})")
    assert wrong == []


def test_the_server_never_imports_the_clients() -> None:
    """Not its entry points either, nor for type checking only: what the server and the
    clients share (the bots' strategies, the protocol) lives outside `clients/`."""
    wrong = [f"{module} imports {target}" for module in modules()
             if module.startswith(FOLDERS["server"])
             for target in our_imports(module, type_checking=True)
             if target.startswith(FOLDERS["clients"])]
    assert wrong == []


def test_every_folder_of_the_server_has_its_rule() -> None:
    folders = {path.parent.name for path in (ROOT / "server").glob("*/__init__.py")}
    assert folders <= set(MAY_IMPORT)


def test_the_engine_does_no_io_and_reads_no_clock() -> None:
    for path in (ROOT / "server" / "engine").rglob("*.py"):
        for module, _ in imports(path):
            if module in ENGINE_MAY_IMPORT or (path == ENGINE_INIT
                                               and module in ENGINE_INIT_MAY_IMPORT):
                continue
            root = module.split(".")[0]
            forbidden = {root, *(module[:i] for i, c in enumerate(module) if c == "."), module}
            assert not forbidden & ENGINE_FORBIDDEN, f"{path.relative_to(ROOT)} imports {module}"


VERIFY_MAY_IMPORT = {"dominion.server.replays", "dominion.server.gc_tuning"}
"""What `dominion replay verify` takes from the server: the replays' check, and the
server's garbage collection settings for a program that replays games by the thousand."""
VERIFYING = {"verify_file", "check"}
"""The functions of clients/replay_check.py that verify: the command, and one replay's
check (in a worker process with `--jobs`)."""


def test_clients_use_the_engine_only_to_verify_replays() -> None:
    for path in (ROOT / "clients").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for function in [None, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
            walked = ast.walk(function) if function else iter(tree.body)
            for node in walked:
                module = getattr(node, "module", None) or ""
                names = [a.name for a in getattr(node, "names", [])] \
                    if isinstance(node, ast.Import) else [module]
                if any(name.startswith("dominion.server") for name in names):
                    allowed = (function is not None and function.name in VERIFYING
                               and module in VERIFY_MAY_IMPORT)
                    assert allowed, f"{path.relative_to(ROOT)} imports {names} outside verify"


def test_the_protocol_imports_neither_engine_nor_server() -> None:
    for path in (ROOT / "protocol").rglob("*.py"):
        for module, _ in imports(path):
            assert not module.startswith(("dominion.server", "dominion.clients", "aiohttp")), \
                f"{path.relative_to(ROOT)} imports {module}"


def edge_folder(module: str) -> str | None:
    """The edge's folder a module is in (None: at the edge's top, or not the edge's)."""
    names = module.split(".")
    if module.startswith(EDGE + ".") and len(names) > 4:
        return names[3]
    return None


def test_the_edge_folders_import_only_the_folders_below_them() -> None:
    wrong = []
    for module in modules():
        folder = edge_folder(module)
        if folder is None:
            continue
        for target in our_imports(module, type_checking=True):
            other = edge_folder(target)
            if target == f"{EDGE}.app":
                wrong.append(f"{module} imports the app")
            elif other is not None and other != folder and (
                    other not in EDGE_MAY_IMPORT[folder] or (
                        folder == "api" and other == "transport"
                        and target.rpartition(".")[2] not in API_MAY_IMPORT_FROM_TRANSPORT)):
                wrong.append(f"{module} ({folder}) imports {target} ({other})")
    assert wrong == []


def test_every_folder_of_the_edge_has_its_rule() -> None:
    folders = {path.parent.name for path in (ROOT / "server" / "edge").glob("*/__init__.py")}
    assert folders == set(EDGE_MAY_IMPORT)


def test_the_edge_shares_its_state_under_one_key() -> None:
    """Handlers reach what the node shares through `ServerState` alone (edge/state.py):
    no other module makes an aiohttp `AppKey`."""
    state = ROOT / "server" / "edge" / "state.py"
    making = [str(path.relative_to(ROOT)) for path in (ROOT / "server").rglob("*.py")
              if path != state and "AppKey(" in path.read_text()]
    assert making == []


def test_a_rematch_travels_one_way() -> None:
    """connection → room → `Rematches` (play/rematch.py, its one owner) → the lobby's
    `open_rematch`, never back: the lobby only gives each room's rematches itself as
    their `RematchTables`, the connection only asks the room, and rematch.py knows the
    lobby by that protocol alone."""
    play = ROOT / "server" / "play"
    lobby = (play / "lobby.py").read_text()
    assert [line.strip() for line in lobby.splitlines() if ".rematches" in line] == [
        "room.rematches.tables = self"]
    assert "offer_rematch" not in lobby and "answer_rematch" not in lobby
    connection = (ROOT / "server" / "edge" / "transport" / "connection.py").read_text()
    assert "open_rematch" not in connection and ".rematches" not in connection
    assert "dominion.server.play.lobby" not in our_imports("dominion.server.play.rematch",
                                                           type_checking=True)
