"""The ratings' pure parts under Node (clients/web/js/chart.js, leaderboard.js, profile.js,
lobby.js): the chart's scale (whole steps around the values, at most five labelled lines,
every point inside the box, one game in the middle), its title, description and table
(a game whose record is lost not linked);
a leaderboard's row (an in-server bot by its strategy's name with no profile link, an
account linked, bots and provisional ratings marked in words too) and its paging; a
profile's ratings per pool; and the lobby's rated choice, disabled for a guest."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest

from .node import needs_node, run_module

SCRIPT = """
import { BOX, chartScale, ratingChart } from "%(chart)s";
import { addWords, I18n } from "%(i18n)s";
import { ACCOUNT_COUNTED, ACCOUNT_WORDS } from "%(account_words)s";
import { leaderboardRow, neighbours, ratingText } from "%(leaderboard)s";
import { ratingsView } from "%(profile)s";
import { RATING_COUNTED, RATING_WORDS } from "%(rating_words)s";
addWords(ACCOUNT_WORDS, ACCOUNT_COUNTED);
addWords(RATING_WORDS, RATING_COUNTED);
const text = (node) => typeof node === "string" ? node : node.children.map(text).join("");
const find = (node, tag) => typeof node === "string" ? []
  : [...(node.tag === tag ? [node] : []), ...node.children.flatMap((c) => find(c, tag))];
const en = new I18n(null, ["en"]);
const pl = new I18n(null, ["pl"]);
// g-1's record is lost (its node restored from an older copy): no replay to link to
const history = [1000, 1100, 1050].map((rating, i) => (
  { game: `g-${i}`, finished_at: `2026-12-0${i + 1}T10:00:00Z`, rating, record_lost: i === 1 }));
const chart = ratingChart(history, "chart-2p", en);
const svg = find(chart, "svg")[0];
const out = {
  box: BOX,
  one: chartScale([0]),
  three: chartScale([1000, 1100, 1050]),
  wide: chartScale([-510, 2330, 120, 0, 1999]),
  chart: {
    labelled: svg.props["aria-labelledby"], role: svg.props.role,
    title: find(svg, "title").map((n) => [n.props.id, text(n)]),
    desc: find(svg, "desc").map((n) => [n.props.id, text(n)]),
    line: find(svg, "polyline").map((n) => n.props.points),
    circles: find(svg, "circle").length,
    rows: find(find(chart, "tbody")[0], "tr").map((tr) => tr.children.map(text)),
    links: find(chart, "a").map((a) => a.props.href),
    plural: [1, 2, 5, 22].map((n) => pl.count(n, "rated_games")),
  },
  single: find(ratingChart(history.slice(0, 1), "c", en), "polyline").length,
  rows: [
    { rank: 1, name: "strong", rating: 2330, provisional: false, games: 0, bot: true,
      in_server: true },
    { rank: 2, name: "Ada", rating: 120, provisional: true, games: 3, bot: false,
      in_server: false },
    { rank: 3, name: "Robo", rating: 90, provisional: false, games: 30, bot: true,
      in_server: false },
  ].map((row) => {
    const vnode = leaderboardRow(row, pl);
    return { text: vnode.children.map(text), links: find(vnode, "a").map((a) => a.props.href),
      hidden: find(vnode, "span").filter((s) => s.props["aria-hidden"]).map(text),
      cls: vnode.props.class };
  }),
  paging: [[0, 50, 120], [50, 50, 120], [100, 20, 120], [0, 0, 0], [30, 50, 200]]
    .map(([offset, shown, total]) => neighbours(offset, shown, total)),
  strong: pl.strategy("strong"),
  big_money: en.strategy("big_money"),
  settled: text(ratingText(1500, false, en)),
  provisional: text(ratingText(7, true, en)),
};
const pool = (rating, provisional, games, history, bots) => (
  { rating, provisional, games, history, bots });
const view = ratingsView({ player: "Ada", pools: {
  "2p": pool(120, true, 3, history, [{ bot: "big_money", wins: 1, losses: 2, ties: 0 }]),
  "3-6p": pool(0, true, 0, [], []),
} }, en);
out.profile = {
  text: view.map(text),
  svgs: find(view[2], "svg").length,
  bots: find(view[2], "tbody").map((body) => find(body, "tr").map((tr) => tr.children.map(text))),
};
console.log(JSON.stringify(out));
"""

LOBBY_SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { addWords, I18n } = await import("%(i18n)s");
const { RATING_WORDS } = await import("%(rating_words)s");
const { ratedChoice, ratedWanted } = await import("%(lobby)s");
addWords(RATING_WORDS);
const i18n = new I18n(null, ["en"]);
const out = {};
for (const [who, account] of [["guest", null], ["ada", { name: "Ada" }]]) {
  const app = { i18n, account };
  const [label, why] = ratedChoice(app);
  const box = label.children[0];
  const form = (checked) => ({ elements: { rated: { checked } } });
  out[who] = { disabled: box.props.disabled, name: box.props.name,
    before: ratedWanted(app, form(false)), checked: ratedWanted(app, form(true)),
    why: why.children.join(""), describedBy: box.props["aria-describedby"],
    whyId: why.props.id };
}
console.log(JSON.stringify(out));
"""


def node(script: str, *modules: str) -> dict[str, Any]:
    result: dict[str, Any] = run_module(script, modules=modules)
    return result


@functools.cache
def run() -> dict[str, Any]:
    return node(SCRIPT, "chart", "i18n", "account_words", "leaderboard", "profile",
                "rating_words")


pytestmark = [pytest.mark.integration, needs_node]  # Node.js runs the modules


def test_the_chart_scales_to_whole_steps_around_the_values() -> None:
    out = run()
    box = out["box"]
    three = out["three"]
    assert (three["low"], three["high"]) == (1000, 1100)
    assert [tick["value"] for tick in three["ticks"]] == [1000, 1050, 1100]
    left, right = box["left"], box["width"] - box["right"]
    top, bottom = box["top"], box["height"] - box["bottom"]
    # 1000, 1100, 1050: the bottom line, the top line, halfway
    assert three["points"] == [{"x": left, "y": bottom}, {"x": (left + right) / 2, "y": top},
                               {"x": right, "y": (top + bottom) / 2}]
    # one game: a step either side of it, in the middle of the box
    one = out["one"]
    assert (one["low"], one["high"]) == (-50, 50)
    assert one["points"] == [{"x": (left + right) / 2, "y": (top + bottom) / 2}]


def test_a_wide_range_gets_at_most_five_lines_and_keeps_every_point_inside() -> None:
    out = run()
    wide, box = out["wide"], out["box"]
    values = [tick["value"] for tick in wide["ticks"]]
    assert 2 <= len(values) <= 5
    assert values[0] == wide["low"] <= -510 and values[-1] == wide["high"] >= 2330
    steps = {b - a for a, b in itertools.pairwise(values)}
    assert len(steps) == 1 and steps.pop() % 50 == 0
    for point in wide["points"]:
        assert box["left"] <= point["x"] <= box["width"] - box["right"]
        assert box["top"] <= point["y"] <= box["height"] - box["bottom"]


def test_the_chart_has_a_title_a_description_and_its_numbers_as_a_table() -> None:
    chart = run()["chart"]
    assert chart["role"] == "img" and chart["labelled"] == "chart-2p-title chart-2p-desc"
    assert chart["title"] == [["chart-2p-title", "Rating after each rated game"]]
    assert chart["desc"] == [["chart-2p-desc", "3 rated games: from 1000 to 1050; lowest "
                              "1000, highest 1100."]]
    assert len(chart["line"]) == 1 and chart["line"][0].count(",") == 3
    assert chart["circles"] == 3
    assert chart["rows"] == [["1", "2026-12-01", "1000"], ["2", "2026-12-02", "1100"],
                             ["3", "2026-12-03", "1050"]]
    assert chart["links"] == ["/#/replay/g-0", "/#/replay/g-2"]  # g-1's record is lost
    assert chart["plural"] == ["1 gra rankingowa", "2 gry rankingowe", "5 gier rankingowych",
                               "22 gry rankingowe"]
    assert run()["single"] == 0  # one game: a point, no line


def test_a_leaderboard_row_marks_bots_and_links_accounts_only() -> None:
    strong, ada, robo = run()["rows"]
    # the mark every page gives a bot (names.js): "BOT" to see, its strategy to hear
    assert strong["text"] == ["1", f"{run()['strong']} BOT", "2330", "0"]
    assert strong["links"] == [] and strong["hidden"] == [] and strong["cls"] == "bot"
    assert ada["text"] == ["2", "Ada", "120? (tymczasowy)", "3"]
    assert ada["links"] == ["/@/Ada"] and ada["hidden"] == ["?"] and ada["cls"] is None
    assert robo["links"] == ["/@/Robo"] and robo["text"][1] == "Robo BOT"
    assert run()["settled"] == "1500" and run()["provisional"] == "7? (provisional)"


def test_a_leaderboard_pages_as_the_api_does() -> None:
    assert run()["paging"] == [
        {"higher": None, "lower": 50}, {"higher": 0, "lower": 100},
        {"higher": 50, "lower": None}, {"higher": None, "lower": None},
        {"higher": 0, "lower": 80}]  # an offset between pages: back to the first


def test_a_profile_shows_each_pools_rating_chart_and_record_against_the_bots() -> None:
    profile = run()["profile"]
    heading, about, pools = profile["text"]
    assert heading == "Ratings" and "starts at 1500" in about and "provisional" in about
    assert pools.startswith("2 players120? (provisional) · 3 rated games")
    assert "3–6 players0? (provisional) · 0 rated gamesNo rated games yet." in pools
    assert profile["svgs"] == 1
    [[bot, *record]] = profile["bots"][-1]
    assert bot == run()["big_money"] and record == ["1", "2", "0"]


def test_the_rated_choice_is_an_accounts_and_says_why_a_guest_cannot() -> None:
    out = node(LOBBY_SCRIPT, "i18n", "rating_words", "lobby")
    guest, ada = out["guest"], out["ada"]
    assert guest["disabled"] is True and guest["checked"] is False
    assert guest["name"] == ada["name"] == "rated"  # what the form sends reads it
    assert "sign in" in guest["why"] and guest["describedBy"] == guest["whyId"] == "rated-why"
    assert ada["disabled"] is False and ada["before"] is False and ada["checked"] is True
    assert "Only accounts" in ada["why"]


ADMIN_SCRIPT = """
const { pairsTable } = await import("%(admin)s");
const text = (node) => typeof node === "string" ? node : node.children.map(text).join("|");
const rows = (node) => node.tag === "tr" ? [node] : node.children
  .filter((c) => typeof c !== "string").flatMap(rows);
const table = pairsTable([{ name: "Bob", other: "Cy", games: 5, wins: 5, losses: 0, ties: 0,
  counted: 3, early: 1, score: 5 }]);
console.log(JSON.stringify({ rows: rows(table).map(text), none: text(pairsTable([])) }));
"""


def test_the_admin_page_shows_each_pairs_early_resignations() -> None:
    out = node(ADMIN_SCRIPT, "admin")
    assert out["rows"] == ["Players|Games|Wins|Losses|Ties|Counted|Early resignations|Score",
                           "Bob – Cy|5|5|0|0|3|1|5"]
    assert out["none"].startswith("No rated games")
