"""One list of error codes (`ErrorCode`): every refusal anywhere in the code base names a
member of it, never a string, so no code can be raised that the list (and docs/PROTOCOL.md,
section 10, which tests/test_docs.py checks against it) lacks."""

from __future__ import annotations

import ast
from http import HTTPStatus
from pathlib import Path

from dominion.protocol import ErrorCode
from dominion.server.edge.api.operation import REST_CODES, described

ROOT = Path(__file__).resolve().parent.parent.parent
REFUSALS = {"Refusal", "IllegalAnswer", "InvalidSetup", "ProtocolError", "error_response",
            "_error"}
"""What carries a code: the exceptions of the engine, server and protocol, and the two
functions that answer with one."""


def refusals() -> list[tuple[str, ast.Call]]:
    found = []
    for folder in ("server", "protocol", "bots", "clients"):
        for path in (ROOT / folder).rglob("*.py"):
            source = path.read_text()
            if not any(f"{name}(" in source for name in REFUSALS):
                continue  # (most files: not parsed and walked)
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Call) and node.args:
                    name = getattr(node.func, "id", getattr(node.func, "attr", None))
                    if name in REFUSALS:
                        found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return found


def test_every_refusal_names_an_error_code_member() -> None:
    calls = refusals()
    assert len(calls) > 60, "the search finds the refusals"
    strings = [where for where, call in calls
               if isinstance(call.args[0], ast.Constant | ast.JoinedStr)]
    assert strings == [], "a refusal's code is an ErrorCode member, not a string"
    members = {call.args[0].attr for _, call in calls
               if isinstance(call.args[0], ast.Attribute)
               and getattr(call.args[0].value, "id", None) == "ErrorCode"}
    assert members <= {code.name for code in ErrorCode}


def test_each_code_carries_its_rest_status_and_meaning() -> None:
    assert all(isinstance(code.status, HTTPStatus) for code in ErrorCode)
    special = [code for code in ErrorCode if code.status != HTTPStatus.BAD_REQUEST]
    assert set(special) <= set(REST_CODES), "every code with its own status is described"
    for code in REST_CODES:  # the server's limits it names are filled in
        assert "{" not in described(code), code
