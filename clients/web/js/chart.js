// A rating's history as a line chart in plain SVG, drawn by the page (no library): the
// number shown after each rated game, oldest first, one step per game. `chartScale` is
// the arithmetic (pure, tested under Node); `ratingChart` the figure's vnodes: an SVG
// with a title and a description, and the same numbers as a table for whoever does not
// see the line.

import { h } from "./dom.js";
import { appUrl } from "./routes.js";

/** The drawing's box in SVG units: the SVG scales to its container's width. */
export const BOX = { width: 400, height: 200, left: 48, right: 10, top: 12, bottom: 12 };
const STEP = 50;
/** At most this many labelled lines across the chart. */
const MAX_TICKS = 5;

const round = (n) => Math.round(n * 10) / 10;

/**
 * Where each rating goes in `box`, and the labelled lines: the vertical range is whole
 * steps around the lowest and highest value (a flat history gets one step either side),
 * the games spread evenly from left to right (a single game sits in the middle).
 * @param {number[]} values the ratings, oldest first (at least one)
 */
export function chartScale(values, box = BOX) {
  let low = Math.floor(Math.min(...values) / STEP) * STEP;
  let high = Math.ceil(Math.max(...values) / STEP) * STEP;
  if (high === low) {
    low -= STEP;
    high += STEP;
  }
  const tick = STEP * Math.ceil((high - low) / STEP / (MAX_TICKS - 1));
  high = low + tick * Math.ceil((high - low) / tick); // the top is a labelled line too
  const width = box.width - box.left - box.right;
  const height = box.height - box.top - box.bottom;
  const x = (i) => box.left + (values.length === 1 ? width / 2 : (width * i) / (values.length - 1));
  const y = (value) => box.top + (height * (high - value)) / (high - low);
  const ticks = [];
  for (let value = low; value <= high; value += tick) ticks.push({ value, y: round(y(value)) });
  return {
    low, high, ticks,
    points: values.map((value, i) => ({ x: round(x(i)), y: round(y(value)) })),
  };
}

/**
 * The chart of one pool's history (`[{game, finished_at, rating}]`, oldest first, not
 * empty), `id` unique on the page (its title and description are named by it).
 * @param {{t: (key: string, vars?: object) => string, count: (n: number, noun: string) => string}} i18n
 */
export function ratingChart(history, id, i18n) {
  const values = history.map((point) => point.rating);
  const { ticks, points } = chartScale(values);
  const t = (key, vars) => i18n.t(key, vars);
  const line = points.map((p) => `${p.x},${p.y}`).join(" ");
  return h("figure", { class: "rating-chart" },
    h("svg", {
      viewBox: `0 0 ${BOX.width} ${BOX.height}`, role: "img",
      "aria-labelledby": `${id}-title ${id}-desc`, focusable: "false",
    },
    h("title", { id: `${id}-title` }, t("chart_title")),
    h("desc", { id: `${id}-desc` }, t("chart_about", {
      games: i18n.count(values.length, "rated_games"), first: values[0],
      last: values[values.length - 1], low: Math.min(...values), high: Math.max(...values),
    })),
    ticks.map((tick) => [
      h("line", { class: "grid", x1: BOX.left, x2: BOX.width - BOX.right, y1: tick.y, y2: tick.y }),
      h("text", { class: "tick", x: BOX.left - 6, y: tick.y, "text-anchor": "end",
        "dominant-baseline": "middle" }, String(tick.value)),
    ]),
    points.length > 1 && h("polyline", { class: "line", points: line }),
    points.map((p) => h("circle", { class: "point", cx: p.x, cy: p.y, r: 3.5 }))),
    h("details", {},
      h("summary", {}, t("chart_numbers")),
      h("div", { class: "scroll" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("chart_game")),
          h("th", { scope: "col" }, t("chart_finished")),
          h("th", { scope: "col" }, t("rating")))),
        h("tbody", {}, history.map((point, i) => h("tr", {},
          // a game whose record its node lost (restored from an older copy) has no replay
          h("td", {}, point.record_lost ? String(i + 1)
            : h("a", { href: appUrl(`#/replay/${encodeURIComponent(point.game)}`) }, String(i + 1))),
          h("td", {}, point.finished_at.slice(0, 10)),
          h("td", {}, String(point.rating)))))))));
}
