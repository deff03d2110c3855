// A live game, as a player or a spectator: follows it over the WebSocket (resumed from the
// last event held, after a reload too), keeps everything it shows in one PageState
// (page_state.js) that only the protocol's messages and a person's intents change, and
// draws from it at most once per animation frame (docs/CLIENTS.md, "The page's state and
// the board"). Whatever the server refuses is said next to the decision.

import { Flights } from "./animate.js";
import { api, seats } from "./api.js";
import {
  cardInfo, mineKey, mineView, playersView, supplyKey, supplyView, trashView,
} from "./board.js";
import { cardTexts } from "./card.js";
import { clockFaces, clockWarning, facesKey, timesLeft } from "./clock.js";
import { abandonedView, endView, rematchView } from "./end.js";
import { decisionView, resignView, waitingView } from "./controls.js";
import {
  arrange, el, fillWith, h, oncePerFrame, patch, patchWith,
} from "./dom.js";
import { LogView } from "./log_view.js";
import {
  byHandLabel, byHandSwitch, rememberTreasuresByHand, treasuresByHand,
} from "./one_click_buy.js";
import { Connection, ConnectionLost, ServerError, gameWebsocketUrl } from "./net.js";
import * as act from "./page_state.js";
import { ReportControl } from "./report.js";
import { GUIDE_URL } from "./routes.js";
import { HELP, Key, Toggle, isShortcut } from "./shortcuts.js";
import { beep, soundWanted } from "./signal.js";
import { attackSentence, attacksSaid } from "./watch.js";

const { Effect, LOG_LINES } = act;
/** Past LOG_LINES lines, the log's oldest turns go until this many fewer are left. */
const LOG_TRIMMED = 100;
/** How often a running clock is looked at: it is drawn again when what it shows changed. */
const CLOCK_TICK_MS = 250;

/** The protocol's messages, and the action each one is. */
const ON_MESSAGE = {
  snapshot: act.snapshot,
  update: act.update,
  chat: act.chat,
  chat_removed: act.chatRemoved,
  game_over: act.gameOver,
  rating_changed: act.ratingChanged,
  game_abandoned: act.gameAbandoned,
  resume_failed: act.resumeFailed,
  rematch_offered: act.rematchOffered,
  rematch_cancelled: act.rematchCancelled,
  rematch_started: act.rematchStarted,
};

export class GamePage {
  /**
   * @param {HTMLElement} root where the page draws
   * @param {object} app i18n (with the card catalogue), server info, setStatus
   * @param {string} gameId
   * @param {{seat: number, token: string} | null} seat null to watch as a spectator
   */
  constructor(root, app, gameId, seat) {
    this.root = root;
    this.app = app;
    this.i18n = app.i18n;
    this.id = gameId;
    this.seat = seat;
    this.page = act.newPageState(seat ? seat.seat : null);
    act.setTreasuresByHand(this.page, treasuresByHand(window.localStorage));
    this.connection = null;
    this.stopped = false;
    this.dispatch = (intent, event) => {
      if (event?.type === "contextmenu") event.preventDefault(); // a long press shows the text
      if (intent.type === Toggle.LOG) this.toggle("log-open");
      else this.perform(act.intend(this.page, intent));
    };
    this.render = oncePerFrame(() => this.draw(), (draw) => requestAnimationFrame(draw));
    // what was drawn: the DOM the page keeps, and what each part was drawn from
    this.boardArea = el("div", { class: "board-area" });
    // a mouse's click on a card or a button of the board leaves the focus where it was (as
    // buttons do on a Mac): a card played, and gone, took the focus with it, and losing it
    // made Chromium work out the page's style in the middle of the draw, then again after
    // it (issue 25). The keyboard's focus is kept as before (`draw`).
    this.boardArea.addEventListener("mousedown", (event) => {
      if (event.button === 0 && event.target.closest?.("button")) event.preventDefault();
    });
    this.log = new LogView({ kept: LOG_LINES, trimmed: LOG_TRIMMED });
    this.chatList = el("ul", {}); // the chat's lines (drawChat)
    this.sideControls = el("div", {});
    this.report = new ReportControl(this, () => this.render());
    this.drawn = { lang: null }; // what each part was drawn from: set by the first draw
    // the page's own switches (not the game's): the log drawer, the shortcut list, the sound
    this.table = el("div", { class: "game" });
    this.announcer = el("p", { class: "visually-hidden", "aria-live": "polite" });
    // your clock's warnings, said once each (clock.js `clockWarning`): a polite region
    // apart from the question's, so that neither cuts the other short
    this.clockAnnouncer = el("p", { class: "visually-hidden clock-said", role: "status" });
    this.clockSaid = null;
    // cards moving between places (animate.js), over the page
    this.flightLayer = el("div", { class: "flight-layer", "aria-hidden": "true" });
    this.flights = new Flights(root, this.flightLayer, this.i18n);
    this.attacks = { notices: [], yours: false }; // the Attacks on you said (watch.js)
    this.attacksDrawn = 0; // bumped when they change: the part that says them is drawn again
    this.ticker = null; // the one timer of a running clock (`tickClocks`)
    this.asked = null; // the decision of yours last drawn, said once to screen readers
    this.askedTurn = null; // the turn it was asked in: a new turn's question beeps
    this.title = null; // the tab's title last asked for (`retitle`)
    this.sound = soundWanted(window.localStorage);
    this.onKey = (event) => this.shortcut(event);
  }

  get state() {
    return this.page.game;
  }

  async start() {
    const summary = await api.game(this.id);
    if (this.stopped) return; // left (the address changed again) before the summary came
    this.perform(act.loaded(this.page, summary));
    const url = gameWebsocketUrl(window.location, this.app.server.websocket, this.id);
    this.connection = new Connection(url, (push) => this.onPush(push),
      (status, code) => this.onStatus(status, code));
    this.connection.follow(this.id, this.seat?.token, () => this.page.game?.seq ?? 0);
    // resumed once welcomed; if the server cannot be reached, the status line says the
    // page is reconnecting, and it resumes when it can
    await this.connection.open().catch(() => {});
  }

  /** Draw the page again (in another language): on the next frame, as every change. */
  redraw() {
    this.render();
  }

  stop() {
    this.stopped = true;
    this.tickClocks();
    this.connection?.stop();
    document.removeEventListener("keydown", this.onKey);
    document.title = this.i18n.t("title");
  }

  /** A key pressed outside a text field: presses the button or card showing that key
   *  (shortcuts.js), or one of the page's own switches. */
  shortcut(event) {
    if (!isShortcut(event)) return;
    const key = event.key === "?" ? Key.HELP : event.key.toLowerCase();
    const switches = {
      [Key.HELP]: () => this.toggle("help-open"),
      [Key.LOG]: () => this.toggle("log-open"),
      [Key.SOUND]: () => this.toggleSound(),
      escape: () => {
        this.table.classList.remove("help-open", "log-open");
        this.dispatch({ type: act.Intent.SHOW_CARD, card: null });
      },
    };
    if (switches[key]) {
      switches[key]();
      event.preventDefault();
      return;
    }
    const target = this.root.querySelector(`[data-shortcut="${CSS.escape(key)}"]`);
    if (!target || target.disabled || target.getAttribute("aria-disabled") === "true") return;
    event.preventDefault();
    target.click();
  }

  toggle(name) {
    this.table.classList.toggle(name);
    const open = this.table.classList.contains(name);
    for (const button of this.root.querySelectorAll(`[data-toggles="${name}"]`)) {
      button.setAttribute("aria-expanded", String(open));
    }
    // what opens over the table takes the focus (its close button), so Tab stays in it
    if (open) this.root.querySelector(`.${name} [data-closes="${name}"]`)?.focus();
  }

  toggleSound() {
    this.sound = !this.sound;
    window.localStorage.setItem("dominion.sound", this.sound ? "on" : "off");
    const button = this.root.querySelector('[data-key="sound"]');
    if (button) fillWith(button, undefined, this.soundLabel());
    button?.setAttribute("aria-pressed", String(this.sound));
    if (this.sound) beep();
  }

  /** "Play Treasures by hand": on, a click on a pile no longer plays them first. */
  toggleByHand() {
    const byHand = !this.page.treasuresByHand;
    rememberTreasuresByHand(window.localStorage, byHand);
    this.perform(act.setTreasuresByHand(this.page, byHand));
    const button = this.root.querySelector('[data-key="treasures-by-hand"]');
    if (button) fillWith(button, undefined, byHandLabel(byHand, this.i18n));
    button?.setAttribute("aria-pressed", String(byHand));
  }

  onStatus(status, code) {
    const t = (key) => this.i18n.t(key);
    if (status === "open") this.app.setStatus("");
    else if (status === "reconnecting") this.app.setStatus(t("reconnecting"));
    else if (code === 4006) this.app.setStatus(t("replaced"));
  }

  onPush(message) {
    const action = ON_MESSAGE[message.type];
    if (message.game !== this.id || !action) return;
    this.perform(action(this.page, message, performance.now()));
  }

  /** A running clock is drawn again whenever what it shows changed; the timer runs only
   *  while a clock runs and the page is shown. */
  tickClocks() {
    const running = !this.stopped && Number.isInteger(this.page.clocks?.running);
    if (running && this.ticker === null) {
      this.ticker = setInterval(() => {
        if (this.clocksKey() !== this.drawn.clocks) this.render();
      }, CLOCK_TICK_MS);
    } else if (!running && this.ticker !== null) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  clocksKey() {
    return facesKey(clockFaces(this.page.clocks, performance.now(), this.page.viewer));
  }

  /** Do what an action asks for, and draw its change (on the next frame). */
  perform(effects) {
    for (const effect of effects) {
      switch (effect.type) {
        case Effect.ANSWER: this.answer(effect); break;
        case Effect.RESUME:
          this.connection.resume(this.id,
            { token: this.seat?.token, lastSeq: () => this.page.game.seq });
          break;
        case Effect.RESIGN:
          this.connection.request("resign", { game: this.id })
            .catch((error) => this.perform(act.refused(this.page, error.message)));
          break;
        case Effect.FORGET_SEAT: seats.forget(this.id); break;
        case Effect.REMATCH:
          this.connection.request(effect.request, { game: this.id, ...effect.fields })
            .catch((error) => this.perform(act.rematchRefused(this.page, error.message)));
          break;
        case Effect.FOLLOW: followRematch(effect); break;
        case Effect.LOAD_SUMMARY:
          api.game(this.id).then((summary) => this.perform(act.loaded(this.page, summary)))
            .catch(() => {}); // the names stay as they were drawn
          break;
        default: break;
      }
    }
    this.tickClocks();
    this.render();
  }

  answer({ decision, options }) {
    this.connection.request("answer", { game: this.id, decision, options }).catch((error) => {
      const why = error instanceof ServerError ? { refusal: error.message }
        : error instanceof ConnectionLost ? {} : { failure: String(error) };
      this.perform(act.answerFailed(this.page, decision, why));
    });
  }

  // -- drawing: reads only the PageState -------------------------------------------------

  /** The board's parts, each drawn again only when what it reads changed (`key`). */
  parts() {
    const { page, i18n } = this;
    const game = page.game;
    const { lang } = i18n;
    const seen = `${page.version.game} ${lang}`;
    const any = `${page.version.ui} ${lang}`;
    if (!game) {
      return [["waiting", any, () => (page.summary
        ? waitingView(page, i18n, this.id, `${window.location.origin}/#/game/${this.id}`)
        : h("p", {}, i18n.t("loading")))]];
    }
    // the decision bar last: it stays in view at the bottom (sticky), and hides nothing
    const cards = Object.keys(game.supply);
    const faces = clockFaces(page.clocks, performance.now(), page.viewer);
    this.drawn.clocks = facesKey(faces);
    return [
      ["texts", `${cards.join(" ")} ${lang}`, () => cardTexts(cards, i18n)],
      ["end", seen, () => (page.abandoned ? abandonedView(page, i18n)
        : game.result ? endView(game, i18n, this.id, api.replayUrl,
          { ratings: page.ratings, rated: Boolean(page.summary?.rated) }) : null)],
      ["rematch", any, () => rematchView(page, i18n)],
      ["players", `${seen} ${this.drawn.clocks}`, () => playersView(game, i18n, faces)],
      ["attacks", `${this.attacksDrawn} ${lang}`, () => this.attacksView()],
      ["card", `${page.shownCard} ${lang}`,
        () => (page.shownCard ? cardInfo(page.shownCard, i18n) : null)],
      ["supply", `${supplyKey(game)} ${lang}`, () => supplyView(game, i18n)],
      ["mine", `${mineKey(game, page.picked.ids)} ${lang}`, () => mineView(game, i18n, page.picked.ids)],
      ["trash", `${game.trash.join(" ")} ${lang}`, () => trashView(game, i18n)],
      ["decision", any, () => (page.abandoned ? null : decisionView(page, i18n))],
    ];
  }

  draw() {
    if (this.stopped) return; // a frame asked for before the page was left draws nothing
    const started = performance.now();
    const focused = document.activeElement?.dataset?.key;
    // read before anything is drawn, the page laid out since the last frame (read after,
    // it would lay the page out in the middle of the draw)
    const logAtEnd = this.log.atEnd();
    const fresh = this.freshEvents();
    const viewer = this.page.viewer;
    const moves = this.flights.before(fresh, viewer); // where they start: read before the draw
    this.noteAttacks(fresh);
    if (this.drawn.lang !== this.i18n.lang || !this.root.contains(this.boardArea)) {
      this.drawn = {
        lang: this.i18n.lang, chat: { lines: 0, removed: 0 },
        parts: new Map(),
      };
      this.log.clear();
      fillWith(this.table, this.dispatch, this.toolbar(), this.boardArea, this.sideView(),
        this.helpView(), this.announcer, this.clockAnnouncer, this.flightLayer);
      fillWith(this.root, this.dispatch, this.table);
      document.addEventListener("keydown", this.onKey);
    }
    const before = this.drawn.parts;
    const now = new Map();
    let changed = false;
    for (const [name, key, view] of this.parts()) {
      const old = before.get(name);
      if (old && old.key === key) {
        now.set(name, old);
        continue;
      }
      // drawn over the part's last drawing: only the nodes whose data changed are touched
      const vnode = view();
      now.set(name, { key, node: vnode ? patch(old?.node ?? null, vnode, this.dispatch) : null });
      changed = true;
    }
    this.drawn.parts = now;
    if (changed) arrange(this.boardArea, [...now.values()].map((part) => part.node).filter(Boolean));
    // the cards' flights and the log's new lines on the next frame: the frame that draws
    // the board then styles, lays out and paints the board alone (issue 38: 16 ms a frame)
    requestAnimationFrame(() => this.drawAfterBoard(moves, logAtEnd));
    patchWith(this.sideControls, this.dispatch,
      this.page.abandoned ? null : resignView(this.page, this.i18n), this.report.view());
    this.drawChat();
    if (focused) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      const next = again && !again.disabled ? again
        : this.root.querySelector("#decision button:not([disabled])");
      // the bar is always in view (sticky): not scrolled to, which would lay the page out
      // in the middle of the draw
      if (next !== document.activeElement) next?.focus({ preventScroll: next !== again });
    }
    this.signal();
    this.warnClock();
    performance.measure("dominion-render", { start: started });
  }

  /** What follows a draw of the board a frame later: the moves read before it fly (to
   *  where the board now shows their cards), and the log gets its new lines. */
  drawAfterBoard(moves, logAtEnd) {
    if (this.stopped) return;
    this.flights.after(moves);
    if (this.page.game) {
      this.log.draw(this.page.log, this.i18n.seatNames(this.page.game.players.map((p) => p.name)), this.i18n, logAtEnd);
    }
  }

  /** The events come since the last draw (none after a snapshot, or on a first draw). */
  freshEvents() {
    const { log } = this.page;
    const drawn = this.drawn.log;
    this.drawn.log = { cleared: log.cleared, total: log.total };
    if (!drawn || drawn.cleared !== log.cleared) return [];
    const count = Math.min(log.total - drawn.total, log.events.length);
    return count > 0 ? log.events.slice(-count) : [];
  }

  /** The Attacks on you among these events, said through your next turn (watch.js). */
  noteAttacks(events) {
    const said = attacksSaid(this.attacks, events, this.page.viewer, this.i18n);
    if (said.notices !== this.attacks.notices) this.attacksDrawn += 1;
    this.attacks = said;
  }

  /** The Attacks on you, where you look and in a live region (drawn even when empty, so
   *  that a screen reader hears what comes into it). */
  attacksView() {
    const names = this.i18n.seatNames(this.page.game.players.map((p) => p.name));
    return h("p", { class: "attack-notice", role: "status", "aria-live": "polite" },
    this.attacks.notices.map((notice) => attackSentence(notice, names, this.i18n)).join(" "));
  }

  /** Your turn, said: the title, a beep if wanted (once per question you are newly
   *  asked), and the question once to screen readers. */
  signal() {
    const { page, i18n } = this;
    const asked = page.game?.myDecision();
    const mine = asked && !page.autoAnswered.has(asked.id) ? asked : null;
    this.retitle(mine ? `${i18n.t("your_turn")} · ${i18n.t("title")}` : i18n.t("title"));
    if ((mine?.id ?? null) === this.asked) return;
    // newly asked: after a frame that asked nothing, or in another turn (two pushes drawn
    // in one frame on a busy machine can go from your last question to your next turn's)
    const turn = page.game.turn.number;
    if (mine && this.sound && (this.asked === null || turn !== this.askedTurn)) beep();
    this.asked = mine?.id ?? null;
    this.askedTurn = turn;
    if (mine) this.announcer.textContent = `${i18n.t("your_decision")}: ${i18n.prompt(mine)}`;
  }

  /** The tab's title, set just after the frame: in it, a new title cost a few ms of
   *  its main thread, and the board is drawn sooner without it (issue 38). */
  retitle(title) {
    if (title === this.title) return;
    this.title = title;
    setTimeout(() => {
      if (!this.stopped && this.title === title) document.title = title; // (the last asked)
    });
  }

  /** Your clock under 30 s, then under 10 s, said once each to screen readers (the clock
   *  shows it too: clock.js). */
  warnClock() {
    const { clocks, viewer } = this.page;
    if (!clocks || viewer === null || this.page.game?.result) return;
    const { said, say } = clockWarning(this.clockSaid, timesLeft(clocks, performance.now())[viewer]);
    this.clockSaid = said;
    if (say) this.clockAnnouncer.textContent = this.i18n.t(say);
  }

  /** The page's switches: the log (a drawer on a phone), the sound, playing Treasures by
   *  hand (a player's), the shortcut list. */
  toolbar() {
    const t = (key) => this.i18n.t(key);
    return h("nav", { class: "toolbar", "aria-label": t("page_switches") },
      h("button", { // on a phone, the log is a drawer (the bar has this button too)
        type: "button", class: "log-toggle", "aria-controls": "side", "aria-expanded": "false",
        dataset: { key: "log-toggle-top", toggles: "log-open" }, onclick: () => this.toggle("log-open"),
      }, t("log")),
      h("button", {
        type: "button", "aria-pressed": String(this.sound), "aria-keyshortcuts": "S",
        dataset: { key: "sound" }, onclick: () => this.toggleSound(),
      }, this.soundLabel()),
      this.page.viewer === null ? null
        : byHandSwitch(this.page.treasuresByHand, this.i18n, () => this.toggleByHand()),
      h("button", {
        type: "button", "aria-expanded": "false", "aria-keyshortcuts": "?",
        dataset: { key: "help", toggles: "help-open" }, onclick: () => this.toggle("help-open"),
      }, h("span", { class: "wide" }, t("shortcuts")),
      h("span", { class: "narrow visually-hidden" }, t("shortcuts")),
      h("kbd", { "aria-hidden": "true" }, "?")));
  }

  /** "♪ Sound on your turn: off" (on a phone "♪ Sound off"). */
  soundLabel() {
    const t = (key) => this.i18n.t(key);
    return [h("span", { class: "wide" }, `♪ ${t(this.sound ? "sound_on" : "sound_off")}`),
      h("span", { class: "narrow" }, `♪ ${t(this.sound ? "sound_brief_on" : "sound_brief_off")}`)];
  }

  /** The keys' list, and the player's guide. */
  helpView() {
    const t = (key) => this.i18n.t(key);
    return h("section", { class: "shortcut-help", "aria-label": t("shortcuts") },
      h("h2", {}, t("shortcuts")),
      h("dl", {}, HELP.map(([key, words]) => [h("dt", {}, h("kbd", {}, key)), h("dd", {}, t(words))])),
      // the rules and the lobby, in a tab of their own: the game stays open
      h("p", {}, h("a", { href: GUIDE_URL, hreflang: "en", target: "_blank", rel: "noopener" },
        t("guide"))),
      h("button", {
        type: "button", dataset: { closes: "help-open" }, onclick: () => this.toggle("help-open"),
      }, t("close")));
  }

  /** The chat's lines, drawn again when a line came or a moderator removed one. */
  drawChat() {
    const { chat, chatRemoved } = this.page;
    const drawn = this.drawn.chat;
    if (drawn.lines === chat.length && drawn.removed === chatRemoved) return;
    patchWith(this.chatList, undefined, chat.map((said, at) => (said.removed
      ? h("li", { key: at, class: "removed" }, this.i18n.t("chat_removed"))
      : h("li", { key: at }, `${said.from}: ${said.text}`))));
    this.drawn.chat = { lines: chat.length, removed: chatRemoved };
  }

  /** The log and the chat: built once (and again in another language), so that a
   *  half-typed chat line survives an update. */
  sideView() {
    const t = (key) => this.i18n.t(key);
    const chat = h("form", {
      class: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        const input = event.target.elements.chat;
        const text = input.value.trim();
        if (!text) return;
        this.connection.request("chat", { game: this.id, text }).then(() => {
          input.value = "";
        }).catch((error) => this.perform(act.refused(this.page, error.message)));
      },
    }, h("input", {
      name: "chat", maxlength: this.app.server.limits.max_chat_length, "aria-label": t("say"),
    }), h("button", { type: "submit" }, t("send")));
    return h("aside", { class: "side", id: "side" },
      h("section", { class: "log", "aria-label": t("log") },
        h("button", {
          type: "button", class: "log-close", dataset: { toggles: "log-open", closes: "log-open" },
          onclick: () => this.toggle("log-open"),
        }, t("close")), h("h2", {}, t("log")), this.log.node),
      h("section", { class: "chat", "aria-label": t("chat") }, h("h2", {}, t("chat")),
        this.chatList, chat, this.sideControls));
  }
}

/** Everyone at the table goes to the rematch: a player to their new seat (its token kept
 *  like any other), a spectator to watch it. */
function followRematch({ game, seat, token }) {
  if (token) seats.set(game, seat, token);
  window.location.hash = `#/${token ? "game" : "watch"}/${game}`;
}
