// The leaderboards, #/top/POOL (`2p`, `3-6p`; #/top is `2p`): place, name (an account's
// links to its profile), the number shown with its provisional mark, and games; bots
// marked. A page of rows at a time, as `GET /api/v1/ratings/{pool}` pages them
// (docs/RATINGS.md, "Reading ratings"). Also the ratings' REST calls and how a rating is
// written, which a profile shares.

import { call } from "./api.js";
import { h, redrawing } from "./dom.js";
import { botMark } from "./names.js";
import { appUrl, profileUrl } from "./routes.js";

export const POOLS = ["2p", "3-6p"];
const PAGE = 50;

export const ratingsApi = {
  leaderboard: (pool, query) => call("GET",
    `/ratings/${encodeURIComponent(pool)}?${new URLSearchParams(query)}`),
  player: (name) => call("GET", `/players/${encodeURIComponent(name)}/ratings`),
};

/** A rating as shown: the number, then "?" when provisional (said in words to a screen
 *  reader). */
export function ratingText(rating, provisional, i18n) {
  return h("span", { class: "rating" }, String(rating),
    provisional && [h("span", { "aria-hidden": "true" }, "?"),
      h("span", { class: "visually-hidden" }, ` ${i18n.t("provisional_words")}`)]);
}

/** One row of a leaderboard: an in-server bot by its strategy's name (it has no profile),
 *  an account linked to its profile; bots (in-server or accounts) marked. */
export function leaderboardRow(row, i18n) {
  const name = row.in_server ? i18n.strategy(row.name)
    : h("a", { class: "player", href: profileUrl(row.name) }, row.name);
  return h("tr", { class: row.bot ? "bot" : null, dataset: { player: row.name } },
    h("td", {}, String(row.rank)),
    h("th", { scope: "row" }, name, row.bot && [" ", botMark(
      { bot: row.in_server ? row.name : null, bot_account: !row.in_server }, i18n)]),
    h("td", {}, ratingText(row.rating, row.provisional, i18n)),
    h("td", {}, String(row.games)));
}

/** The offsets of the pages before and after one (null: there is none), `size` rows a
 *  page: the higher places, and the lower ones. */
export function neighbours(offset, shown, total, size = PAGE) {
  return { higher: offset > 0 ? Math.max(0, offset - size) : null,
    lower: offset + shown < total ? offset + shown : null };
}

export class LeaderboardPage {
  constructor(root, app, pool) {
    this.app = app;
    this.pool = pool ?? POOLS[0];
    this.offset = 0;
    this.asked = 0; // the latest page asked for: an older answer arriving later is dropped
    this.board = null; // the page of the leaderboard shown
    this.redraw = redrawing(root, () => {
      const { i18n } = app;
      if (!this.board) return h("p", {}, i18n.t("loading"));
      document.title = `${i18n.t("leaderboard_of", { pool: i18n.t(`pool_${this.board.pool}`) })}`
        + ` · ${i18n.t("title")}`;
      return leaderboardView(this.board, i18n, this);
    });
  }

  async start() {
    await this.refresh();
  }

  stop() {
    this.redraw.stop();
  }

  async page(offset) {
    this.offset = offset;
    await this.refresh();
  }

  async refresh() {
    const asked = ++this.asked;
    const board = await ratingsApi.leaderboard(this.pool, { limit: PAGE, offset: this.offset });
    if (asked !== this.asked) return;
    this.board = board;
    this.redraw();
  }
}

/** A page of a leaderboard (`board`, as the server sends it); `actions.page(offset)` shows
 *  another. */
export function leaderboardView(board, i18n, actions) {
  const t = (key, vars) => i18n.t(key, vars);
  const poolName = t(`pool_${board.pool}`);
  const { players, total, offset } = board;
  const { higher, lower } = neighbours(offset, players.length, total);
  return h("section", { class: "leaderboard" },
    h("h2", {}, t("leaderboard_of", { pool: poolName })),
    h("nav", { class: "pools", "aria-label": t("pools") }, POOLS.map((pool) => h("a", {
      class: "button", href: appUrl(`#/top/${pool}`),
      "aria-current": pool === board.pool ? "page" : null,
    }, t(`pool_${pool}`)))),
    players.length ? [
      h("p", { role: "status" }, t("ranks_shown",
        { from: offset + 1, to: offset + players.length, total })),
      h("div", { class: "scroll" }, h("table", { class: "ratings" },
        h("caption", { class: "visually-hidden" }, t("leaderboard_of", { pool: poolName })),
        h("thead", {}, h("tr", {}, ["rank", "player", "rating", "games_column"].map(
          (key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, players.map((row) => leaderboardRow(row, i18n))))),
      h("p", { class: "note" }, t("rating_legend")),
    ] : h("p", {}, t("nobody_rated")),
    h("p", { class: "paging" },
      higher !== null && h("button", { type: "button", key: "higher", onclick: () => actions.page(higher) },
        t("higher_ranks")),
      " ",
      lower !== null && h("button", { type: "button", key: "lower", onclick: () => actions.page(lower) },
        t("lower_ranks"))));
}
