// Signing in and the account's own page: the header's control (signed in as NAME / Sign
// in), registering, signing in (with a password or a passkey), the account page (my games,
// taken up again on this device; passkeys: add, list, remove; signing out here or
// everywhere; deleting the account, confirmed with its password).

import { seats } from "./api.js";
import { accountApi } from "./account_api.js";
import { errorText } from "./account_words.js";
import { el, fill, h } from "./dom.js";
import { addPasskey, passkeysSupported, signInWithPasskey } from "./passkeys.js";
import { appUrl, profileUrl } from "./routes.js";

/** The header's control: who is signed in (a link to their page), or a link to sign in. */
export function showAccount(link, i18n, account) {
  link.textContent = account ? i18n.t("signed_in_as", { name: account.name }) : i18n.t("sign_in");
  link.href = appUrl(account ? "#/account" : "#/sign-in");
  link.dataset.signedIn = account ? "yes" : "no";
}

/** A form of labelled inputs whose submit runs `action(values)`; a refusal is shown in it. */
function accountForm(i18n, label, fields, submit, action) {
  const message = el("p", { class: "refused", role: "alert" });
  const inputs = fields.map((field) => el("input", field));
  const form = el("form", { class: "account-form", "aria-label": label },
    h("h2", {}, label),
    inputs.map((input) => h("label", {}, i18n.t(input.dataset.label), " ", input)),
    h("button", { type: "submit", class: "primary" }, submit), message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    try {
      await action(Object.fromEntries(inputs.map((input) => [input.name, input.value])));
    } catch (error) {
      message.textContent = `⚠ ${errorText(i18n, error)}`;
    }
  });
  return form;
}

const NAME_FIELD = {
  name: "name", required: true, maxlength: 80, autocomplete: "username",
  dataset: { label: "account_name" },
};

function passwordField(autocomplete) {
  return { name: "password", type: "password", required: true, maxlength: 256, autocomplete,
    dataset: { label: "password" } };
}

/** #/sign-in and #/register. */
export class SignInPage {
  constructor(root, app, registering) {
    this.root = root;
    this.app = app;
    this.registering = registering;
  }

  async start() {
    const { app } = this;
    const t = (key) => app.i18n.t(key);
    const done = async (body) => {
      app.setAccount(body.account);
      window.location.hash = "#/account";
    };
    const form = this.registering
      ? accountForm(app.i18n, t("register"), [NAME_FIELD, passwordField("new-password")],
        t("register"), async ({ name, password }) => done(await accountApi.register(name, password)))
      : accountForm(app.i18n, t("sign_in"), [NAME_FIELD, passwordField("current-password")],
        t("sign_in"), async ({ name, password }) => done(await accountApi.signIn(name, password)));
    fill(this.root, h("section", { class: "account" }, form,
      !this.registering && passkeySignIn(app.i18n, done),
      h("p", {}, this.registering ? t("have_account") : t("no_account"), " ",
        h("a", { href: this.registering ? "#/sign-in" : "#/register" },
          this.registering ? t("sign_in") : t("register"))),
      h("p", {}, t("guest_note"), " ", h("a", { href: "#/" }, t("back")))));
  }

  stop() {}
}

/** A button that signs in with a passkey the authenticator offers (no name asked). */
function passkeySignIn(i18n, done) {
  if (!passkeysSupported()) return h("p", { class: "note" }, i18n.t("passkey_unsupported"));
  const message = el("p", { class: "refused", role: "alert" });
  const button = el("button", { type: "button", class: "passkey-sign-in" },
    i18n.t("sign_in_passkey"));
  button.addEventListener("click", async () => {
    message.textContent = "";
    try {
      await done(await signInWithPasskey());
    } catch (error) {
      message.textContent = `⚠ ${errorText(i18n, error)}`;
    }
  });
  return h("div", { class: "passkey-box" }, button, message);
}

/** #/account: the signed-in account's page. */
export class AccountPage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.message = el("p", { class: "refused", role: "alert" });
    this.games = el("section", { class: "my-games" });
    this.passkeys = el("section", { class: "passkeys" });
  }

  async start() {
    const { app } = this;
    const t = (key, vars) => app.i18n.t(key, vars);
    const account = app.account;
    if (!account) {
      fill(this.root, h("section", { class: "account" }, h("p", {}, t("not_signed_in")),
        h("a", { class: "button", href: "#/sign-in" }, t("sign_in"))));
      return;
    }
    fill(this.root, h("section", { class: "account" },
      h("h2", {}, t("signed_in_as", { name: account.name })),
      h("ul", { class: "account-links" },
        h("li", {}, h("a", { href: profileUrl(account.name) }, t("my_profile"))),
        h("li", {}, h("a", { href: "#/account/tokens" }, t("my_tokens")))),
      this.games, this.passkeys,
      h("p", { class: "sign-out" },
        h("button", { type: "button", onclick: () => this.leave(accountApi.signOut) },
          t("sign_out")), " ",
        h("button", { type: "button", onclick: () => this.leave(accountApi.signOutEverywhere) },
          t("sign_out_everywhere"))),
      this.deletion(), this.message));
    await Promise.all([this.showGames(), this.showPasskeys()]);
  }

  stop() {}

  /** The account's open and running games: its seat here, or taken up on this device. */
  async showGames() {
    const { i18n } = this.app;
    const t = (key, vars) => i18n.t(key, vars);
    const { games } = await accountApi.myGames();
    const resume = async (id) => {
      try {
        const reclaimed = await accountApi.reclaim(id);
        seats.set(id, reclaimed.seat, reclaimed.token);
        window.location.hash = `#/game/${id}`;
      } catch (error) {
        this.message.textContent = `⚠ ${errorText(i18n, error)}`;
      }
    };
    fill(this.games, h("h3", {}, t("my_games")),
      h("p", {}, t("my_games_count", { count: i18n.count(games.length, "games") })),
      h("ul", {}, games.map(({ game, seat }) => h("li", { class: "game-row", dataset: { game: game.id } },
        h("span", { class: "game-id" }, game.id), " · ", t(`state_${game.state}`), " · ",
        game.seats.map((s) => s.name || "–").join(", "), " ",
        seats.get(game.id)?.seat === seat
          ? h("a", { class: "button", href: `#/game/${game.id}` }, t("resume"))
          : h("button", { type: "button", class: "resume-here", onclick: () => resume(game.id) },
            t("resume_here"))))));
  }

  /** The account's passkeys (remove one), and a form that adds one under a name. */
  async showPasskeys() {
    const { i18n } = this.app;
    const t = (key, vars) => i18n.t(key, vars);
    const { passkeys } = await accountApi.passkeys();
    const act = async (work) => {
      try {
        await work();
        await this.showPasskeys();
      } catch (error) {
        this.message.textContent = `⚠ ${errorText(i18n, error)}`;
      }
    };
    const name = el("input", { name: "passkey-name", required: true, maxlength: 40 });
    fill(this.passkeys, h("h3", {}, t("passkeys")),
      h("ul", {}, passkeys.map((key) => h("li", { class: "passkey", dataset: { passkey: key.id } },
        h("span", { class: "passkey-name" }, key.name), " · ",
        key.last_used_at ? t("last_used", { date: key.last_used_at.slice(0, 10) }) : t("never_used"),
        " ", h("button", { type: "button", onclick: () => act(() => accountApi.removePasskey(key.id)) },
          t("remove"))))),
      passkeysSupported()
        ? h("form", { class: "add-passkey", onsubmit: (event) => {
          event.preventDefault();
          act(() => addPasskey(name.value));
        } }, h("label", {}, t("passkey_name"), " ", name), " ",
        h("button", { type: "submit" }, t("add_passkey")))
        : h("p", { class: "note" }, t("passkey_unsupported")));
  }

  /** Sign out (here or everywhere), then show the page as a guest's. */
  async leave(signOut) {
    try {
      await signOut();
      this.app.setAccount(null);
      window.location.hash = "#/";
    } catch (error) {
      this.message.textContent = `⚠ ${errorText(this.app.i18n, error)}`;
    }
  }

  /** Deleting the account: a button that opens a confirmation asking for the password. */
  deletion() {
    const { app } = this;
    const t = (key) => app.i18n.t(key);
    const section = el("section", { class: "delete-account" });
    const ask = () => fill(section, accountForm(app.i18n, t("delete_account"),
      [passwordField("current-password")], t("delete_for_ever"), async ({ password }) => {
        await accountApi.deleteAccount(password);
        app.setAccount(null);
        fill(this.root, h("p", { role: "status" }, t("deleted")), h("a", { href: "#/" }, t("back")));
      }), h("p", { class: "warning" }, t("delete_sure")),
    h("button", { type: "button", onclick: closed }, t("cancel")));
    const closed = () => fill(section, h("button", { type: "button", class: "danger", onclick: ask },
      t("delete_account")));
    closed();
    return section;
  }
}
