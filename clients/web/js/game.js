// A live game, as a player or a spectator: follows it over the WebSocket (resumed from the
// last event held, after a reload too), keeps everything it shows in one PageState
// (page_state.js) that only the protocol's messages and a person's intents change, and
// draws from it at most once per animation frame (docs/CLIENTS.md, "The page's state and
// the board"). Whatever the server refuses is said next to the decision.

import { api, seats } from "./api.js";
import {
  cardInfo, endView, mineView, playersView, supplyView, trashView, turnLine,
} from "./board.js";
import { decisionView, resignView, waitingView } from "./controls.js";
import { describe } from "./describe.js";
import { el, fillWith, h, mount, oncePerFrame } from "./dom.js";
import { Connection, ConnectionLost, ServerError, websocketUrl } from "./net.js";
import * as act from "./page_state.js";
import { reportControl } from "./report.js";

const { Effect, LOG_LINES } = act;

/** The protocol's messages, and the action each one is. */
const ON_MESSAGE = {
  snapshot: act.snapshot,
  update: act.update,
  chat: act.chat,
  game_over: act.gameOver,
  resume_failed: act.resumeFailed,
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
    this.connection = null;
    this.dispatch = (intent) => this.perform(act.intend(this.page, intent));
    this.render = oncePerFrame(() => this.draw(), (draw) => requestAnimationFrame(draw));
    // what was drawn: the DOM the page keeps, and what each part was drawn from
    this.boardArea = el("div", { class: "board-area" });
    this.logList = el("ul", { class: "log-lines" });
    this.chatList = el("ul", {});
    this.sideControls = el("div", {});
    this.drawn = { lang: null }; // what each part was drawn from: set by the first draw
  }

  get state() {
    return this.page.game;
  }

  async start() {
    this.perform(act.loaded(this.page, await api.game(this.id)));
    const url = websocketUrl(window.location, this.app.server.websocket);
    this.connection = new Connection(url, (push) => this.onPush(push),
      (status, code) => this.onStatus(status, code));
    this.connection.follow(this.id, this.seat?.token, () => this.page.game?.seq ?? 0);
    // resumed once welcomed; if the server cannot be reached, the status line says the
    // page is reconnecting, and it resumes when it can
    await this.connection.open().catch(() => {});
  }

  stop() {
    this.connection?.stop();
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
    this.perform(action(this.page, message));
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
        default: break;
      }
    }
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
    return [
      ["turn", seen, () => turnLine(game, i18n)],
      ["end", seen, () => (game.result ? endView(game, i18n, this.id, api.replayUrl) : null)],
      ["decision", any, () => decisionView(page, i18n)],
      ["card", `${page.shownCard} ${lang}`,
        () => (page.shownCard ? cardInfo(page.shownCard, i18n) : null)],
      ["mine", seen, () => mineView(game, i18n)],
      ["supply", seen, () => supplyView(game, i18n)],
      ["players", seen, () => playersView(game, i18n)],
      ["trash", seen, () => trashView(game, i18n)],
    ];
  }

  draw() {
    const started = performance.now();
    const focused = document.activeElement?.dataset?.key;
    if (this.drawn.lang !== this.i18n.lang || !this.root.contains(this.boardArea)) {
      this.drawn = {
        lang: this.i18n.lang, log: { cleared: -1, total: 0 }, chat: 0, parts: new Map(),
      };
      fillWith(this.root, this.dispatch,
        h("div", { class: "game" }, this.boardArea, this.sideView()));
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
      const vnode = view();
      now.set(name, { key, node: vnode ? mount(vnode, this.dispatch) : null });
      changed = true;
    }
    this.drawn.parts = now;
    if (changed) {
      this.boardArea.replaceChildren(...[...now.values()].map((part) => part.node).filter(Boolean));
    }
    fillWith(this.sideControls, this.dispatch, resignView(this.page, this.i18n));
    this.drawLog();
    this.drawChat();
    if (focused) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      const next = again && !again.disabled ? again
        : this.root.querySelector("#decision button:not([disabled])");
      if (next !== document.activeElement) next?.focus();
    }
    performance.measure("dominion-render", { start: started });
  }

  /** The log is appended to (a long log is not drawn again on every update); drawn whole
   *  after a snapshot or in another language. */
  drawLog() {
    const { log, game } = this.page;
    const drawn = this.drawn.log;
    if (!game) return;
    const names = game.players.map((p) => p.name);
    const line = (event) => {
      const said = describe(event, names, this.i18n);
      return el("li", { class: said?.heading ? "heading" : "", hidden: !said }, said?.text ?? "");
    };
    const fresh = drawn.cleared === log.cleared ? log.total - drawn.total : log.events.length;
    if (drawn.cleared !== log.cleared) this.logList.replaceChildren();
    if (fresh > 0) {
      this.logList.append(...log.events.slice(-Math.min(fresh, log.events.length)).map(line));
      while (this.logList.childElementCount > LOG_LINES) this.logList.firstChild.remove();
      this.logList.scrollTop = this.logList.scrollHeight; // (this lays the page out: measured)
    }
    this.drawn.log = { cleared: log.cleared, total: log.total };
  }

  drawChat() {
    const lines = this.page.chat;
    this.chatList.append(...lines.slice(this.drawn.chat)
      .map((line) => el("li", {}, `${line.from}: ${line.text}`)));
    this.drawn.chat = lines.length;
  }

  /** The log and the chat: built once (and again in another language), so that a
   *  half-typed chat line survives an update. */
  sideView() {
    const t = (key) => this.i18n.t(key);
    const input = el("input", {
      name: "chat", maxlength: this.app.server.limits.max_chat_length, "aria-label": t("say"),
    });
    const chat = h("form", {
      class: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        this.connection.request("chat", { game: this.id, text }).then(() => {
          input.value = "";
        }).catch((error) => this.perform(act.refused(this.page, error.message)));
      },
    }, input, h("button", { type: "submit" }, t("send")));
    this.chatList.replaceChildren();
    return h("aside", { class: "side" },
      h("section", { class: "log", "aria-label": t("log") }, h("h2", {}, t("log")), this.logList),
      h("section", { class: "chat", "aria-label": t("chat") }, h("h2", {}, t("chat")),
        this.chatList, chat, this.sideControls, reportControl(this)));
  }
}
