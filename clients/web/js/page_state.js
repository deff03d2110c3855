// Everything a live game's page shows, in one object (a PageState), and the only functions
// that change it: one per protocol message (snapshot, update, chat, chat_removed,
// game_over, rating_changed, game_abandoned, resume_failed) and one per thing a person does (pick, confirm, click a card, show a card,
// resign). They touch nothing but the PageState they are given (no DOM, no network, no
// clock: a frame's time of arrival is given), so Node tests them; what the page must then do (send an answer, resume, resign)
// they return as effects. Every change bumps a version, which tells the page what to draw
// again (docs/CLIENTS.md, "The page's state and the board").

import { clocksOf, stopped } from "./clock.js";
import { forcedAnswer, optionFor, picksSeveral } from "./decision.js";
import { WAIT, nextStep, playFirst } from "./one_click_buy.js";
import { GameState } from "./state.js";

/** How many events the log keeps (to say them again in another language). */
export const LOG_LINES = 400;

/** What the page must do after an action. */
export const Effect = Object.freeze({
  ANSWER: "answer", // send {decision, options}
  RESUME: "resume", // ask for the game again from the last event held (events were missed)
  RESIGN: "resign",
  FORGET_SEAT: "forget_seat", // the game is over: the browser need not keep its token
  REMATCH: "rematch", // {request, fields}: a rematch offer or answer (`game` added)
  FOLLOW: "follow", // {game, seat, token}: go to the rematch (watch it without a token)
  LOAD_SUMMARY: "load_summary", // the table's summary again (who sat down, who is a bot)
});

/**
 * @param {number|null} viewer your seat, or null for a spectator
 */
export function newPageState(viewer) {
  return {
    viewer,
    summary: null, // the table (GET /games/ID), until the game starts
    game: null, // GameState: the server's latest view
    clocks: null, // the last frame's clocks and when it arrived (clock.js), null: no clock
    picked: { decision: null, ids: [] }, // options picked for a decision of several
    autoAnswered: new Set(), // decisions the page answered itself (forced)
    sending: null, // the decision whose answer is on its way
    treasuresByHand: false, // a click on a pile never plays Treasures (one_click_buy.js)
    buying: null, // {card, after}: a pile to buy once the Treasures played (one_click_buy.js)
    note: null, // {decision, ids}: what the page answered by itself
    message: null, // {key, vars} or {text}: what was refused (`vars.card` is a card id)
    shownCard: null, // the card whose text is shown
    confirmResign: false,
    rematch: null, // {state: offered|cancelled|started, ...the server's fields}
    rematchRefused: null, // what the server said to a refused offer or answer
    chat: [], // {from, text, line, removed}, oldest first
    chatRemoved: 0, // lines removed by a moderator so far: the chat is drawn again
    abandoned: null, // {reason}: an admin ended the game (reason null when not told)
    ratings: null, // {changes, unrated}: what a rated game did to ratings, once told
    log: { events: [], total: 0, cleared: 0 }, // the last LOG_LINES events; counts
    // what changed: `game` on every message that changes the game, `ui` on everything else
    version: { game: 0, ui: 0 },
  };
}

function changedGame(page) {
  page.version.game += 1;
  page.version.ui += 1;
}

function changedUi(page) {
  page.version.ui += 1;
}

// -- protocol messages ---------------------------------------------------------------

/** The table's summary (GET /games/ID): its seats mark accounts' and bots' names. */
export function loaded(page, summary) {
  page.summary = summary;
  if (summary.ratings) page.ratings = summary.ratings; // applied before the page was told
  if (page.game) page.game.seats = summary.seats;
  // abandoned with no result: an admin ended it (the server's own abandonment scores it)
  if (summary.state === "abandoned" && !summary.result && !page.abandoned) {
    page.abandoned = { reason: null };
  }
  changedGame(page);
  return [];
}

/** A new GameState for the page, with the seats the summary names; the summary taken
 *  before the start is asked for again (the seats have been taken since). */
function newGame(page) {
  page.game = new GameState(page.viewer);
  page.game.seats = page.summary?.seats ?? [];
  return page.summary?.state === "open" ? [{ type: Effect.LOAD_SUMMARY }] : [];
}

/** @param {number} at when the frame arrived (ms): its clocks count down from then */
export function snapshot(page, message, at = 0) {
  const effects = newGame(page);
  page.game.applySnapshot(message.seq, message.view);
  page.clocks = clocksOf(message, at);
  page.log = { events: [], total: 0, cleared: page.log.cleared + 1 };
  return [...effects, ...settle(page)];
}

export function update(page, message, at = 0) {
  const effects = page.game ? [] : newGame(page);
  const first = message.seq - message.events.length + 1;
  if (first > page.game.seq + 1) return [{ type: Effect.RESUME }]; // missed events: again
  const fresh = page.game.applyUpdate(message.seq, message.events, message.decision,
    message.view);
  page.clocks = clocksOf(message, at);
  const log = page.log;
  for (const [, event] of fresh) log.events.push(event);
  log.total += fresh.length;
  log.events.splice(0, Math.max(0, log.events.length - LOG_LINES));
  return [...effects, ...settle(page)];
}

export function chat(page, message) {
  page.chat.push({ from: message.from, text: message.text, line: message.line ?? null,
    removed: false });
  changedUi(page);
  return [];
}

/** A moderator removed a line: its words go from the page (a line it never had, nothing). */
export function chatRemoved(page, message) {
  const line = page.chat.find((said) => said.line === message.line);
  if (!line || line.removed) return [];
  Object.assign(line, { from: "", text: "", removed: true });
  page.chatRemoved += 1;
  changedUi(page);
  return [];
}

/** The game is over; its seats are asked for again (who played on as a bot). */
export function gameOver(page, message, at = 0) {
  if (page.game) page.game.result = message.result;
  page.clocks = stopped(page.clocks, at);
  page.note = null;
  changedGame(page);
  return [{ type: Effect.FORGET_SEAT }, { type: Effect.LOAD_SUMMARY }];
}

/** A rated game's ratings were applied (or it ended too early to count): each seat's
 *  rating before and after, or why it is unrated. */
export function ratingChanged(page, message) {
  page.ratings = { changes: message.changes, unrated: message.unrated ?? null };
  changedGame(page);
  return [];
}

/** The game ended with no result (an admin ended it, or an open table lapsed): nothing
 *  more can be done in it. */
export function gameAbandoned(page, message, at = 0) {
  page.abandoned = { reason: message.reason };
  page.clocks = stopped(page.clocks, at);
  if (page.game) page.game.decision = null;
  page.note = null;
  page.message = null;
  page.sending = null;
  page.confirmResign = false;
  changedGame(page);
  return [{ type: Effect.FORGET_SEAT }];
}

export function rematchOffered(page, message) {
  const { by, kingdom, accepted, waiting } = message;
  page.rematch = { state: "offered", by, kingdom, accepted, waiting };
  page.rematchRefused = null;
  changedUi(page);
  return [];
}

export function rematchCancelled(page, message) {
  page.rematch = { state: "cancelled", reason: message.reason, by: message.by ?? null };
  changedUi(page);
  return [];
}

/** The new game has started: a player goes to their seat, a spectator watches it. */
export function rematchStarted(page, message) {
  page.rematch = { state: "started", newGame: message.new_game };
  changedUi(page);
  return [{ type: Effect.FOLLOW, game: message.new_game, seat: message.seat ?? null,
    token: message.token ?? null }];
}

/** A refused rematch offer or answer: said in the rematch's part. */
export function rematchRefused(page, serverMessage) {
  page.rematchRefused = serverMessage;
  changedUi(page);
  return [];
}

export function resumeFailed(page, message) {
  return refused(page, message.error.message);
}

/** The game changed: a new decision has nothing picked; a forced one is answered. */
function settle(page) {
  changedGame(page);
  const game = page.game;
  page.sending = null;
  if (page.picked.decision !== game.decision?.id) {
    page.picked = { decision: game.decision?.id ?? null, ids: [] };
  }
  // what the page answered by itself is said until the next decision (or the end)
  if (page.note && page.note.decision.id !== game.decision?.id) page.note = null;
  const mine = game.myDecision();
  const bought = page.buying ? buyWaitedFor(page, mine) : [];
  if (bought.length) return bought;
  if (!mine || page.autoAnswered.has(mine.id)) return [];
  const forced = forcedAnswer(mine);
  if (!forced) return [];
  page.autoAnswered.add(mine.id);
  page.note = { decision: mine, ids: forced };
  return confirm(page, forced);
}

/** The pile clicked before the Treasures were played: bought if the server now offers it,
 *  else said to cost more than the coins the server counted. */
function buyWaitedFor(page, mine) {
  const step = nextStep(page.buying, mine);
  if (step === WAIT) return [];
  const { card } = page.buying;
  page.buying = null;
  if (step.buy) return confirm(page, [step.buy.id]);
  if (step.cannot) say(page, "cannot_buy", { card, coins: page.game.turn.coins });
  return [];
}

// -- what a person does (and what comes of it) ---------------------------------------------

/** Answer your decision with these options (no second answer while one is on its way). */
export function confirm(page, ids) {
  const decision = page.game?.myDecision();
  if (!decision || page.sending === decision.id) return [];
  page.sending = decision.id;
  page.message = null;
  changedUi(page);
  return [{ type: Effect.ANSWER, decision: decision.id, options: [...ids] }];
}

/** An answer did not go through: the server refused it (`refusal`, its message), or it
 *  failed otherwise (`failure`); neither when the connection was lost. */
export function answerFailed(page, decisionId, { refusal = null, failure = null } = {}) {
  if (page.sending === decisionId) page.sending = null;
  if (page.buying?.after === decisionId) page.buying = null;
  if (refusal !== null) return refused(page, refusal);
  if (failure !== null) page.message = { text: failure };
  changedUi(page);
  return [];
}

/** The server refused a request: said under the decision. */
export function refused(page, serverMessage) {
  page.message = { key: "refused", vars: { message: serverMessage } };
  changedUi(page);
  return [];
}

function say(page, key, vars = {}) {
  page.message = { key, vars };
  changedUi(page);
  return [];
}

/** What a click means (the drawing functions' handlers, docs/CLIENTS.md). */
export const Intent = Object.freeze({
  PICK: "pick", // {option}
  CONFIRM: "confirm", // {ids}: the options given, or those picked
  CLICK_SUPPLY: "click_supply", // {card}
  CLICK_HAND: "click_hand", // {card}
  SHOW_CARD: "show_card", // {card}, null to close
  RESIGN: "resign",
  OFFER_REMATCH: "offer_rematch", // {kingdom: "same" | "random"}
  ANSWER_REMATCH: "answer_rematch", // {accept}
});

/** The action an intent stands for. */
export function intend(page, intent) {
  switch (intent.type) {
    case Intent.PICK: return pick(page, intent.option);
    case Intent.CONFIRM: return confirm(page, intent.ids ?? page.picked.ids);
    case Intent.CLICK_SUPPLY: return clickSupply(page, intent.card);
    case Intent.CLICK_HAND: return clickHand(page, intent.card);
    case Intent.SHOW_CARD: return showCard(page, intent.card);
    case Intent.RESIGN: return resign(page);
    case Intent.OFFER_REMATCH:
      return sendRematch(page, "rematch_offer", { kingdom: intent.kingdom });
    case Intent.ANSWER_REMATCH:
      return sendRematch(page, "rematch_answer", { accept: intent.accept });
    default: return [];
  }
}

/** A click on an option: the answer, or one more (or one fewer) of several picked. */
export function pick(page, option) {
  const decision = page.game?.myDecision();
  if (!decision) return [];
  if (!picksSeveral(decision)) return confirm(page, [option.id]);
  const ids = page.picked.ids;
  const at = ids.indexOf(option.id);
  if (at >= 0) ids.splice(at, 1);
  else if (ids.length < decision.max) ids.push(option.id);
  changedUi(page);
  return [];
}

/** A click on a pile of the Supply: buy it (playing the Treasures first if it takes
 *  them, unless they are played by hand), gain it, or say why not. */
export function clickSupply(page, card) {
  const decision = page.game?.myDecision();
  if (!decision) {
    return page.viewer === null ? showCard(page, card) : say(page, "not_your_turn");
  }
  const option = optionFor(decision, "buy", card) ?? optionFor(decision, "card", card);
  if (option && (option.kind === "buy" || decision.kind === "gain")) return pick(page, option);
  const playAll = playFirst(decision, card);
  const coins = page.game.turn.coins;
  if (playAll && page.treasuresByHand) return say(page, "play_treasures_first", { card, coins });
  if (!playAll) return say(page, "cannot_buy", { card, coins });
  const answer = confirm(page, [playAll.id]);
  if (answer.length) page.buying = { card, after: decision.id };
  return answer;
}

/** A click on a card of your hand: play it, pick it, or say why not. */
export function clickHand(page, card) {
  const decision = page.game?.myDecision();
  if (!decision) return say(page, "not_your_turn");
  const play = optionFor(decision, "play", card);
  if (play) return pick(page, play);
  const free = decision.options.find((o) => o.kind === "card" && o.card === card
    && !page.picked.ids.includes(o.id));
  if (free && decision.kind !== "gain") return pick(page, free);
  return say(page, "cannot_play", { card });
}

/** "Play Treasures by hand" switched on or off. */
export function setTreasuresByHand(page, byHand) {
  page.treasuresByHand = byHand;
  if (byHand) page.buying = null;
  changedUi(page);
  return [];
}

export function showCard(page, card) {
  page.shownCard = card;
  changedUi(page);
  return [];
}

/** The first click on "Resign" asks again; the second resigns. */
export function resign(page) {
  if (!page.confirmResign) {
    page.confirmResign = true;
    changedUi(page);
    return [];
  }
  page.confirmResign = false;
  changedUi(page);
  return [{ type: Effect.RESIGN }];
}

function sendRematch(page, request, fields) {
  if (page.viewer === null || !page.game?.result) return [];
  page.rematchRefused = null;
  changedUi(page);
  return [{ type: Effect.REMATCH, request, fields }];
}
