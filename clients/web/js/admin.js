// The admin page, #/admin (docs/SERVER.md, "Moderation"): reports, live sanctions, the
// audit log, and forms to ban or mute an account, ban an address prefix, lift a
// sanction, remove a chat line and abandon a game. Only an admin sees it, and only an
// admin's header shows its link: the server answers GET /api/v1/admin with 200 to admins.

import { call } from "./api.js";
import { el, fill, h } from "./dom.js";

/** Is the browser signed in as an admin? (Anything but a 200 says no.) */
export async function isAdmin(request = call) {
  try {
    await request("GET", "/admin");
    return true;
  } catch {
    return false;
  }
}

/** Add the admin page's link to the header, for an admin only. */
export async function showAdminLink(header, request = call) {
  if (!header || header.querySelector(".admin-link") || !(await isAdmin(request))) return;
  header.querySelector(".brand")?.after(el("a", { class: "admin-link", href: "#/admin" },
    "Admin"));
}

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

export class AdminPage {
  constructor(root, app, request = call) {
    this.root = root;
    this.app = app;
    this.request = request;
    this.stopped = false;
  }

  stop() {
    this.stopped = true;
  }

  async start() {
    if (!(await isAdmin(this.request))) {
      fill(this.root, h("p", { class: "refused", role: "alert" },
        "Only the server's admins see this page."), h("a", { href: "#/" }, "Back"));
      return;
    }
    await this.draw();
  }

  async draw() {
    const [reports, sanctions, audit] = await Promise.all([
      this.request("GET", "/admin/reports"), this.request("GET", "/admin/sanctions"),
      this.request("GET", "/admin/audit")]);
    if (this.stopped) return;
    this.said = el("p", { role: "status", class: "admin-status" });
    fill(this.root, h("section", { class: "admin" },
      h("h1", {}, "Moderation"), this.said,
      h("h2", {}, "Reports"),
      h("ul", { class: "reports" }, ...reports.reports.map((report) => h("li", {},
        `${report.created_at} ${report.reporter.name} → ${report.reported.name} `
        + `(${report.reason}) in `, h("a", { href: `#/watch/${report.game}` }, report.game),
        report.text ? `: ${report.text}` : ""))),
      h("h2", {}, "Sanctions"),
      h("ul", { class: "sanctions" }, ...sanctions.sanctions.map((sanction) => h("li", {},
        sanctionLine(sanction), " ",
        h("button", { type: "button", onclick: () => this.lift(sanction) }, "Lift")))),
      this.form("Ban an account", "/admin/bans", ["name", "reason", "minutes"]),
      this.form("Mute an account", "/admin/mutes", ["name", "reason", "minutes"]),
      this.form("Ban an address prefix", "/admin/address-bans", ["prefix", "reason", "minutes"]),
      this.form("Abandon a game", (body) => `/games/${encodeURIComponent(body.game)}/admin/abandon`,
        ["game", "reason"]),
      this.form("Remove a chat line",
        (body) => `/games/${encodeURIComponent(body.game)}/admin/chat/${body.line}/remove`,
        ["game", "line", "reason"]),
      h("h2", {}, "Audit log"),
      h("ol", { class: "audit" }, ...audit.entries.map((entry) => h("li", {}, auditLine(entry))))));
  }

  /** A form posting its fields (`minutes` is sent as `seconds`; empty: for ever). */
  form(title, path, fields) {
    const inputs = Object.fromEntries(fields.map((name) => [name, el("input", {
      name, "aria-label": `${title}: ${name}`, placeholder: name === "minutes" ? "minutes (empty: for ever)" : name,
    })]));
    return h("form", {
      class: "admin-form",
      onsubmit: (event) => {
        event.preventDefault();
        const body = {};
        for (const [name, input] of Object.entries(inputs)) {
          if (name === "minutes") body.seconds = durationOf(input.value);
          else body[name] = input.value.trim();
        }
        this.send(typeof path === "function" ? path(body) : path, body);
      },
    }, h("h2", {}, title), ...Object.values(inputs), h("button", { type: "submit" }, title));
  }

  lift(sanction) {
    const reason = window.prompt("Why lift it?");
    if (reason) this.send(`/admin/sanctions/${sanction.id}/lift`, { reason });
  }

  send(path, body) {
    this.request("POST", path, body).then(() => this.draw()).catch((error) => {
      this.said.textContent = `⚠ ${error.message}`;
    });
  }
}
