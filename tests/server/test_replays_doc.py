"""The example in docs/REPLAYS.md is a real replay: it verifies, and its text log matches."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dominion.server.replays import FORMAT, VERSION, text_log, verify_replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "REPLAYS.md"


def example() -> dict[str, object]:
    block = re.search(r"```json replay\n(.*?)\n```", DOC.read_text(), re.S)
    assert block, "docs/REPLAYS.md has no ```json replay block"
    data: dict[str, object] = json.loads(block.group(1))
    return data


def test_the_documented_example_verifies() -> None:
    replay = example()
    assert replay["format"] == FORMAT and replay["version"] == VERSION
    verification = verify_replay(replay)
    assert verification.ok, verification.problems


def test_the_documented_text_log_is_what_the_server_writes() -> None:
    log = text_log(example())
    text = DOC.read_text()
    shown = text[text.index("Its text form begins:"):].split("```")[1].strip("\n")
    assert log.startswith(shown)
