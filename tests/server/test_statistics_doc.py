"""docs/STATISTICS.md's quick start answers the analyst's four questions: its Python
blocks, run in order against a small dump, give the figures counted by hand (the parts
of test_statistics.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_statistics import december

DOC = Path(__file__).resolve().parents[2] / "docs" / "STATISTICS.md"

pytest.importorskip("duckdb", reason="pip install -e '.[stats]'")


def test_the_quick_start_answers_the_four_questions(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 5
    december(tmp_path)
    monkeypatch.chdir(tmp_path)
    answers: dict[str, Any] = {}
    for block in blocks:
        exec(block, answers)  # the document's own code
    # people's games and bots' together: g1, g2, g3 and g5, the first player won 3
    assert answers["first"] == [(2, 4, 0.75)]
    assert answers["lengths"][:2] == [(15, 3), (18, 1)]
    openings = {o: n for o, n, _ in answers["openings"]}
    assert openings["silver+silver"] == 2 and openings["smithy"] == 2  # g3's and g5's
    smithy = next(row for row in answers["cards"] if row[0] == "smithy")
    assert smithy[1] == 8  # g1-g3 and g5's seats: g4 was abandoned
