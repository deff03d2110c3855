// #/account/tokens: the signed-in account's personal access tokens (create one, see its
// secret once, revoke), and making the account a bot account. Only the REST API; the
// session cookie signs the page in (a token cannot manage tokens).

import { ApiError, call } from "./api.js";
import { h, redrawing } from "./dom.js";

const SCOPES = ["play", "bot:play", "read"];
const EXPIRIES = [null, 30, 90, 365];

export const tokensApi = {
  account: () => call("GET", "/account"),
  list: () => call("GET", "/account/tokens"),
  create: (body) => call("POST", "/account/tokens", body),
  revoke: (id) => call("DELETE", `/account/tokens/${encodeURIComponent(id)}`),
  becomeBot: () => call("POST", "/account/bot"),
};

export class TokensPage {
  constructor(root, app) {
    this.app = app;
    this.t = (key, vars) => app.i18n.t(key, vars);
    // what it shows: the account (null: not signed in), its tokens, the secret of the one
    // just made (shown once: the server never tells it again), the last refusal
    this.state = { loaded: false, account: null, tokens: null, secret: null, message: "" };
    this.redraw = redrawing(root, () => this.view());
  }

  async start() {
    const { state } = this;
    try {
      ({ account: state.account } = await tokensApi.account());
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      state.account = null;
    }
    state.loaded = true;
    this.redraw();
    if (state.account) await this.refresh();
  }

  stop() {
    this.redraw.stop();
  }

  async refresh() {
    ({ tokens: this.state.tokens } = await tokensApi.list());
    this.redraw();
  }

  /** Do `work`, saying its refusal (the server's message) if it fails. */
  async act(work) {
    this.state.message = "";
    this.redraw();
    try {
      await work();
    } catch (error) {
      this.state.message = `⚠ ${error.message}`;
      this.redraw();
    }
  }

  create(form) {
    const { elements } = form;
    return this.act(async () => {
      const body = { description: elements.description.value.trim(),
        scopes: [...form.querySelectorAll("input[name=scope]:checked")].map((box) => box.value) };
      if (elements.expires.value) body.expires_in_days = Number(elements.expires.value);
      const { token } = await tokensApi.create(body);
      this.state.secret = token.secret;
      elements.description.value = "";
      await this.refresh();
    });
  }

  revoke(id) {
    return this.act(async () => {
      await tokensApi.revoke(id);
      await this.refresh();
    });
  }

  becomeBot() {
    return this.act(async () => {
      if (!window.confirm(this.t("tokens_bot_confirm"))) return;
      await tokensApi.becomeBot();
      await this.start(); // the form too: a bot account's tokens have no play scope
    });
  }

  view() {
    const { t, state } = this;
    if (!state.loaded) return h("p", {}, t("loading"));
    if (!state.account) {
      return [h("p", { class: "refused", role: "alert" }, t("tokens_sign_in")),
        h("a", { href: "#/" }, t("back"))];
    }
    return h("div", { class: "account-tokens" },
      h("h2", {}, t("tokens_title", { name: state.account.name })),
      h("p", {}, t("tokens_about")),
      this.createView(state.account),
      h("p", { class: "refused", role: "alert" }, state.message),
      h("div", { class: "new-token" }, state.secret && [h("p", {}, t("tokens_copy_now")),
        h("code", { class: "secret" }, state.secret)]),
      h("div", { class: "tokens" }, state.tokens && this.listView(state.tokens)),
      h("section", { class: "bot-account" }, this.botView(state.account)));
  }

  listView(tokens) {
    const t = this.t;
    if (!tokens.length) return h("p", {}, t("tokens_none"));
    return [h("p", { class: "revokes note", id: "revokes-token" }, t("revokes_token")),
      h("table", {},
      h("thead", {}, h("tr", {}, ["tokens_description", "tokens_scopes", "tokens_created",
        "tokens_expires", "tokens_used", "tokens_revoke"].map((key) => h("th", {}, t(key))))),
      h("tbody", {}, tokens.map((token) => h("tr", { key: token.id,
        dataset: { token: String(token.id) } },
      h("td", {}, token.description || "–"), h("td", {}, token.scopes.join(", ")),
      h("td", {}, day(token.created_at)), h("td", {}, day(token.expires_at) || t("tokens_never")),
      h("td", {}, day(token.last_used_at) || t("tokens_unused")),
      h("td", {}, h("button", { type: "button", class: "revoke",
        "aria-describedby": "revokes-token", onclick: () => this.revoke(token.id) },
      t("tokens_revoke")))))))];
  }

  createView(account) {
    const t = this.t;
    const scopes = SCOPES.filter((scope) => !(account.bot && scope === "play"));
    return h("form", { class: "create-token", onsubmit: (event) => {
      event.preventDefault();
      this.create(event.target);
    } },
    h("h3", {}, t("tokens_create")),
    h("label", {}, t("tokens_description"), " ",
      h("input", { name: "description", maxlength: 100 })),
    h("fieldset", {}, h("legend", {}, t("tokens_scopes")),
      scopes.map((scope) => h("label", { class: "pick", key: scope }, h("input", {
        type: "checkbox", name: "scope", value: scope,
        checked: scope === (account.bot ? "bot:play" : "play") }), ` ${scope}`))),
    h("label", {}, t("tokens_expires"), " ", h("select", { name: "expires" },
      EXPIRIES.map((days) => h("option", { value: days ?? "" },
        days ? t("tokens_days", { n: days }) : t("tokens_never"))))),
    h("button", { type: "submit", class: "primary" }, t("tokens_create")));
  }

  botView(account) {
    const t = this.t;
    if (account.bot) return h("p", {}, t("tokens_is_bot"));
    return [h("h3", {}, t("tokens_bot_title")), h("p", {}, t("tokens_bot_about")),
      h("button", { type: "button", class: "become-bot", onclick: () => this.becomeBot() },
        t("tokens_bot_button"))];
  }
}

function day(timestamp) {
  return timestamp ? timestamp.slice(0, 10) : "";
}
