// A finished game's replay (docs/REPLAYS.md), stepped through event by event: forward,
// back, to an event. A complete replay shows every card, so every hand is drawn; turns are
// headed by their player's own count ("Ann's turn 12"), steps are events.

import { api } from "./api.js";
import { cardInfo, playersView, supplyView, trashView, turnLine } from "./board.js";
import { describe } from "./describe.js";
import { el, fillWith, h } from "./dom.js";
import { endView } from "./end.js";
import { Intent } from "./page_state.js";
import { ReplayState } from "./state.js";

/** The stepping buttons: their marks are characters every font has (« ‹ › », not the
 *  media symbols, which many fonts draw as empty boxes); screen readers say the words. */
export function stepButtons(i18n, step, total) {
  return [
    { key: "first", mark: "«", step: 1 },
    { key: "prev", mark: "‹", step: step - 1 },
    { key: "next", mark: "›", step: step + 1 },
    { key: "last", mark: "»", step: total },
  ].map(({ key, mark, step: to }) => {
    const label = i18n.t(key);
    const text = key === "first" || key === "prev" ? `${mark} ${label}` : `${label} ${mark}`;
    return { key, text, label, step: to };
  });
}

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
    const controls = h("nav", { class: "replay-controls", "aria-label": t("replay") },
      stepButtons(i18n, this.step, events.length).map(({ key, text, label, step }) => h("button", {
        type: "button", dataset: { key }, "aria-label": label, onclick: () => this.goTo(step),
      }, text)),
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
