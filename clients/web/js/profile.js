// A player's profile, /@/NAME: when they joined, their ratings (per pool: the number
// shown and what it means, a chart of its history, the record against each in-server
// bot), and their games (how each went, when, its Kingdom, against whom, a rated one's
// rating change; finished ones with a link to the replay, running ones to watch),
// filtered by player count, edition and state, a page at a time. Names of accounts link
// here from the lobby and the leaderboards too.

import { seats } from "./api.js";
import { accountApi } from "./account_api.js";
import { errorText } from "./account_words.js";
import { ratingChart } from "./chart.js";
import { h, redrawing } from "./dom.js";
import { ratingAfter } from "./end.js";
import { POOLS, ratingsApi, ratingText } from "./leaderboard.js";
import { nameList } from "./names.js";
import { appUrl } from "./routes.js";

const PAGE = 20;

/** Where a game of the list leads: its replay once ended, else watching it (or the seat
 *  this browser holds in it). */
export function gameLink(game, heldSeat) {
  if (game.state === "finished" || game.state === "abandoned") {
    return { href: appUrl(`#/replay/${game.id}`), label: "replay" };
  }
  if (heldSeat) return { href: appUrl(`#/game/${game.id}`), label: "resume" };
  return { href: appUrl(`#/watch/${game.id}`), label: "watch" };
}

export class ProfilePage {
  constructor(root, app, name) {
    this.app = app;
    this.name = name;
    this.query = { offset: 0 };
    this.asked = 0; // the latest listing asked for: an older answer arriving later is dropped
    // what the page shows: the player (or why not), their ratings (or why not), a page of
    // their games
    this.state = { player: null, refused: null, ratings: null, ratingsRefused: null,
      games: null };
    this.redraw = redrawing(root, () => {
      if (this.state.player) document.title = `${this.state.player.name} · ${app.i18n.t("title")}`;
      return profileView(this.state, app.i18n, this);
    });
  }

  async start() {
    const { state } = this;
    try {
      ({ player: state.player } = await accountApi.player(this.name));
    } catch (error) {
      state.refused = error;
      this.redraw();
      return;
    }
    this.name = state.player.name;
    this.redraw();
    await Promise.all([this.refresh(), this.showRatings()]);
  }

  async showRatings() {
    try {
      this.state.ratings = await ratingsApi.player(this.name);
    } catch (error) {
      this.state.ratingsRefused = error;
    }
    this.redraw();
  }

  stop() {
    this.redraw.stop();
  }

  async filter(name, value) {
    if (value) this.query[name] = value;
    else delete this.query[name];
    this.query.offset = 0;
    await this.refresh();
  }

  async page(offset) {
    this.query.offset = Math.max(0, offset);
    await this.refresh();
  }

  async refresh() {
    const asked = ++this.asked;
    const games = await accountApi.playerGames(this.name, { ...this.query, limit: PAGE });
    if (asked !== this.asked) return;
    this.state.games = games;
    this.redraw();
  }
}

/** The profile page: the player, their ratings, the filters and a page of their games;
 *  `actions.filter(name, value)` and `actions.page(offset)` change the listing. */
export function profileView(state, i18n, actions) {
  const t = (key, vars) => i18n.t(key, vars);
  const { player, refused, ratings, ratingsRefused, games } = state;
  if (refused) {
    return [h("p", { class: "refused", role: "alert" }, errorText(i18n, refused)),
      h("a", { href: appUrl("#/") }, t("back"))];
  }
  if (!player) return h("p", {}, t("loading"));
  const select = (name, label, values) => h("label", {}, label, " ", h("select", {
    name, onchange: (event) => actions.filter(name, event.target.value),
  }, h("option", { value: "" }, t("any")), values.map(([value, text]) => h("option", { value },
    text))));
  return h("section", { class: "profile" },
    h("h2", {}, player.name),
    h("p", {}, t("joined_on", { date: player.created_at.slice(0, 10) })),
    h("section", { class: "profile-ratings" }, ratingsRefused
      ? h("p", { class: "refused", role: "alert" }, errorText(i18n, ratingsRefused))
      : ratings && ratingsView(ratings, i18n)),
    h("form", { class: "filters", onsubmit: (event) => event.preventDefault() },
      select("players", t("players_filter"), [2, 3, 4, 5, 6].map((n) => [n, String(n)])),
      select("edition", t("edition"), [[2, "2"], [1, "1"]]),
      select("state", t("state"), ["ended", "playing"].map((s) => [s, t(`state_${s}`)]))),
    h("section", { class: "profile-games" }, games && gamesView(games, player.name, i18n, actions)));
}

/** How a finished game went for the player `name` (an account's seat is named by it):
 *  "won", "shared" (a shared win), "lost"; null while it runs, or with no result. */
export function outcome(game, name) {
  const seat = game.seats.findIndex((s) => s.account && s.name === name);
  const winners = game.result?.winners;
  if (game.state !== "finished" || seat < 0 || !winners || game.result.abandoned) return null;
  if (!winners.includes(seat)) return "lost";
  return winners.length > 1 ? "shared" : "won";
}

/** One of the player's games: how it went and when, its Kingdom, the opponents (accounts
 *  linked), the rating change of a rated one (`rating_change`), and where it leads. */
export function gameRow(game, name, i18n, heldSeat = null) {
  const t = (key, vars) => i18n.t(key, vars);
  const link = gameLink(game, heldSeat);
  const went = outcome(game, name);
  const others = game.seats.filter((s) => !(s.account && s.name === name));
  const date = (game.finished_at ?? game.started_at ?? game.created_at).slice(0, 10);
  const change = game.rating_change;
  return h("li", { class: "game-row", key: game.id, dataset: { game: game.id, state: game.state } },
    went && [h("strong", { class: `outcome ${went}` }, t(`outcome_${went}`)), " · "],
    h("time", { datetime: date }, date), " · ",
    h("span", { class: "game-id" }, game.id), " · ", t(`state_${stateWord(game.state)}`),
    " · ", t("seat_of", { taken: game.seats.filter((s) => s.name).length,
      seats: game.seats.length }),
    " · ", `${t("edition")} ${game.edition}`, " · ", kingdomOf(game, i18n),
    " · ", t("versus"), " ", nameList(others, i18n),
    change && [" · ", h("span", { class: "rating-change" }, `${t("rating_column")} `,
      ratingAfter(change, i18n))],
    " ", h("a", { class: "button", href: link.href }, t(link.label)));
}

/** The game's Kingdom, compact: the recommended set's name, else its ten cards. */
export function kingdomOf(game, i18n) {
  return h("span", { class: "kingdom" }, `${i18n.t("kingdom")}: `,
    game.kingdom_name || i18n.many(game.kingdom ?? []));
}

/** A page of a player's games, and the buttons to the newer and older ones. */
function gamesView({ games, total, offset }, name, i18n, actions) {
  const t = (key, vars) => i18n.t(key, vars);
  const row = (game) => gameRow(game, name, i18n, seats.get(game.id));
  return [
    h("p", {}, t("player_games", { count: i18n.count(total, "games") })),
    games.length ? h("ul", {}, games.map(row)) : h("p", {}, t("no_games")),
    h("p", { class: "paging" },
      offset > 0 && h("button", { type: "button", key: "newer",
        onclick: () => actions.page(offset - PAGE) }, t("newer")),
      " ",
      offset + games.length < total && h("button", { type: "button", key: "older",
        onclick: () => actions.page(offset + PAGE) }, t("older"))),
  ];
}

/** A player's ratings (`GET /api/v1/players/{name}/ratings`): what the number means, then
 *  per pool the number, a chart of its history and the record against the bots. */
export function ratingsView(body, i18n) {
  const t = (key, vars) => i18n.t(key, vars);
  const pool = (id) => {
    const { rating, provisional, games, history, bots } = body.pools[id];
    return h("section", { class: "pool-rating", dataset: { pool: id } },
      h("h4", {}, t(`pool_${id}`)),
      h("p", { class: "rating-now" }, h("strong", {}, ratingText(rating, provisional, i18n)),
        ` · ${i18n.count(games, "rated_games")}`),
      history.length ? ratingChart(history, `chart-${id}`, i18n) : h("p", {}, t("no_rated_games")),
      bots.length > 0 && h("div", { class: "scroll" }, h("table", { class: "bot-record" },
        h("caption", {}, t("against_bots")),
        h("thead", {}, h("tr", {}, ["bot_column", "wins", "losses", "ties"].map(
          (key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, bots.map((record) => h("tr", {},
          h("th", { scope: "row" }, i18n.strategy(record.bot)),
          h("td", {}, String(record.wins)), h("td", {}, String(record.losses)),
          h("td", {}, String(record.ties))))))));
  };
  return [h("h3", {}, t("ratings")), h("p", { class: "note" }, t("rating_explained")),
    h("div", { class: "pools-rated" }, POOLS.map(pool))];
}

/** The state's word: abandoned and finished games are both over. */
function stateWord(state) {
  return state === "finished" || state === "abandoned" ? "ended" : state;
}
