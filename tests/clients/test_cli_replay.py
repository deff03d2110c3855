"""`dominion replay verify` and `dominion replay download` as a person runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "REPLAYS.md"


def documented_replay() -> dict[str, object]:
    block = re.search(r"```json replay\n(.*?)\n```", DOC.read_text(), re.S)
    assert block
    data: dict[str, object] = json.loads(block.group(1))
    return data


def dominion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dominion.clients.cli", *args],
                          capture_output=True, text=True, check=False)


@pytest.mark.integration  # the command, a program
def test_verify_accepts_a_true_replay_in_json_and_msgpack(tmp_path: Path) -> None:
    replay = documented_replay()
    as_json, as_msgpack = tmp_path / "game.json", tmp_path / "game.msgpack"
    as_json.write_text(json.dumps(replay))
    as_msgpack.write_bytes(msgpack.packb(replay))
    for path in (as_json, as_msgpack):
        result = dominion("replay", "verify", str(path))
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.startswith("ok:")


@pytest.mark.integration  # the command, a program
def test_verify_reports_tampering_with_the_first_difference(tmp_path: Path) -> None:
    replay = documented_replay()
    replay["events"][4]["cards"][0] = "gold"  # type: ignore[index]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(replay))
    result = dominion("replay", "verify", str(path))
    assert result.returncode == 1
    assert "FAILED: event 5 differs" in result.stdout


@pytest.mark.integration  # the command, a program
def test_verify_explains_unreadable_files(tmp_path: Path) -> None:
    path = tmp_path / "junk.bin"
    path.write_bytes(b"\xc1\xc1\xc1")
    result = dominion("replay", "verify", str(path))
    assert result.returncode == 2 and "cannot read" in result.stderr
    assert dominion("replay", "verify", str(tmp_path / "missing.json")).returncode == 2


@pytest.mark.integration  # the command, a program
def test_verify_says_a_text_replay_cannot_be_verified_and_which_form_can(
        tmp_path: Path) -> None:
    text = re.search(r"Its text form begins:\n\n```\n(.*?)```", DOC.read_text(), re.S)
    assert text and text.group(1).startswith("Dominion, edition 2")
    path = tmp_path / "game.txt"
    path.write_text(text.group(1))
    result = dominion("replay", "verify", str(path))
    assert result.returncode == 2
    assert "text replay" in result.stderr and "--format json" in result.stderr
    assert "extra data" not in result.stderr


@pytest.mark.integration  # the command, a program
def test_download_from_an_unreachable_server_is_explained() -> None:
    result = dominion("replay", "download", "g-1", "--server", "http://127.0.0.1:9")
    assert result.returncode == 2 and "Cannot reach" in result.stderr
    assert "Is it running?" in result.stderr and "http://127.0.0.1:9" in result.stderr


def test_a_changed_answer_is_reported_where_the_game_first_went_another_way() -> None:
    """REPLAYS.md: the first place it differs comes first. Playing one Copper instead of
    all Treasures changes event 8; the next answer then no longer fits."""
    from dominion.server.replays import verify_replay

    replay = documented_replay()
    replay["answers"][0]["choices"] = [0]  # type: ignore[index]
    problems = verify_replay(replay).problems
    assert problems[0].startswith("event 8 differs"), problems
    assert problems[1].startswith("answer 2 is not legal"), problems
