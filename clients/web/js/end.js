// The end of a game: why it ended, the winners, each player's deck, points and turns, and
// the replay one click away. Shared by live games and replays. Pure, like board.js: it
// reads only the GameState and the words (i18n) it is given, and returns vnodes.

import { byName } from "./board.js";
import { h } from "./dom.js";

/** A deck at the end (card id -> how many): the cards that score first (Victory cards and
 *  Curses), then the most held: "3 × Province, 1 × Estate, 7 × Copper". */
function deckText(deck, i18n) {
  if (!deck) return "–";
  const scores = (card) => (i18n.cards.get(card)?.types ?? [])
    .some((type) => type === "victory" || type === "curse");
  return Object.entries(deck)
    .sort(([a, m], [b, n]) => scores(b) - scores(a) || n - m || byName(a, b, i18n))
    .map(([card, n]) => `${n} × ${i18n.card(card)}`).join(", ");
}

/** Why a finished game ended: the Provinces or three piles (four with five or more
 *  players) are gone; else everyone else resigned, which the end says of its own. */
function endedBecause(state, i18n) {
  if (state.supply.province === 0) return i18n.t("why_provinces");
  const emptied = Object.keys(state.supply).filter((card) => state.supply[card] === 0);
  if (emptied.length < 3) return null;
  return i18n.t("why_piles", { piles: emptied.map((card) => i18n.card(card)).join(", ") });
}

/** Each player's score, turns and deck at the end, the winners marked. */
function endTable(result, names, i18n) {
  const winners = result.winners || [];
  const resigned = result.resigned || [];
  const head = ["players", "score", "turns", "deck"].map((key) => h("th", {}, i18n.t(key)));
  return h("table", {},
    h("thead", {}, h("tr", {}, head, h("th", {}, ""))),
    h("tbody", {}, result.scores.map((score, seat) => h("tr", {
      class: winners.includes(seat) ? "winner" : "",
    }, h("th", { scope: "row" }, names[seat]), h("td", {}, String(score)),
    h("td", {}, String(result.turns[seat])),
    h("td", { class: "deck" }, deckText(result.decks?.[seat], i18n)),
    h("td", {}, winners.includes(seat) ? `★ ${i18n.t("winner")}`
      : resigned.includes(seat) ? i18n.t("resigned") : "")))));
}

/** The end of the game: scores, the winners and why, and the replay downloads. */
export function endView(state, i18n, gameId, replayUrl) {
  const result = state.result;
  const names = state.players.map((p) => p.name);
  const winners = result.winners || [];
  const best = Math.max(...result.scores);
  const resigned = result.resigned || [];
  const tied = result.scores.map((_score, seat) => seat).filter((seat) => result.scores[seat] === best
    && !resigned.includes(seat));
  const why = [];
  if (result.abandoned) why.push(i18n.t("abandoned"));
  else {
    why.push(endedBecause(state, i18n));
    if (winners.length > 1) why.push(i18n.t("why_shared"));
    else if (tied.length > 1) why.push(i18n.t("why_tie", { who: names[winners[0]] }));
  }
  if (resigned.length) {
    why.push(i18n.t("why_resigned", { who: resigned.map((seat) => names[seat]).join(", ") }));
  }
  const headline = result.abandoned ? "" : i18n.t(winners.length > 1 ? "winners_many" : "winners",
    { who: winners.map((s) => names[s]).join(", ") });
  return h("section", { class: "end", "aria-label": i18n.t("game_over"), id: "end" },
    h("h2", {}, i18n.t("game_over")),
    h("p", { class: "winners" }, headline),
    why.filter(Boolean).map((line) => h("p", {}, line)),
    h("div", { class: "scroll" }, endTable(result, names, i18n)),
    h("p", {}, i18n.t("download"), " ",
      ["json", "msgpack", "text"].map((format) => [h("a", {
        href: replayUrl(gameId, format), download: "",
      }, format), " "]),
      h("a", { href: `#/replay/${gameId}` }, i18n.t("replay"))));
}
