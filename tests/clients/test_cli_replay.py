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


def dominion(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    if isinstance(stdin, bytes):  # a binary standard input (msgpack)
        done = subprocess.run([sys.executable, "-m", "dominion.clients.cli", *args],
                              input=stdin, capture_output=True, check=False)
        return subprocess.CompletedProcess(done.args, done.returncode,
                                           done.stdout.decode(), done.stderr.decode())
    return subprocess.run([sys.executable, "-m", "dominion.clients.cli", *args], input=stdin,
                          capture_output=True, text=True, check=False)


def export_of(*replays: dict[str, object]) -> str:
    """NDJSON, as GET /api/v1/replays/export streams it."""
    return "".join(json.dumps(replay) + "\n" for replay in replays)


def named(game_id: str, tampered: bool = False) -> dict[str, object]:
    replay = documented_replay()
    replay["game"]["id"] = game_id  # type: ignore[index]
    if tampered:
        replay["events"][4]["cards"][0] = "gold"  # type: ignore[index]
    return replay


@pytest.mark.integration  # the command, a program
def test_verify_accepts_a_true_replay_in_json_and_msgpack(tmp_path: Path) -> None:
    replay = documented_replay()
    as_json, as_msgpack = tmp_path / "game.json", tmp_path / "game.msgpack"
    as_json.write_text(json.dumps(replay))
    as_msgpack.write_bytes(msgpack.packb(replay))
    for path in (as_json, as_msgpack):
        result = dominion("replay", "verify", str(path))
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.startswith("g-5e1f0c2a9b7d: ok:")
        assert "replays checked" not in result.stdout  # one replay: no summary


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
def test_verify_reports_each_game_of_an_export_saved_or_piped(tmp_path: Path) -> None:
    export = export_of(named("g-a"), named("g-b", tampered=True), named("g-c"))
    path = tmp_path / "export.ndjson"
    path.write_text(export)
    for result in (dominion("replay", "verify", str(path)),
                   dominion("replay", "verify", "-", stdin=export)):
        assert result.returncode == 1, result.stdout + result.stderr
        lines = result.stdout.splitlines()
        assert lines[0].startswith("g-a: ok:") and lines[-2].startswith("g-c: ok:")
        assert lines[1].startswith("g-b: FAILED: event 5 differs")
        assert lines[-1] == "replays checked: 3; failed: 1"


@pytest.mark.integration  # the command, a program
def test_verify_with_several_jobs_says_what_one_job_says_in_the_same_order(
        tmp_path: Path) -> None:
    path = tmp_path / "dump.ndjson"
    path.write_text(export_of(named("g-a"), named("g-b", tampered=True), named("g-c"))
                    + "{not json\n" + export_of(named("g-d")))
    one = dominion("replay", "verify", str(path))
    several = dominion("replay", "verify", "--jobs", "2", str(path))
    assert one.returncode == several.returncode == 1
    assert (several.stdout, several.stderr) == (one.stdout, one.stderr)
    assert [line.split(":")[0] for line in several.stdout.splitlines()] == [
        "g-a", "g-b", "g-c", "g-d", "replays checked"]
    assert f"cannot read {path}:4:" in several.stderr
    refused = dominion("replay", "verify", "--jobs", "-1", str(path))
    assert refused.returncode == 2 and "a number of processes" in refused.stderr


@pytest.mark.integration  # the command, a program
def test_verify_reads_every_file_named_and_a_file_of_msgpack_replays(tmp_path: Path) -> None:
    dump = tmp_path / "replays.msgpack"
    dump.write_bytes(msgpack.packb(named("g-a")) + msgpack.packb(named("g-b")))
    single = tmp_path / "g-c.json"
    single.write_text(json.dumps(named("g-c"), indent=2))  # over several lines
    result = dominion("replay", "verify", str(dump), str(single))
    assert result.returncode == 0, result.stdout + result.stderr
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        "g-a", "g-b", "g-c", "replays checked"]
    piped = dominion("replay", "verify", "-", stdin=dump.read_bytes())
    assert piped.returncode == 0 and piped.stdout.endswith("replays checked: 2; failed: 0\n")


@pytest.mark.integration  # the command, a program
def test_a_line_of_an_export_that_cannot_be_read_is_named_and_fails_the_check(
        tmp_path: Path) -> None:
    path = tmp_path / "export.ndjson"
    path.write_text(export_of(named("g-a")) + "{not json\n\n" + export_of(named("g-c")))
    result = dominion("replay", "verify", str(path))
    assert result.returncode == 1
    assert f"cannot read {path}:2:" in result.stderr
    assert result.stdout.splitlines()[-1] == "replays checked: 3; failed: 1"
    missing = dominion("replay", "verify", str(path), str(tmp_path / "missing.ndjson"))
    assert missing.returncode == 2 and "missing.ndjson" in missing.stderr
    assert "g-c: ok" in missing.stdout  # what could be read was still checked


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
