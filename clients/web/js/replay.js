// A finished game's replay (docs/REPLAYS.md), stepped through event by event: forward,
// back, to an event. A complete replay shows every card, so every hand is drawn; turns are
// headed by their player's own count ("Ann's turn 12"), steps are events.

import { api } from "./api.js";
import { cardInfo, endView, playersView, supplyView, trashView, turnLine } from "./board.js";
import { describe } from "./describe.js";
import { el, fillWith, h } from "./dom.js";
import { Intent } from "./page_state.js";
import { ReplayState } from "./state.js";

export class ReplayPage {
  constructor(root, app, gameId) {
    this.root = root;
    this.app = app;
    this.i18n = app.i18n;
    this.id = gameId;
    this.replay = null;
    this.step = 0;
    this.state = null;
    this.shownCard = null;
    // a replay answers nothing: a click on a pile shows its card
    this.dispatch = (intent) => {
      if (intent.type === Intent.SHOW_CARD || intent.type === Intent.CLICK_SUPPLY) {
        this.showCard(intent.card);
      }
    };
  }

  async start() {
    this.replay = await api.replay(this.id);
    this.goTo(1);
  }

  stop() {}

  /** The board after the first `step` events (rebuilt from the start when going back). */
  goTo(step) {
    const events = this.replay.events;
    const target = Math.max(1, Math.min(step, events.length));
    if (!this.state || target < this.step) {
      this.state = new ReplayState();
      this.step = 0;
    }
    for (; this.step < target; this.step += 1) {
      this.state.applyEvent(this.step + 1, events[this.step]);
    }
    this.render();
  }

  showCard(card) {
    this.shownCard = card;
    this.render();
  }

  render() {
    const { i18n, state } = this;
    const t = (key, vars) => i18n.t(key, vars);
    const events = this.replay.events;
    const names = state.players.map((p) => p.name);
    const current = describe(events[this.step - 1], names, i18n);
    const stepInput = el("input", {
      type: "number", min: 1, max: events.length, value: this.step,
      "aria-label": t("jump_step"), name: "step",
    });
    const button = (key, label, step) => h("button", {
      type: "button", dataset: { key }, onclick: () => this.goTo(step),
    }, label);
    const controls = h("nav", { class: "replay-controls", "aria-label": t("replay") },
      button("first", `⏮ ${t("first")}`, 1),
      button("prev", `◀ ${t("prev")}`, this.step - 1),
      button("next", `${t("next")} ▶`, this.step + 1),
      button("last", `${t("last")} ⏭`, events.length),
      h("form", {
        class: "jump",
        onsubmit: (event) => {
          event.preventDefault();
          const step = Number(stepInput.value);
          if (Number.isInteger(step)) this.goTo(step);
        },
      }, stepInput, h("button", { type: "submit" }, t("go"))),
      h("span", { role: "status" }, t("step", { n: this.step, total: events.length })));
    const focused = document.activeElement?.dataset?.key;
    fillWith(this.root, this.dispatch, h("div", { class: "replay" },
      h("h2", {}, t("replay_of", { id: this.id })),
      controls,
      h("p", { class: "current-event" }, current ? current.text : ""),
      h("div", { class: "board" },
        turnLine(state, i18n),
        state.result ? endView(state, i18n, this.id, api.replayUrl) : null,
        this.shownCard ? cardInfo(this.shownCard, i18n) : null,
        supplyView(state, i18n),
        playersView(state, i18n),
        trashView(state, i18n))));
    if (focused) this.root.querySelector(`[data-key="${focused}"]`)?.focus();
  }
}
