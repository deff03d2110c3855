// The lobby: the "Play" panel (one name, one tap for a game against a bot, a table to invite
// a friend to, or the automatch queue: the first screen's only ways to play), "More
// options" to create any table (seats, edition, the Kingdom as cards, bots, rated, time
// control, the bots' pace) over the REST API and the queue's table sizes, the queue's
// wait (automatch.js, over the WebSocket), and the open tables (join), running games
// (watch) and finished games (replay).

import { errorText } from "./account_words.js";
import { api, seats } from "./api.js";
import { AutomatchPanel, sizesChosen, sizesField } from "./automatch.js";
import { botPaceBody, botPaceField } from "./bot_pace.js";
import { DEFAULT_LEVEL, levelOptions } from "./bot_levels.js";
import { h, redrawing } from "./dom.js";
import { drawKingdom, kingdomPicker, toggleCard } from "./kingdom_picker.js";
import { controlOf, gameRow } from "./lobby_rows.js";
import { nameList } from "./names.js";
import { editionField, playPanel, Quick } from "./quick_start.js";
import {
  choiceShown, timeControlBody, timeControlField,
} from "./time_control.js";

const REFRESH_MS = 5000;

const NAME_KEY = "dominion.name";

/** A guest's name: the last they played under, or on a first visit one made for them
 *  ("Guest 4821", in the page's language) and kept, so that "Play a bot" is one tap and
 *  the name stays theirs; they may change it. */
export function guestName(i18n, random = Math.random) {
  const saved = localStorage.getItem(NAME_KEY);
  if (saved) return saved;
  const made = i18n.t("guest_name", { n: 1000 + Math.floor(random() * 9000) });
  saveName(made);
  return made;
}

export function saveName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/** The name field of a form that takes a seat: the account's name, fixed, when signed in
 *  (the server seats an account by its own name); a guest's otherwise. The form reads it
 *  when sent (`form.elements.name`). */
export function nameField(app) {
  const account = app.account;
  return h("input", { name: "name", required: true, maxlength: 40,
    value: account ? account.name : guestName(app.i18n), readOnly: Boolean(account) });
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
    // choices that change what it shows (the Kingdom: a recommended set's name, or the
    // person's own cards), and the last refusal
    this.state = { games: null, seats: 2, edition: "2", kingdomName: null, ownKingdom: null,
      level: DEFAULT_LEVEL, more: wideScreen(), rated: false, timeControl: null, message: "" };
    this.automatch = new AutomatchPanel(app, () => this.redraw());
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

  /** The name in the lobby's one name field (the page's form), or null when signed in. */
  typedName() {
    if (this.app.account) return null;
    return this.root.querySelector("form.create input[name=name]")?.value.trim() || null;
  }

  /** A choice of the create form that changes what it shows. */
  choose(name, value) {
    this.state[name] = value;
    if (name === "edition") Object.assign(this.state, { kingdomName: null, ownKingdom: null });
    this.redraw();
  }

  recommend(name) {
    Object.assign(this.state, { kingdomName: name || null, ownKingdom: null });
    this.redraw();
  }

  randomKingdom() {
    this.state.ownKingdom = drawKingdom(editionCards(this.app, this.state.edition), Math.random);
    this.redraw();
  }

  toggle(card) {
    this.state.ownKingdom = toggleCard(kingdomOf(this.app, this.state).cards, card);
    this.redraw();
  }

  /** One of the Play panel's buttons: a game against the bot level chosen, a table of two
   *  people (its page shows the link to send), or the queue for the table sizes chosen
   *  (2 players unless "More options" says otherwise). */
  quick(form, kind) {
    if (!form.reportValidity()) return; // a guest's name, if they emptied it
    if (kind === Quick.QUEUE) {
      const { app, state } = this;
      const sizes = sizesChosen(form);
      if (!sizes.length) {
        this.automatch.say(app.i18n.t("sizes_needed"));
        return;
      }
      this.automatch.seek({ sizes, edition: Number(state.edition),
        rated: ratedWanted(app, form), name: this.typedName(), token: null });
      if (!app.account) saveName(this.typedName());
      return;
    }
    const bots = kind === Quick.BOT ? { 1: this.state.level } : {};
    this.create(form, { seats: 2, bots });
  }

  /** Create the table the form describes (`chosen`: the seats and bots a quick button
   *  chose instead of the form's). */
  async create(form, chosen = null) {
    const { app, state } = this;
    let bots = {};
    form.querySelectorAll(".bot-seats select").forEach((select, i) => {
      if (select.value) bots[String(i + 1)] = select.value;
    });
    if (chosen) bots = chosen.bots;
    const shown = kingdomOf(app, state);
    const kingdom = shown.own ? shown.cards : shown.name;
    const name = form.elements.name.value.trim();
    if (!app.account) saveName(name);
    try {
      const created = await api.create(createBody(app, state, form,
        { name, kingdom, bots, seats: chosen?.seats }));
      seats.set(created.game.id, created.seat, created.token);
      window.location.hash = `#/game/${created.game.id}`;
    } catch (error) {
      state.message = `⚠ ${errorText(app.i18n, error)}`;
      this.redraw();
    }
  }

  view() {
    return h("div", { class: "lobby" }, createView(this.app, this.state, this),
      this.automatch.view(), this.state.games && listsView(this.state.games, this.app.i18n, this));
  }
}

/** Whether the screen has room for the full form open (a phone's shows the quick buttons
 *  and keeps "More options" shut). */
function wideScreen() {
  return globalThis.matchMedia?.("(min-width: 48rem)").matches ?? true;
}

/** The create request's body: the form's choices (the time control's as shown: a rated
 *  table's never none); `seats` when a quick button chose them. */
export function createBody(app, state, form, { name, kingdom, bots, seats: count }) {
  const rated = ratedWanted(app, form);
  const { elements } = form;
  const control = timeControlBody(choiceShown(state.timeControl, rated), {
    minutes: elements["tc-minutes"]?.value, increment: elements["tc-increment"]?.value });
  return {
    name, seats: Number(count ?? state.seats), edition: Number(state.edition), kingdom, bots,
    ...(rated && { rated: true }), time_control: control, ...botPaceBody(elements),
  };
}

/** The kingdom cards of an edition, by id. */
function editionCards(app, edition) {
  return (app.cards.editions[edition] || []).filter((card) => card.kingdom).map((card) => card.id);
}

/** The Kingdom the form shows: the recommended sets' names, the one chosen (the first
 *  unless another is), the cards: the person's own, or the set's; and the edition's. */
export function kingdomOf(app, state) {
  const sets = app.cards.kingdoms[state.edition] || {};
  const names = Object.keys(sets);
  const name = names.includes(state.kingdomName) ? state.kingdomName : names[0];
  const own = Boolean(state.ownKingdom);
  return { names, name, own, cards: own ? state.ownKingdom : (sets[name] ?? []),
    pool: editionCards(app, state.edition) };
}

/** The lobby's lists: open tables (join), running games (watch), finished ones (replay). */
export function listsView(games, i18n, actions) {
  const t = (key, vars) => i18n.t(key, vars);
  const section = (title, list, action) => h("section", {}, h("h2", {}, title),
    list.length ? h("ul", { class: "game-rows" }, list.map((game) => gameRow(game, i18n,
      action(game)))) : h("p", {}, t("no_games")));
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

/** The form of the lobby's top: the Play panel (one name, the bot's level, the quick
 *  buttons) and "More options", the whole table: seats, edition, Kingdom, bots, rated,
 *  time control, the bots' pace. What it shows follows `state`; the rest is read when
 *  sent. */
export function createView(app, state, actions) {
  const { i18n } = app;
  const t = (key, vars) => i18n.t(key, vars);
  const choose = (name) => (event) => actions.choose(name, event.target.value);
  const strategies = app.server.bot_strategies;
  return h("form", { class: "create", "aria-labelledby": "play-title",
    onsubmit: (event) => {
      event.preventDefault();
      actions.create(event.target);
    } },
  playPanel(app, state, actions, nameField(app)),
  h("p", { class: "refused", role: "alert" }, state.message),
  h("details", { class: "more-options", open: state.more,
    ontoggle: (event) => {
      state.more = event.target.open; // kept across redraws, nothing else changes
    } },
  h("summary", {}, t("more_options")),
  h("div", { class: "more-fields" },
    h("label", {}, t("seats"), " ", h("select", { name: "seats", onchange: choose("seats") },
      [2, 3, 4, 5, 6].map((n) => h("option", { value: n, selected: Number(state.seats) === n },
        String(n))))),
    editionField(i18n, state.edition, choose("edition")),
    kingdomPicker(app, kingdomOf(app, state), { recommend: (name) => actions.recommend(name),
      random: () => actions.randomKingdom(), toggle: (card) => actions.toggle(card) }),
    h("div", { class: "bot-seats" }, Array.from({ length: Number(state.seats) - 1 }, (_, i) => h(
      "label", { key: `seat-${i + 1}` }, t("seat_n", { n: i + 2 }), " ",
      h("select", { name: `seat-${i + 1}` },
        levelOptions(strategies, i18n, i === 0 ? state.level : null),
        h("option", { value: "", selected: i > 0 }, t("person")))))),
    ratedChoice(app, (event) => actions.choose("rated", event.target.checked)),
    timeControlField(i18n, state.timeControl, state.rated && Boolean(app.account),
      choose("timeControl")),
    botPaceField(i18n, app.server.bot_pace),
    sizesField(i18n),
    h("button", { type: "submit", class: "primary" }, t("create")))));
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
