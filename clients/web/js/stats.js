// Card statistics, /stats: per Kingdom card (gain rate; win rates of the seats that
// gained it and of those that did not), openings, the first player's win rate by player
// count and game lengths, read from the dumps as `GET /api/v1/stats/…` serves them, each
// rate with its 95 % interval and sample size; filtered by edition, players, rated games,
// rating band and whose games; and the dumps to download, with their checksums
// (docs/STATISTICS.md). Two charts (stats_charts.js, uPlot) show what two tables say.

import { call } from "./api.js";
import { h, redrawing } from "./dom.js";
import { addWords } from "./i18n.js";
import { STATS_WORDS } from "./stats_words.js";

addWords(STATS_WORDS);

/** Fewer than this many counted: the row is greyed (its interval is wide). */
export const FEW = 30;
export const BANDS = [1000, 1200, 1400, 1600, 1800, 2000];
const OPENINGS = 15;

export const statsApi = {
  cards: (query) => call("GET", `/stats/cards?${new URLSearchParams(query)}`),
  openings: (query) => call("GET", `/stats/openings?${new URLSearchParams({ ...query, limit: OPENINGS })}`),
  games: (query) => call("GET", `/stats/games?${new URLSearchParams(query)}`),
  dumps: () => call("GET", "/dumps"),
};

/** The query of the filters chosen: only those set. */
export function queryOf(filters) {
  const query = { who: filters.who };
  for (const name of ["edition", "players", "band"]) {
    if (filters[name]) query[name] = filters[name];
  }
  if (filters.rated) query.rated = "true";
  return query;
}

export const percent = (share) => `${(share * 100).toFixed(1)} %`;

/** A rate as the page writes it: 52.3 % (48.1–56.4 %), with its count for the title. */
export function shareText(share) {
  if (!share.n) return "–";
  return `${percent(share.rate)} (${(share.low * 100).toFixed(1)}–${percent(share.high)})`;
}

export function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export class StatsPage {
  constructor(root, app) {
    this.app = app;
    this.filters = { who: "people", edition: "", players: "", band: "", rated: false };
    this.figures = null; // {cards, openings, games}
    this.dumps = null;
    this.problem = null;
    this.asked = 0;
    this.charts = { lengths: document.createElement("div"), first: document.createElement("div") };
    this.charts.lengths.className = "stats-chart";
    this.charts.first.className = "stats-chart";
    this.redraw = redrawing(root, () => {
      document.title = `${app.i18n.t("stats_title")} · ${app.i18n.t("title")}`;
      return statsView(this, app.i18n, this);
    });
  }

  async start() {
    await Promise.all([this.load(), this.loadDumps()]);
  }

  stop() {
    this.redraw.stop();
  }

  async filter(name, value) {
    this.filters = { ...this.filters, [name]: value };
    await this.load();
  }

  async load() {
    const asked = ++this.asked;
    const query = queryOf(this.filters);
    try {
      const [cards, openings, games] = await Promise.all(
        [statsApi.cards(query), statsApi.openings(query), statsApi.games(query)]);
      if (asked !== this.asked) return;
      this.figures = { cards, openings, games };
      this.problem = null;
    } catch (error) {
      if (asked !== this.asked) return;
      this.problem = error.status === 404 ? "stats_unavailable" : error.message;
    }
    this.redraw();
    if (this.figures) await this.drawCharts();
  }

  async loadDumps() {
    try {
      this.dumps = (await statsApi.dumps()).dumps;
    } catch {
      this.dumps = [];
    }
    this.redraw();
  }

  async drawCharts() {
    const { drawLengths, drawFirstPlayer } = await import("./stats_charts.js");
    const { games } = this.figures;
    await Promise.all([drawLengths(this.charts.lengths, games.lengths, this.app.i18n),
      drawFirstPlayer(this.charts.first, games.first_player, this.app.i18n)]);
  }
}

const option = (value, label, chosen) => h("option", { value: String(value),
  selected: String(chosen) === String(value) }, label);

/** The filters' form: each change asks `actions.filter(name, value)`. */
export function filtersView(filters, i18n, actions) {
  const t = (key) => i18n.t(key);
  const select = (name, label, choices) => h("label", {}, label, " ",
    h("select", { name, onchange: (event) => actions.filter(name, event.target.value) },
      choices.map(([value, words]) => option(value, words, filters[name]))));
  return h("form", { class: "stats-filters", "aria-label": t("stats_filters"),
    onsubmit: (event) => event.preventDefault() },
  select("who", t("stats_who"), [["people", t("stats_people")], ["bots", t("stats_bots")]]),
  select("edition", t("edition"), [["", t("stats_any")], [1, "1"], [2, "2"]]),
  select("players", t("players"), [["", t("stats_any")], ...[2, 3, 4, 5, 6].map((n) => [n, String(n)])]),
  select("band", t("stats_band"), [["", t("stats_any")], ...BANDS.map((band) => [band, `${band}–${band + 199}`])]),
  h("label", {}, h("input", { type: "checkbox", name: "rated", checked: filters.rated,
    onchange: (event) => actions.filter("rated", event.target.checked) }), " ", t("stats_rated")));
}

const cell = (share) => h("td", { title: share.n ? `${share.hits} / ${share.n}` : null }, shareText(share));

function table(caption, columns, rows) {
  // a region the keyboard reaches: on a phone it scrolls sideways
  return h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "stats" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, columns.map((column) => h("th", { scope: "col" }, column)))),
    h("tbody", {}, rows)));
}

export function cardsView(cards, i18n) {
  const t = (key) => i18n.t(key);
  return table(t("stats_cards"), [t("stats_card"), t("stats_in_supply"), t("stats_gained"),
    t("stats_win_with"), t("stats_win_without")], cards.map((row) => h("tr", {
    key: row.card, class: row.with_card.n < FEW || row.without_card.n < FEW ? "few" : null,
    dataset: { card: row.card } },
  h("th", { scope: "row" }, i18n.card(row.card)), h("td", {}, String(row.in_supply)),
  cell(row.gain_rate), cell(row.with_card), cell(row.without_card))));
}

export function openingsView(body, i18n) {
  const t = (key) => i18n.t(key);
  return table(t("stats_openings"), [t("stats_opening"), t("stats_share"), t("stats_win_rate")],
    body.openings.map((row) => h("tr", { key: row.cards.join("+"),
      class: row.wins.n < FEW ? "few" : null },
    h("th", { scope: "row" }, row.cards.length ? row.cards.map((id) => i18n.card(id)).join(", ")
      : t("stats_nothing")),
    cell(row.share), cell(row.wins))));
}

export function gamesView(games, i18n, charts) {
  const t = (key) => i18n.t(key);
  return [
    h("h3", {}, t("stats_first")),
    h("figure", { class: "stats-figure" }, charts?.first,
      h("figcaption", {}, t("stats_chart_first"))),
    table(t("stats_first"), [t("players"), t("stats_win_rate"), t("stats_fair")],
      games.first_player.map((row) => h("tr", { key: row.players,
        class: row.wins.n < FEW ? "few" : null },
      h("th", { scope: "row" }, String(row.players)), cell(row.wins),
      h("td", {}, percent(row.fair))))),
    h("h3", {}, t("stats_lengths")),
    h("p", { class: "note" }, t("stats_lengths_about")),
    h("figure", { class: "stats-figure" }, charts?.lengths,
      h("figcaption", {}, t("stats_chart_lengths"))),
    table(t("stats_lengths"), [t("stats_turns"), t("games_column")], games.lengths.map(
      (row) => h("tr", { key: row.turns }, h("th", { scope: "row" }, String(row.turns)),
        h("td", {}, String(row.games))))),
  ];
}

export function dumpsView(dumps, i18n) {
  const t = (key) => i18n.t(key);
  return h("section", { class: "stats-dumps", "aria-labelledby": "dumps-heading" },
    h("h2", { id: "dumps-heading" }, t("stats_dumps")),
    h("p", {}, t("stats_dumps_about")),
    dumps.length ? table(t("stats_dumps"), [t("stats_period"), t("stats_file"), t("stats_rows"),
      t("stats_size"), "SHA-256"], dumps.flatMap((dump) => dump.files.map((file) => h("tr",
      { key: file.name }, h("th", { scope: "row" }, dump.period),
      h("td", {}, h("a", { href: file.url, download: file.name }, file.name)),
      h("td", {}, String(file.rows)), h("td", {}, sizeText(file.bytes)),
      h("td", {}, h("code", { class: "sha" }, file.sha256))))))
      : h("p", {}, t("stats_no_dumps")));
}

/** The page: `page` holds filters, figures, dumps, problem and charts. */
export function statsView(page, i18n, actions) {
  const t = (key, vars) => i18n.t(key, vars);
  const { figures } = page;
  const counted = figures?.cards.periods ?? [];
  return h("section", { class: "stats-page" },
    h("h2", {}, t("stats_title")),
    h("p", {}, t("stats_intro")),
    filtersView(page.filters, i18n, actions),
    page.problem ? h("p", { role: "alert" }, t(page.problem))
      : !figures ? h("p", {}, t("loading"))
        : counted.length === 0 ? h("p", { role: "status" }, t("stats_none"))
          : [h("p", { role: "status", class: "note" }, t("stats_counted", { periods: counted.join(", ") })),
            cardsView(figures.cards.cards, i18n),
            openingsView(figures.openings, i18n),
            gamesView(figures.games, i18n, page.charts)],
    page.dumps && dumpsView(page.dumps, i18n));
}
