// Drawing a game's board from a GameState: the Supply, your cards, the other players, the
// trash (the end of the game is end.js). Shared by live games and replays. Every state is said
// in words or marks as well as colour. Pure: each function reads only the GameState and
// the words (i18n) it is given, and returns vnodes (dom.js) whose clicks are intents.

import { cardFace } from "./card.js";
import { clockView, timedOut } from "./clock.js";
import { handOptions, picksSeveral, supplyOption } from "./decision.js";
import { turnTitle } from "./describe.js";
import { h } from "./dom.js";
import { playerName } from "./names.js";
import { Intent } from "./page_state.js";
import { digitKeys, pileKeys } from "./shortcuts.js";

/** Per state, each pile's vnode as last drawn and what it was drawn from (and the
 *  catalogue that named its card). */
const drawnPiles = new WeakMap();

/** The Supply as players lay it out: the basic piles (Treasures, Victory, Curse) in the
 *  server's order on their own, then the ten Kingdom piles in two rows of five by cost
 *  (the catalogue's). A pile the decision offers is a card to click (buy or gain it, its
 *  key shown); any other is shown idle, and a click on it says why not. */
export function supplyView(state, i18n) {
  const decision = state.myDecision();
  let drawn = drawnPiles.get(state);
  if (drawn?.cards !== i18n.cards) { // another catalogue: every pile drawn anew
    drawn = { cards: i18n.cards, piles: new Map() };
    drawnPiles.set(state, drawn);
  }
  const kingdom = Object.keys(state.supply).filter((c) => state.kingdom.includes(c))
    .sort((a, b) => (i18n.cost(a) ?? 0) - (i18n.cost(b) ?? 0) || i18n.card(a).localeCompare(i18n.card(b)));
  const base = Object.keys(state.supply).filter((c) => !state.kingdom.includes(c));
  const keys = pileKeys([...base, ...kingdom]);
  const pile = (card) => {
    const left = state.supply[card];
    const option = supplyOption(decision, card);
    const key = keys.get(card); // shown while offered, and kept hidden while not
    // what the pile is drawn from: the same, it is the same vnode (patch passes it over)
    const from = `${left} ${option ? `${decision.id} ${option.id}` : "-"} ${key} ${i18n.lang}`;
    const last = drawn.piles.get(card);
    if (last?.from === from) return last.vnode;
    const vnode = h("li", { class: `pile${option ? " can-buy" : ""}${left ? "" : " empty"}` },
      cardFace(card, i18n, {
        id: `supply-${card}`, option, count: left, shortcut: option ? key : undefined, keyShown: key,
        label: `${i18n.t("cost")} ${i18n.cost(card) ?? "?"}, ${i18n.t("left")} ${left}`
          + `${option ? `, ${i18n.t(option.kind === "buy" ? "can_buy" : "can_gain")}` : ""}`,
        onclick: option ? { type: Intent.PICK, option } : { type: Intent.CLICK_SUPPLY, card },
      }));
    drawn.piles.set(card, { from, vnode });
    return vnode;
  };
  // only while you are asked are the piles not offered dimmed (a spectator's are all alike)
  return h("section", { class: `supply${decision ? " offering" : ""}`, "aria-label": i18n.t("supply") },
    h("h2", {}, i18n.t("supply")),
    h("ul", { class: "piles base", "aria-label": i18n.t("basic_piles") }, base.map(pile)),
    h("ul", { class: "piles kingdom", "aria-label": i18n.t("kingdom") }, kingdom.map(pile)));
}

/** What `supplyView` draws from, as a key: the piles' counts, and whether you are asked
 *  (the piles not offered are dimmed) and by which decision if it offers piles (their
 *  clicks answer its options). Most updates change none of it (another player's plays,
 *  your Action phase), and the page then leaves the Supply as it was drawn. */
export function supplyKey(state) {
  const decision = state.myDecision();
  const offers = decision && Object.keys(state.supply).some((card) => supplyOption(decision, card));
  return `${Object.entries(state.supply).join(" ")} ${offers ? decision.id : decision ? "asked" : "-"}`;
}

/** Cards in a row as small faces (a play area, set-aside cards), each with its text. */
function cardRow(cards, i18n, zone) {
  if (!cards.length) return h("span", { class: "none" }, i18n.t("none"));
  return h("ul", { class: "card-row" }, cards.map((card, index) => h("li", {},
    cardFace(card, i18n, {
      id: `${zone}-${index}`, size: "small", onclick: { type: Intent.SHOW_CARD, card },
    }))));
}

function cardList(cards, i18n) {
  return cards.length ? i18n.many(cards) : i18n.t("none");
}

/** "Ann's turn 12 (you) · Buy phase · Actions 0 · Buys 1 · Coins 5": the turn named by
 *  its player's own count; the counters as the server sent them (a replay has none). */
export function turnLine(state, i18n) {
  const turn = state.turn;
  const names = i18n.seatNames(state.players.map((p) => p.name));
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

/** Your hand in the order the page shows it (and numbers its cards): by name. */
export function handOf(state, i18n) {
  const me = state.players[state.viewer];
  return me?.hand ? [...me.hand].sort((a, b) => byName(a, b, i18n)) : [];
}

/**
 * Your own cards: the hand as a row of cards (those the decision offers to click, with
 * their keys; those picked for a decision of several marked), the play area and what
 * you set aside or look at, your deck's and discard pile's counts.
 * @param {number[]} [picked] the option ids picked (PageState `picked.ids`)
 */
export function mineView(state, i18n, picked = []) {
  const me = state.players[state.viewer];
  if (!me || !me.hand) return null;
  const hand = handOf(state, i18n);
  const decision = state.myDecision();
  const options = handOptions(hand, decision, me.looking);
  const several = decision ? picksSeveral(decision) : false;
  const keys = digitKeys(options.filter(Boolean).length);
  let numbered = 0;
  const copies = new Map(); // a card's id names its copy, not its place: kept as others go
  return h("section", { class: `mine${decision ? " offering" : ""}`, "aria-label": i18n.t("your_hand") },
    h("h2", {}, i18n.t("your_hand"), ` (${me.hand.length})`),
    h("ul", { class: "hand" }, hand.map((card, index) => {
      const option = options[index];
      const shortcut = option ? keys[numbered++] : undefined;
      const copy = copies.get(card) ?? 0;
      copies.set(card, copy + 1);
      return h("li", { class: option ? "can-play" : "", key: `${card}-${copy}` }, cardFace(card, i18n, {
        id: `hand-${card}-${copy}`, option, shortcut,
        picked: several && option ? picked.includes(option.id) : undefined,
        onclick: option ? { type: Intent.PICK, option } : { type: Intent.CLICK_HAND, card },
      }));
    })),
    h("div", { class: "zone" }, h("h3", {}, i18n.t("in_play")), cardRow(me.in_play, i18n, "play")),
    me.set_aside.length ? h("div", { class: "zone" }, h("h3", {}, i18n.t("set_aside")),
      cardRow(me.set_aside, i18n, "aside")) : null,
    me.looking.length ? h("div", { class: "zone" }, h("h3", {}, i18n.t("looking")),
      cardRow(me.looking, i18n, "looking")) : null,
    h("p", { class: "counts" }, `${i18n.t("deck")}: ${i18n.count(me.deck_size, "cards")} · `
      + `${i18n.t("discard_top")}: ${topOf(me, i18n)}`));
}

/** What `mineView` draws from, as a key: your cards and counts, the decision you are
 *  asked and the options picked for it. Another player's turn changes none of it, and
 *  the page then leaves your cards as they were drawn (issue 38). */
export function mineKey(state, picked = []) {
  return JSON.stringify([state.players[state.viewer] ?? null, state.myDecision(), picked]);
}

/** The top card of the discard pile: none shows when it is empty or face down. */
function topOf(player, i18n) {
  return player.discard_top ? i18n.card(player.discard_top) : "–";
}

/** One fact of a player's chip: "Hand 5", its number kept for tests (`data-value`). */
function fact(kind, label, value) {
  return h("span", { class: `fact ${kind}`, dataset: { value: String(value) } },
    h("span", { class: "fact-label" }, label), " ", h("b", {}, String(value)));
}

/** Per state, each player's play area as last drawn in their chip, and what from. */
const drawnPlays = new WeakMap();

/** Another player's play area as small cards in their chip (yours is under your hand),
 *  the vnode kept while its cards are the same: most updates change one player's. */
function playedRow(state, player, i18n) {
  let drawn = drawnPlays.get(state);
  if (!drawn || drawn.cards !== i18n.cards || drawn.lang !== i18n.lang) {
    drawn = { cards: i18n.cards, lang: i18n.lang, rows: new Map() };
    drawnPlays.set(state, drawn);
  }
  const from = player.in_play.join(" ");
  const last = drawn.rows.get(player.seat);
  if (last?.from === from) return last.vnode;
  // drawn empty too, and then of no height (css/watch.css): a phone keeps its first
  // screen for the question and the hand
  const vnode = h("div", { class: "chip-play", key: "play" }, !player.in_play.length ? null : [
    h("span", { class: "visually-hidden" }, `${i18n.t("in_play")}:`),
    cardRow(player.in_play, i18n, `seat${player.seat}-play`)]);
  drawn.rows.set(player.seat, { from, vnode });
  return vnode;
}

/** Everyone at the table as compact chips (a phone shows them all): name, whose turn and
 *  who decides, the clock (`faces`: clock.js, none for a table without a clock), hand
 *  size (every hand, in a replay), your deck, the discard pile's top, VP owned, turns, the
 *  others' play areas as cards. */
export function playersView(state, i18n, faces = null) {
  const chips = state.players.map((p) => {
    const current = p.seat === state.turn.player && !state.result;
    const deciding = state.decision && state.decision.player === p.seat;
    const name = [playerName(state.seatOf(p.seat), i18n, state.players.map((other) => other.name)),
      p.seat === state.viewer ? ` (${i18n.t("you")})` : "",
      p.resigned ? ` (${i18n.t(timedOut(state, p.seat) ? "out_of_time" : "resigned")})` : ""];
    const face = faces?.[p.seat];
    const points = Number.isInteger(p.points) ? p.points : "–";
    return h("li", { class: `chip${current ? " current" : ""}${deciding ? " deciding" : ""}`,
      dataset: { seat: String(p.seat) } },
    // keyed: the marks come and go as the turn moves, and the name stays drawn between them
    h("span", { class: "chip-name" },
      current ? h("span", { class: "mark", title: i18n.t("their_turn"), key: "turn" }, "▶ ") : null,
      h("strong", { key: "name" }, name),
      face ? clockView(face, i18n) : null,
      deciding ? h("span", { class: "mark", key: "deciding" }, ` … ${i18n.t("deciding")}`) : null),
    fact("hand-size", i18n.t("hand"), p.hand_size),
    Number.isInteger(p.deck_size) ? fact("deck-size", i18n.t("deck"), p.deck_size) : null,
    fact("points", i18n.t("owned_vp"), points),
    fact("turns", i18n.t("turns"), p.turns),
    h("span", { class: "fact discard", title: i18n.t("discard_top") },
      `${i18n.t("discard_short")}: ${topOf(p, i18n)}`),
    state.everyone && p.hand ? h("span", { class: "fact" },
      `${i18n.t("hand")}: ${cardList(p.hand, i18n)}`) : null,
    p.seat !== state.viewer || !p.hand ? playedRow(state, p, i18n) : null,
    p.set_aside.length ? h("span", { class: "fact" },
      `${i18n.t("set_aside")}: ${cardList(p.set_aside, i18n)}`) : null);
  });
  return h("section", { class: "players", "aria-label": i18n.t("players") },
    h("h2", { class: "visually-hidden" }, i18n.t("players")),
    h("ul", { class: "chips" }, chips));
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
