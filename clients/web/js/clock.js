// A table's clocks (docs/PROTOCOL.md: a `snapshot`'s and an `update`'s `clocks`): each
// seat's time left as of the moment the server made the frame, and the seat whose clock
// runs. The page counts that seat down from when the frame arrived, and every frame sets
// the clocks again. Your own clock warns under 30 s and again under 10 s, in a mark and
// words as well as its colour, and says so once to screen readers. A player the clock
// resigned is "out of time" in the log and at the end. Pure: the time is given, never read
// (the game page reads it), so Node tests every function; loaded with the game's page.

import { h } from "./dom.js";
import { addWords } from "./i18n.js";

/** key -> [English, Polish, Slovak, Lithuanian] */
export const CLOCK_WORDS = {
  clock_left: ["Time left", "Pozostały czas", "Zostávajúci čas", "Likęs laikas"],
  clock_low: ["low time", "mało czasu", "málo času", "mažai laiko"],
  clock_30: ["30 seconds left", "Zostało 30 sekund", "Zostáva 30 sekúnd", "Liko 30 sekundžių"],
  clock_10: ["10 seconds left", "Zostało 10 sekund", "Zostáva 10 sekúnd", "Liko 10 sekundžių"],
  out_of_time: ["out of time", "koniec czasu", "čas vypršal", "baigėsi laikas"],
  why_timed_out: ["Out of time, so resigned: {who}.", "Koniec czasu, a więc poddanie się: {who}.", "Čas vypršal, teda vzdanie: {who}.", "Baigėsi laikas, todėl pasiduoda: {who}."],
};
addWords(CLOCK_WORDS);

/** Your clock's warnings, most urgent last: the level it is drawn at below `belowMs`, and
 *  what screen readers are told when it gets there. */
export const WARNINGS = Object.freeze([
  Object.freeze({ belowMs: 30_000, level: "low", says: "clock_30" }),
  Object.freeze({ belowMs: 10_000, level: "critical", says: "clock_10" }),
]);

/** Under this, a clock shows tenths of a second. */
const TENTHS_BELOW_MS = 10_000;

const two = (n) => String(n).padStart(2, "0");

/** "10:00", "04:59", "00:09.4", "1:05:00": mm:ss, with tenths under 10 s and hours over an
 *  hour. Time is cut down, never rounded up: "00:00.0" is the flag falling. */
export function formatClock(ms) {
  const left = Math.max(0, Math.floor(ms));
  const tenths = Math.floor(left / 100) % 10;
  const seconds = Math.floor(left / 1000);
  const clock = `${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)}:${clock}`;
  return left < TENTHS_BELOW_MS ? `${clock}.${tenths}` : clock;
}

/** A frame's `clocks` as the page keeps them: with `at`, when the frame arrived (ms, the
 *  page's own clock); null for a table without a clock. */
export function clocksOf(frame, at) {
  const clocks = frame.clocks;
  if (!clocks) return null;
  return {
    remainingMs: [...clocks.remaining_ms], running: clocks.running ?? null,
    initialMs: clocks.initial_ms, incrementMs: clocks.increment_ms, at,
  };
}

/** Each seat's time left at `now`: the running seat's counted down from the frame's
 *  arrival, and never below nothing. */
export function timesLeft(clocks, now) {
  const spent = Math.max(0, now - clocks.at);
  return clocks.remainingMs.map((ms, seat) => Math.max(0, seat === clocks.running ? ms - spent : ms));
}

/** The clocks stopped at `now` (the game is over): each keeps the time it shows. */
export function stopped(clocks, now) {
  if (!clocks || clocks.running === null) return clocks;
  return { ...clocks, remainingMs: timesLeft(clocks, now), running: null, at: now };
}

/** The most urgent warning a clock showing `ms` is under, or null. */
export function warningOf(ms) {
  return WARNINGS.findLast((warning) => ms < warning.belowMs) ?? null;
}

/**
 * What to tell screen readers of your clock, now showing `ms`: the warning newly reached,
 * once. `said` is the threshold last said (null: none); an increment that takes the clock
 * back above it lets it be said again when the time runs down to it again.
 * @returns {{said: number|null, say: string|null}} the threshold now said, the words' key
 */
export function clockWarning(said, ms) {
  const warning = warningOf(ms);
  if (!warning) return { said: null, say: null };
  if (said !== null && said <= warning.belowMs) {
    return { said: Math.max(said, warning.belowMs), say: null };
  }
  return { said: warning.belowMs, say: warning.says };
}

/** What each seat's clock shows at `now`: its time, whether it runs, and (your own only)
 *  its warning level. Null for a table without a clock. */
export function clockFaces(clocks, now, viewer) {
  if (!clocks) return null;
  return timesLeft(clocks, now).map((ms, seat) => ({
    text: formatClock(ms), running: seat === clocks.running,
    level: seat === viewer ? (warningOf(ms)?.level ?? null) : null,
  }));
}

/** What the faces show, as a key: the players' part is drawn again when it changes. */
export function facesKey(faces) {
  return faces ? faces.map((f) => `${f.text}${f.running ? "*" : ""}${f.level ?? ""}`).join(" ") : "-";
}

/** A seat's clock, beside its name: "04:59"; under a warning, "⚠ 00:25" and the words
 *  "low time" for screen readers (the colour is never the only cue). */
export function clockView(face, i18n) {
  const level = face.level ? ` ${face.level}` : "";
  return h("span", { class: `clock${face.running ? " running" : ""}${level}`, key: "clock" },
    h("span", { class: "visually-hidden" }, `${i18n.t("clock_left")}: `),
    face.level
      ? [h("span", { "aria-hidden": "true" }, "⚠ "),
        h("span", { class: "visually-hidden" }, `${i18n.t("clock_low")}: `)]
      : null,
    h("b", {}, face.text));
}

/** Whether the clock resigned this seat: its event said so, or the result does (its
 *  `timed_out`; a page that began from a snapshot saw no event). */
export function timedOut(state, seat) {
  return Boolean(state.timedOut?.has(seat)) || Boolean(state.result?.timed_out?.includes(seat));
}
