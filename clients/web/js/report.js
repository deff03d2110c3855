// The "Report" control of a game's page: a player reports another of the game, with a
// reason from the server's fixed list and a few words (docs/SERVER.md, "Moderation").
// One function draws it; the page calls it once, where the table has room for it.

import { call } from "./api.js";
import { el, h } from "./dom.js";

/** The server's reasons (ReportReason), in the order offered. */
export const REASONS = ["abusive_chat", "cheating", "stalling", "offensive_name", "other"];
/** The longest text a report holds (MAX_REPORT_TEXT). */
export const MAX_TEXT = 1000;

const WORDS = {
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
};

/** The players one may report: every other taken seat of the table. */
export function reportable(summary, mySeat) {
  return (summary?.seats || []).filter((seat) => seat.name !== null && seat.seat !== mySeat);
}

/**
 * The control for a game's page (a spectator has none: a report is a seat's).
 * @param {{id: string, seat: {seat: number, token: string} | null, app: object,
 *          page: {summary: object}}} game the game's page
 * @param {(path: string, body: object) => Promise<object>} [post] how it is sent
 */
export function reportControl(game, post = (path, body) => call("POST", path, body)) {
  if (!game.seat) return null;
  const words = WORDS[game.app.i18n.lang] || WORDS.en;
  const others = reportable(game.page.summary, game.seat.seat);
  if (!others.length) return null;
  const said = el("p", { role: "status", class: "report-status" });
  const player = el("select", { name: "seat", "aria-label": words.player },
    ...others.map((seat) => h("option", { value: String(seat.seat) }, seat.name)));
  const reason = el("select", { name: "reason", "aria-label": words.reason },
    ...REASONS.map((key) => h("option", { value: key }, words[key])));
  const text = el("textarea", { name: "text", maxlength: MAX_TEXT, rows: 2,
    "aria-label": words.details });
  const form = el("form", {
    class: "report-form",
    onsubmit: (event) => {
      event.preventDefault();
      post(`/games/${encodeURIComponent(game.id)}/reports`, {
        token: game.seat.token, seat: Number(player.value), reason: reason.value,
        text: text.value.trim(),
      }).then(() => {
        said.textContent = words.sent;
        text.value = "";
      }).catch((error) => {
        said.textContent = `⚠ ${error.message}`;
      });
    },
  }, player, reason, text, h("button", { type: "submit" }, words.send), said);
  return el("details", { class: "report" }, h("summary", {}, words.report), form);
}
