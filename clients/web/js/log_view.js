// The running log beside the table, drawn as it grows: a list of lines per turn (the turn's
// heading first), appended to as events come and never drawn again, except whole after a
// snapshot or in another language. A turn's list is a box of its own (app.css: contained),
// so that a turn added is laid out and painted alone and the turns before it are left as
// they were drawn (issue 25: drawing an update).

import { describe } from "./describe.js";
import { el } from "./dom.js";

/** Past `kept` lines, the oldest turns go, whole, until `trimmed` fewer are left: a few
 *  at a time, since a turn removed moves every line under it. */
export class LogView {
  /** @param {{kept: number, trimmed: number}} limits */
  constructor({ kept, trimmed }) {
    this.kept = kept;
    this.trimmed = trimmed;
    // it scrolls: a keyboard must be able to focus it to scroll it (axe:
    // scrollable-region-focusable), under its heading
    this.node = el("div", { class: "log-lines", tabindex: "0" });
    // where its reader is, noted as they scroll (the log laid out by then): a draw reads
    // it without laying the page out first (issue 38). The page's own scroll to the end
    // is told a frame late, maybe with the next draw's lines below it by then: at or
    // below where the page scrolled to, the log still follows
    this.node.addEventListener("scroll", () => {
      const { node } = this;
      this.following = node.scrollTop >= this.followedTo
        || node.scrollTop + node.clientHeight >= node.scrollHeight - 1;
    }, { passive: true });
    this.clear();
  }

  /** Drawn whole at the next `draw` (another language). */
  clear() {
    this.node.replaceChildren();
    this.following = true; // an empty log is read at its end
    this.followedTo = Infinity; // where the page last scrolled it to its end
    this.turns = []; // {node, lines}: each turn's list, and how many lines it holds
    this.lines = 0;
    this.drawn = { cleared: -1, total: 0 };
  }

  /** Whether its reader is at its end: where they last scrolled it, or the end it
   *  follows (read before a draw changes the page). */
  atEnd() {
    return this.following;
  }

  /**
   * Draw the events not drawn yet; follow the log's end if its reader was there.
   * @param {{events: object[], total: number, cleared: number}} log PageState's
   * @param {string[]} names the players', by seat
   * @param {object} i18n
   * @param {boolean} follow the reader was at the end before the draw (`atEnd`)
   */
  draw(log, names, i18n, follow) {
    if (this.drawn.cleared !== log.cleared) {
      this.clear();
      this.drawn.cleared = log.cleared;
    }
    const fresh = Math.min(log.total - this.drawn.total, log.events.length);
    this.drawn.total = log.total;
    if (fresh <= 0) return;
    const added = [];
    let last = this.turns.at(-1);
    let lines = [];
    const flush = () => {
      if (lines.length) last.node.append(...lines);
      lines = [];
    };
    for (const event of log.events.slice(-fresh)) {
      const said = describe(event, names, i18n);
      if (!said) continue; // an event the log leaves out
      if (said.heading || !last) {
        flush();
        last = { node: el("ul", { class: "log-turn" }), lines: 0 };
        this.turns.push(last);
        added.push(last.node);
      }
      lines.push(el("li", { class: said.heading ? "heading" : "" }, said.text));
      last.lines += 1;
      this.lines += 1;
    }
    flush();
    this.node.append(...added);
    if (this.lines > this.kept) {
      while (this.turns.length > 1 && this.lines > this.kept - this.trimmed) {
        const gone = this.turns.shift();
        gone.node.remove();
        this.lines -= gone.lines;
      }
    }
    // scrolled to its end at the start of the next frame, the page laid out by then:
    // reading its height now would lay the page out again in the middle of the draw
    if (follow) {
      requestAnimationFrame(() => {
        this.node.scrollTop = this.node.scrollHeight;
        this.followedTo = this.node.scrollTop;
      });
    }
  }
}
