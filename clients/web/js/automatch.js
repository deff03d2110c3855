// The lobby's queue: automatch over the WebSocket (docs/PROTOCOL.md, `seek`). The Play
// panel's "Find an opponent" seeks (the table sizes chosen under "More options", the
// form's edition and, signed in, rated); this panel shows the wait: the time waited, a way
// out, and the queue's counts (GET /api/v1/automatch). A table found asks to accept or decline
// within its deadline, in a modal dialog (the page's title and the optional sound say so
// too); accepted by all, the page goes to the game with its seat stored as a join's.
// A reload takes the seek up again: the seek (and a guest's seek token) is kept in the
// tab's sessionStorage, and the server keeps a seek for its grace time.

import { errorText } from "./account_words.js";
import { call, seats } from "./api.js";
import { AUTOMATCH_COUNTED, AUTOMATCH_WORDS } from "./automatch_words.js";
import { h } from "./dom.js";
import { addWords } from "./i18n.js";
import { Connection, websocketUrl } from "./net.js";
import { beep, soundWanted } from "./signal.js";
import { timeControlText } from "./time_control.js";

addWords(AUTOMATCH_WORDS, AUTOMATCH_COUNTED);

/** The table sizes a person chooses among: any combination of these groups. */
export const SIZE_GROUPS = [[2], [3, 4], [5, 6]];
const QUEUE_SIZES = [2, 3, 4, 5, 6];
const COUNTS_MS = 10000;
/** The counts route allows an address 120 look-ups a minute: a lobby asks 6. */
const SEEK_KEY = "dominion.seek";

export const Phase = Object.freeze({
  IDLE: "idle", // the form
  CONNECTING: "connecting", // the seek is on its way
  WAITING: "waiting", // in the queue
  FOUND: "found", // a table asks for an answer
  ACCEPTED: "accepted", // answered yes; the others have not all
});

/** The sizes a seek asks for, from the groups chosen (indexes into SIZE_GROUPS). */
export function sizesOf(groups) {
  return [...new Set(groups.flatMap((group) => SIZE_GROUPS[group]))].sort((a, b) => a - b);
}

/** "2, 3–4": sizes said as the groups they make up. */
export function sizesText(sizes) {
  return SIZE_GROUPS.filter((group) => group.every((size) => sizes.includes(size)))
    .map((group) => group.join("–")).join(", ");
}

/** m:ss */
export function clock(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The players of a table found, each with their rating at a rated table (`ratings`, in
 *  the order of the names): "ann (1523?), bob (1610)". */
export function rankedNames(players, ratings) {
  return players.map((name, i) => (ratings?.[i]
    ? `${name} (${ratings[i].rating}${ratings[i].provisional ? "?" : ""})` : name)).join(", ");
}

/** The create form's choice of the queue's table sizes, the 2-player group first. */
export function sizesField(i18n) {
  return h("fieldset", { class: "sizes", "aria-describedby": "sizes-about" },
    h("legend", {}, i18n.t("table_sizes")),
    SIZE_GROUPS.map((group, index) => h("label", {}, h("input", { type: "checkbox",
      name: "size", value: String(index), checked: index === 0 }), " ",
    i18n.t("size_group", { sizes: group.join("–") }))),
    h("p", { id: "sizes-about", class: "note" }, i18n.t("play_now_about")));
}

/** The table sizes a form's boxes choose (none: empty). */
export function sizesChosen(form) {
  return sizesOf([...form.querySelectorAll("input[name=size]:checked")]
    .map((box) => Number(box.value)));
}

export class AutomatchPanel {
  /**
   * @param {object} app i18n, server info, account
   * @param {() => void} redraw the lobby's (the panel is part of its view)
   */
  constructor(app, redraw) {
    this.app = app;
    this.i18n = app.i18n;
    this.redraw = redraw; // the lobby's: the panel is part of its view
    this.phase = Phase.IDLE;
    this.wanted = null; // {sizes, edition, rated, name, token}: what is sought
    this.since = 0; // when the seek began, by this page's clock
    this.table = null; // the match_found message, and `deadline` by this page's clock
    this.note = ""; // what last happened, said next to the form or the wait
    this.counts = null; // the queue's counts (GET /api/v1/automatch), or false: unknown
    this.focused = null; // the phase the dialog last took the focus in
    this.connection = null;
    this.ticker = null;
    this.countsTimer = null;
  }

  t(key, vars) {
    return this.i18n.t(key, vars);
  }

  start() {
    const kept = readKept();
    if (kept) this.seek(kept); // a reload while waiting: take the seek up again
    else this.redraw();
    this.refreshCounts();
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  /** Leaving the lobby leaves the queue, so that nobody is matched with a page that is
   *  gone; the lobby drawn again (in another language) takes the seek up, as a reload
   *  does (which does not come here). */
  stop() {
    clearInterval(this.ticker);
    clearTimeout(this.countsTimer);
    const staying = this.app.shown?.route.name === "lobby";
    if (this.wanted && !staying) {
      this.connection?.request("seek_cancel").catch(() => {});
      forgetKept();
    }
    this.wanted = null; // the closing socket's last status changes nothing
    this.connection?.stop();
    this.setTitle(false);
  }

  /** The panel: the wait, what happened, the queue's counts, and the dialog of a table
   *  found. */
  view() {
    const waiting = this.phase !== Phase.IDLE;
    return h("section", { class: "automatch", "aria-labelledby": "automatch-title",
      dataset: { phase: this.phase } },
    h("h2", { id: "automatch-title" }, this.t("queue_title")),
    h("div", { class: "seek-status" }, waiting && this.waitingView()),
    h("p", { class: "seek-note", role: "status" }, this.note),
    h("div", { class: "queue-counts" }, this.countsView()),
    // Escape does not answer for the person: Accept and Decline do
    h("dialog", { class: "match-found", "aria-labelledby": "match-found-title",
      "aria-describedby": "match-found-players",
      oncancel: (event) => event.preventDefault() }, this.table && this.dialogView()));
  }

  /** After a draw: the dialog opened (modal) while a table asks, closed otherwise; opened,
   *  or its buttons gone (accepted), it takes the focus. */
  drawn(root) {
    const dialog = root.querySelector("dialog.match-found");
    if (!dialog) return;
    if (!this.table) {
      this.focused = null;
      if (dialog.open) dialog.close();
      return;
    }
    if (!dialog.open) dialog.showModal();
    if (this.focused === this.phase) return;
    this.focused = this.phase;
    // accepted, the buttons are gone: the focus stays in the dialog, on its title
    dialog.querySelector(this.phase === Phase.ACCEPTED ? "h2" : "[data-answer=accept]").focus();
  }

  /** Ask the server for a table (again, after a reload or a reconnect: with the token). */
  seek(wanted) {
    this.wanted = wanted;
    this.note = "";
    this.phase = Phase.CONNECTING;
    keep(wanted);
    this.redraw();
    if (this.connection?.ready) {
      this.sendSeek();
      return;
    }
    if (!this.connection) {
      const url = websocketUrl(window.location, this.app.server.websocket);
      this.connection = new Connection(url, (push) => this.onPush(push),
        (status) => this.onStatus(status));
    }
    this.connection.open().catch(() => {}); // reconnects by itself; "open" seeks
  }

  /** Connected again: the seek is taken up where it stood (the server re-sends a table
   *  offered meanwhile); until then the panel says it connects. */
  onStatus(status) {
    if (!this.wanted) return;
    if (status === "open") this.sendSeek();
    else if (status === "reconnecting") {
      this.phase = Phase.CONNECTING;
      this.table = null;
      this.redraw();
    } else this.ended(this.t("seek_closed"));
  }

  sendSeek() {
    const { sizes, edition, rated, name, token } = this.wanted;
    const fields = { sizes, edition, rated };
    if (name) fields.name = name;
    if (token) fields.token = token;
    this.connection.request("seek", fields).catch((error) => {
      if (error.code) this.ended(errorText(this.i18n, error)); // refused; else reconnecting
    });
  }

  /** The seek is over without a game: back to the form, saying why. */
  ended(note) {
    this.wanted = null;
    this.table = null;
    this.phase = Phase.IDLE;
    forgetKept();
    this.setTitle(false);
    this.say(note);
  }

  onPush(message) {
    if (message.type === "seek_status") this.onSeekStatus(message);
    else if (message.type === "match_found") this.onFound(message);
    else if (message.type === "match_cancelled") this.onCancelled(message);
    else if (message.type === "match_ready") this.onReady(message);
  }

  onSeekStatus(message) {
    if (!this.wanted) return;
    if (message.state === "ended") {
      this.ended(this.t(message.reason === "lapsed" ? "seek_ended_lapsed" : "seek_ended_declined"));
      return;
    }
    this.since = Date.now() - message.waited_ms;
    if (message.token) {
      this.wanted.token = message.token;
      keep(this.wanted);
    }
    this.phase = Phase.WAITING;
    this.table = null;
    this.setTitle(false);
    this.redraw();
  }

  onFound(message) {
    this.table = { ...message, deadline: Date.now() + message.deadline_ms };
    this.phase = Phase.FOUND;
    this.note = "";
    this.setTitle(true);
    if (soundWanted(window.localStorage)) beep();
    this.redraw();
  }

  onCancelled(message) {
    this.table = null;
    this.phase = Phase.WAITING;
    this.setTitle(false);
    // seek_status follows: waiting again (this note stays), or ended (it says why)
    this.say(this.t(message.reason === "lapsed" ? "match_dissolved_lapsed"
      : "match_dissolved_declined"));
  }

  onReady(message) {
    seats.set(message.game, message.seat, message.token);
    this.wanted = null;
    this.phase = Phase.IDLE;
    forgetKept();
    this.say(this.t("match_starting"));
    window.location.hash = `#/game/${message.game}`;
  }

  answer(accept) {
    const table = this.table?.table;
    if (!table) return;
    if (accept) {
      this.phase = Phase.ACCEPTED;
      this.redraw();
    }
    this.connection.request(accept ? "match_accept" : "match_decline", { table })
      .catch(() => {}); // a table gone meanwhile: match_cancelled says so
  }

  cancel() {
    this.connection.request("seek_cancel").catch(() => {});
    this.ended(this.t("seek_left"));
  }

  say(note) {
    this.note = note;
    this.redraw();
  }

  setTitle(found) {
    document.title = found ? `${this.t("match_title")} · ${this.t("title")}` : this.t("title");
  }

  waitingView() {
    const { sizes, edition, rated } = this.wanted;
    return [
      h("p", {}, this.t(rated ? "seek_wanted_rated" : "seek_wanted",
        { sizes: sizesText(sizes), edition })),
      h("p", { class: "seek-time" }, this.phase === Phase.CONNECTING ? this.t("seek_connecting")
        : this.t("seek_waiting", { time: clock(Date.now() - this.since) })),
      h("button", { type: "button", class: "seek-cancel", onclick: () => this.cancel() },
        this.t("seek_cancel")),
    ];
  }

  dialogView() {
    const { players, size, edition, rated, ratings, time_control: control } = this.table;
    return [
      h("h2", { id: "match-found-title", tabindex: "-1" }, this.t("match_found")),
      h("div", { id: "match-found-players" },
        h("p", {}, this.t("match_table", { size, edition })),
        rated && h("p", {}, this.t("match_rated")),
        control && h("p", {}, this.t("time_control_of", { control: timeControlText(control) })),
        h("p", {}, this.t("match_players", { names: rankedNames(players, ratings) }))),
      h("p", { class: "countdown" }, this.countdown()),
      this.phase === Phase.ACCEPTED ? h("p", { role: "status" }, this.t("match_accepted"))
        : h("p", { class: "answers" },
          h("button", { type: "button", class: "primary", dataset: { answer: "accept" },
            onclick: () => this.answer(true) }, this.t("match_accept")), " ",
          h("button", { type: "button", dataset: { answer: "decline" },
            onclick: () => this.answer(false) }, this.t("match_decline"))),
    ];
  }

  countdown() {
    const left = Math.max(0, Math.ceil((this.table.deadline - Date.now()) / 1000));
    return this.i18n.count(left, "seconds_left");
  }

  /** Once a second: the time waited, or the countdown. */
  tick() {
    if (this.phase === Phase.WAITING || this.table) this.redraw();
  }

  /** The queue's counts while the lobby is shown (not while the tab is hidden), as often
   *  as the route allows, later when it says to wait. */
  async refreshCounts() {
    let next = COUNTS_MS;
    if (!document.hidden) {
      try {
        this.counts = await call("GET", "/automatch");
      } catch (error) {
        if (error.retryAfterMs) next = Math.max(next, error.retryAfterMs);
        this.counts = false;
      }
      this.redraw();
    }
    this.countsTimer = setTimeout(() => this.refreshCounts(), next);
  }

  countsView() {
    const { counts, i18n } = this;
    if (counts === null) return null;
    if (!counts) return h("p", {}, this.t("queue_unknown"));
    const seconds = Math.round(counts.median_wait_seconds);
    return [h("h3", {}, this.t("queue_now")),
      h("ul", {}, QUEUE_SIZES.map((size) => h("li", { dataset: { size } },
        this.t("queue_size", { size, count: i18n.count(counts.waiting[size] ?? 0,
          "people_waiting") })))),
      h("p", { class: "median" }, this.t("queue_median",
        { time: i18n.count(seconds, "wait_seconds") }))];
  }
}

function keep(wanted) {
  sessionStorage.setItem(SEEK_KEY, JSON.stringify(wanted));
}

function readKept() {
  try {
    return JSON.parse(sessionStorage.getItem(SEEK_KEY));
  } catch {
    return null;
  }
}

function forgetKept() {
  sessionStorage.removeItem(SEEK_KEY);
}
