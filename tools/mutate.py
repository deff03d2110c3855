"""Mutation testing, small and local: do the tests notice when the code is wrong?

One at a time, each mutant changes one thing in one module (swaps a comparison, flips
`and`/`or`, negates an `if`, flips a boolean, adds one to an integer, or replaces a
statement by `pass`); the given tests run against it; a mutant the tests let pass
"survives". A survivor is either a test that is missing or a change that makes no
difference (a type alias, a message's wording, a fast path whose slow path gives the
same answer): read each one.

    python tools/mutate.py server/engine/view.py tests/engine tests/server/test_no_leak_wire.py
    python tools/mutate.py server/play/room.py:300-360 tests/server/test_ws_errors.py

A `:FIRST-LAST[,FIRST-LAST...]` suffix mutates only those lines. The module is changed
in place (the editable install imports it from there), so the file must have no
uncommitted changes; it is restored at the end, also when the run is interrupted.
Tests run with `-x`, so a mutant's run stops at its first failure: put the fastest
tests that can catch it first. Libraries such as mutmut copy the tree into a folder of
their own, which the installed `dominion` package (mapped from `server/`, `protocol/`,
`bots/` and `clients/`) would not import from. The tests run on the pure-Python engine
(DOMINION_PURE_PYTHON=1): a compiled engine module would not run its mutant.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from dominion.protocol.loader import PURE_PYTHON_ENV

ROOT = Path(__file__).resolve().parent.parent
SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}

Site = tuple[str, ast.AST, int]
"""What to change: a kind, the node, and (for comparisons) which operator."""


def sites(tree: ast.AST, spans: list[tuple[int, int]]) -> list[Site]:
    found: list[Site] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            found += [("compare", node, i) for i, op in enumerate(node.ops) if type(op) in SWAPS]
        elif isinstance(node, ast.BoolOp):
            found.append(("and/or", node, 0))
        elif isinstance(node, ast.If):
            found.append(("negate if", node, 0))
        elif isinstance(node, ast.Constant) and type(node.value) in (bool, int):
            found.append(("constant", node, 0))
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.Expr) and not (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            found.append(("pass", node, 0))  # docstrings are not statements worth removing
    return [site for site in found
            if not spans or any(first <= getattr(site[1], "lineno", 0) <= last
                                for first, last in spans)]


def mutants(source: str, spans: list[tuple[int, int]]) -> Iterator[tuple[str, int, str]]:
    """Each mutant as (kind, line, source)."""
    tree = ast.parse(source)
    for index in range(len(sites(tree, spans))):
        changed = copy.deepcopy(tree)
        kind, node, which = sites(changed, spans)[index]
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            node.ops[which] = SWAPS[type(node.ops[which])]()
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.If):
            node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
        elif isinstance(node, ast.Constant) and isinstance(node.value, int):
            node.value = not node.value if isinstance(node.value, bool) else node.value + 1
        else:
            _replace_by_pass(changed, node)
        yield kind, line, ast.unparse(ast.fix_missing_locations(changed))


def _replace_by_pass(tree: ast.AST, statement: ast.AST) -> None:
    for parent in ast.walk(tree):
        for _, value in ast.iter_fields(parent):
            if isinstance(value, list) and any(item is statement for item in value):
                value[[id(item) for item in value].index(id(statement))] = ast.Pass()
                return


def parse_target(target: str) -> tuple[Path, list[tuple[int, int]]]:
    path, _, ranges = target.partition(":")
    spans = []
    for span in filter(None, ranges.split(",")):
        first, _, last = span.partition("-")
        spans.append((int(first), int(last or first)))
    return Path(path), spans


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", help="a module, optionally with :FIRST-LAST line ranges")
    parser.add_argument("tests", nargs="+", help="test files or folders, fastest first")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the git work tree the paths are in (default: this project's)")
    args = parser.parse_args()
    root = args.root.resolve()
    path, spans = parse_target(args.target)
    module = root / path
    dirty = subprocess.run(["git", "diff", "--quiet", "--", str(module)], cwd=root,
                           check=False).returncode
    if dirty:
        parser.error(f"{path} has uncommitted changes: commit them first")
    original = module.read_text()

    def restore(signum: int, frame: FrameType | None) -> None:
        module.write_text(original)
        sys.exit(130)

    signal.signal(signal.SIGINT, restore)
    signal.signal(signal.SIGTERM, restore)
    survivors = []
    lines = original.splitlines()
    print(f"{len(sites(ast.parse(original), spans))} mutants of {path}", flush=True)
    try:
        for number, (kind, line, source) in enumerate(mutants(original, spans)):
            module.write_text(source)
            started = time.monotonic()
            run = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p",
                                  "no:cacheprovider", *args.tests], cwd=root,
                                 capture_output=True, check=False,
                                 env={**os.environ, PURE_PYTHON_ENV: "1"})
            survived = run.returncode == 0
            text = lines[line - 1].strip() if line else ""
            print(f"{number:4} {'SURVIVED' if survived else 'killed':8} {kind:9} line {line}: "
                  f"{text}  ({time.monotonic() - started:.0f} s)", flush=True)
            if survived:
                survivors.append(f"line {line} ({kind}): {text}")
    finally:
        module.write_text(original)
    print(f"{len(survivors)} survived:", *survivors, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
