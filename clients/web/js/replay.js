// A finished game's replay (docs/REPLAYS.md), stepped answer by answer and turn by turn:
// buttons, a turn slider and the arrow keys, or straight to an event. The board at each
// point is drawn by the game table's own functions (board.js, end.js) from a ReplayState;
// a complete replay shows every card, so every hand is drawn. Turns are headed by their
// player's own count ("Ann's turn 12"), on the board as in the controls. The page is titled
// by its players, date and result ("Ann vs Bob · 2 Dec 2026 · Ann won").

import { api } from "./api.js";
import { cardInfo, playersView, supplyView, trashView, turnLine } from "./board.js";
import { cardTexts } from "./card.js";
import { describe, turnTitle } from "./describe.js";
import { h, redrawing } from "./dom.js";
import { endView } from "./end.js";
import { addWords } from "./i18n.js";
import { Intent } from "./page_state.js";
import { REPLAY_WORDS } from "./replay_words.js";
import { ReplayState } from "./state.js";

addWords(REPLAY_WORDS);

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
    return { key, mark, back, text: back ? `${mark} ${label}` : `${label} ${mark}`, label,
      step: to };
  });
}

/** "Ann's turn 4": the turn the board shows, counted as its player counts it (the
 *  view's `turn.player_turn`), not the table's turns together; "Set-up" before the first. */
export function turnText(state, i18n) {
  const { player, player_turn: number } = state.turn;
  if (!number) return i18n.t("replay_setup");
  return turnTitle(i18n, i18n.seatNames(state.players.map((p) => p.name)), player, number);
}

/** "Ann vs Bob · 2 Dec 2026 · Ann won": the replay's players, the day it ended (else
 *  began) and its result, from the table's summary when there is one, else the replay. */
export function replayTitle(replay, summary, i18n) {
  const t = (key, vars) => i18n.t(key, vars);
  const seats = summary?.seats ?? replay.players ?? [];
  const names = i18n.seatNames(seats.map((seat) => seat.name)).map((name) => name ?? "–");
  if (!names.length) return t("replay_of", { id: replay.game?.id ?? "" });
  const players = names.join(t("replay_versus"));
  const when = summary?.finished_at ?? summary?.started_at ?? replay.game?.finished_at
    ?? replay.game?.created_at;
  const date = when ? dayOf(when, i18n.lang) : "";
  const result = resultText(summary?.result ?? replay.result, summary?.state, names, i18n);
  return result ? t("replay_title", { players, date, result })
    : t("replay_title_unended", { players, date });
}

/** "2 Dec 2026", "2 gru 2026", "2. 12. 2026": the day (UTC, as the server stores it) in the page's
 *  language. */
function dayOf(timestamp, lang) {
  const locale = lang === "en" ? "en-GB" : lang;
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric",
    timeZone: "UTC" }).format(new Date(timestamp));
}

/** Who won ("Ann won", "Ann and Bob shared the win"), "abandoned", or null (no result). */
function resultText(result, state, names, i18n) {
  if (state === "abandoned" || result?.abandoned) return i18n.t("replay_abandoned");
  const winners = (result?.winners ?? []).map((seat) => names[seat] ?? `#${seat}`);
  if (!winners.length) return null;
  const who = winners.join(", ");
  return i18n.t(winners.length > 1 ? "replay_shared" : "replay_won", { who });
}

/** The controls: the step buttons (a mark, and a word a narrow screen hides: the button's
 *  name says it), the turn slider headed by whose turn it is, the event to go to, the step
 *  shown, and the keys (hidden on touch screens). `goTo(step)` moves the replay. */
export function replayControls(i18n, { state, stops, step, total }, goTo) {
  const t = (key, vars) => i18n.t(key, vars);
  const turn = turnIndex(stops, step);
  const whose = turnText(state, i18n);
  return h("nav", { class: "replay-controls", "aria-label": t("replay") },
    h("div", { class: "steps" }, stepButtons(i18n, step, stops)
      .map(({ key, mark, back, label, step: to }) => {
        const word = h("span", { class: "word" }, label);
        const shown = h("span", { class: "mark", "aria-hidden": "true" }, mark);
        return h("button", {
          type: "button", dataset: { key }, "aria-label": label, title: label,
          disabled: to === step, onclick: () => goTo(to),
        }, back ? [shown, " ", word] : [word, " ", shown]);
      })),
    h("label", { class: "turn-slider" }, h("span", { class: "turn-now" }, whose),
      h("input", {
        type: "range", min: 0, max: stops.turns.length - 1, value: turn, name: "turn",
        "aria-label": t("turn_slider"), "aria-valuetext": whose,
        dataset: { key: "turn-slider" },
        oninput: (event) => goTo(stops.turns[Number(event.target.value)]),
      })),
    h("form", {
      class: "jump",
      onsubmit: (event) => {
        event.preventDefault();
        const to = Number(event.target.elements.step.value);
        if (Number.isInteger(to)) goTo(to);
      },
    }, h("input", {
      type: "number", min: 1, max: total, value: step, "aria-label": t("jump_step"),
      name: "step",
    }), h("button", { type: "submit" }, t("go"))),
    h("span", { role: "status" }, t("step", { n: step, total })),
    h("p", { class: "keys" }, t("replay_keys")));
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
    this.summary = null; // the table's summary (GET /games/ID), when the server gave it
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
    this.summary = summary;
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
    if (!state) return h("p", {}, i18n.t("loading"));
    const names = i18n.seatNames(state.players.map((p) => p.name));
    const title = replayTitle(this.replay, this.summary, i18n);
    document.title = `${title} · ${i18n.t("title")}`;
    return h("div", { class: "replay" },
      h("h1", {}, title),
      replayControls(i18n, { state, stops, step: this.step, total: this.replay.events.length },
        (step) => this.goTo(step)),
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
