"""The "Play now" panel's pure parts under Node (clients/web/js/automatch.js): the sizes a
seek asks for from the groups chosen and said back as groups, the time waited, and the
Polish plural forms of its counts (1 osoba czeka, 2 osoby czekają, 5 osób czeka)."""

from __future__ import annotations

from typing import Any

import pytest

from .node import needs_node, run_module

SCRIPT = """
import { clock, rankedNames, sizesOf, sizesText } from "%(automatch)s";
import { I18n } from "%(i18n)s";
const pl = new I18n(null, ["pl"]);
const en = new I18n(null, ["en"]);
console.log(JSON.stringify({
  sizes: [[0], [1, 2], [0, 1, 2], [2, 0]].map(sizesOf),
  said: [[2], [3, 4], [2, 5, 6], [2, 3, 4, 5, 6]].map(sizesText),
  clock: [0, 999, 61000, 600000, -5].map(clock),
  waitingPl: [1, 2, 5, 12, 22].map((n) => pl.count(n, "people_waiting")),
  leftPl: [1, 3, 10].map((n) => pl.count(n, "seconds_left")),
  leftEn: [1, 9].map((n) => en.count(n, "seconds_left")),
  named: [rankedNames(["ann", "bob"], [{ rating: 1523, provisional: true },
    { rating: 1610, provisional: false }]), rankedNames(["ann", "bob"], undefined)],
}));
"""

pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules


def run() -> dict[str, Any]:
    result: dict[str, Any] = run_module(SCRIPT, modules=("automatch", "i18n"))
    return result


def test_sizes_times_and_polish_counts() -> None:
    out = run()
    assert out["sizes"] == [[2], [3, 4, 5, 6], [2, 3, 4, 5, 6], [2, 5, 6]]
    assert out["said"] == ["2", "3–4", "2, 5–6", "2, 3–4, 5–6"]
    assert out["clock"] == ["0:00", "0:00", "1:01", "10:00", "0:00"]
    assert out["waitingPl"] == ["1 osoba czeka", "2 osoby czekają", "5 osób czeka",
                                "12 osób czeka", "22 osoby czekają"]
    assert out["leftPl"] == ["została 1 sekunda", "zostały 3 sekundy", "zostało 10 sekund"]
    assert out["leftEn"] == ["1 second left", "9 seconds left"]


def test_a_rated_table_found_names_each_players_rating() -> None:
    assert run()["named"] == ["ann (1523?), bob (1610)", "ann, bob"]
