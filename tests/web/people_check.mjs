// The people at a live game's page, under Node: names from the table's summary (an
// account's linked to its profile, a bot's marked) on the players' chips and the end
// table; a summary taken before the start asked for again; a chat line a moderator
// removed and a game an admin abandoned (page_state.js, board.js, end.js); the lists'
// names of people a bot played on for, said to have left and never marked (names.js); a
// rated table's ratings beside the names.
// Prints one JSON line: the mismatches.
import { playersView } from "../../clients/web/js/board.js";
import { abandonedView, endView } from "../../clients/web/js/end.js";
import { h } from "../../clients/web/js/dom.js";
import { addWords, I18n } from "../../clients/web/js/i18n.js";
import { RATING_COUNTED, RATING_WORDS } from "../../clients/web/js/rating_words.js";
import { nameList } from "../../clients/web/js/names.js";
import * as act from "../../clients/web/js/page_state.js";
import { byClass, findAll, textOf } from "./vnodes.mjs";

const { Effect, Intent } = act;
const problems = [];

function expect(what, got, want) {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push({ what, got, want });
}


addWords(RATING_WORDS, RATING_COUNTED);
const i18n = new I18n(null, ["en"]);
const seats = [
  { seat: 0, name: "Ada", account: true, bot: null, bot_account: false },
  { seat: 1, name: "Bot 2 (strong)", account: false, bot: "strong", bot_account: false },
  { seat: 2, name: "Robo", account: true, bot: null, bot_account: true },
];
const view = (decision) => ({
  edition: 2, kingdom: [], supply: { copper: 3 }, trash: [], result: null,
  turn: { number: 1, player: 0, player_turn: 1, phase: "action", actions: 1, buys: 1, coins: 0 },
  players: seats.map(({ seat, name }) => ({
    seat, name, hand: ["copper"], hand_size: 1, in_play: [], set_aside: [], looking: [],
    deck_size: 5, discard_top: null, turns: 1, resigned: false, points: 3,
  })),
  decision,
});
const decision = {
  id: 7, player: 0, kind: "buy", prompt: "Buy", source: null, min: 1, max: 1, ordered: false,
  options: [{ id: 0, kind: "buy", card: "copper" }, { id: 1, kind: "end_phase", card: null }],
};

// the summary before the start: the page asks for it again once the game starts
let page = act.newPageState(0);
act.loaded(page, { state: "open", seats: seats.map((s) => ({ ...s, name: null })), result: null });
expect("a summary from before the start is asked for again",
  act.snapshot(page, { type: "snapshot", game: "g", seq: 3, view: view(decision) })
    .filter((e) => e.type === Effect.LOAD_SUMMARY).length, 1);
act.loaded(page, { state: "playing", seats, result: null });
expect("a summary of a running game is not", act.snapshot(page,
  { type: "snapshot", game: "g", seq: 3, view: view(decision) })
  .filter((e) => e.type === Effect.LOAD_SUMMARY).length, 0);

// the chips: an account's name links to its profile, a bot's is marked with its strategy
const chips = findAll(playersView(page.game, i18n), byClass("chip"));
const links = chips.map((chip) => findAll(chip, (n) => n.tag === "a").map((a) => a.props.href));
expect("accounts' names link to their profiles", links, [["/@/Ada"], [], ["/@/Robo"]]);
const marks = chips.map((chip) => findAll(chip, byClass("bot-mark"))
  .map((m) => [textOf(m), m.props.role, m.props["aria-label"]]));
expect("bots are marked, the mark named", marks,
  [[], [["BOT", "img", "Expert bot"]], [["BOT", "img", "bot"]]]);
expect("you are still said", textOf(chips[0]).includes("Ada (you)"), true);

// a rated table: each account's rating beside its name on the chips, as it sat down
act.loaded(page, { state: "playing", result: null, rated: true, seats: seats.map((s, i) => (
  i === 1 ? s : { ...s, rating: { rating: 1523 - i, provisional: i === 0 } })) });
const rated = findAll(playersView(page.game, i18n), byClass("chip"));
expect("ratings beside the names (a bot account's too)", rated.map((chip) => findAll(chip,
  byClass("seat-rating")).map(textOf)), [["1523? (provisional)"], [], ["1521"]]);
expect("the name still links", findAll(rated[0], (n) => n.tag === "a").length, 1);
act.loaded(page, { state: "playing", seats, result: null });

// the end table marks the same names
act.gameOver(page, { result: { winners: [1], scores: [3, 9, 3], turns: [5, 5, 5], decks: [] } });
const end = endView(page.game, i18n, "g", () => "");
const rows = findAll(end, (n) => n.tag === "th" && n.props.scope === "row");
expect("the end links and marks names",
  rows.map((row) => [findAll(row, (n) => n.tag === "a").length,
    findAll(row, byClass("bot-mark")).length]), [[1, 0], [0, 1], [1, 1]]);
expect("the end asks who played on as a bot", act.gameOver(page, { result: page.game.result })
  .map((e) => e.type), [Effect.FORGET_SEAT, Effect.LOAD_SUMMARY]);

// a chat line a moderator removed: its words go, the page says why
page = act.newPageState(0);
act.loaded(page, { state: "playing", seats, result: null });
act.snapshot(page, { type: "snapshot", game: "g", seq: 3, view: view(decision) });
act.chat(page, { from: "Robo", text: "something vile", line: 12 });
act.chat(page, { from: "Ada", text: "gg", line: 13 });
const ui = page.version.ui;
act.chatRemoved(page, { line: 12 });
expect("the removed line's words are gone", page.chat.map((c) => [c.text, c.removed]),
  [["", true], ["gg", false]]);
expect("and the chat is drawn again", [page.chatRemoved, page.version.ui > ui], [1, true]);
act.chatRemoved(page, { line: 99 });
expect("a line never held changes nothing", page.chatRemoved, 1);

// a game an admin abandoned: nothing more to answer, the reason said
expect("abandoned: the seat is forgotten",
  act.gameAbandoned(page, { reason: "harassment" }), [{ type: Effect.FORGET_SEAT }]);
expect("no decision is left", page.game.myDecision(), null);
expect("a click answers nothing", act.intend(page, { type: Intent.CLICK_SUPPLY, card: "copper" })
  .filter((e) => e.type === Effect.ANSWER), []);
const told = textOf(abandonedView(page, i18n));
expect("the page says it was abandoned, and why",
  [told.includes("The game was abandoned"), told.includes("Why: harassment")], [true, true]);

// a page loaded after the abandonment: the summary says so, without the reason
page = act.newPageState(0);
act.loaded(page, { state: "abandoned", seats, result: null });
expect("abandoned with no result, from the summary", page.abandoned, { reason: null });
page = act.newPageState(0);
act.loaded(page, { state: "abandoned", seats, result: { abandoned: true, scores: [3, 3, 3] } });
expect("the server's own abandonment keeps its end screen", page.abandoned, null);

// a finished game in a list (the lobby, a profile): a person who resigned, or whose seat
// a bot took over, is no bot; the list says they left, in either language
const ended = [
  { seat: 0, name: "Ada", account: true, bot: null, bot_account: false, left: "resigned" },
  { seat: 1, name: "Ben", account: false, bot: null, bot_account: false, left: "taken_over" },
  { seat: 2, name: "Bot 3 (strong)", account: false, bot: "strong", bot_account: false,
    left: null },
];
for (const [language, words] of [["en", ["Ada (resigned)", "Ben (left)"]],
  ["pl", ["Ada (poddaje się)", "Ben (opuszcza grę)"]]]) {
  const list = h("p", {}, ...nameList(ended, new I18n(null, [language])));
  expect(`${language}: only the bot is marked a bot`,
    findAll(list, byClass("bot-mark")).map((mark) => mark.props["aria-label"]),
    [language === "en" ? "Expert bot" : "Ekspercki bot"]);
  const told = textOf(list);
  expect(`${language}: who left is said`, words.map((word) => told.includes(word)),
    [true, true]);
}

console.log(JSON.stringify({ problems }));
