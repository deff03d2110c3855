// Reads steps of games from standard input (JSON lines, written by test_state_js.py) and
// checks that the page's GameState, kept from the updates each viewer received, shows the
// engine's view after every answer, and that a replay's ReplayState follows where the
// cards are. Prints one JSON line: how many were checked, and the mismatches.
import { createInterface } from "node:readline";
import { GameState, ReplayState } from "../../clients/web/js/state.js";

const sorted = (cards) => [...cards].sort();
const canonical = (value) => JSON.stringify(value, (_key, inner) => (
  inner && typeof inner === "object" && !Array.isArray(inner)
    ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
    : inner));
const same = (a, b) => canonical(a) === canonical(b);
const problems = [];
let states = new Map();
let checked = 0;
let replayed = 0;

function wrongIn(where) {
  return (what, got, want) => {
    if (problems.length < 20) problems.push({ where, what, got: canonical(got), want });
  };
}

/** What the board draws (board.js) is the engine's view. */
function check(where, state, view) {
  const wrong = wrongIn(where);
  for (const key of ["supply", "trash", "turn", "players", "decision", "result", "kingdom"]) {
    if (!same(state[key], view[key])) wrong(key, state[key], view[key]);
  }
  checked += 1;
}

/** A replay follows the piles, every hand, the play areas and the turns. */
function checkReplay(where, state, view) {
  const wrong = wrongIn(where);
  if (!same(state.supply, view.supply)) wrong("supply", state.supply, view.supply);
  if (!same(state.trash, view.trash)) wrong("trash", state.trash, view.trash);
  if (state.turn.player_turn !== view.turn.player_turn) {
    wrong("player_turn", state.turn.player_turn, view.turn.player_turn);
  }
  view.players.forEach((want, seat) => {
    const got = state.players[seat];
    for (const key of ["hand_size", "turns", "resigned"]) {
      if (got[key] !== want[key]) wrong(`${seat}.${key}`, got[key], want[key]);
    }
    for (const key of ["in_play", "set_aside", "hand"]) {
      if (!same(sorted(got[key]), sorted(want[key]))) wrong(`${seat}.${key}`, got[key], want[key]);
    }
  });
  replayed += 1;
}

for await (const line of createInterface({ input: process.stdin })) {
  const step = JSON.parse(line);
  if (step.game_start) {
    states = new Map();
    continue;
  }
  if (step.replay) {
    if (!states.has("replay")) states.set("replay", new ReplayState());
    const state = states.get("replay");
    step.events.forEach((event, index) => {
      state.applyEvent(step.seq - step.events.length + 1 + index, event);
    });
    checkReplay(`${step.game} seq ${step.seq}`, state, step.expected);
    continue;
  }
  const key = JSON.stringify(step.viewer);
  if (step.snapshot) { // a page that arrives late: from a snapshot, then the same updates
    const late = new GameState(step.viewer);
    late.applySnapshot(step.snapshot.event_count, step.snapshot);
    states.set(`late ${key}`, late);
    continue;
  }
  if (!states.has(key)) states.set(key, new GameState(step.viewer));
  for (const which of [key, `late ${key}`]) {
    const state = states.get(which);
    if (!state) continue;
    const held = state.seq;
    const fresh = state.applyUpdate(step.seq, step.events, step.decision, step.view);
    const numbers = fresh.map(([number]) => number);
    const want = Array.from({ length: step.seq - held }, (_, i) => held + 1 + i);
    if (!same(numbers, want)) wrongIn(`${step.game} ${which}`)("new events", numbers, want);
    check(`${step.game} ${which} seq ${step.seq}`, state, step.expected);
  }
}
console.log(JSON.stringify({ checked, replayed, problems }));
