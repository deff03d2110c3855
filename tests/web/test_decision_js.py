"""The page never asks a person a question with one possible answer
(clients/web/js/decision.js, run under Node): it answers it by itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .node import JS, needs_node, run_module

pytestmark = pytest.mark.integration  # Node.js runs the modules


def option(id_: int, kind: str = "card", card: str | None = "copper") -> dict[str, Any]:
    return {"id": id_, "kind": kind, "card": card}


def decision(options: list[dict[str, Any]], low: int, high: int, *, ordered: bool = False,
             **more: Any) -> dict[str, Any]:
    return {"id": 1, "player": 0, "kind": "discard", "prompt": "", "source": None,
            "min": low, "max": high, "ordered": ordered, "options": options, **more}


CASES = [
    # (decision, the forced answer or None)
    (decision([option(0)], 1, 1), [0]),                                  # one option, must pick
    (decision([option(0), option(1, card="estate")], 2, 2), [0, 1]),     # must take all
    (decision([option(0), option(1)], 1, 1), [0]),                       # two alike Coppers
    (decision([option(0), option(1, card="estate")], 1, 1), None),       # a real choice
    (decision([option(0)], 0, 1), None),                                 # may take it or not
    (decision([option(0), option(1, card="estate")], 2, 2, ordered=True), None),  # an order
    (decision([option(0), option(1)], 2, 2, ordered=True), [0, 1]),     # order of alike cards
    (decision([option(0, "buy", "copper"), option(1, "end_phase", None)], 1, 1), None),
    (decision([option(0), option(1, card="estate")], 0, 0), []),         # nothing to choose
    (decision([option(0), option(1, card="estate")], 1, 1, forced=True), [0]),  # server says
]


@needs_node
def test_only_questions_with_a_choice_are_shown() -> None:
    script = (f"import {{ forcedAnswer }} from {json.dumps((JS / 'decision.js').as_uri())};\n"
              f"const cases = {json.dumps([case for case, _ in CASES])};\n"
              "console.log(JSON.stringify(cases.map(forcedAnswer)));")
    assert run_module(script) == [answer for _, answer in CASES]
