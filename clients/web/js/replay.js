// A finished game's replay (docs/REPLAYS.md), stepped answer by answer and turn by turn:
// buttons, a turn slider and the arrow keys, or straight to an event. The board at each
// point is drawn by the game table's own functions (board.js, end.js) from a ReplayState;
// a complete replay shows every card, so every hand is drawn. Turns are headed by their
// player's own count ("Ann's turn 12").

import { api } from "./api.js";
import { cardInfo, playersView, supplyView, trashView, turnLine } from "./board.js";
import { cardTexts } from "./card.js";
import { describe } from "./describe.js";
import { h, redrawing } from "./dom.js";
import { endView } from "./end.js";
import { Intent } from "./page_state.js";
import { ReplayState } from "./state.js";

/** Where a replay stops: after the set-up and after each answer (the server's
 *  `events_by_answer`; every event when an older server leaves it out), and where each
 *  turn starts. Positions count the events applied, from 1 to `total`. */
export function replayStops(replay) {
  const total = replay.events.length;
  const byAnswer = Array.isArray(replay.events_by_answer) && replay.events_by_answer.length
    ? replay.events_by_answer : replay.events.map((_event, index) => index + 1);
  const answers = [...new Set(byAnswer.filter((n) => n >= 1 && n <= total))].sort((a, b) => a - b);
  if (!answers.length) answers.push(total);
  const turns = [answers[0]]; // the first turn starts before the first answer
  replay.events.forEach((event, index) => {
    if (event.kind === "turn_started" && index + 1 > answers[0]) turns.push(index + 1);
  });
  return { answers, turns, total };
}

/** The stop after (`direction` 1) or before (-1) `step` in a sorted list, else its end. */
export function nextStop(list, step, direction) {
  if (direction > 0) return list.find((stop) => stop > step) ?? list[list.length - 1];
  return [...list].reverse().find((stop) => stop < step) ?? list[0];
}

/** Which turn `step` is in: the index of the last turn start at or before it. */
export function turnIndex(stops, step) {
  let index = 0;
  stops.turns.forEach((start, at) => {
    if (start <= step) index = at;
  });
  return index;
}

/** The stepping buttons: their marks are characters every font has (« ‹ › », not the
 *  media symbols ⏮ ⏭, which many fonts draw as empty boxes); screen readers say the
 *  words. Back and forward step by answer, the double marks by turn. */
export function stepButtons(i18n, step, stops) {
  return [
    { key: "first", mark: "«", word: "first_turn", to: stops.answers[0] },
    { key: "prev_turn", mark: "‹‹", word: "prev_turn", to: nextStop(stops.turns, step, -1) },
    { key: "prev", mark: "‹", word: "prev_answer", to: nextStop(stops.answers, step, -1) },
    { key: "next", mark: "›", word: "next_answer", to: nextStop(stops.answers, step, 1) },
    { key: "next_turn", mark: "››", word: "next_turn", to: nextStop(stops.turns, step, 1) },
    { key: "last", mark: "»", word: "last_turn", to: stops.total },
  ].map(({ key, mark, word, to }) => {
    const label = i18n.t(word);
    const back = ["first", "prev_turn", "prev"].includes(key);
    return { key, text: back ? `${mark} ${label}` : `${label} ${mark}`, label, step: to };
  });
}

/** What the arrow keys do: an answer, with Shift a turn; Home and End. */
const KEYS = {
  ArrowLeft: (shift) => (shift ? "prev_turn" : "prev"),
  ArrowRight: (shift) => (shift ? "next_turn" : "next"),
  Home: () => "first",
  End: () => "last",
};

export class ReplayPage {
  constructor(root, app, gameId) {
    this.root = root;
    this.app = app;
    this.i18n = app.i18n;
    this.id = gameId;
    this.replay = null;
    this.seats = []; // the table's summary's: names linked and bots marked (names.js)
    this.rated = { ratings: null, rated: false }; // a rated game's changes (the summary's)
    this.stops = null;
    this.step = 0;
    this.state = null;
    this.shownCard = null;
    // a replay answers nothing: a click on a pile shows its card
    this.dispatch = (intent) => {
      if (intent.type === Intent.SHOW_CARD || intent.type === Intent.CLICK_SUPPLY) {
        this.showCard(intent.card);
      }
    };
    this.onKey = (event) => this.key(event);
    this.draw = redrawing(root, () => this.view(), this.dispatch);
  }

  async start() {
    const [replay, summary] = await Promise.all([api.replay(this.id),
      api.game(this.id).catch(() => null)]);
    this.replay = replay;
    // without the summary, the replay's own players say which seats bots played
    this.seats = summary?.seats ?? replay.players ?? [];
    this.rated = { ratings: summary?.ratings ?? null, rated: Boolean(summary?.rated) };
    this.stops = replayStops(this.replay);
    document.addEventListener("keydown", this.onKey);
    this.goTo(this.stops.answers[0]);
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
    this.draw.stop();
  }

  key(event) {
    const which = KEYS[event.key];
    const typing = event.target instanceof HTMLElement && event.target.closest("input, select");
    if (!which || typing || event.altKey || event.ctrlKey || event.metaKey || !this.state) return;
    event.preventDefault();
    const button = stepButtons(this.i18n, this.step, this.stops)
      .find((b) => b.key === which(event.shiftKey));
    this.goTo(button.step);
  }

  /** The board after the first `step` events (rebuilt from the start when going back). */
  goTo(step) {
    const events = this.replay.events;
    const target = Math.max(1, Math.min(step, events.length));
    if (!this.state || target < this.step) {
      this.state = new ReplayState();
      this.state.seats = this.seats;
      this.step = 0;
    }
    for (; this.step < target; this.step += 1) {
      this.state.applyEvent(this.step + 1, events[this.step]);
    }
    // the end as a live game's says it: why, and the points card by card (the server's)
    if (this.state.result && this.replay.ending) {
      this.state.result = { ...this.state.result, ...this.replay.ending };
    }
    this.redraw();
  }

  showCard(card) {
    this.shownCard = card;
    this.redraw();
  }

  /** The events of the latest answer (or of the set-up), as the log says them. */
  lastAnswerLines(names) {
    const from = nextStop(this.stops.answers, this.step, -1);
    const start = from < this.step ? from : 0;
    return this.replay.events.slice(start, this.step)
      .map((event) => describe(event, names, this.i18n)).filter(Boolean)
      .map((said) => h("li", { class: said.heading ? "heading" : "" }, said.text));
  }

  /** Draw the page again; a step button that the step disabled (at the start or the
   *  end) hands its focus on. */
  redraw() {
    const focused = document.activeElement?.dataset?.key;
    if (!this.draw() || !focused) return;
    const again = this.root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    const next = again && !again.disabled ? again
      : this.root.querySelector(".replay-controls button:not([disabled])");
    if (next !== document.activeElement) next?.focus();
  }

  view() {
    const { i18n, state, stops } = this;
    const t = (key, vars) => i18n.t(key, vars);
    if (!state) return h("p", {}, t("loading"));
    const events = this.replay.events;
    const names = state.players.map((p) => i18n.seatName(p.name));
    const turn = turnIndex(stops, this.step);
    const controls = h("nav", { class: "replay-controls", "aria-label": t("replay") },
      h("div", { class: "steps" }, stepButtons(i18n, this.step, stops)
        .map(({ key, text, label, step }) => h("button", {
          type: "button", dataset: { key }, "aria-label": label, title: label,
          disabled: step === this.step, onclick: () => this.goTo(step),
        }, text))),
      h("label", { class: "turn-slider" }, h("span", {}, turnText(i18n, turn, stops)),
        h("input", {
          type: "range", min: 0, max: stops.turns.length - 1, value: turn, name: "turn",
          "aria-label": t("turn_slider"), "aria-valuetext": turnText(i18n, turn, stops),
          dataset: { key: "turn-slider" },
          oninput: (event) => this.goTo(stops.turns[Number(event.target.value)]),
        })),
      h("form", {
        class: "jump",
        onsubmit: (event) => {
          event.preventDefault();
          const step = Number(event.target.elements.step.value);
          if (Number.isInteger(step)) this.goTo(step);
        },
      }, h("input", {
        type: "number", min: 1, max: events.length, value: this.step,
        "aria-label": t("jump_step"), name: "step",
      }), h("button", { type: "submit" }, t("go"))),
      h("span", { role: "status" }, t("step", { n: this.step, total: events.length })),
      h("p", { class: "keys" }, t("replay_keys")));
    return h("div", { class: "replay" },
      h("h2", {}, t("replay_of", { id: this.id })),
      controls,
      h("ul", { class: "current-event", "aria-live": "polite" }, this.lastAnswerLines(names)),
      h("div", { class: "board" },
        cardTexts(Object.keys(state.supply), i18n),
        turnLine(state, i18n),
        state.result ? endView(state, i18n, this.id, api.replayUrl, this.rated) : null,
        this.shownCard ? cardInfo(this.shownCard, i18n) : null,
        supplyView(state, i18n),
        playersView(state, i18n),
        trashView(state, i18n)));
  }
}

/** "Turn 3 of 40": the turns at the table (everyone's), the first one with the set-up. */
function turnText(i18n, index, stops) {
  return i18n.t("replay_turn", { n: index + 1, total: stops.turns.length });
}
