"""The game table's pure parts under Node (tests/web/table_check.mjs): a card's colours
from its types, which card of the hand or the Supply (or which button of the bar)
answers each option of a decision, the shortcut keys and when a key press is one, and a
card's text in a tooltip that describes it, in English and Polish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dominion.server.engine import catalogue_dict

from .node import needs_node, run_node

pytestmark = pytest.mark.integration  # Node.js runs the modules

HERE = Path(__file__).parent


@needs_node
def test_the_tables_pure_parts() -> None:
    report = run_node(str(HERE / "table_check.mjs"), json.dumps(catalogue_dict()))
    assert report["problems"] == []
    assert report["checked"] >= 35, report  # the script ran to its end
