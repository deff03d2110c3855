// #/account/tokens: the signed-in account's personal access tokens (create one, see its
// secret once, revoke), and making the account a bot account. Only the REST API; the
// session cookie signs the page in (a token cannot manage tokens).

import { ApiError, call } from "./api.js";
import { el, fill, h } from "./dom.js";

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
    this.root = root;
    this.app = app;
    this.t = (key, vars) => app.i18n.t(key, vars);
    this.message = el("p", { class: "refused", role: "alert" });
    this.shown = el("div", { class: "new-token" });
    this.list = el("div", { class: "tokens" });
    this.bot = el("section", { class: "bot-account" });
  }

  async start() {
    let account;
    try {
      ({ account } = await tokensApi.account());
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      fill(this.root, h("p", { class: "refused", role: "alert" }, this.t("tokens_sign_in")),
        h("a", { href: "#/" }, this.t("back")));
      return;
    }
    fill(this.root, h("div", { class: "account-tokens" },
      h("h2", {}, this.t("tokens_title", { name: account.name })),
      h("p", {}, this.t("tokens_about")),
      this.createForm(account), this.message, this.shown, this.list, this.bot));
    this.drawBot(account);
    await this.refresh();
  }

  stop() {}

  async refresh() {
    const { tokens } = await tokensApi.list();
    const t = this.t;
    fill(this.list, tokens.length ? h("table", {},
      h("thead", {}, h("tr", {}, ["tokens_description", "tokens_scopes", "tokens_created",
        "tokens_expires", "tokens_used", "tokens_revoke"].map((key) => h("th", {}, t(key))))),
      h("tbody", {}, tokens.map((token) => h("tr", { dataset: { token: String(token.id) } },
        h("td", {}, token.description || "–"), h("td", {}, token.scopes.join(", ")),
        h("td", {}, day(token.created_at)), h("td", {}, day(token.expires_at) || t("tokens_never")),
        h("td", {}, day(token.last_used_at) || t("tokens_unused")),
        h("td", {}, h("button", { type: "button", class: "revoke",
          onclick: () => this.act(async () => {
            await tokensApi.revoke(token.id);
            await this.refresh();
          }) }, t("tokens_revoke")))))))
      : h("p", {}, t("tokens_none")));
  }

  createForm(account) {
    const t = this.t;
    const description = el("input", { name: "description", maxlength: 100 });
    const scopes = SCOPES.filter((scope) => !(account.bot && scope === "play"))
      .map((scope) => el("input", { type: "checkbox", name: "scope", value: scope,
        checked: scope === (account.bot ? "bot:play" : "play") }));
    const expiry = el("select", { name: "expires" }, EXPIRIES.map((days) => h("option",
      { value: days ?? "" }, days ? t("tokens_days", { n: days }) : t("tokens_never"))));
    const form = el("form", { class: "create-token" },
      h("h3", {}, t("tokens_create")),
      h("label", {}, t("tokens_description"), " ", description),
      h("fieldset", {}, h("legend", {}, t("tokens_scopes")),
        scopes.map((box) => h("label", { class: "pick" }, box, ` ${box.value}`))),
      h("label", {}, t("tokens_expires"), " ", expiry),
      h("button", { type: "submit", class: "primary" }, t("tokens_create")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.act(async () => {
        const body = { description: description.value.trim(),
          scopes: scopes.filter((box) => box.checked).map((box) => box.value) };
        if (expiry.value) body.expires_in_days = Number(expiry.value);
        const { token } = await tokensApi.create(body);
        // shown once: the server never tells it again
        fill(this.shown, h("p", {}, t("tokens_copy_now")), h("code", { class: "secret" },
          token.secret));
        description.value = "";
        await this.refresh();
      });
    });
    return form;
  }

  drawBot(account) {
    const t = this.t;
    if (account.bot) {
      fill(this.bot, h("p", {}, t("tokens_is_bot")));
      return;
    }
    fill(this.bot, h("h3", {}, t("tokens_bot_title")), h("p", {}, t("tokens_bot_about")),
      h("button", { type: "button", class: "become-bot", onclick: () => this.act(async () => {
        if (!window.confirm(t("tokens_bot_confirm"))) return;
        await tokensApi.becomeBot();
        await this.start(); // the form too: a bot account's tokens have no play scope
      }) }, t("tokens_bot_button")));
  }

  /** Do `work`, saying its refusal (the server's message) if it fails. */
  async act(work) {
    this.message.textContent = "";
    try {
      await work();
    } catch (error) {
      this.message.textContent = `⚠ ${error.message}`;
    }
  }
}

function day(timestamp) {
  return timestamp ? timestamp.slice(0, 10) : "";
}
