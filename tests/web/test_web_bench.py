"""Issue 25's web bench (bench/web.py: first load, drawing, screenshots) runs in Debian's
Chromium and measures what it says; docs/CLIENTS.md shows screenshots that exist, with
the command that makes them. Apart from tests/web/test_web_measures.py, whose pages take
as long to play to: `--dist loadfile` runs the two files on two workers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .measures import screenshot_names

ROOT = Path(__file__).resolve().parent.parent.parent
SCREENSHOTS_COMMAND = "python bench/web.py --screenshots docs/screenshots"
SCREENSHOT_BYTES = 150_000
BENCH_SECONDS = 400
"""How long bench/web.py may take (forty screenshots): beyond the suite's 180 s a test."""


@pytest.mark.system  # Chromium
@pytest.mark.timeout(BENCH_SECONDS + 30)
def test_the_web_bench_measures_and_writes_its_screenshots(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "web.py"), "--answers", "4",
                           "--screenshots", str(tmp_path)],
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
    assert sorted(report["screenshots"]) == sorted(screenshot_names())
    for name in report["screenshots"]:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) <= SCREENSHOT_BYTES, name


def test_clients_md_shows_screenshots_that_exist_and_says_how_to_make_them() -> None:
    clients = (ROOT / "docs" / "CLIENTS.md").read_text()
    linked = re.findall(r"!\[[^\]]*\]\((screenshots/[^)]+)\)", clients)
    missing = [link for link in linked if not (ROOT / "docs" / link).is_file()]
    assert not missing, missing
    assert {f"screenshots/{name}" for name in screenshot_names()} <= set(linked)
    assert SCREENSHOTS_COMMAND in clients
    for name in screenshot_names():
        assert (ROOT / "docs" / "screenshots" / name).stat().st_size <= SCREENSHOT_BYTES, name
