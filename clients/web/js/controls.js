// Drawing a live game's controls from its PageState: the decision bar (the options, what
// is picked, what was refused), the table before the game starts, and the resign button.
// Pure, as board.js: each function reads only the PageState and the words (i18n) it is
// given, and returns vnodes (dom.js) whose clicks are intents (page_state.js).

import { byName, handOf, turnLine } from "./board.js";
import { cardFace } from "./card.js";
import { acceptable, barOptions, handOptions, picksSeveral } from "./decision.js";
import { h } from "./dom.js";
import { nameList } from "./names.js";
import { Intent } from "./page_state.js";
import { Key, Toggle, digitKeys } from "./shortcuts.js";

/** An option's words: "Play Smithy", "Buy Gold ($6)", "End your turn". */
export function optionLabel(decision, option, i18n) {
  const card = i18n.card(option.card);
  switch (option.kind) {
    case "play": return i18n.t("play_x", { card });
    case "buy": return `${i18n.t("buy_x", { card })} ($${i18n.cost(option.card) ?? "?"})`;
    case "play_all_treasures": return i18n.t("play_all");
    case "end_phase":
      return i18n.t(decision.kind === "play_action" ? "end_actions"
        : decision.kind === "buy" ? "end_turn" : "end_phase");
    case "yes": return i18n.t("yes");
    case "no": return i18n.t("no");
    case "trash": return `${i18n.t("trash_it")}: ${card}`;
    case "discard": return `${i18n.t("discard_it")}: ${card}`;
    case "keep": return `${i18n.t("keep_it")}: ${card}`;
    case "card": return card;
    default: return option.card ? `${option.kind}: ${card}` : option.kind;
  }
}

/** A PageState's `message` in words (a card it names, with its cost, in this language). */
export function messageText(message, i18n) {
  if (message.text !== undefined) return message.text;
  const vars = { ...message.vars };
  if (vars.card) Object.assign(vars, { card: i18n.card(vars.card), cost: i18n.cost(vars.card) });
  if (Number.isInteger(vars.coins)) vars.coins = i18n.count(vars.coins, "coins");
  return i18n.t(message.key, vars);
}

/** Picking nothing, said as what it does ("Play nothing"). */
const NONE_KEYS = { play: "play_none", discard: "discard_none", trash: "trash_none" };

/** The options as the page shows them: cards from your hand in the hand's order (mineView),
 *  the rest as the server sent them. */
function shownOptions(decision, i18n) {
  if (decision.kind === "gain" || !decision.options.every((o) => o.kind === "card")) {
    return decision.options;
  }
  return [...decision.options].sort((a, b) => byName(a.card, b.card, i18n));
}

/** What the page answered by itself. */
function noteText(note, i18n) {
  const what = note.ids.map((id) => optionLabel(note.decision, note.decision.options[id], i18n));
  return i18n.t("answered_forced", { what: what.join(", ") || i18n.t("none") });
}

/** The turn's own options: a primary button each, with its letter. */
const PRIMARY_KEYS = { play_all_treasures: Key.PLAY_ALL, end_phase: Key.END_PHASE };

/** The bar's options: those no card of the hand or the Supply answers. Cards (looked at,
 *  revealed, in the discard pile) as cards; the rest (yes or no, a card's fate, the turn's
 *  two primary buttons) as buttons; numbered after the hand's cards. */
function optionButtons(page, mine, i18n) {
  const hand = handOf(page.game, i18n);
  const looking = page.game.players[page.viewer]?.looking ?? [];
  const handCount = handOptions(hand, mine, looking).filter(Boolean).length;
  const shown = shownOptions({ ...mine, options: barOptions(mine, hand, looking) }, i18n);
  const numbered = shown.filter((option) => !PRIMARY_KEYS[option.kind]);
  const digits = digitKeys(numbered.length, handCount);
  const ids = page.picked.ids;
  const several = picksSeveral(mine);
  const busy = page.sending === mine.id;
  return shown.map((option) => {
    const at = ids.indexOf(option.id);
    const mark = at < 0 ? "" : mine.ordered ? i18n.t("order_n", { n: at + 1 }) : "✓";
    const key = PRIMARY_KEYS[option.kind] ?? digits[numbered.indexOf(option)];
    if (option.kind === "card") { // a card not in your hand (looked at, revealed, discarded)
      return cardFace(option.card, i18n, {
        id: `option:${option.id}`, option, shortcut: key, size: "small", busy,
        picked: several ? at >= 0 : undefined, mark, onclick: { type: Intent.PICK, option },
      });
    }
    return h("button", {
      type: "button", disabled: busy,
      class: `option${PRIMARY_KEYS[option.kind] ? " primary" : ""}${at >= 0 ? " picked" : ""}`,
      "aria-pressed": several ? String(at >= 0) : undefined,
      "aria-keyshortcuts": key?.toUpperCase(),
      dataset: {
        key: `option:${option.id}`, kind: option.kind, card: option.card ?? "",
        option: String(option.id), ...(key ? { shortcut: key } : {}),
      },
      onclick: { type: Intent.PICK, option },
    }, optionLabel(mine, option, i18n), mark ? ` ${mark}` : "",
    key ? h("kbd", { "aria-hidden": "true" }, key.toUpperCase()) : null);
  });
}

/** Your decision: the turn line, what is asked, the buttons no card on the table stands
 *  for and Confirm for several (enabled unless an answer is on its way); or whom the table
 *  waits for; what was refused; null once the game is over and nothing is left to say.
 *  It is the bar that stays in view (app.css: sticky at the bottom). */
export function decisionView(page, i18n) {
  const t = (key, vars) => i18n.t(key, vars);
  const game = page.game;
  const parts = [];
  const decision = game.decision;
  const asked = game.myDecision();
  const mine = asked && !page.autoAnswered.has(asked.id) ? asked : null;
  const busy = mine && page.sending === mine.id;
  if (!game.result) parts.push(turnLine(game, i18n));
  if (mine) {
    parts.push(h("p", { class: "prompt" }, h("strong", {}, `${t("your_decision")}: `),
      i18n.prompt(mine), mine.source ? ` (${i18n.card(mine.source)})` : ""));
    const several = picksSeveral(mine);
    const ids = page.picked.ids;
    if (several) {
      parts.push(h("p", { class: "choose" }, mine.ordered ? t("choose_order") : t("choose_n", {
        range: mine.min === mine.max ? mine.min : `${mine.min}–${mine.max}`,
      }), " ", h("span", { class: "picked-count" }, t("picked", { n: ids.length }))));
    }
    const buttons = optionButtons(page, mine, i18n);
    if (several) {
      buttons.push(
        // nothing picked is answered only by the button that says so, never by Confirm
        h("button", {
          type: "button", class: "primary", "aria-keyshortcuts": "C",
          disabled: busy || !ids.length || !acceptable(mine, ids),
          dataset: { key: "confirm", shortcut: Key.CONFIRM }, onclick: { type: Intent.CONFIRM },
        }, t("confirm"), h("kbd", { "aria-hidden": "true" }, "C")),
        mine.min === 0 ? h("button", {
          type: "button", disabled: busy, "aria-keyshortcuts": "N",
          dataset: { key: "none", shortcut: Key.NONE }, onclick: { type: Intent.CONFIRM, ids: [] },
        }, t(NONE_KEYS[mine.kind] ?? "choose_none"), h("kbd", { "aria-hidden": "true" }, "N")) : null);
    }
    parts.push(h("div", { class: "options", role: "group", "aria-label": t("your_decision") },
      buttons));
  } else if (decision) {
    const who = i18n.seatNames(game.players.map((p) => p.name))[decision.player] ?? "?";
    parts.push(h("p", { class: "waiting-for" }, t("waiting_for", { who, kind: i18n.kind(decision.kind) })));
  }
  if (page.note) parts.push(h("p", { class: "note" }, noteText(page.note, i18n)));
  if (page.message) {
    parts.push(h("p", { class: "refused", role: "alert" }, "⚠ ", messageText(page.message, i18n)));
  }
  if (page.viewer === null) parts.push(h("p", { class: "note" }, t("spectating")));
  if (game.result && parts.length === 0) return null;
  parts.push(h("button", { // the log is a drawer on a phone: one tap from the bar
    type: "button", class: "log-toggle", "aria-controls": "side", "aria-keyshortcuts": "L",
    dataset: { key: "log-toggle", toggles: "log-open" }, onclick: { type: Toggle.LOG },
  }, t("log"), h("kbd", { "aria-hidden": "true" }, "L")));
  return h("section", {
    class: `decision${mine ? " asking" : ""}`, id: "decision", "aria-label": t("your_decision"),
    dataset: {
      decision: decision ? String(decision.id) : "", mine: mine ? "yes" : "no",
      ready: mine && !busy ? "yes" : "no",
    },
  }, parts);
}

/** Before the game starts: who sat down, and the link to share. */
export function waitingView(page, i18n, gameId, link) {
  const t = (key, vars) => i18n.t(key, vars);
  const seats = page.summary.seats;
  const taken = seats.filter((s) => s.name);
  return h("section", { class: "waiting" },
    h("h2", {}, t("table", { id: gameId })),
    h("p", {}, t("waiting", { taken: taken.length, seats: seats.length })),
    h("p", { class: "seated" }, t("seats_taken"), " ", nameList(taken, i18n)),
    h("label", {}, t("share"), " ", h("input", { readonly: true, value: link, size: 50 })));
}

/** A seated player's resign button (asked twice), while the game runs. */
export function resignView(page, i18n) {
  const game = page.game;
  if (page.viewer === null || !game || game.result || game.players[page.viewer]?.resigned) {
    return null;
  }
  const sure = page.confirmResign;
  return h("p", {}, h("button", {
    type: "button", class: sure ? "danger" : undefined,
    dataset: { key: sure ? "resign-sure" : "resign" }, onclick: { type: Intent.RESIGN },
  }, i18n.t(sure ? "resign_sure" : "resign")));
}
