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
  // each figure a mark of its own (no lines): one player count is a chart too
  const marks = (stroke, size) => ({ stroke, width: 2, paths: () => null,
    points: { show: true, size, stroke, fill: stroke } });
  new uPlot({
    width: width(node), height: HEIGHT, legend: { live: false },
    scales: { x: { time: false, range: [1.5, 6.5] }, y: { range: [0, 100] } },
    axes: [{ label: i18n.t("players"), incrs: [1] }, { label: "%" }],
    series: [{}, { label: i18n.t("stats_win_rate"), ...marks("#2a6f97", 10) },
      { label: `${i18n.t("stats_interval")} −`, ...marks("#7a9fb5", 5) },
      { label: `${i18n.t("stats_interval")} +`, ...marks("#7a9fb5", 5) },
      { label: i18n.t("stats_fair"), ...marks("#a05a2c", 7) }],
  }, data, node);
}
