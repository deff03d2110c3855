// The admin page, #/admin (docs/SERVER.md, "Moderation"): reports, live sanctions, the
// pairs of accounts that play rated games together (docs/RATINGS.md), the audit log, and
// forms to ban or mute an account, ban an address prefix, lift a
// sanction, remove a chat line and abandon a game. Only an admin sees it, and only an
// admin's header shows its link (main.js): the server answers GET /api/v1/admin with 200
// to admins.

import { call, isAdmin } from "./api.js";
import { h, redrawing } from "./dom.js";

/** `seconds` for a form's duration field: empty means for ever (null). */
export function durationOf(minutes) {
  const text = String(minutes ?? "").trim();
  return text === "" ? null : Math.round(Number(text) * 60);
}

/** One line of the audit log, as the page shows it. */
export function auditLine(entry) {
  return `${entry.at} ${entry.admin}: ${entry.action} ${entry.target} (${entry.reason})`;
}

/** One live sanction, as the page shows it. */
export function sanctionLine(sanction) {
  const target = sanction.prefix ?? `account #${sanction.account_id}`;
  const until = sanction.expires_at ? `until ${sanction.expires_at}` : "for ever";
  return `${sanction.kind} ${target} ${until}: ${sanction.reason}`;
}

const PAIR_COLUMNS = [["Players", null], ["Games", "games"], ["Wins", "wins"],
  ["Losses", "losses"], ["Ties", "ties"], ["Counted", "counted"],
  ["Early resignations", "early"], ["Score", "score"]];

/** The suspicious pairs (`GET /api/v1/admin/pairs`), most suspicious first: games
 *  together, wins each way, how many counted, how many one of them gave up before
 *  `rated_min_turns`, and the score (|wins − losses|). */
export function pairsTable(pairs) {
  if (!pairs.length) return h("p", {}, "No rated games between accounts in the last 7 days.");
  return h("div", { class: "scroll" }, h("table", { class: "pairs" },
    h("thead", {}, h("tr", {}, PAIR_COLUMNS.map(([title]) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, pairs.map((pair) => h("tr", {},
      h("th", { scope: "row" }, `${pair.name} – ${pair.other}`),
      PAIR_COLUMNS.slice(1).map(([, key]) => h("td", { class: key }, String(pair[key]))))))));
}

/** The page's forms: a title, where it posts (a path, or one made of the fields) and its
 *  fields (`minutes` is sent as `seconds`; empty: for ever). */
const FORMS = [
  ["Ban an account", "/admin/bans", ["name", "reason", "minutes"]],
  ["Mute an account", "/admin/mutes", ["name", "reason", "minutes"]],
  ["Ban an address prefix", "/admin/address-bans", ["prefix", "reason", "minutes"]],
  ["Abandon a game", (body) => `/games/${encodeURIComponent(body.game)}/admin/abandon`,
    ["game", "reason"]],
  ["Remove a chat line",
    (body) => `/games/${encodeURIComponent(body.game)}/admin/chat/${body.line}/remove`,
    ["game", "line", "reason"]],
];

export class AdminPage {
  constructor(root, app, request = call) {
    this.app = app;
    this.request = request;
    // what it shows: whether the browser is an admin's (null: not known yet), the
    // reports, sanctions and audit log, and what the last action said
    this.state = { admin: null, lists: null, said: "" };
    this.redraw = redrawing(root, () => adminView(this.state, this));
  }

  stop() {
    this.redraw.stop();
  }

  async start() {
    this.state.admin = await isAdmin(this.request);
    if (this.state.admin) await this.load();
    else this.redraw();
  }

  async load() {
    const [reports, sanctions, audit, pairs] = await Promise.all([
      this.request("GET", "/admin/reports"), this.request("GET", "/admin/sanctions"),
      this.request("GET", "/admin/audit"), this.request("GET", "/admin/pairs")]);
    this.state.lists = { reports: reports.reports, sanctions: sanctions.sanctions,
      audit: audit.entries, pairs: pairs.pairs };
    this.redraw();
  }

  /** Post a form's fields; done, the form is emptied and the lists loaded again. */
  submit(form, path, fields) {
    const body = {};
    for (const name of fields) {
      const { value } = form.elements[name];
      if (name === "minutes") body.seconds = durationOf(value);
      else body[name] = value.trim();
    }
    this.send(typeof path === "function" ? path(body) : path, body).then((sent) => {
      if (sent) form.reset();
    });
  }

  lift(sanction) {
    const reason = window.prompt("Why lift it?");
    if (reason) this.send(`/admin/sanctions/${sanction.id}/lift`, { reason });
  }

  /** Whether the server took it (its refusal is said on the page). */
  send(path, body) {
    return this.request("POST", path, body).then(() => this.load()).then(() => true,
      (error) => {
        this.state.said = `⚠ ${error.message}`;
        this.redraw();
        return false;
      });
  }
}

/** The admin page: reports, live sanctions (lift one), the pairs, the forms, the audit
 *  log. */
export function adminView({ admin, lists, said }, actions) {
  if (admin === false) {
    return [h("p", { class: "refused", role: "alert" }, "Only the server's admins see this page."),
      h("a", { href: "#/" }, "Back")];
  }
  if (!lists) return h("p", {}, "Loading…");
  const { reports, sanctions, audit, pairs } = lists;
  return h("section", { class: "admin" },
    h("h1", {}, "Moderation"), h("p", { role: "status", class: "admin-status" }, said),
    h("h2", {}, "Reports"),
    h("ul", { class: "reports" }, reports.map((report) => h("li", {},
      `${report.created_at} ${report.reporter.name} → ${report.reported.name} `
      + `(${report.reason}) in `, h("a", { href: `#/watch/${report.game}` }, report.game),
      report.text ? `: ${report.text}` : ""))),
    h("h2", {}, "Sanctions"),
    h("ul", { class: "sanctions" }, sanctions.map((sanction) => h("li", { key: sanction.id },
      sanctionLine(sanction), " ",
      h("button", { type: "button", onclick: () => actions.lift(sanction) }, "Lift")))),
    h("h2", {}, "Pairs of accounts in rated games (7 days)"), pairsTable(pairs ?? []),
    FORMS.map(([title, path, fields]) => h("form", {
      class: "admin-form",
      onsubmit: (event) => {
        event.preventDefault();
        actions.submit(event.target, path, fields);
      },
    }, h("h2", {}, title), fields.map((name) => h("input", {
      name, "aria-label": `${title}: ${name}`,
      placeholder: name === "minutes" ? "minutes (empty: for ever)" : name,
    })), h("button", { type: "submit" }, title))),
    h("h2", {}, "Audit log"),
    h("ol", { class: "audit" }, audit.map((entry) => h("li", {}, auditLine(entry)))));
}
