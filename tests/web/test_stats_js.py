"""The statistics page's pure parts under Node (clients/web/js/stats.js): the query of the
filters chosen, a rate with its interval, a file's size, and the view: a card's row with
its figures (greyed when few), an empty opening said in words, the dumps with their
checksums, and a server without statistics said so."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from .node import needs_node, run_module

SCRIPT = """
import { I18n } from "%(i18n)s";
import { queryOf, shareText, sizeText, statsView } from "%(stats)s";
const text = (node) => typeof node === "string" ? node : node.children.map(text).join("");
const find = (node, test) => typeof node === "string" ? []
  : [...(test(node) ? [node] : []),
    ...node.children.flatMap((c) => find(c, test))];
const en = new I18n(null, ["en"]);
const share = (hits, n, rate, low, high) => ({ hits, n, rate, low, high });
const figures = {
  cards: { periods: ["2026-12"], cards: [{ card: "smithy", in_supply: 120,
    gain_rate: share(60, 120, 0.5, 0.4113, 0.5887),
    with_card: share(40, 60, 0.6667, 0.5406, 0.7722),
    without_card: share(20, 60, 0.3333, 0.2278, 0.4594) }, { card: "moat", in_supply: 10,
    gain_rate: share(1, 10, 0.1, 0.0179, 0.4042), with_card: share(1, 1, 1, 0.2065, 1),
    without_card: share(4, 9, 0.4444, 0.1888, 0.7333) }] },
  openings: { periods: ["2026-12"], seats: 120, openings: [
    { cards: [], share: share(2, 120, 0.0167, 0.0046, 0.0587),
      wins: share(1, 2, 0.5, 0.0945, 0.9055) }] },
  games: { periods: ["2026-12"], first_player: [{ players: 2, fair: 0.5,
    wins: share(33, 60, 0.55, 0.4242, 0.6696) }], lengths: [{ turns: 15, games: 60 }] },
};
const dumps = [{ period: "2026-12", files: [{ name: "dominion-2026-12.games.parquet",
  url: "/dumps/dominion-2026-12.games.parquet", rows: 60, bytes: 5120,
  sha256: "ab".repeat(32) }] }];
const page = { filters: { who: "people" }, figures, dumps, problem: null, charts: null };
const view = statsView(page, en, {});
const rows = find(view, (node) => node.tag === "tr" && node.props.dataset?.card);
const out = {
  query: queryOf({ who: "bots", edition: "2", players: "", band: "1400", rated: true }),
  plain: queryOf({ who: "people", edition: "", players: "", band: "", rated: false }),
  share: shareText(share(40, 60, 0.6667, 0.5406, 0.7722)),
  none: shareText(share(0, 0, 0, 0, 0)),
  sizes: [sizeText(500), sizeText(5120), sizeText(3 * 1024 * 1024)],
  rows: rows.map((row) => [row.props.class, row.children.map(text)]),
  opening: text(find(view, (node) => node.tag === "tbody")[1]),
  sha: text(find(view, (node) => node.props.class === "sha")[0]),
  unavailable: text(statsView({ ...page, figures: null, problem: "stats_unavailable" }, en, {})),
  empty: text(statsView(
    { ...page, figures: { ...figures, cards: { periods: [], cards: [] } } }, en, {})),
};
console.log(JSON.stringify(out));
"""


@functools.cache
def run() -> dict[str, Any]:
    result: dict[str, Any] = run_module(SCRIPT, modules=("i18n", "stats"))
    return result


pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules


def test_the_filters_chosen_are_the_query() -> None:
    assert run()["query"] == {"who": "bots", "edition": "2", "band": "1400", "rated": "true"}
    assert run()["plain"] == {"who": "people"}


def test_a_rate_is_written_with_its_interval() -> None:
    assert run()["share"] == "66.7 % (54.1–77.2 %)"
    assert run()["none"] == "–"
    assert run()["sizes"] == ["500 B", "5.0 KB", "3.0 MB"]


def test_a_cards_row_shows_its_figures_and_few_are_greyed() -> None:
    assert run()["rows"] == [
        [None, ["Smithy", "120", "50.0 % (41.1–58.9 %)", "66.7 % (54.1–77.2 %)",
                "33.3 % (22.8–45.9 %)"]],
        ["few", ["Moat", "10", "10.0 % (1.8–40.4 %)", "100.0 % (20.6–100.0 %)",
                 "44.4 % (18.9–73.3 %)"]]]


def test_openings_dumps_and_the_states_without_figures() -> None:
    assert run()["opening"].startswith("nothing")
    assert run()["sha"] == "ab" * 32
    assert "This server keeps no statistics." in run()["unavailable"]
    assert "No statistics yet" in run()["empty"]
