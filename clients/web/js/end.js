// The end of a game: why it ended, the winners, each player's points card by card, deck
// and turns, the replay one click away, and a rematch offered to the same table. Shared by
// live games and replays. Pure, like board.js: it reads only the GameState (and the
// PageState's rematch) and the words (i18n) it is given, and returns vnodes whose clicks
// are intents. Every rule is the server's: why the game ended, the points, the ties come
// in the result (docs/PROTOCOL.md, "Result map"); an older result without them shows less.

import { byName } from "./board.js";
import { timedOut } from "./clock.js";
import { h } from "./dom.js";
import { playerName } from "./names.js";
import { Intent } from "./page_state.js";

/** Whether a card scores at the end, as the catalogue says (`vp`, `vp_per_cards`). */
function scores(card, i18n) {
  const entry = i18n.cards.get(card);
  return Boolean(entry) && ("vp" in entry || "vp_per_cards" in entry);
}

/** A deck at the end (card id -> how many): the cards that score first, then the most
 *  held: "3 × Province, 1 × Estate, 7 × Copper". */
function deckText(deck, i18n) {
  if (!deck) return "–";
  return Object.entries(deck)
    .sort(([a, m], [b, n]) => scores(b, i18n) - scores(a, i18n) || n - m || byName(a, b, i18n))
    .map(([card, n]) => `${n} × ${i18n.card(card)}`).join(", ");
}

/** The points card by card, as the server counted them, most first: "Province ×4 = 24,
 *  Gardens ×1 (38 cards) = 3, Curse ×1 = -1". */
export function pointsText(entries, i18n) {
  if (!entries?.length) return "–";
  return entries.map(({ card, count, points, cards_owned: owned }) => {
    const counted = owned ? ` (${i18n.count(owned, "cards")})` : "";
    return `${i18n.card(card)} ×${count}${counted} = ${points}`;
  }).join(", ");
}

/** Why the game ended, in the server's words (`ended_by`, `empty_piles`). */
function endedBecause(result, i18n) {
  switch (result.ended_by) {
    case "provinces": return i18n.t("why_provinces");
    case "piles": return i18n.t("why_piles",
      { piles: (result.empty_piles || []).map((card) => i18n.card(card)).join(", ") });
    case "resignations": return i18n.t("why_resignations");
    default: return null;
  }
}

/** " (out of time)" for a seat the clock resigned, " (resigned)" for one that resigned. */
function leftHow(state, seat, i18n) {
  if (timedOut(state, seat)) return ` (${i18n.t("out_of_time")})`;
  return (state.result.resigned || []).includes(seat) ? ` (${i18n.t("resigned")})` : "";
}

/** A rating change as it is said: "+16", "−12" (a minus sign, not a hyphen), "±0". */
export function signed(change) {
  if (change > 0) return `+${change}`;
  return change < 0 ? `\u2212${-change}` : "\u00b10";
}

/** A seat's rating after a rated game and its change: "1516? (+16)" (`rating_changed`,
 *  docs/PROTOCOL.md). */
export function ratingAfter(change, i18n) {
  return i18n.t("rating_after", { after: change.after, mark: change.provisional ? "?" : "",
    change: signed(change.after - change.before) });
}

/** Whether the game counted for ratings, and why not (`ratings`: what `rating_changed` or
 *  the game's summary said; `rated`: the table was rated). */
function ratedLine(ratings, rated, i18n) {
  if (ratings?.unrated) return i18n.t(`unrated_${ratings.unrated}`);
  if (ratings) return i18n.t("rated_applied");
  return rated ? i18n.t("rated_waiting") : null;
}

/** Each player's score, turns, points by card and deck at the end, the winners marked
 *  (their names linked and marked as the table's seats say: names.js); a rated game's
 *  rating changes once told. */
function endTable(result, state, i18n, ratings) {
  const winners = result.winners || [];
  const changes = new Map((ratings?.changes ?? []).map((change) => [change.seat, change]));
  const rating = (seat) => (changes.has(seat)
    ? h("td", { class: "rating-change", "data-label": i18n.t("rating_column") },
      ratingAfter(changes.get(seat), i18n))
    : h("td", { class: "rating-change", "data-label": i18n.t("rating_column") }, "–"));
  const head = ["players", "score", "turns", "points_by_card", "deck"]
    .concat(changes.size ? ["rating_column"] : [])
    .map((key) => h("th", { scope: "col" }, i18n.t(key)));
  return h("table", {},
    h("thead", {}, h("tr", {}, head)),
    h("tbody", {}, result.scores.map((score, seat) => h("tr", {
      class: winners.includes(seat) ? "winner" : "",
    }, h("th", { scope: "row" }, winners.includes(seat) ? "★ " : "",
      playerName(state.seatOf(seat), i18n, state.players.map((p) => p.name)),
      winners.includes(seat) ? ` (${i18n.t("winner")})` : "",
      leftHow(state, seat, i18n)),
    h("td", { class: "score", "data-label": i18n.t("score") }, String(score)),
    h("td", { class: "turns", "data-label": i18n.t("turns") }, String(result.turns[seat])),
    h("td", { class: "points", "data-label": i18n.t("points_by_card") },
      pointsText(result.points_by_card?.[seat], i18n)),
    h("td", { class: "deck", "data-label": i18n.t("deck") },
      deckText(result.decks?.[seat], i18n)),
    changes.size ? rating(seat) : null))));
}

/** The end of the game: the winners and why, the table of players, the replay; at a
 *  rated table (`rated`), whether it counted and each player's change (`ratings`). */
export function endView(state, i18n, gameId, replayUrl, { ratings = null, rated = false } = {}) {
  const result = state.result;
  const names = i18n.seatNames(state.players.map((p) => p.name));
  const winners = result.winners || [];
  // the clock's resignations (`timed_out`) are said apart from the players' own
  const outOfTime = names.map((_, seat) => seat).filter((seat) => timedOut(state, seat));
  const resigned = (result.resigned || []).filter((seat) => !outOfTime.includes(seat));
  const why = [];
  if (result.abandoned) why.push(i18n.t("abandoned"));
  else {
    why.push(endedBecause(result, i18n));
    if (result.tie === "fewer_turns") {
      why.push(i18n.t("why_tie", { who: winners.map((s) => names[s]).join(", ") }));
    } else if (result.tie === "shared" || (!result.tie && winners.length > 1)) {
      why.push(i18n.t("why_shared"));
    }
  }
  if (resigned.length) {
    why.push(i18n.t("why_resigned", { who: resigned.map((seat) => names[seat]).join(", ") }));
  }
  if (outOfTime.length) {
    why.push(i18n.t("why_timed_out", { who: outOfTime.map((seat) => names[seat]).join(", ") }));
  }
  const headline = result.abandoned ? "" : i18n.t(winners.length > 1 ? "winners_many" : "winners",
    { who: winners.map((s) => names[s]).join(", ") });
  return h("section", { class: "end", "aria-label": i18n.t("game_over"), id: "end" },
    h("h2", {}, i18n.t("game_over")),
    h("p", { class: "winners" }, headline),
    why.filter(Boolean).map((line) => h("p", { class: "why" }, line)),
    result.abandoned ? null
      : h("p", { class: "rated-line", "aria-live": "polite" }, ratedLine(ratings, rated, i18n)),
    h("div", { class: "scroll" }, endTable(result, state, i18n, ratings)),
    h("p", { class: "end-links" },
      h("a", { href: `#/replay/${gameId}`, class: "replay-link", dataset: { key: "replay" } },
        `▶ ${i18n.t("watch_replay")}`), " ",
      h("span", {}, i18n.t("download"), " ",
        ["json", "msgpack", "text"].map((format) => [h("a", {
          href: replayUrl(gameId, format), download: "",
        }, i18n.has(`format_${format}`) ? i18n.t(`format_${format}`) : format), " "]))));
}

/** A game abandoned with no result (`game_abandoned`: an admin ended it, or the server
 *  an open table nobody joined in time), and why, when the page was told. */
export function abandonedView(page, i18n) {
  const { reason } = page.abandoned;
  return h("section", { class: "end abandoned", "aria-label": i18n.t("game_over"), id: "end",
    role: "alert" },
  h("h2", {}, i18n.t("abandoned_no_result")),
  reason ? h("p", { class: "why" }, i18n.t("abandoned_reason", { reason })) : null,
  h("p", { class: "end-links" }, h("a", { href: "#/" }, i18n.t("back"))));
}

/** The rematch at an ended table (`page.rematch`, docs/PROTOCOL.md, `rematch_offer`): a
 *  seated player offers it (the same Kingdom, or a new one); the others accept or
 *  decline; everyone sees who is still to answer. */
export function rematchView(page, i18n) {
  const game = page.game;
  if (!game?.result) return null;
  const names = i18n.seatNames(game.players.map((p) => p.name));
  const rematch = page.rematch;
  const seated = page.viewer !== null;
  const t = (key, vars) => i18n.t(key, vars);
  const parts = [];
  const offerButtons = () => [
    h("button", {
      type: "button", class: "primary", dataset: { key: "rematch-same" },
      onclick: { type: Intent.OFFER_REMATCH, kingdom: "same" },
    }, t("rematch_same")),
    h("button", {
      type: "button", dataset: { key: "rematch-random" },
      onclick: { type: Intent.OFFER_REMATCH, kingdom: "random" },
    }, t("rematch_random")),
  ];
  if (rematch?.state === "offered") {
    const kingdom = t(rematch.kingdom === "random" ? "rematch_kingdom_random"
      : "rematch_kingdom_same");
    parts.push(h("p", { class: "offer" }, t("rematch_offered", { who: names[rematch.by], kingdom })));
    parts.push(h("p", {}, t("rematch_accepted",
      { who: rematch.accepted.map((s) => names[s]).join(", ") })));
    if (rematch.waiting.length) {
      parts.push(h("p", {}, t("rematch_waiting",
        { who: rematch.waiting.map((s) => names[s]).join(", ") })));
    }
    if (seated && rematch.waiting.includes(page.viewer)) {
      parts.push(h("p", { class: "buttons" },
        h("button", {
          type: "button", class: "primary", dataset: { key: "rematch-accept" },
          onclick: { type: Intent.ANSWER_REMATCH, accept: true },
        }, t("rematch_accept")),
        h("button", {
          type: "button", dataset: { key: "rematch-decline" },
          onclick: { type: Intent.ANSWER_REMATCH, accept: false },
        }, t("rematch_decline"))));
    }
  } else if (rematch?.state === "started") {
    parts.push(h("p", {}, t("rematch_started")));
  } else {
    if (rematch?.state === "cancelled") {
      parts.push(h("p", {}, rematch.reason === "declined"
        ? t("rematch_declined", { who: names[rematch.by] ?? "?" }) : t("rematch_expired")));
    }
    if (seated) parts.push(h("p", { class: "buttons" }, offerButtons()));
  }
  if (page.rematchRefused) {
    parts.push(h("p", { class: "refused", role: "alert" }, "⚠ ",
      t("refused", { message: page.rematchRefused })));
  }
  if (!parts.length) return null;
  return h("section", {
    class: "rematch", id: "rematch", "aria-label": t("rematch"), "aria-live": "polite",
  }, h("h2", {}, t("rematch")), parts);
}
