// A game of the lobby's lists as one compact row: its players (with their ratings at a
// rated table), its Kingdom (the set's name and its cards by cost, cut to the row's width),
// its state at a glance (seats taken, the turn, or the winner), and what to do with it.
// Pure: vnodes.

import { h } from "./dom.js";
import { byCost } from "./kingdom_picker.js";
import { nameList } from "./names.js";
import { timeControlText } from "./time_control.js";

/** "Clock 10+5" for a table with a time control; nothing for one without. */
export function controlOf(game, i18n) {
  return game.time_control
    ? i18n.t("time_control_of", { control: timeControlText(game.time_control) }) : "";
}

/** "First Game: Cellar, Moat, …": the Kingdom's name, if a recommended set, and its cards
 *  by cost. */
export function kingdomLine(game, i18n) {
  const cost = (card) => i18n.cards.get(card)?.cost ?? 0;
  const cards = byCost(game.kingdom ?? [], cost).map((card) => i18n.card(card)).join(", ");
  const name = i18n.kingdomName(game.kingdom_name);
  return name ? `${name}: ${cards}` : cards;
}

/** What the game is at: seats taken (open), the turn (playing), the winners (over). */
export function stateLine(game, i18n) {
  const t = (key, vars) => i18n.t(key, vars);
  const taken = game.seats.filter((seat) => seat.name);
  const winners = game.result?.winners ?? [];
  const parts = [`${t("edition")} ${game.edition}`, controlOf(game, i18n)];
  if (game.state === "open") {
    parts.push(t("seat_of", { taken: taken.length, seats: game.seats.length }));
  } else if (winners.length) {
    parts.push(t(winners.length > 1 ? "winners_many" : "winners",
      { who: winners.map((seat) => i18n.seatNames(game.seats.map((s) => s.name))[seat]).join(", ") }));
  } else if (game.turn) parts.push(t("turns_played", { n: game.turn }));
  return parts.filter(Boolean).join(" · ");
}

/** One game's row: players, Kingdom and state on lines of their own; `action` beside. */
export function gameRow(game, i18n, action) {
  const taken = game.seats.filter((seat) => seat.name);
  return h("li", { class: "game-row", key: game.id, dataset: { game: game.id } },
    h("div", { class: "row-text" },
      h("span", { class: "row-players" }, taken.length ? nameList(taken, i18n) : "–"),
      h("span", { class: "row-kingdom" }, kingdomLine(game, i18n)),
      h("span", { class: "row-state" }, h("span", { class: "game-id" }, game.id), " · ",
        stateLine(game, i18n))),
    action);
}
