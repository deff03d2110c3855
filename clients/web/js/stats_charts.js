// The statistics page's two charts, drawn by uPlot (vendor/uplot, MIT; loaded with its
// style sheet the first time a chart is drawn): games by length, as bars; the first
// player's win rate by player count, with its 95 % interval and the fair share. Each
// chart draws into a node the page keeps (the view places it and never draws over it);
// the same figures are the page's tables, for whoever does not see the chart.

const VENDOR = new URL("../vendor/uplot/", import.meta.url);
let loading = null;

/** uPlot, loaded once: its script (a classic one, which sets `window.uPlot`) and style. */
export function loadUPlot() {
  loading ??= new Promise((resolve, reject) => {
    const style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = new URL("uPlot.min.css", VENDOR).href;
    document.head.append(style);
    const script = document.createElement("script");
    script.src = new URL("uPlot.iife.min.js", VENDOR).href;
    script.onload = () => resolve(window.uPlot);
    script.onerror = () => reject(new Error("uPlot did not load"));
    document.head.append(script);
  });
  return loading;
}

const HEIGHT = 220;
const width = (node) => Math.max(260, Math.min(640, node.clientWidth || 320));

/** Draw games by length (`[{turns, games}]`) into `node`, in place of what it held. */
export async function drawLengths(node, lengths, i18n) {
  const uPlot = await loadUPlot();
  node.replaceChildren();
  if (!lengths.length) return;
  const data = [lengths.map((row) => row.turns), lengths.map((row) => row.games)];
  new uPlot({
    width: width(node), height: HEIGHT, legend: { show: false },
    scales: { x: { time: false } },
    axes: [{ label: i18n.t("stats_turns") }, { label: i18n.t("games_column") }],
    series: [{}, {
      label: i18n.t("games_column"), stroke: "#2a6f97", fill: "rgba(42, 111, 151, 0.35)",
      paths: uPlot.paths.bars({ size: [0.8] }), points: { show: false },
    }],
  }, data, node);
}

/** Draw the first player's win rate by player count (`[{players, wins, fair}]`). */
export async function drawFirstPlayer(node, rows, i18n) {
  const uPlot = await loadUPlot();
  node.replaceChildren();
  if (!rows.length) return;
  const percent = (share) => Math.round(share * 1000) / 10;
  const data = [rows.map((row) => row.players), rows.map((row) => percent(row.wins.rate)),
    rows.map((row) => percent(row.wins.low)), rows.map((row) => percent(row.wins.high)),
    rows.map((row) => percent(row.fair))];
  const dashed = { width: 1, dash: [4, 4], points: { show: false } };
  new uPlot({
    width: width(node), height: HEIGHT,
    scales: { x: { time: false, range: (_, low, high) => [low - 0.5, high + 0.5] },
      y: { range: [0, 100] } },
    axes: [{ label: i18n.t("players"), incrs: [1] }, { label: "%" }],
    series: [{}, { label: i18n.t("stats_win_rate"), stroke: "#2a6f97", width: 2,
      points: { size: 8 } },
    { label: `${i18n.t("stats_interval")} −`, stroke: "#7a9fb5", ...dashed },
    { label: `${i18n.t("stats_interval")} +`, stroke: "#7a9fb5", ...dashed },
    { label: i18n.t("stats_fair"), stroke: "#a05a2c", ...dashed }],
    bands: [{ series: [3, 2], fill: "rgba(42, 111, 151, 0.15)" }],
  }, data, node);
}
