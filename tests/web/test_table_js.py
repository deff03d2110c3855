"""The game table's pure parts under Node (tests/web/table_check.mjs): a card's colours
from its types, which card of the hand or the Supply (or which button of the bar)
answers each option of a decision, the shortcut keys and when a key press is one, and a
card's text in a tooltip that describes it, in English and Polish."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from dominion.server.engine import catalogue_dict

HERE = Path(__file__).parent
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None,
                    reason="Node.js is not installed (apt-get install nodejs; .ci/run does)")
def test_the_tables_pure_parts() -> None:
    assert NODE is not None
    done = subprocess.run([NODE, str(HERE / "table_check.mjs"), json.dumps(catalogue_dict())],
                          capture_output=True, text=True, check=True, timeout=60)
    report = json.loads(done.stdout)
    assert report["problems"] == []
    assert report["checked"] >= 35, report  # the script ran to its end
