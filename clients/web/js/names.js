// A player's name wherever a page shows one (the table, the end, the lobby, a replay, a
// profile): linked to their profile when an account holds the seat, and marked "BOT"
// when a program sits there (an in-server bot from the start, or a bot account); never a
// person's seat that a bot played on, which the lists say instead ("resigned", "left").
// The seat is the REST game summary's (`name`, `account`, `bot`, `bot_account`, `left`:
// docs/SERVER.md). Pure: vnodes.

import { h } from "./dom.js";
import { profileUrl } from "./routes.js";

/** Whether a program plays the seat. */
export function isBot(seat) {
  return Boolean(seat?.bot || seat?.bot_account);
}

/** The visible "BOT" mark; screen readers hear its name ("bot", or the strategy's). */
export function botMark(seat, i18n) {
  const name = seat.bot ? i18n.strategy(seat.bot) : i18n.t("bot_mark_name");
  return h("span", { class: "bot-mark", role: "img", "aria-label": name, title: name },
    i18n.t("bot_mark"));
}

/** A rating as shown beside a name: "1523", "1523?" while provisional (the "?" said in
 *  words to a screen reader). */
export function shownRating({ rating, provisional }, i18n) {
  return [String(rating), provisional ? [h("span", { "aria-hidden": "true" }, "?"),
    h("span", { class: "visually-hidden" }, ` ${i18n.t("provisional_words")}`)] : null];
}

/** A seat's name: a link to the profile for an account's, with the mark for a bot's, and
 *  at a rated table the account's rating as it sat down (the seat's `rating`); `table`:
 *  the names of the table's seats (two bots of a level are told apart: `seatName`). */
export function playerName(seat, i18n, table = []) {
  if (!seat?.name) return "–";
  const name = seat.account ? h("a", { class: "player", href: profileUrl(seat.name) }, seat.name)
    : i18n.seatName(seat.name, table);
  if (!isBot(seat) && !seat.rating) return name;
  return h("span", { class: "player-name" }, name,
    isBot(seat) && [" ", botMark(seat, i18n)],
    seat.rating && [" ", h("span", { class: "seat-rating" }, shownRating(seat.rating, i18n))]);
}

const LEFT_WORDS = { resigned: "resigned", taken_over: "seat_left" };

/** Why a bot played on for the person in the seat (its `left`), or null. */
export function leftMark(seat, i18n) {
  const word = LEFT_WORDS[seat?.left];
  return word ? h("span", { class: "left-mark" }, ` (${i18n.t(word)})`) : null;
}

/** Names separated by commas, each said to have left if its player did. */
export function nameList(gameSeats, i18n) {
  const table = gameSeats.map((seat) => seat.name);
  return gameSeats.flatMap((seat, i) => {
    const left = leftMark(seat, i18n);
    return [...(i ? [", "] : []), playerName(seat, i18n, table), ...(left ? [left] : [])];
  });
}
