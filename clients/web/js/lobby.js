// The lobby: "Play now" (automatch.js, over the WebSocket), open tables (join), running
// games (watch), finished games (replay), and creating a table (seats, edition, Kingdom,
// bots, rated, time control, the bots' pace) over the REST API.

import { errorText } from "./account_words.js";
import { api, seats } from "./api.js";
import { AutomatchPanel } from "./automatch.js";
import { botPaceBody, botPaceField } from "./bot_pace.js";
import { h, redrawing } from "./dom.js";
import { nameList } from "./names.js";
import {
  choiceShown, timeControlBody, timeControlField, timeControlText,
} from "./time_control.js";

const REFRESH_MS = 5000;

export function savedName() {
  return localStorage.getItem("dominion.name") || "";
}


export function saveName(name) {
  localStorage.setItem("dominion.name", name);
}

/** The name field of a form that takes a seat: the account's name, fixed, when signed in
 *  (the server seats an account by its own name); a guest's last name otherwise. The form
 *  reads it when sent (`form.elements.name`). */
export function nameField(app) {
  const account = app.account;
  return h("input", { name: "name", required: true, maxlength: 40,
    value: account ? account.name : savedName(), readOnly: Boolean(account) });
}

/** The create form's "rated" choice (docs/RATINGS.md): a box for an account; for a guest
 *  a disabled one, saying why (ratings are accounts'). `onchange`: told when it is ticked
 *  or not (the time controls offered follow it). */
export function ratedChoice(app, onchange = undefined) {
  const t = (key) => app.i18n.t(key);
  const signedIn = Boolean(app.account);
  return [h("label", { class: "rated" }, h("input", { type: "checkbox", name: "rated",
    disabled: !signedIn, "aria-describedby": "rated-why", onchange }), " ", t("rated_table")),
  h("p", { id: "rated-why", class: "note" }, t(signedIn ? "rated_about" : "rated_guest"))];
}

/** Whether a form with the rated choice asks for a rated table: an account's, ticked. */
export function ratedWanted(app, form) {
  return Boolean(app.account) && Boolean(form.elements.rated?.checked);
}

export class LobbyPage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.timer = null;
    // what the page shows: the lists of games (null until loaded), the create form's
    // choices that change what it shows, and the last refusal
    this.state = { games: null, seats: 2, edition: "2", mode: "recommended", chosen: new Set(),
      rated: false, timeControl: null, message: "" };
    this.automatch = new AutomatchPanel(app, { nameField: () => nameField(app), saveName },
      () => this.redraw());
    this.draw = redrawing(root, () => this.view());
    this.redraw = () => {
      if (this.draw()) this.automatch.drawn(root);
    };
  }

  async start() {
    this.redraw();
    this.automatch.start();
    await this.refresh();
    this.timer = setInterval(() => this.refresh().catch(() => {}), REFRESH_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.automatch.stop();
    this.draw.stop();
  }

  async refresh() {
    const [open, playing, finished] = await Promise.all(["open", "playing", "finished"]
      .map((state) => api.games({ state, limit: 20 })));
    this.state.games = { open: open.games, playing: playing.games, finished: finished.games };
    this.redraw();
  }

  /** A choice of the create form that changes what it shows. */
  choose(name, value) {
    this.state[name] = value;
    if (name === "edition") this.state.chosen = new Set();
    this.redraw();
  }

  pick(card, picked) {
    if (picked) this.state.chosen.add(card);
    else this.state.chosen.delete(card);
    this.redraw();
  }

  async create(form) {
    const { app, state } = this;
    const bots = {};
    form.querySelectorAll(".bot-seats select").forEach((select, i) => {
      if (select.value) bots[String(i + 1)] = select.value;
    });
    let kingdom = null;
    if (state.mode === "recommended") kingdom = form.elements.kingdom.value;
    if (state.mode === "chosen") {
      kingdom = editionCards(app, state.edition).map((card) => card.id)
        .filter((card) => state.chosen.has(card));
    }
    const name = form.elements.name.value.trim();
    if (!app.account) saveName(name);
    try {
      const created = await api.create(createBody(app, state, form, { name, kingdom, bots }));
      seats.set(created.game.id, created.seat, created.token);
      window.location.hash = `#/game/${created.game.id}`;
    } catch (error) {
      state.message = `⚠ ${errorText(app.i18n, error)}`;
      this.redraw();
    }
  }

  view() {
    return h("div", { class: "lobby" }, this.automatch.view(), createView(this.app, this.state, this),
      this.state.games && listsView(this.state.games, this.app.i18n, this));
  }
}

/** The create request's body: the form's choices (the time control's as shown: a rated
 *  table's never none). */
export function createBody(app, state, form, { name, kingdom, bots }) {
  const rated = ratedWanted(app, form);
  const { elements } = form;
  const control = timeControlBody(choiceShown(state.timeControl, rated), {
    minutes: elements["tc-minutes"]?.value, increment: elements["tc-increment"]?.value });
  return {
    name, seats: Number(state.seats), edition: Number(state.edition), kingdom, bots,
    ...(rated && { rated: true }), time_control: control, ...botPaceBody(elements),
  };
}

/** The kingdom cards of an edition. */
function editionCards(app, edition) {
  return (app.cards.editions[edition] || []).filter((card) => card.kingdom);
}

/** "Clock 10+5" for a table with a time control; nothing for one without. */
function controlOf(game, i18n) {
  return game.time_control
    ? i18n.t("time_control_of", { control: timeControlText(game.time_control) }) : "";
}

/** The lobby's lists: open tables (join), running games (watch), finished ones (replay). */
export function listsView(games, i18n, actions) {
  const t = (key, vars) => i18n.t(key, vars);
  const row = (game, action) => {
    const taken = game.seats.filter((s) => s.name);
    return h("li", { class: "game-row", key: game.id, dataset: { game: game.id } },
      h("span", { class: "game-id" }, game.id), " · ",
      t("seat_of", { taken: taken.length, seats: game.seats.length }), " · ",
      `${t("edition")} ${game.edition}`, game.time_control ? " · " : "", controlOf(game, i18n),
      game.turn ? ` · ${t("turns_played", { n: game.turn })}` : "",
      " · ", i18n.kingdomName(game.kingdom_name) || i18n.many(game.kingdom),
      " · ",
      nameList(taken, i18n), " ", action(game));
  };
  const section = (title, list, action) => h("section", {}, h("h2", {}, title),
    list.length ? h("ul", {}, list.map((game) => row(game, action))) : h("p", {}, t("no_games")));
  const link = (href, label) => h("a", { class: "button", href }, label);
  return h("div", { class: "lists" },
    h("p", {}, h("button", { type: "button", onclick: () => actions.refresh() }, t("refresh"))),
    section(t("open_tables"), games.open, (game) => link(`#/game/${game.id}`,
      seats.get(game.id) ? t("lobby") : t("join"))),
    section(t("running_games"), games.playing, (game) => (seats.get(game.id)
      ? link(`#/game/${game.id}`, t("join")) : link(`#/watch/${game.id}`, t("watch")))),
    section(t("finished_games"), games.finished,
      (game) => link(`#/replay/${game.id}`, t("replay"))));
}

/** The form that creates a table: seats, edition, Kingdom (recommended, random or chosen
 *  card by card), bots, rated. What it shows follows `state`; the rest is read when sent. */
export function createView(app, state, actions) {
  const { i18n } = app;
  const t = (key, vars) => i18n.t(key, vars);
  const choose = (name) => (event) => actions.choose(name, event.target.value);
  const kingdoms = Object.keys(app.cards.kingdoms[state.edition] || {});
  const strategies = app.server.bot_strategies;
  return h("form", { class: "create", "aria-label": t("create_table"),
    onsubmit: (event) => {
      event.preventDefault();
      actions.create(event.target);
    } },
  h("h2", {}, t("create_table")),
  h("label", {}, t("your_name"), " ", nameField(app)),
  h("label", {}, t("seats"), " ", h("select", { name: "seats", onchange: choose("seats") },
    [2, 3, 4, 5, 6].map((n) => h("option", { value: n }, String(n))))),
  h("label", {}, t("edition"), " ", h("select", { name: "edition", onchange: choose("edition") },
    h("option", { value: 2 }, "2"), h("option", { value: 1 }, "1"))),
  h("label", {}, t("kingdom"), " ", h("select", { name: "kingdom-mode", onchange: choose("mode") },
    h("option", { value: "recommended" }, t("kingdom_recommended")),
    h("option", { value: "random" }, t("kingdom_random")),
    h("option", { value: "chosen" }, t("kingdom_chosen"))), " ",
  // drawn anew for another edition: its first Kingdom chosen
  h("select", { name: "kingdom", key: `kingdom-${state.edition}`,
    "aria-label": t("kingdom_recommended"), hidden: state.mode !== "recommended" },
  kingdoms.map((k) => h("option", { value: k }, i18n.kingdomName(k))))),
  h("fieldset", { class: "chosen", hidden: state.mode !== "chosen" },
    h("legend", {}, t("kingdom_chosen"), " ", h("span", { role: "status" },
      `(${t("chosen_count", { n: state.chosen.size })})`)),
    editionCards(app, state.edition).map((card) => h("label", { class: "pick", key: card.id },
      h("input", { type: "checkbox", name: "card", value: card.id,
        checked: state.chosen.has(card.id),
        onchange: (event) => actions.pick(card.id, event.target.checked) }),
      ` ${i18n.card(card.id)} ($${card.cost})`))),
  h("div", { class: "bot-seats" }, Array.from({ length: Number(state.seats) - 1 }, (_, i) => h(
    "label", { key: `seat-${i + 1}` }, t("seat_n", { n: i + 2 }), " ",
    h("select", { name: `seat-${i + 1}` },
      strategies.map((s) => h("option", { value: s, selected: i === 0 && s === "big_money" },
        i18n.strategy(s))),
      h("option", { value: "", selected: i > 0 }, t("person")))))),
  ratedChoice(app, (event) => actions.choose("rated", event.target.checked)),
  timeControlField(i18n, state.timeControl, state.rated && Boolean(app.account),
    choose("timeControl")),
  botPaceField(i18n),
  h("button", { type: "submit", class: "primary" }, t("create")),
  h("p", { class: "refused", role: "alert" }, state.message));
}

/** A table this browser holds no seat at: join it (open), watch it, or see its replay. */
export class TablePage {
  constructor(root, app, gameId) {
    this.app = app;
    this.id = gameId;
    this.state = { summary: null, message: "" };
    this.redraw = redrawing(root, () => tableView(this.id, this.state, app, this));
  }

  async start() {
    this.state.summary = await api.game(this.id);
    this.redraw();
  }

  stop() {
    this.redraw.stop();
  }

  async join(form) {
    const { app } = this;
    const name = form.elements.name.value.trim();
    try {
      if (!app.account) saveName(name);
      const joined = await api.join(this.id, name);
      seats.set(this.id, joined.seat, joined.token);
      app.route();
    } catch (error) {
      this.state.message = `⚠ ${errorText(app.i18n, error)}`;
      this.redraw();
    }
  }
}

function tableView(gameId, { summary, message }, app, actions) {
  const t = (key, vars) => app.i18n.t(key, vars);
  if (!summary) return h("p", {}, t("loading"));
  const taken = summary.seats.filter((s) => s.name);
  const parts = [h("h2", {}, t("table", { id: gameId })),
    h("p", {}, t("seat_of", { taken: taken.length, seats: summary.seats.length }), " · ",
      summary.time_control ? `${controlOf(summary, app.i18n)} · ` : "", `${t("players")}: `, nameList(taken, app.i18n))];
  if (summary.state === "open") {
    parts.push(h("form", {
      class: "join",
      onsubmit: (event) => {
        event.preventDefault();
        actions.join(event.target);
      },
    }, h("label", {}, t("join_as"), " ", nameField(app)), " ",
    h("button", { type: "submit", class: "primary" }, t("join")),
    h("p", { class: "refused", role: "alert" }, message)));
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
  return h("section", { class: "table" }, parts);
}
