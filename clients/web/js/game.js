// A live game, as a player or a spectator: follows it over the WebSocket (resumed from the
// last event held, after a reload too), keeps the latest view (GameState), draws the board,
// and turns clicks into answers. Whatever the server refuses is said next to the decision.

import { api, seats } from "./api.js";
import {
  cardInfo, endView, mineView, playersView, supplyView, trashView, turnLine,
} from "./board.js";
import { acceptable, forcedAnswer, optionFor, picksSeveral } from "./decision.js";
import { describe } from "./describe.js";
import { fill, h } from "./dom.js";
import { Connection, ConnectionLost, ServerError, websocketUrl } from "./net.js";
import { GameState } from "./state.js";

const LOG_LINES = 400;

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
    this.state = null;
    this.summary = null;
    this.message = null;
    this.note = null;
    this.sending = null;
    this.picked = { decision: null, ids: [] };
    this.autoAnswered = new Set();
    this.shownCard = null;
    this.logEvents = []; // the last LOG_LINES events, to say again in another language
    this.logList = h("ul", { class: "log-lines" });
    this.logLang = null;
    this.chatList = h("ul", {});
    this.boardArea = h("div", { class: "board-area" });
    this.sideControls = h("div", {});
    this.confirmResign = false;
    this.connection = null;
  }

  async start() {
    this.summary = await api.game(this.id);
    this.render();
    const url = websocketUrl(window.location, this.app.server.websocket);
    this.connection = new Connection(url, (push) => this.onPush(push),
      (status, code) => this.onStatus(status, code));
    this.connection.follow(this.id, this.seat?.token, () => this.state?.seq ?? 0);
    // resumed once welcomed; if the server cannot be reached, the status line says the
    // page is reconnecting, and it resumes when it can
    await this.connection.open().catch(() => {});
  }

  stop() {
    this.connection?.stop();
  }

  onStatus(status, code) {
    const { t } = this.bound();
    if (status === "open") this.app.setStatus("");
    else if (status === "reconnecting") this.app.setStatus(t("reconnecting"));
    else if (code === 4006) this.app.setStatus(t("replaced"));
  }

  bound() {
    return { t: (key, vars) => this.i18n.t(key, vars) };
  }

  // -- pushes ------------------------------------------------------------------------

  onPush(message) {
    if (message.game !== this.id) return;
    switch (message.type) {
      case "snapshot": this.onSnapshot(message); break;
      case "update": this.onUpdate(message); break;
      case "chat": this.chatList.append(h("li", {}, `${message.from}: ${message.text}`)); break;
      case "game_over":
        if (this.state) this.state.result = message.result;
        seats.forget(this.id);
        break;
      case "resume_failed":
        this.message = this.i18n.t("refused", { message: message.error.message });
        break;
      default: return;
    }
    this.render();
  }

  onSnapshot(message) {
    this.state = new GameState(this.seat ? this.seat.seat : null);
    this.state.applySnapshot(message.seq, message.view);
    this.logEvents = [];
    this.logList.replaceChildren();
    this.afterChange();
  }

  onUpdate(message) {
    const state = this.state ?? new GameState(this.seat ? this.seat.seat : null);
    this.state = state;
    const first = message.seq - message.events.length + 1;
    if (first > state.seq + 1) { // missed events (the log's): ask again from what we hold
      this.connection.resume(this.id, { token: this.seat?.token, lastSeq: () => state.seq });
      return;
    }
    for (const [, event] of state.applyUpdate(message.seq, message.events, message.decision,
      message.view)) {
      this.log(event);
    }
    this.afterChange();
  }

  /** Add an event to the running log (appended: the log is never drawn again whole). */
  log(event) {
    this.logEvents.push(event);
    this.logList.append(...this.logLines([event]));
    if (this.logEvents.length > LOG_LINES) {
      this.logEvents.shift();
      this.logList.firstChild?.remove();
    }
  }

  logLines(events) {
    const names = this.state.players.map((p) => p.name);
    return events.map((event) => {
      const line = describe(event, names, this.i18n);
      return h("li", { class: line?.heading ? "heading" : "", hidden: !line }, line?.text ?? "");
    });
  }

  afterChange() {
    const decision = this.state.decision;
    this.sending = null;
    if (this.picked.decision !== decision?.id) this.picked = { decision: decision?.id, ids: [] };
    const mine = this.state.myDecision();
    if (!mine || this.autoAnswered.has(mine.id)) return;
    const forced = forcedAnswer(mine);
    if (forced) {
      this.autoAnswered.add(mine.id);
      const what = forced.map((id) => this.optionLabel(mine, mine.options[id])).join(", ");
      this.note = this.i18n.t("answered_forced", { what: what || this.i18n.t("none") });
      this.send(forced);
    }
  }

  // -- answering -----------------------------------------------------------------------

  send(ids) {
    const decision = this.state.myDecision();
    if (!decision || this.sending === decision.id) return;
    this.sending = decision.id;
    this.message = null;
    this.connection.request("answer", { game: this.id, decision: decision.id, options: ids })
      .catch((error) => {
        if (this.sending === decision.id) this.sending = null;
        if (error instanceof ServerError) {
          this.message = this.i18n.t("refused", { message: error.message });
        } else if (!(error instanceof ConnectionLost)) {
          this.message = String(error);
        }
        this.render();
      });
    this.render();
  }

  choose(option) {
    const decision = this.state.myDecision();
    if (!picksSeveral(decision)) {
      this.send([option.id]);
      return;
    }
    const ids = this.picked.ids;
    const at = ids.indexOf(option.id);
    if (at >= 0) ids.splice(at, 1);
    else if (ids.length < decision.max) ids.push(option.id);
    this.render();
  }

  refuse(text) {
    this.message = text;
    this.render();
  }

  buyOption(card) {
    return optionFor(this.state?.myDecision(), "buy", card);
  }

  playOption(card) {
    return optionFor(this.state?.myDecision(), "play", card);
  }

  clickSupply(card) {
    const decision = this.state.myDecision();
    if (!decision) {
      if (this.seat) this.refuse(this.i18n.t("not_your_turn"));
      else this.showCard(card);
      return;
    }
    const option = this.buyOption(card) ?? optionFor(decision, "card", card);
    if (option && (option.kind === "buy" || decision.kind === "gain")) {
      this.choose(option);
      return;
    }
    this.refuse(this.i18n.t("cannot_buy", {
      card: this.i18n.card(card), cost: this.i18n.cost(card), coins: this.state.turn.coins,
    }));
  }

  clickHand(card) {
    const decision = this.state.myDecision();
    if (!decision) {
      this.refuse(this.i18n.t("not_your_turn"));
      return;
    }
    const play = this.playOption(card);
    if (play) {
      this.choose(play);
      return;
    }
    const free = decision.options.find((o) => o.kind === "card" && o.card === card
      && !this.picked.ids.includes(o.id));
    if (free && decision.kind !== "gain") {
      this.choose(free);
      return;
    }
    this.refuse(this.i18n.t("cannot_play", { card: this.i18n.card(card) }));
  }

  showCard(card) {
    this.shownCard = card;
    this.render();
  }

  optionLabel(decision, option) {
    const { i18n } = this;
    const card = i18n.card(option.card);
    switch (option.kind) {
      case "play": return i18n.t("play_x", { card });
      case "buy": return `${i18n.t("buy_x", { card })} ($${i18n.cost(option.card) ?? "?"})`;
      case "play_all_treasures": return i18n.t("play_all");
      case "end_phase":
        return i18n.t(decision.kind === "play_action" ? "end_actions"
          : decision.kind === "buy" ? "end_turn" : "end_phase");
      case "yes": return i18n.t("yes");
      case "no": return i18n.t("no");
      case "trash": return `${i18n.t("trash_it")}: ${card}`;
      case "discard": return `${i18n.t("discard_it")}: ${card}`;
      case "keep": return `${i18n.t("keep_it")}: ${card}`;
      case "card": return card;
      default: return option.card ? `${option.kind}: ${card}` : option.kind;
    }
  }

  // -- drawing -------------------------------------------------------------------------

  decisionView() {
    const { i18n, state } = this;
    const { t } = this.bound();
    const parts = [];
    const decision = state.decision;
    const asked = state.myDecision();
    const mine = asked && !this.autoAnswered.has(asked.id) ? asked : null;
    if (mine) {
      parts.push(h("h2", {}, t("your_decision")));
      parts.push(h("p", { class: "prompt" }, i18n.prompt(mine),
        mine.source ? ` (${i18n.card(mine.source)})` : ""));
      const several = picksSeveral(mine);
      if (several) {
        parts.push(h("p", {}, mine.ordered ? t("choose_order") : t("choose_n", {
          range: mine.min === mine.max ? mine.min : `${mine.min}–${mine.max}`,
        })));
      }
      const busy = this.sending === mine.id;
      parts.push(h("div", { class: "options", role: "group", "aria-label": t("your_decision") },
        mine.options.map((option) => {
          const at = this.picked.ids.indexOf(option.id);
          const mark = at < 0 ? "" : mine.ordered ? ` ${t("order_n", { n: at + 1 })}` : " ✓";
          return h("button", {
            type: "button", class: `option${at >= 0 ? " picked" : ""}`, disabled: busy,
            "aria-pressed": several ? String(at >= 0) : undefined,
            dataset: { key: `option:${option.id}`, kind: option.kind, card: option.card ?? "" },
            onclick: () => this.choose(option),
          }, this.optionLabel(mine, option), mark);
        })));
      if (several) {
        const ids = this.picked.ids;
        parts.push(h("div", { class: "confirm" },
          h("button", {
            type: "button", class: "primary", disabled: busy || !acceptable(mine, ids),
            dataset: { key: "confirm" }, onclick: () => this.send([...ids]),
          }, t("confirm")),
          mine.min === 0 ? h("button", {
            type: "button", disabled: busy, dataset: { key: "none" }, onclick: () => this.send([]),
          }, t("choose_none")) : null));
      }
    } else if (decision) {
      const who = state.players[decision.player]?.name ?? "?";
      parts.push(h("p", {}, t("waiting_for", { who, kind: i18n.kind(decision.kind) })));
    }
    if (this.note) parts.push(h("p", { class: "note" }, this.note));
    if (this.message) parts.push(h("p", { class: "refused", role: "alert" }, "⚠ ", this.message));
    if (!this.seat) parts.push(h("p", { class: "note" }, t("spectating")));
    if (!parts.length && state.result) return null;
    return h("section", {
      class: "decision", id: "decision", "aria-live": "polite",
      dataset: { decision: decision ? String(decision.id) : "", mine: mine ? "yes" : "no" },
    }, parts);
  }

  waitingView() {
    const { t } = this.bound();
    const summary = this.summary;
    const taken = summary.seats.filter((s) => s.name);
    const link = `${window.location.origin}/#/game/${this.id}`;
    return h("section", { class: "waiting" },
      h("h2", {}, t("table", { id: this.id })),
      h("p", {}, t("waiting", { taken: taken.length, seats: summary.seats.length })),
      h("p", {}, t("seats_taken", { names: taken.map((s) => s.name).join(", ") })),
      h("label", {}, t("share"), " ", h("input", { readonly: true, value: link, size: 50 })));
  }

  /** The log and the chat: built once (and again in another language), so that a long log
   *  is not drawn again on every update and a half-typed chat line survives one. */
  sideView() {
    const { t } = this.bound();
    this.logLang = this.i18n.lang;
    if (this.state) this.logList.replaceChildren(...this.logLines(this.logEvents));
    const input = h("input", {
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
        }).catch((error) => this.refuse(this.i18n.t("refused", { message: error.message })));
      },
    }, input, h("button", { type: "submit" }, t("send")));
    return h("aside", { class: "side" },
      h("section", { class: "log", "aria-label": t("log") }, h("h2", {}, t("log")), this.logList),
      h("section", { class: "chat", "aria-label": t("chat") }, h("h2", {}, t("chat")),
        this.chatList, chat, this.sideControls));
  }

  resignView() {
    const { t } = this.bound();
    if (!this.confirmResign) {
      return h("p", {}, h("button", {
        type: "button", dataset: { key: "resign" },
        onclick: () => { this.confirmResign = true; this.render(); },
      }, t("resign")));
    }
    return h("p", {}, h("button", {
      type: "button", class: "danger", dataset: { key: "resign-sure" },
      onclick: () => {
        this.confirmResign = false;
        this.connection.request("resign", { game: this.id })
          .catch((error) => this.refuse(t("refused", { message: error.message })));
      },
    }, t("resign_sure")));
  }

  render() {
    const started = performance.now();
    const focused = document.activeElement?.dataset?.key;
    const state = this.state;
    const ui = this;
    let main;
    if (!state) {
      main = this.summary ? this.waitingView() : h("p", {}, this.i18n.t("loading"));
    } else {
      main = h("div", { class: "board" },
        turnLine(state, ui),
        state.result ? endView(state, ui, this.id, api.replayUrl) : null,
        this.decisionView(),
        this.shownCard ? cardInfo(this.shownCard, ui) : null,
        mineView(state, ui),
        supplyView(state, ui),
        playersView(state, ui),
        trashView(state, ui));
    }
    if (this.logLang !== this.i18n.lang || !this.root.contains(this.boardArea)) {
      fill(this.root, h("div", { class: "game" }, this.boardArea, this.sideView()));
    }
    fill(this.boardArea, main);
    const playing = this.seat && state && !state.result && !state.players[this.seat.seat]?.resigned;
    fill(this.sideControls, playing ? this.resignView() : null);
    this.logList.scrollTop = this.logList.scrollHeight; // (this lays the page out: measured)
    if (focused) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      (again && !again.disabled ? again : this.root.querySelector("#decision button:not([disabled])"))
        ?.focus();
    }
    performance.measure("dominion-render", { start: started });
  }
}
