// The lobby: "Play now" (automatch.js, over the WebSocket), open tables (join), running
// games (watch), finished games (replay), and creating a table (seats, edition, Kingdom,
// bots) over the REST API.

import { errorText } from "./account_words.js";
import { api, seats } from "./api.js";
import { AutomatchPanel } from "./automatch.js";
import { el, fill, h } from "./dom.js";
import { nameList } from "./names.js";

const REFRESH_MS = 5000;

export function savedName() {
  return localStorage.getItem("dominion.name") || "";
}


export function saveName(name) {
  localStorage.setItem("dominion.name", name);
}

/** The name field of a form that takes a seat: the account's name, fixed, when signed in
 *  (the server seats an account by its own name); a guest's last name otherwise. */
function nameField(app) {
  const account = app.account;
  return el("input", { name: "name", required: true, maxlength: 40,
    value: account ? account.name : savedName(), readOnly: Boolean(account) });
}

/** The create form's "rated" choice (docs/RATINGS.md): a box for an account; for a guest
 *  a disabled one, saying why (ratings are accounts'). `rated()` is what to send. */
export function ratedChoice(app) {
  const t = (key) => app.i18n.t(key);
  const signedIn = Boolean(app.account);
  const box = el("input", { type: "checkbox", name: "rated", disabled: !signedIn,
    "aria-describedby": "rated-why" });
  return {
    fields: [h("label", { class: "rated" }, box, " ", t("rated_table")),
      h("p", { id: "rated-why", class: "note" }, t(signedIn ? "rated_about" : "rated_guest"))],
    rated: () => signedIn && box.checked,
  };
}

export class LobbyPage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.i18n = app.i18n;
    this.lists = el("div", { class: "lists" });
    this.timer = null;
    this.message = el("p", { class: "refused", role: "alert" });
    this.automatch = new AutomatchPanel(app, { nameField: () => nameField(app), saveName });
  }

  async start() {
    fill(this.root, h("div", { class: "lobby" }, this.automatch.node, this.createForm(),
      this.lists));
    this.automatch.start();
    await this.refresh();
    this.timer = setInterval(() => this.refresh().catch(() => {}), REFRESH_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.automatch.stop();
  }

  async refresh() {
    const [open, playing, finished] = await Promise.all(["open", "playing", "finished"]
      .map((state) => api.games({ state, limit: 20 })));
    const { i18n } = this;
    const t = (key, vars) => i18n.t(key, vars);
    const row = (game, action) => {
      const taken = game.seats.filter((s) => s.name);
      return h("li", { class: "game-row", dataset: { game: game.id } },
        h("span", { class: "game-id" }, game.id), " · ",
        t("seat_of", { taken: taken.length, seats: game.seats.length }), " · ",
        `${t("edition")} ${game.edition}`, game.turn ? ` · ${t("turns_played", { n: game.turn })}` : "",
        " · ", game.kingdom_name || i18n.many(game.kingdom), " · ",
        nameList(taken, i18n), " ", action(game));
    };
    const section = (title, games, action) => h("section", {}, h("h2", {}, title),
      games.length ? h("ul", {}, games.map((game) => row(game, action))) : h("p", {}, t("no_games")));
    const link = (href, label) => h("a", { class: "button", href }, label);
    fill(this.lists,
      h("p", {}, h("button", { type: "button", onclick: () => this.refresh() }, t("refresh"))),
      section(t("open_tables"), open.games, (game) => link(`#/game/${game.id}`,
        seats.get(game.id) ? t("lobby") : t("join"))),
      section(t("running_games"), playing.games, (game) => (seats.get(game.id)
        ? link(`#/game/${game.id}`, t("join")) : link(`#/watch/${game.id}`, t("watch")))),
      section(t("finished_games"), finished.games,
        (game) => link(`#/replay/${game.id}`, t("replay"))));
  }

  createForm() {
    const { i18n } = this;
    const t = (key, vars) => i18n.t(key, vars);
    const form = el("form", { class: "create", "aria-label": t("create_table") });
    const name = nameField(this.app);
    const seatCount = el("select", { name: "seats" },
      [2, 3, 4, 5, 6].map((n) => h("option", { value: n }, String(n))));
    const edition = el("select", { name: "edition" },
      h("option", { value: 2 }, "2"), h("option", { value: 1 }, "1"));
    const mode = el("select", { name: "kingdom-mode" },
      h("option", { value: "recommended" }, t("kingdom_recommended")),
      h("option", { value: "random" }, t("kingdom_random")),
      h("option", { value: "chosen" }, t("kingdom_chosen")));
    const recommended = el("select", { name: "kingdom", "aria-label": t("kingdom_recommended") });
    const chosenCount = el("span", { role: "status" });
    const chosen = el("fieldset", { class: "chosen" });
    const botSeats = el("div", { class: "bot-seats" });
    const strategies = this.app.server.bot_strategies;
    const rated = ratedChoice(this.app);

    const editionCards = () => {
      const cards = this.app.cards.editions[edition.value] || [];
      return cards.filter((card) => card.kingdom);
    };
    const redraw = () => {
      const kingdoms = Object.keys(this.app.cards.kingdoms[edition.value] || {});
      fill(recommended, kingdoms.map((k) => h("option", { value: k }, k)));
      fill(chosen, h("legend", {}, t("kingdom_chosen"), " ", chosenCount),
        editionCards().map((card) => h("label", { class: "pick" },
          h("input", { type: "checkbox", name: "card", value: card.id, onchange: count }),
          ` ${i18n.card(card.id)} ($${card.cost})`)));
      recommended.hidden = mode.value !== "recommended";
      chosen.hidden = mode.value !== "chosen";
      count();
      const n = Number(seatCount.value);
      fill(botSeats, Array.from({ length: n - 1 }, (_, i) => h("label", {},
        t("seat_n", { n: i + 2 }), " ", h("select", { name: `seat-${i + 1}` },
          strategies.map((s) => h("option", { value: s, selected: i === 0 && s === "big_money" },
            i18n.strategy(s))),
          h("option", { value: "", selected: i > 0 }, t("person"))))));
    };
    function count() {
      const n = chosen.querySelectorAll("input:checked").length;
      chosenCount.textContent = `(${i18n.t("chosen_count", { n })})`;
    }
    for (const select of [seatCount, edition, mode]) select.addEventListener("change", redraw);

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const bots = {};
      botSeats.querySelectorAll("select").forEach((select, i) => {
        if (select.value) bots[String(i + 1)] = select.value;
      });
      let kingdom = null;
      if (mode.value === "recommended") kingdom = recommended.value;
      if (mode.value === "chosen") {
        kingdom = [...chosen.querySelectorAll("input:checked")].map((box) => box.value);
      }
      if (!this.app.account) saveName(name.value.trim());
      try {
        const created = await api.create({
          name: name.value.trim(), seats: Number(seatCount.value),
          edition: Number(edition.value), kingdom, bots, ...(rated.rated() && { rated: true }),
        });
        seats.set(created.game.id, created.seat, created.token);
        window.location.hash = `#/game/${created.game.id}`;
      } catch (error) {
        this.message.textContent = `⚠ ${errorText(this.i18n, error)}`;
      }
    });
    redraw();
    fill(form,
      h("h2", {}, t("create_table")),
      h("label", {}, t("your_name"), " ", name),
      h("label", {}, t("seats"), " ", seatCount),
      h("label", {}, t("edition"), " ", edition),
      h("label", {}, t("kingdom"), " ", mode, " ", recommended),
      chosen, botSeats, rated.fields,
      h("button", { type: "submit", class: "primary" }, t("create")),
      this.message);
    return form;
  }
}

/** A table this browser holds no seat at: join it (open), watch it, or see its replay. */
export async function tablePage(root, app, gameId) {
  const t = (key, vars) => app.i18n.t(key, vars);
  const summary = await api.game(gameId);
  const message = el("p", { class: "refused", role: "alert" });
  const taken = summary.seats.filter((s) => s.name);
  const parts = [h("h2", {}, t("table", { id: gameId })),
    h("p", {}, t("seat_of", { taken: taken.length, seats: summary.seats.length }), " · ",
      `${t("players")}: `, nameList(taken, app.i18n))];
  if (summary.state === "open") {
    const name = nameField(app);
    parts.push(h("form", {
      class: "join",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          if (!app.account) saveName(name.value.trim());
          const joined = await api.join(gameId, name.value.trim());
          seats.set(gameId, joined.seat, joined.token);
          app.route();
        } catch (error) {
          message.textContent = `⚠ ${errorText(app.i18n, error)}`;
        }
      },
    }, h("label", {}, t("join_as"), " ", name), " ", h("button", { type: "submit", class: "primary" },
      t("join")), message));
  } else if (summary.state === "playing") {
    parts.push(h("p", {}, t("seat_lost")), h("a", { class: "button", href: `#/watch/${gameId}` },
      t("watch")));
  } else {
    // abandoned with no result: an admin ended it, or it lapsed before it started (an
    // absent player's abandonment scores it)
    if (summary.state === "abandoned") {
      parts.push(h("p", { class: "abandoned" },
        t(summary.result ? "abandoned" : "abandoned_no_result")));
    }
    parts.push(h("a", { class: "button", href: `#/replay/${gameId}` }, t("replay")));
  }
  fill(root, h("section", { class: "table" }, parts));
}
