// A player's profile, /@/NAME: when they joined, and their games (finished ones with a
// link to the replay, running ones to watch), filtered by player count, edition and
// state, a page at a time. Names of accounts link here from the lobby too.

import { seats } from "./api.js";
import { accountApi } from "./account_api.js";
import { errorText } from "./account_words.js";
import { el, fill, h } from "./dom.js";
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
    this.root = root;
    this.app = app;
    this.name = name;
    this.query = { offset: 0 };
    this.list = el("section", { class: "profile-games" });
    this.asked = 0; // the latest listing asked for: an older answer arriving later is dropped
  }

  async start() {
    const { i18n } = this.app;
    const t = (key, vars) => i18n.t(key, vars);
    let player;
    try {
      ({ player } = await accountApi.player(this.name));
    } catch (error) {
      fill(this.root, h("p", { class: "refused", role: "alert" }, errorText(i18n, error)),
        h("a", { href: appUrl("#/") }, t("back")));
      return;
    }
    this.name = player.name;
    document.title = `${player.name} · ${t("title")}`;
    const select = (name, label, values) => h("label", {}, label, " ", h("select", {
      name, onchange: (event) => this.filter(name, event.target.value),
    }, h("option", { value: "" }, t("any")), values.map(([value, text]) => h("option", { value },
      text))));
    fill(this.root, h("section", { class: "profile" },
      h("h2", {}, player.name),
      h("p", {}, t("joined_on", { date: player.created_at.slice(0, 10) })),
      h("form", { class: "filters", onsubmit: (event) => event.preventDefault() },
        select("players", t("players_filter"), [2, 3, 4, 5, 6].map((n) => [n, String(n)])),
        select("edition", t("edition"), [[2, "2"], [1, "1"]]),
        select("state", t("state"), ["ended", "playing"].map((s) => [s, t(`state_${s}`)]))),
      this.list));
    await this.refresh();
  }

  stop() {}

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
    const { i18n } = this.app;
    const t = (key, vars) => i18n.t(key, vars);
    const asked = ++this.asked;
    const { games, total, offset } = await accountApi.playerGames(this.name,
      { ...this.query, limit: PAGE });
    if (asked !== this.asked) return;
    const row = (game) => {
      const link = gameLink(game, seats.get(game.id));
      return h("li", { class: "game-row", dataset: { game: game.id, state: game.state } },
        h("span", { class: "game-id" }, game.id), " · ", t(`state_${stateWord(game.state)}`),
        " · ", t("seat_of", { taken: game.seats.filter((s) => s.name).length,
          seats: game.seats.length }),
        " · ", `${t("edition")} ${game.edition}`, " · ", nameList(game.seats, i18n), " ",
        h("a", { class: "button", href: link.href }, t(link.label)));
    };
    fill(this.list,
      h("p", {}, t("player_games", { count: i18n.count(total, "games") })),
      games.length ? h("ul", {}, games.map(row)) : h("p", {}, t("no_games")),
      h("p", { class: "paging" },
        offset > 0 && h("button", { type: "button", onclick: () => this.page(offset - PAGE) },
          t("newer")),
        " ",
        offset + games.length < total && h("button", { type: "button",
          onclick: () => this.page(offset + PAGE) }, t("older"))));
  }
}

/** The state's word: abandoned and finished games are both over. */
function stateWord(state) {
  return state === "finished" || state === "abandoned" ? "ended" : state;
}
