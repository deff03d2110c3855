"""Issue 25's web bench (bench/web.py: first load, drawing) runs in Debian's Chromium and
measures what it says; docs/CLIENTS.md shows screenshots that exist, with the command that
makes them. The bench's screenshots are taken in tests/web/test_web_measures.py, of the
pages its measures play to (the same `Tables`, which the bench's own run would play to
again); `--dist loadfile` runs the two files on two workers."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .measures import screenshot_names

ROOT = Path(__file__).resolve().parent.parent.parent
SCREENSHOTS_COMMAND = "python bench/web.py --screenshots docs/screenshots"
SCREENSHOT_BYTES = 150_000
BENCH_SECONDS = 400
"""How long bench/web.py may take: beyond the suite's 180 s a test."""


@pytest.mark.system  # Chromium
@pytest.mark.timeout(BENCH_SECONDS + 30)
def test_the_web_bench_measures_a_first_load_and_the_drawing() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "web.py"), "--answers", "4"],
                          capture_output=True, text=True, timeout=BENCH_SECONDS, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for page in ("lobby", "game"):
        load = report["first_load"][page]
        assert load["requests"] > 5 and load["gzip_bytes"] < load["body_bytes"], load
    assert report["first_load"]["game"]["websocket_bytes_received"] > 0
    drawing = report["drawing"]
    assert drawing["answers"] == 4
    assert drawing["arrival_to_frame_end"]["count"] >= 4
    assert (drawing["arrival_to_frame_end"]["max_ms"]
            >= drawing["frame_work"]["max_ms"] > 0), drawing
    frames = drawing["frame_work_per_frame"]
    assert 1 <= frames["count"] <= drawing["frame_work"]["count"], drawing
    assert drawing["script_per_frame"]["count"] == frames["count"]
    assert 0 < drawing["script_per_frame"]["max_ms"] <= frames["max_ms"], drawing
    # the same messages' frames on Chromium's trace: each found, with its thread's time
    assert drawing["frame_cpu"]["count"] == drawing["frame_work"]["count"], drawing
    assert drawing["frame_cpu"]["max_ms"] > 0, drawing
    host = drawing["host"]
    assert min(host.values()) >= 0 and host["busy_percent"] + host["steal_percent"] <= 100, host


def test_clients_md_shows_screenshots_that_exist_and_says_how_to_make_them() -> None:
    clients = (ROOT / "docs" / "CLIENTS.md").read_text()
    linked = re.findall(r"!\[[^\]]*\]\((screenshots/[^)]+)\)", clients)
    missing = [link for link in linked if not (ROOT / "docs" / link).is_file()]
    assert not missing, missing
    assert {f"screenshots/{name}" for name in screenshot_names()} <= set(linked)
    assert SCREENSHOTS_COMMAND in clients
    for name in screenshot_names():
        assert (ROOT / "docs" / "screenshots" / name).stat().st_size <= SCREENSHOT_BYTES, name


def bench_module() -> Any:
    """bench/web.py as a module (it is a script, not a package's)."""
    spec = importlib.util.spec_from_file_location("web_bench", ROOT / "bench" / "web.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_breaks_frames_down_by_their_events_own_time() -> None:
    """`--breakdown`: each kind of work's own thread time (less its children's), and the
    work counted; the frames that drew no message apart."""
    web = bench_module()
    frame = {"name": "ProxyMain::BeginMainFrame", "ph": "X", "pid": 1, "tid": 1,
             "ts": 1000, "dur": 900, "tdur": 800}
    events = [
        frame,
        {"name": "FunctionCall", "ph": "X", "pid": 1, "tid": 1, "ts": 1010, "dur": 400,
         "tdur": 300},
        {"name": "Layout", "ph": "X", "pid": 1, "tid": 1, "ts": 1100, "dur": 100, "tdur": 100,
         "args": {"beginData": {"dirtyObjects": 7}}},  # forced by the script: within it
        {"name": "UpdateLayoutTree", "ph": "X", "pid": 1, "tid": 1, "ts": 1500, "dur": 200,
         "tdur": 200, "args": {"elementCount": 12}},
        {"name": "ProxyMain::BeginMainFrame", "ph": "X", "pid": 1, "tid": 1, "ts": 2000,
         "dur": 300, "tdur": 250},  # flights' frames
        {"name": "ProxyMain::BeginMainFrame", "ph": "X", "pid": 1, "tid": 1, "ts": 2500,
         "dur": 300, "tdur": 150},
        {**frame, "ts": 3000},
    ]
    trace = json.dumps({"traceEvents": events}).encode()
    drew = [frame, {**frame, "ts": 3000}]
    broken = web.frame_breakdown(trace, drew[:1])
    assert broken["cpu_p50_ms_by_kind"] == {
        "ProxyMain::BeginMainFrame": 0.3, "FunctionCall": 0.2, "UpdateLayoutTree": 0.2,
        "Layout": 0.1}
    assert web.frame_breakdown(trace, drew)["styled_elements"] == {"p50": 6.0, "p95": 11.4}
    assert web.other_frames(trace, drew) == {"count": 2, "p50_ms": 0.2, "p95_ms": 0.24,
                                             "max_ms": 0.25, "total_ms": 0.4}


@pytest.mark.integration  # git
def test_the_bench_serves_a_revisions_client_for_its_baseline() -> None:
    web = bench_module()
    files = web.client_files("HEAD")
    assert b"<html" in files["index.html"] and "js/animate.js" in files


def test_the_bench_scales_each_games_frames_to_its_quietest_game() -> None:
    """With a baseline, each game's `frame_cpu` is also given as if played on the run's
    quietest host: scaled by the least reference time over its own."""
    web = bench_module()
    games = [{"reference_ms": 40.0, "frame_cpu": {"count": 9, "p50_ms": 20.0, "p95_ms": 30.0}},
             {"reference_ms": 20.0, "frame_cpu": {"count": 9, "p50_ms": 8.0, "p95_ms": 12.0}}]
    web.normalised(games)
    assert games[0]["frame_cpu_normalised"] == {"p50_ms": 10.0, "p95_ms": 15.0}
    assert games[1]["frame_cpu_normalised"] == {"p50_ms": 8.0, "p95_ms": 12.0}
    assert web.reference_ms() > 0
