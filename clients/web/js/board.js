// Drawing a game's board from a GameState: the Supply, your cards, the other players, the
// trash (the end of the game is end.js). Shared by live games and replays. Every state is said
// in words or marks as well as colour. Pure: each function reads only the GameState and
// the words (i18n) it is given, and returns vnodes (dom.js) whose clicks are intents.

import { optionFor } from "./decision.js";
import { turnTitle } from "./describe.js";
import { h } from "./dom.js";
import { Intent } from "./page_state.js";

/** A card's name, with its text on hover (`title`) and a button that shows the text. */
function cardInfoButton(card, i18n) {
  return h("button", {
    type: "button", class: "info", "aria-label": i18n.t("info", { card: i18n.card(card) }),
    title: i18n.cardText(card), onclick: { type: Intent.SHOW_CARD, card },
  }, "?");
}

export function supplyView(state, i18n) {
  // the base piles in the server's order, then the Kingdom by cost (the catalogue's)
  const kingdom = Object.keys(state.supply).filter((c) => state.kingdom.includes(c))
    .sort((a, b) => (i18n.cost(a) ?? 0) - (i18n.cost(b) ?? 0) || i18n.card(a).localeCompare(i18n.card(b)));
  const base = Object.keys(state.supply).filter((c) => !state.kingdom.includes(c));
  const pile = (card) => {
    const left = state.supply[card];
    const buy = optionFor(state.myDecision(), "buy", card);
    return h("li", { class: `pile${buy ? " can-buy" : ""}${left ? "" : " empty"}` },
      h("button", {
        type: "button", class: "card-button", title: i18n.cardText(card),
        dataset: { key: `supply:${card}`, card },
        "aria-label": `${i18n.card(card)}, ${i18n.t("cost")} ${i18n.cost(card) ?? "?"}, `
          + `${i18n.t("left")} ${left}${buy ? `, ${i18n.t("buy_x", { card: "" }).trim()}` : ""}`,
        onclick: { type: Intent.CLICK_SUPPLY, card },
      },
      h("span", { class: "cost" }, `$${i18n.cost(card) ?? "?"}`),
      h("span", { class: "name" }, i18n.card(card)),
      h("span", { class: "left" }, left ? `×${left}` : i18n.t("empty")),
      buy ? h("span", { class: "mark" }, " ✓") : null),
      cardInfoButton(card, i18n));
  };
  return h("section", { class: "supply", "aria-label": i18n.t("supply") },
    h("h2", {}, i18n.t("supply")),
    h("ul", { class: "piles base" }, base.map(pile)),
    h("ul", { class: "piles kingdom" }, kingdom.map(pile)));
}

function cardList(cards, i18n) {
  return cards.length ? i18n.many(cards) : i18n.t("none");
}

/** "Ann's turn 12 (you) · Buy phase · Actions 0 · Buys 1 · Coins 5": the turn named by
 *  its player's own count; the counters as the server sent them (a replay has none). */
export function turnLine(state, i18n) {
  const turn = state.turn;
  const names = state.players.map((p) => p.name);
  const mine = turn.player === state.viewer ? ` (${i18n.t("you")})` : "";
  const counted = Number.isInteger(turn.coins) && !state.result; // no counters at the end
  return h("p", { class: "turn-line" },
    h("strong", {}, turnTitle(i18n, names, turn.player, turn.player_turn), mine), " · ",
    i18n.t(`phase_${turn.phase}`),
    counted ? [" · ", `${i18n.t("actions")} ${turn.actions} · ${i18n.t("buys")} ${turn.buys} · `,
      h("span", { class: "coins" }, `${i18n.t("coins")} ${turn.coins}`)] : null);
}

/** The hand's order: by the cards' names in this language. */
export function byName(a, b, i18n) {
  return i18n.card(a).localeCompare(i18n.card(b));
}

/** Your own cards: the hand as buttons (playable ones marked), play area, deck count. */
export function mineView(state, i18n) {
  const me = state.players[state.viewer];
  if (!me || !me.hand) return null;
  const hand = [...me.hand].sort((a, b) => byName(a, b, i18n));
  return h("section", { class: "mine", "aria-label": i18n.t("your_hand") },
    h("h2", {}, i18n.t("your_hand"), ` (${me.hand.length})`),
    h("ul", { class: "hand" }, hand.map((card, index) => {
      const play = optionFor(state.myDecision(), "play", card);
      return h("li", {}, h("button", {
        type: "button", class: `card-button${play ? " can-play" : ""}`, title: i18n.cardText(card),
        dataset: { key: `hand:${card}:${index}`, card },
        onclick: { type: Intent.CLICK_HAND, card },
      }, i18n.card(card), play ? h("span", { class: "mark" }, " ▶") : null));
    })),
    h("p", {}, h("strong", {}, `${i18n.t("in_play")}: `), cardList(me.in_play, i18n)),
    me.set_aside.length ? h("p", {}, h("strong", {}, `${i18n.t("set_aside")}: `),
      cardList(me.set_aside, i18n)) : null,
    me.looking.length ? h("p", {}, h("strong", {}, `${i18n.t("looking")}: `),
      cardList(me.looking, i18n)) : null,
    h("p", {}, `${i18n.t("deck")}: ${i18n.count(me.deck_size, "cards")} · `
      + `${i18n.t("discard_top")}: ${topOf(me, i18n)}`));
}

/** The top card of the discard pile: none shows when it is empty or face down. */
function topOf(player, i18n) {
  return player.discard_top ? i18n.card(player.discard_top) : "–";
}

/** Everyone at the table: what is public about them (and every hand, in a replay). */
export function playersView(state, i18n) {
  const rows = state.players.map((p) => {
    const marks = [];
    if (p.seat === state.turn.player && !state.result) marks.push("▶");
    if (state.decision && state.decision.player === p.seat) marks.push("…");
    const name = [p.name, p.seat === state.viewer ? ` (${i18n.t("you")})` : "",
      p.resigned ? ` (${i18n.t("resigned")})` : ""].join("");
    return h("tr", { class: p.seat === state.turn.player ? "current" : "" },
      h("td", { "aria-hidden": "true" }, marks.join(" ")),
      h("th", { scope: "row" }, name),
      h("td", {}, state.everyone && p.hand ? cardList(p.hand, i18n) : String(p.hand_size)),
      h("td", {}, topOf(p, i18n)),
      h("td", {}, cardList(p.in_play, i18n),
        p.set_aside.length ? ` · ${i18n.t("set_aside")}: ${cardList(p.set_aside, i18n)}` : ""),
      h("td", {}, String(p.turns)),
      h("td", {}, Number.isInteger(p.points) ? String(p.points) : "–"));
  });
  return h("section", { class: "players", "aria-label": i18n.t("players") },
    h("h2", {}, i18n.t("players")),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, i18n.t("players")),
        h("th", {}, i18n.t("hand")), h("th", {}, i18n.t("discard_top")),
        h("th", {}, i18n.t("in_play")), h("th", {}, i18n.t("turns")),
        h("th", {}, i18n.t("owned_vp")))),
      h("tbody", {}, rows))));
}

export function trashView(state, i18n) {
  return h("section", { class: "trash" },
    h("h2", {}, i18n.t("trash"), ` (${state.trash.length})`),
    h("p", {}, cardList(state.trash, i18n)));
}

export function cardInfo(card, i18n) {
  const entry = i18n.cards.get(card);
  return h("aside", { class: "card-info", role: "dialog", "aria-label": i18n.card(card) },
    h("h3", {}, i18n.card(card), ` ($${entry?.cost ?? "?"})`),
    h("p", { class: "types" }, (entry?.types || []).join(", ")),
    h("p", {}, i18n.cardText(card)),
    h("button", { type: "button", onclick: { type: Intent.SHOW_CARD, card: null }, dataset: { key: "close-info" } },
      i18n.t("close")));
}
