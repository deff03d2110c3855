// Reads steps of games from standard input (JSON lines, written by test_state_js.py) and
// checks that the page's GameState, kept from the events each viewer received, agrees
// with the engine's view after every change. Prints one JSON line: the mismatches.
import { createInterface } from "node:readline";
import { GameState } from "../../clients/web/js/state.js";

const sorted = (cards) => [...cards].sort();
const canonical = (value) => JSON.stringify(value, (_key, inner) => (
  inner && typeof inner === "object" && !Array.isArray(inner)
    ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
    : inner));
const same = (a, b) => canonical(a) === canonical(b);
const problems = [];
let states = new Map();
let checked = 0;

function check(where, state, view, owned) {
  const wrong = (what, got, want) => {
    if (problems.length < 20) problems.push({ where, what, got: canonical(got), want });
  };
  if (!same(state.supply, view.supply)) wrong("supply", state.supply, view.supply);
  if (!same(state.trash, view.trash)) wrong("trash", state.trash, view.trash);
  // during a Moat question the engine has not yet counted the Attack's +coins
  // (docs/RULES.md: Moat first); a page counts them when the card is played
  if (!same(state.turn, view.turn) && view.decision?.kind !== "react") {
    wrong("turn", state.turn, view.turn);
  }
  view.players.forEach((want, seat) => {
    const got = state.players[seat];
    for (const key of ["hand_size", "turns", "deck_size"]) {
      if (got[key] !== want[key]) wrong(`${seat}.${key}`, got[key], want[key]);
    }
    for (const key of ["in_play", "set_aside", "hand", "looking"]) {
      if (key in want && !same(sorted(got[key] ?? []), sorted(want[key]))) {
        wrong(`${seat}.${key}`, got[key], want[key]);
      }
    }
    // public, so always known: what a page that reconnected now would be shown
    if (got.discard_top !== want.discard_top) {
      wrong(`${seat}.discard_top`, got.discard_top, want.discard_top);
    }
    if (owned && got.owned_known) {
      const mine = Object.fromEntries(Object.entries(got.owned).filter(([, n]) => n));
      if (!same(mine, owned[seat])) {
        wrong(`${seat}.owned`, mine, owned[seat]);
      }
    }
  });
  checked += 1;
}

for await (const line of createInterface({ input: process.stdin })) {
  const step = JSON.parse(line);
  if (step.game_start) {
    states = new Map();
    continue;
  }
  const key = JSON.stringify(step.viewer);
  if (step.snapshot) { // a page that arrives late: from a snapshot, then the same updates
    const late = new GameState(step.viewer, step.costs, false);
    late.applySnapshot(step.snapshot.event_count, step.snapshot);
    states.set(`late ${key}`, late);
    continue;
  }
  if (!states.has(key)) states.set(key, new GameState(step.viewer, step.costs, step.everyone));
  for (const which of [key, `late ${key}`]) {
    const state = states.get(which);
    if (!state) continue;
    state.applyUpdate(step.seq, step.events, step.decision);
    check(`${step.game} ${which} seq ${step.seq}`, state, step.view, step.owned);
  }
}
console.log(JSON.stringify({ checked, problems }));
