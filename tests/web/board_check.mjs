// Reads a card catalogue and then the `update` messages of whole games for every viewer
// (JSON lines, written by test_board_js.py), keeps each viewer's PageState with the
// page's own actions (page_state.js), and checks what the drawing functions (board.js,
// controls.js) draw after every one: whose turn, the counters of the view, the Supply,
// the players, a decision's options (enabled for the person who decides, and only for
// them), the end screen. Then the actions on a person's intents, and the drawing at most
// once per frame. Prints one JSON line: how many were checked, and the mismatches.
import { createInterface } from "node:readline";
import { mineKey, mineView, playersView, supplyKey, supplyView, turnLine } from "../../clients/web/js/board.js";
import { endView, rematchView } from "../../clients/web/js/end.js";
import { decisionView, resignView } from "../../clients/web/js/controls.js";
import { oncePerFrame } from "../../clients/web/js/dom.js";
import { I18n } from "../../clients/web/js/i18n.js";
import * as act from "../../clients/web/js/page_state.js";
import { byClass, findAll, textOf } from "./vnodes.mjs";

const { Effect, Intent } = act;
const problems = [];
let checked = 0;
let ended = 0;

/** The words a node says, without the shortcut keys it shows (`kbd`). */
const wordsOf = (node) => (typeof node === "object"
  ? node.children.filter((c) => c.tag !== "kbd").map(wordsOf).join("") : String(node));
/** A card or button that answers an option of the decision. */
const isOption = (node) => node.props.dataset?.option !== undefined;

function expect(where, what, got, want) {
  if (JSON.stringify(got) !== JSON.stringify(want) && problems.length < 30) {
    problems.push({ where, what, got, want });
  }
}

function checkDrawn(where, page, i18n, { view, decision }) {
  const game = page.game;
  const turn = view.turn;
  const line = textOf(turnLine(game, i18n));
  const name = view.players[turn.player].name;
  expect(where, "turn line names the player", line.includes(name), true);
  expect(where, "(you) only on your turn", line.includes("(you)"), turn.player === page.viewer);
  const coins = findAll(turnLine(game, i18n), byClass("coins")).map(textOf);
  expect(where, "coins", coins, view.result ? coins : [`Coins ${turn.coins}`]);
  expect(where, "counters until the end", line.includes(`Actions ${turn.actions} · Buys ${turn.buys}`),
    !view.result);

  const supply = supplyView(game, i18n);
  const piles = findAll(supply, byClass("card"));
  expect(where, "piles", piles.map((p) => p.props.dataset.card).sort(),
    Object.keys(view.supply).sort());
  for (const pile of piles) {
    const left = view.supply[pile.props.dataset.card];
    const shown = textOf(findAll(pile, byClass("card-count"))[0]);
    expect(where, `left ${pile.props.dataset.card}`, shown, left ? `×${left}` : "empty");
  }
  const kingdom = findAll(findAll(supply, byClass("kingdom"))[0], byClass("card"));
  expect(where, "the Kingdom by cost", kingdom.map((p) => i18n.cost(p.props.dataset.card)),
    kingdom.map((p) => i18n.cost(p.props.dataset.card)).sort((a, b) => a - b));
  const chips = findAll(playersView(game, i18n), byClass("chip"));
  const facts = (kind) => chips.map((chip) => findAll(chip, byClass(kind))[0].props.dataset.value);
  expect(where, "hand sizes", facts("hand-size"), view.players.map((p) => String(p.hand_size)));
  expect(where, "points", facts("points"),
    view.players.map((p) => (Number.isInteger(p.points) ? String(p.points) : "–")));
  const mine = mineView(game, i18n);
  expect(where, "your hand is drawn for a seat", mine !== null, page.viewer !== null);

  // every option of your decision is drawn (a card of the hand or the Supply, or a button
  // of the bar), each card option once; nothing is offered to anyone else
  const bar = decisionView(page, i18n);
  const offered = [supply, mine, bar].filter(Boolean)
    .flatMap((part) => findAll(part, (n) => n.props.dataset?.option !== undefined));
  const deciding = decision !== null && decision.player === page.viewer
    && !page.autoAnswered.has(decision.id);
  expect(where, "options only for the decider", [...new Set(offered.map((n) => Number(n.props.dataset.option)))]
    .sort((a, b) => a - b), deciding ? decision.options.map((o) => o.id) : []);
  expect(where, "options enabled", offered.filter((o) => o.props.disabled).length, 0);
  const idsIn = (part) => (part ? findAll(part, (n) => n.props.dataset?.option !== undefined)
    .map((n) => n.props.dataset.option) : []);
  const onCards = new Set([...idsIn(supply), ...idsIn(mine)]);
  expect(where, "no option both a card and a button (no list of Buy buttons)",
    idsIn(bar).filter((id) => onCards.has(id)), []);
  const idle = findAll(supply, byClass("idle")).concat(mine ? findAll(mine, byClass("idle")) : []);
  expect(where, "a card no option names is not offered",
    idle.filter((n) => n.props.dataset.option !== undefined || n.props["aria-disabled"] !== "true").length, 0);
  if (decision && !deciding && decision.player !== page.viewer) {
    expect(where, "waiting for", textOf(bar).includes(`Waiting for ${view.players[decision.player].name}`), true);
  }
  if (view.result) {
    const end = endView(game, i18n, "g-1", (id, format) => `/${id}.${format}`);
    const winners = view.result.winners.map((seat) => view.players[seat].name);
    expect(where, "the end names the winners", winners.every((w) => textOf(end).includes(w)), true);
    expect(where, "the end's scores", findAll(end, (n) => n.tag === "tr").length,
      view.players.length + 1);
    expect(where, "no resign button at the end", resignView(page, i18n), null);
    ended += 1;
  }
  checked += 1;
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const i18n = new I18n(null, ["en"]);
i18n.setCatalogue(JSON.parse((await lines.next()).value), 2);
let pages = new Map();
const supplies = new Map(); // each viewer's last Supply: its key and what was drawn
const mines = new Map(); // each viewer's last cards of their own: their key and drawing
let sameMine = 0; // updates that left a viewer's own cards' key as it was
let keysChanged = 0;
let samePiles = 0; // piles drawn again from the same data, as the very vnode drawn before
for await (const line of lines) {
  const step = JSON.parse(line);
  if (step.game_start) {
    pages = new Map();
    supplies.clear();
    mines.clear();
    continue;
  }
  const key = JSON.stringify(step.viewer);
  if (!pages.has(key)) pages.set(key, act.newPageState(step.viewer));
  const page = pages.get(key);
  const before = page.version.game;
  const effects = act.update(page, step.message);
  expect(step.where, "an update changes the game's version", page.version.game > before, true);
  if (effects.length) { // a forced answer: the board is checked as it is once sent
    expect(step.where, "a forced answer is sent", effects.map((e) => [e.type, e.decision]),
      [[Effect.ANSWER, page.game.decision.id]]);
    page.sending = null;
  }
  checkDrawn(`${step.where} viewer ${key}`, page, i18n, step.message);
  // the page draws the Supply again only when its key changed: the same key, the same Supply
  const view = supplyView(page.game, i18n);
  const supply = { key: supplyKey(page.game), drawn: JSON.stringify(view),
    piles: findAll(view, byClass("pile")) };
  const last = supplies.get(key);
  if (last?.key === supply.key) {
    expect(step.where, "the Supply's key says what it draws", supply.drawn, last.drawn);
  }
  if (last && last.key !== supply.key) keysChanged += 1;
  // a pile drawn from the same data is the same vnode (patch passes it over), another a new one
  for (const [at, pile] of (last?.piles ?? []).entries()) {
    const now = supply.piles[at];
    if (JSON.stringify(now) === JSON.stringify(pile)) samePiles += now === pile ? 1 : 0;
    else expect(step.where, "a pile whose data changed is drawn anew", now === pile, false);
  }
  supplies.set(key, supply);
  // and your own cards likewise: the same key, the same cards drawn
  const mine = { key: mineKey(page.game, page.picked.ids),
    drawn: JSON.stringify(mineView(page.game, i18n, page.picked.ids)) };
  if (mines.get(key)?.key === mine.key) {
    sameMine += 1;
    expect(step.where, "your cards' key says what they draw", mine.drawn, mines.get(key).drawn);
  }
  mines.set(key, mine);
}
expect("the games", "the Supply's key changes, and stays for most updates",
  [keysChanged > 0, keysChanged < checked / 2], [true, true]);
expect("the games", "an unchanged pile is the vnode drawn before", samePiles > checked, true);
expect("the games", "another's move leaves your cards' key as it was", sameMine > 0, true);

// -- a person's intents, on a state of its own ----------------------------------------------
const option = (id, kind = "card", card = "copper") => ({ id, kind, card });
const view = (decision, players = 2) => ({
  edition: 2, kingdom: [], supply: { copper: 3, gold: 0 }, trash: [], result: null,
  turn: { number: 1, player: 0, player_turn: 1, phase: "action", actions: 1, buys: 1, coins: 2 },
  players: Array.from({ length: players }, (_, seat) => ({
    seat, name: `P${seat}`, hand: ["copper"], hand_size: 1, in_play: [], set_aside: [],
    looking: [], deck_size: 5, discard_top: null, turns: 1, resigned: false, points: 3,
  })),
  decision,
});
const ask = (options, min, max) => ({
  id: 7, player: 0, kind: "discard", prompt: "Discard", source: null, min, max,
  ordered: false, options,
});
const started = (decision, viewer = 0) => {
  const page = act.newPageState(viewer);
  act.snapshot(page, { type: "snapshot", game: "g", seq: 3, view: view(decision) });
  return page;
};
const where = "intents";

let page = started(ask([option(0), option(1, "card", "estate"), option(2, "card", "gold")], 0, 2));
expect(where, "a pick of several sends nothing", act.intend(page, { type: Intent.PICK,
  option: page.game.decision.options[2] }), []);
act.intend(page, { type: Intent.CLICK_HAND, card: "copper" });
expect(where, "picked, in order", page.picked.ids, [2, 0]);
act.intend(page, { type: Intent.PICK, option: page.game.decision.options[1] });
expect(where, "no more than max", page.picked.ids, [2, 0]);
act.intend(page, { type: Intent.PICK, option: page.game.decision.options[2] });
expect(where, "a second click unpicks", page.picked.ids, [0]);
const marked = findAll(decisionView(page, i18n), byClass("picked")).map((b) => b.props.dataset.key);
expect(where, "the picked option is marked", marked, ["option:0"]);
const sent = act.intend(page, { type: Intent.CONFIRM });
expect(where, "confirm answers with the picked", sent,
  [{ type: Effect.ANSWER, decision: 7, options: [0] }]);
expect(where, "no second answer on its way", act.intend(page, { type: Intent.CONFIRM }), []);
const busy = findAll(decisionView(page, i18n), (n) => n.tag === "button"
  && n.props.dataset.key !== "log-toggle"); // the page's own switch, not an answer
expect(where, "every button disabled while sending", busy.every((b) => b.props.disabled), true);
act.answerFailed(page, 7, { refusal: "no" });
expect(where, "a refusal is said", textOf(decisionView(page, i18n)).includes("⚠ The server refused: no"), true);
expect(where, "and the options are enabled again",
  findAll(decisionView(page, i18n), isOption).some((b) => b.props.disabled), false);

page = started(ask([option(0, "play", "gold"), option(1, "end_phase", null)], 1, 1));
expect(where, "one pick answers", act.intend(page, { type: Intent.CLICK_HAND, card: "gold" }),
  [{ type: Effect.ANSWER, decision: 7, options: [0] }]);

page = started(ask([option(0, "buy", "copper"), option(1, "end_phase", null)], 1, 1), 1);
act.intend(page, { type: Intent.CLICK_SUPPLY, card: "copper" });
expect(where, "not your turn", textOf(decisionView(page, i18n)).includes("It is not your decision now."), true);
expect(where, "no options for another's decision",
  findAll(decisionView(page, i18n), isOption).length, 0);
page = started(ask([option(0, "buy", "copper"), option(1, "end_phase", null)], 1, 1), null);
act.intend(page, { type: Intent.CLICK_SUPPLY, card: "gold" });
expect(where, "a spectator's click shows the card", page.shownCard, "gold");
expect(where, "a spectator has no resign button", resignView(page, i18n), null);

page = started(ask([option(0)], 1, 1));
expect(where, "a forced answer is sent at once", page.sending, 7);
expect(where, "and said", textOf(decisionView(page, i18n)).includes("Answered for you (the only choice): Copper."), true);

// what the page answered by itself goes with the next decision, and at the end
const next = (decision, seq) => ({ type: "update", game: "g", seq, events: [{ kind: "shuffled", player: 0 }],
  decision, view: view(decision) });
act.update(page, next({ ...ask([option(0), option(1, "card", "estate")], 1, 1), id: 8 }, 4));
expect(where, "the note goes with the next decision",
  textOf(decisionView(page, i18n)).includes("Answered for you"), false);
page = started(ask([option(0)], 1, 1));
act.gameOver(page, { result: { winners: [0], scores: [3, 3], turns: [1, 1] } });
expect(where, "and at the end", page.note, null);

// a decision of at most one card: nothing picked is answered only by a button saying so
const throne = { ...ask([option(0, "card", "village"), option(1, "card", "smithy")], 0, 1),
  kind: "play", source: "throne_room" };
page = started(throne);
const buttonsOf = (p) => findAll(decisionView(p, i18n), (n) => n.tag === "button");
const confirmOf = (p) => buttonsOf(p).find((b) => b.props.dataset.key === "confirm");
expect(where, "confirm waits for a pick", confirmOf(page).props.disabled, true);
expect(where, "the none button says what it does",
  wordsOf(buttonsOf(page).find((b) => b.props.dataset.key === "none")), "Play nothing");
act.intend(page, { type: Intent.PICK, option: throne.options[1] });
expect(where, "a pick enables confirm", confirmOf(page).props.disabled, false);

// the options in the hand's order
page = started(ask([option(0, "card", "gold"), option(1, "card", "copper"),
  option(2, "card", "estate")], 2, 2));
expect(where, "options in the hand's order",
  findAll(decisionView(page, i18n), isOption).map((b) => b.props.dataset.card),
  ["copper", "estate", "gold"]);

// the end: no counters, why it ended (the server's reason), points by card, the decks
const ending = (result) => {
  const over = started(null);
  act.gameOver(over, { result: { winners: [0], scores: [9, 3], turns: [12, 11],
    decks: [{ copper: 7, province: 1, estate: 3 }, { copper: 7 }], ...result } });
  return over;
};
page = ending({ ended_by: "provinces", empty_piles: ["province"], tie: null,
  points_by_card: [[{ card: "province", count: 1, points: 6 },
    { card: "estate", count: 3, points: 3 }],
  [{ card: "gardens", count: 1, points: 3, cards_owned: 38 }, { card: "curse", count: 1, points: -1 }]] });
expect(where, "no counters at the end", textOf(turnLine(page.game, i18n)).includes("Actions"),
  false);
const endText = textOf(endView(page.game, i18n, "g", () => ""));
expect(where, "ended: the Provinces", endText.includes("The Provinces are gone."), true);
expect(where, "each deck", endText.includes("3 × Estate, 1 × Province, 7 × Copper"), true);
expect(where, "points by card", endText.includes("Province ×1 = 6, Estate ×3 = 3"), true);
expect(where, "Gardens by the cards counted",
  endText.includes("Gardens ×1 (38 cards) = 3, Curse ×1 = -1"), true);
expect(where, "turns per player", endText.includes("12") && endText.includes("11"), true);
page = ending({ ended_by: "piles", empty_piles: ["copper", "village", "smithy"], tie: null });
expect(where, "ended: three piles, named by the server",
  textOf(endView(page.game, i18n, "g", () => "")).includes("Piles empty: Copper, Village, Smithy."),
  true);
page = ending({ ended_by: "provinces", empty_piles: ["province"], tie: "fewer_turns",
  scores: [9, 9] });
expect(where, "a tie goes to fewer turns",
  textOf(endView(page.game, i18n, "g", () => "")).includes("Tied on points: P0 had fewer turns."),
  true);
page = ending({});
expect(where, "an older result: no reason made up",
  textOf(endView(page.game, i18n, "g", () => "")).includes("gone"), false);

// a rated game: waiting for the ledger, then each player's change; or unrated, and why
page = ending({});
const rated = () => textOf(endView(page.game, i18n, "g", () => "",
  { ratings: page.ratings, rated: true }));
expect(where, "rated: waiting", rated().includes("the ratings are being updated"), true);
expect(where, "an unrated table says nothing of ratings",
  textOf(endView(page.game, i18n, "g", () => "")).includes("Rat"), false);
act.ratingChanged(page, { game: "g", changes: [{ seat: 0, before: 1500, after: 1516,
  provisional: true }, { seat: 1, before: 1210, after: 1198, provisional: false }] });
expect(where, "rated: each change", [rated().includes("1516? (+16)"),
  rated().includes("1198 (\u221212)"), rated().includes("rating changed as shown")],
[true, true, true]);
act.ratingChanged(page, { game: "g", changes: [], unrated: "too_short" });
expect(where, "unrated: too short", [rated().includes("resigned before the game was far"),
  rated().includes("Rating")], [true, false]);
act.ratingChanged(page, { game: "g", changes: [{ seat: 0, before: 1500, after: 1500,
  provisional: true }], unrated: "pair_limit" });
expect(where, "unrated: the pair limit", [rated().includes("today's counted rated games"),
  rated().includes("1500? (\u00b10)")], [true, true]);
page = ending({});
act.loaded(page, { seats: [], state: "finished", rated: true,
  ratings: { changes: [{ seat: 1, before: 1500, after: 1480, provisional: true }],
    unrated: null } });
expect(where, "the summary's ratings, when loaded later", rated().includes("1480? (\u221220)"),
  true);

// the rematch: offered, answered, followed
page = started(null);
act.gameOver(page, { result: { winners: [0], scores: [9, 3], turns: [12, 11], decks: [] } });
expect(where, "a player may offer a rematch",
  findAll(rematchView(page, i18n), (n) => n.tag === "button").map((b) => b.props.dataset.key),
  ["rematch-same", "rematch-random"]);
expect(where, "offering sends it", act.intend(page, { type: Intent.OFFER_REMATCH, kingdom: "random" }),
  [{ type: Effect.REMATCH, request: "rematch_offer", fields: { kingdom: "random" } }]);
act.rematchOffered(page, { by: 1, kingdom: "same", accepted: [1], waiting: [0] });
expect(where, "the others accept or decline",
  findAll(rematchView(page, i18n), (n) => n.tag === "button").map((b) => b.props.dataset.key),
  ["rematch-accept", "rematch-decline"]);
expect(where, "accepting sends it", act.intend(page, { type: Intent.ANSWER_REMATCH, accept: true }),
  [{ type: Effect.REMATCH, request: "rematch_answer", fields: { accept: true } }]);
expect(where, "the player follows to the new seat",
  act.rematchStarted(page, { new_game: "g-2", seat: 0, token: "tk" }),
  [{ type: Effect.FOLLOW, game: "g-2", seat: 0, token: "tk" }]);
const watching = started(null, null);
act.gameOver(watching, { result: { winners: [0], scores: [9, 3], turns: [12, 11], decks: [] } });
expect(where, "a spectator cannot offer", rematchView(watching, i18n), null);
act.rematchOffered(watching, { by: 0, kingdom: "same", accepted: [0], waiting: [1] });
expect(where, "a spectator sees the offer", textOf(rematchView(watching, i18n))
  .includes("Waiting for:"), true);
expect(where, "a spectator follows to watch",
  act.rematchStarted(watching, { new_game: "g-2" }),
  [{ type: Effect.FOLLOW, game: "g-2", seat: null, token: null }]);

page = started(null);
expect(where, "resign asks first", act.intend(page, { type: Intent.RESIGN }), []);
expect(where, "then asks to be sure", resignView(page, i18n).children[0].props.dataset.key,
  "resign-sure");
expect(where, "then resigns", act.intend(page, { type: Intent.RESIGN }), [{ type: Effect.RESIGN }]);

const gap = act.update(page, { type: "update", game: "g", seq: 9, events: [{}], decision: null,
  view: view(null) });
expect(where, "missed events: resume", gap, [{ type: Effect.RESUME }]);
expect(where, "and nothing changed", page.game.seq, 3);
const many = Array.from({ length: act.LOG_LINES + 5 }, () => ({ kind: "shuffled", player: 0 }));
act.update(page, { type: "update", game: "g", seq: 3 + many.length, events: many,
  decision: null, view: view(null) });
expect(where, "the log keeps its last lines", [page.log.events.length, page.log.total],
  [act.LOG_LINES, many.length]);
const ui = page.version.ui;
const game = page.version.game;
act.chat(page, { from: "P1", text: "hi" });
expect(where, "chat changes the page, not the game", [page.version.ui > ui, page.version.game],
  [true, game]);
act.gameOver(page, { result: { winners: [0], scores: [3, 3], turns: [1, 1] } });
expect(where, "game over", [page.game.result.winners, page.version.game > game], [[0], true]);

// -- at most once per animation frame ---------------------------------------------------
const frames = [];
let draws = 0;
const schedule = oncePerFrame(() => { draws += 1; }, (callback) => frames.push(callback));
for (let i = 0; i < 5; i += 1) schedule();
expect("frames", "five changes, one frame asked", [frames.length, draws], [1, 0]);
frames.shift()();
schedule();
expect("frames", "drawn once, then a new frame", [frames.length, draws], [1, 1]);

console.log(JSON.stringify({ checked, ended, problems }));
