// The "Report" control of a game's page: a player reports another of the game, with a
// reason from the server's fixed list and a few words (docs/SERVER.md, "Moderation").
// The page keeps one ReportControl and draws its view with the seat's other controls.

import { call } from "./api.js";
import { h } from "./dom.js";

/** The server's reasons (ReportReason), in the order offered. */
export const REASONS = ["abusive_chat", "cheating", "stalling", "offensive_name", "other"];
/** The longest text a report holds (MAX_REPORT_TEXT). */
export const MAX_TEXT = 1000;

export const WORDS = {
  en: {
    report: "Report a player", player: "Player", reason: "Reason", details: "Details",
    send: "Send report", sent: "Thank you: the server's admins will read it.",
    abusive_chat: "Abusive chat", cheating: "Cheating", stalling: "Stalling",
    offensive_name: "Offensive name", other: "Other",
  },
  pl: {
    report: "Zgłoś gracza", player: "Gracz", reason: "Powód", details: "Szczegóły",
    send: "Wyślij zgłoszenie", sent: "Dziękujemy: administratorzy serwera je przeczytają.",
    abusive_chat: "Obraźliwy czat", cheating: "Oszustwo", stalling: "Przeciąganie gry",
    offensive_name: "Obraźliwa nazwa", other: "Inny",
  },
  sk: {
    report: "Nahlásiť hráča", player: "Hráč", reason: "Dôvod", details: "Podrobnosti",
    send: "Poslať hlásenie", sent: "Ďakujeme: správcovia servera si ho prečítajú.",
    abusive_chat: "Urážlivý čet", cheating: "Podvádzanie", stalling: "Zdržiavanie hry",
    offensive_name: "Urážlivé meno", other: "Iné",
  },
  lt: {
    report: "Pranešti apie žaidėją", player: "Žaidėjas", reason: "Priežastis",
    details: "Išsamiau", send: "Siųsti pranešimą",
    sent: "Ačiū: serverio administratoriai jį perskaitys.",
    abusive_chat: "Įžeidus pokalbis", cheating: "Sukčiavimas", stalling: "Žaidimo vilkinimas",
    offensive_name: "Įžeidus vardas", other: "Kita",
  },
};

/** The players one may report: every other taken seat of the table. */
export function reportable(summary, mySeat) {
  return (summary?.seats || []).filter((seat) => seat.name !== null && seat.seat !== mySeat);
}

/**
 * The control of a game's page (a spectator has none: a report is a seat's): its state is
 * what the last report came to; its view is kept until that changes, so that the page's
 * draws spare it.
 */
export class ReportControl {
  /**
   * @param {{id: string, seat: {seat: number, token: string} | null, app: object,
   *          page: {summary: object}}} game the game's page
   * @param {() => void} redraw the game page's
   * @param {(path: string, body: object) => Promise<object>} [post] how it is sent
   */
  constructor(game, redraw, post = (path, body) => call("POST", path, body)) {
    this.game = game;
    this.redraw = redraw;
    this.post = post;
    this.said = "";
    this.drawn = null; // {said, lang, vnode}: the view, kept while they are the same
  }

  say(said) {
    this.said = said;
    this.redraw();
  }

  send(form) {
    const { game } = this;
    const { elements } = form;
    const words = WORDS[game.app.i18n.lang] || WORDS.en;
    this.post(`/games/${encodeURIComponent(game.id)}/reports`, {
      token: game.seat.token, seat: Number(elements.seat.value), reason: elements.reason.value,
      text: elements.text.value.trim(),
    }).then(() => {
      elements.text.value = "";
      this.say(words.sent);
    }).catch((error) => this.say(`⚠ ${error.message}`));
  }

  /** The control (null: none yet, until another player sits at the table). */
  view() {
    const { said } = this;
    const { lang } = this.game.app.i18n;
    if (this.drawn?.said !== said || this.drawn.lang !== lang || !this.drawn.vnode) {
      this.drawn = { said, lang, vnode: reportView(this.game, said, (form) => this.send(form)) };
    }
    return this.drawn.vnode;
  }
}

/** The control: a player, a reason, a few words, and what the last report came to. */
export function reportView(game, said, send) {
  if (!game.seat) return null;
  const words = WORDS[game.app.i18n.lang] || WORDS.en;
  const others = reportable(game.page.summary, game.seat.seat);
  if (!others.length) return null;
  return h("details", { class: "report", key: "report" }, h("summary", {}, words.report),
    h("form", {
      class: "report-form",
      onsubmit: (event) => {
        event.preventDefault();
        send(event.target);
      },
    },
    h("select", { name: "seat", "aria-label": words.player },
      others.map((seat) => h("option", { value: String(seat.seat) }, seat.name))),
    h("select", { name: "reason", "aria-label": words.reason },
      REASONS.map((key) => h("option", { value: key }, words[key]))),
    h("textarea", { name: "text", maxlength: MAX_TEXT, rows: 2, "aria-label": words.details }),
    h("button", { type: "submit" }, words.send),
    h("p", { role: "status", class: "report-status" }, said)));
}
