// Signing in and the account's own page: registering, signing in (with a password or a
// passkey), the account page (my games, taken up again on this device; passkeys: add,
// list, remove; changing the password; signing out here or everywhere; deleting the
// account, confirmed with its password), each action beside a line saying what it ends.
// The header's control (signed in as NAME / Sign in) is main.js's.

import { seats } from "./api.js";
import { accountApi } from "./account_api.js";
import { errorText } from "./account_words.js";
import { h, redrawing } from "./dom.js";
import { addPasskey, passkeysSupported, signInWithPasskey } from "./passkeys.js";
import { profileUrl } from "./routes.js";

/** A form of labelled inputs (`fields`: their props) whose submit calls `onsubmit` with
 *  the values by name; `message` is its last refusal. */
function accountForm(i18n, { label, fields, submit, message, onsubmit }) {
  return h("form", { class: "account-form", "aria-label": label,
    onsubmit: (event) => {
      event.preventDefault();
      const { elements } = event.target;
      onsubmit(Object.fromEntries(fields.map(({ name }) => [name, elements[name].value])),
        event.target);
    } },
  h("h2", {}, label),
  fields.map(({ label: words, ...field }) => h("label", {}, i18n.t(words), " ",
    h("input", field))),
  h("button", { type: "submit", class: "primary" }, submit),
  h("p", { class: "refused", role: "alert" }, message));
}

/** The line saying what `action` ends (revokes_*), for its button's aria-describedby. */
export function revokesNote(i18n, action) {
  return h("p", { class: "revokes note", id: `revokes-${action}` }, i18n.t(`revokes_${action}`));
}

const NAME_FIELD = {
  name: "name", required: true, maxlength: 80, autocomplete: "username", label: "account_name",
};

function passwordField(autocomplete, name = "password") {
  return { name, type: "password", required: true, maxlength: 256, autocomplete, label: name };
}

/** Changing the password: the current one, then the new one. */
export function passwordChangeForm(i18n, { message, done, onsubmit }) {
  return h("section", { class: "change-password" },
    accountForm(i18n, { label: i18n.t("change_password"), submit: i18n.t("change_password"),
      fields: [passwordField("current-password", "old_password"),
        { ...passwordField("new-password", "new_password"), minlength: 8 }],
      message, onsubmit }),
    revokesNote(i18n, "password"),
    h("p", { class: "changed", role: "status" }, done));
}

/** Do `work`; a refusal is said in `state[field]` (cleared first), and drawn. */
async function saying(page, field, work) {
  page.state[field] = "";
  page.redraw();
  try {
    await work();
  } catch (error) {
    page.state[field] = `⚠ ${errorText(page.app.i18n, error)}`;
    page.redraw();
  }
}

/** To the address `cameFrom` ({pathname, hash}; none: the lobby): on the same page, by
 *  its hash alone (the app is not loaded again). */
function goBack(cameFrom) {
  const { pathname, hash } = cameFrom ?? { pathname: window.location.pathname, hash: "" };
  if (pathname === window.location.pathname) window.location.hash = hash || "#/";
  else window.location.assign(`${pathname}${hash}`);
}

/** #/sign-in and #/register. */
export class SignInPage {
  constructor(root, app, registering) {
    this.app = app;
    this.registering = registering;
    this.state = { message: "", passkeyMessage: "" };
    this.redraw = redrawing(root, () => this.view());
  }

  async start() {
    this.redraw();
  }

  stop() {
    this.redraw.stop();
  }

  /** Signed in: to the account's page; registered: back to the page the person came
   *  from (the lobby when they came to register first), to play on. */
  async done(body) {
    this.app.setAccount(body.account);
    if (this.registering) goBack(this.app.cameFrom);
    else window.location.hash = "#/account";
  }

  signIn({ name, password }) {
    return saying(this, "message", async () => this.done(await (this.registering
      ? accountApi.register(name, password) : accountApi.signIn(name, password))));
  }

  signInWithPasskey() {
    return saying(this, "passkeyMessage", async () => this.done(await signInWithPasskey()));
  }

  view() {
    const { i18n } = this.app;
    const t = (key) => i18n.t(key);
    const { registering, state } = this;
    const label = t(registering ? "register" : "sign_in");
    return h("section", { class: "account" },
      accountForm(i18n, { label, submit: label, message: state.message,
        fields: [NAME_FIELD, passwordField(registering ? "new-password" : "current-password")],
        onsubmit: (values) => this.signIn(values) }),
      !registering && passkeySignIn(i18n, state.passkeyMessage, () => this.signInWithPasskey()),
      h("p", {}, registering ? t("have_account") : t("no_account"), " ",
        h("a", { href: registering ? "#/sign-in" : "#/register" },
          registering ? t("sign_in") : t("register"))),
      h("p", {}, t("guest_note"), " ", h("a", { href: "#/" }, t("back"))));
  }
}

/** A button that signs in with a passkey the authenticator offers (no name asked). */
function passkeySignIn(i18n, message, onclick) {
  if (!passkeysSupported()) return h("p", { class: "note" }, i18n.t("passkey_unsupported"));
  return h("div", { class: "passkey-box" },
    h("button", { type: "button", class: "passkey-sign-in", onclick }, i18n.t("sign_in_passkey")),
    h("p", { class: "refused", role: "alert" }, message));
}

/** #/account: the signed-in account's page. */
export class AccountPage {
  constructor(root, app) {
    this.app = app;
    // what it shows: the account's games and passkeys (null until loaded), whether the
    // deletion asks for the password, whether the account is gone, the last refusals
    this.state = { games: null, passkeys: null, deleting: false, deleted: false, message: "",
      deleteMessage: "", passwordMessage: "", passwordChanged: "" };
    this.redraw = redrawing(root, () => this.view());
  }

  async start() {
    this.redraw();
    if (!this.app.account) return;
    await Promise.all([this.showGames(), this.showPasskeys()]);
  }

  stop() {
    this.redraw.stop();
  }

  async showGames() {
    ({ games: this.state.games } = await accountApi.myGames());
    this.redraw();
  }

  async showPasskeys() {
    ({ passkeys: this.state.passkeys } = await accountApi.passkeys());
    this.redraw();
  }

  /** Take a seat of the account's up on this device. */
  resume(id) {
    return saying(this, "message", async () => {
      const reclaimed = await accountApi.reclaim(id);
      seats.set(id, reclaimed.seat, reclaimed.token);
      window.location.hash = `#/game/${id}`;
    });
  }

  /** Change the passkeys (`work`), then show them again. */
  passkeysChange(work) {
    return saying(this, "message", async () => {
      await work();
      await this.showPasskeys();
    });
  }

  /** Sign out (here or everywhere), then show the page as a guest's. */
  leave(signOut) {
    return saying(this, "message", async () => {
      await signOut();
      this.app.setAccount(null);
      window.location.hash = "#/";
    });
  }

  /** A new password; the page says how many other sessions it ended. */
  changePassword({ old_password: oldPassword, new_password: newPassword }, form) {
    this.state.passwordChanged = "";
    return saying(this, "passwordMessage", async () => {
      const changed = await accountApi.changePassword(oldPassword, newPassword);
      form?.reset();
      this.state.passwordChanged = this.app.i18n.t("password_changed",
        { count: changed.sessions_ended });
      this.redraw();
    });
  }

  askDeletion(deleting) {
    this.state.deleting = deleting;
    this.state.deleteMessage = "";
    this.redraw();
  }

  deleteAccount(password) {
    return saying(this, "deleteMessage", async () => {
      await accountApi.deleteAccount(password);
      this.app.setAccount(null);
      this.state.deleted = true;
      this.redraw();
    });
  }

  view() {
    const { app, state } = this;
    const { i18n, account } = app;
    const t = (key, vars) => i18n.t(key, vars);
    if (state.deleted) {
      return [h("p", { role: "status" }, t("deleted")), h("a", { href: "#/" }, t("back"))];
    }
    if (!account) {
      return h("section", { class: "account" }, h("p", {}, t("not_signed_in")),
        h("a", { class: "button", href: "#/sign-in" }, t("sign_in")));
    }
    return h("section", { class: "account" },
      h("h2", {}, t("signed_in_as", { name: account.name })),
      h("ul", { class: "account-links" },
        h("li", {}, h("a", { href: profileUrl(account.name) }, t("my_profile"))),
        h("li", {}, h("a", { href: "#/account/tokens" }, t("my_tokens")))),
      h("section", { class: "my-games" }, state.games && this.gamesView(state.games)),
      h("section", { class: "passkeys" }, state.passkeys && this.passkeysView(state.passkeys)),
      passwordChangeForm(i18n, { message: state.passwordMessage, done: state.passwordChanged,
        onsubmit: (values, form) => this.changePassword(values, form) }),
      h("div", { class: "sign-out" },
        this.actionView("sign_out", () => this.leave(accountApi.signOut)),
        this.actionView("sign_out_everywhere", () => this.leave(accountApi.signOutEverywhere))),
      this.deletionView(),
      h("p", { class: "refused", role: "alert" }, state.message));
  }

  /** A button and, beside it, what it ends. */
  actionView(action, onclick) {
    const { i18n } = this.app;
    return h("div", { class: "account-action" },
      h("button", { type: "button", onclick, "aria-describedby": `revokes-${action}` },
        i18n.t(action)),
      revokesNote(i18n, action));
  }

  /** The account's open and running games: its seat here, or taken up on this device. */
  gamesView(games) {
    const { i18n } = this.app;
    const t = (key, vars) => i18n.t(key, vars);
    return [h("h3", {}, t("my_games")),
      h("p", {}, t("my_games_count", { count: i18n.count(games.length, "games") })),
      h("ul", {}, games.map(({ game, seat }) => h("li", { class: "game-row", key: game.id,
        dataset: { game: game.id } },
      h("span", { class: "game-id" }, game.id), " · ", t(`state_${game.state}`), " · ",
      game.seats.map((s) => s.name || "–").join(", "), " ",
      seats.get(game.id)?.seat === seat
        ? h("a", { class: "button", href: `#/game/${game.id}` }, t("resume"))
        : h("button", { type: "button", class: "resume-here", onclick: () => this.resume(game.id) },
          t("resume_here")))))];
  }

  /** The account's passkeys (remove one), and a form that adds one under a name. */
  passkeysView(passkeys) {
    const { i18n } = this.app;
    const t = (key, vars) => i18n.t(key, vars);
    return [h("h3", {}, t("passkeys")),
      h("ul", {}, passkeys.map((key) => h("li", { class: "passkey", key: key.id,
        dataset: { passkey: key.id } },
      h("span", { class: "passkey-name" }, key.name), " · ",
      key.last_used_at ? t("last_used", { date: key.last_used_at.slice(0, 10) }) : t("never_used"),
      " ", h("button", { type: "button",
        onclick: () => this.passkeysChange(() => accountApi.removePasskey(key.id)) },
      t("remove"))))),
      passkeysSupported()
        ? h("form", { class: "add-passkey", onsubmit: (event) => {
          event.preventDefault();
          const form = event.target;
          this.passkeysChange(async () => {
            await addPasskey(form.elements["passkey-name"].value);
            form.reset();
          });
        } }, h("label", {}, t("passkey_name"), " ",
          h("input", { name: "passkey-name", required: true, maxlength: 40 })), " ",
        h("button", { type: "submit" }, t("add_passkey")))
        : h("p", { class: "note" }, t("passkey_unsupported"))];
  }

  /** Deleting the account: a button that opens a confirmation asking for the password. */
  deletionView() {
    const { i18n } = this.app;
    const t = (key) => i18n.t(key);
    const { deleting, deleteMessage } = this.state;
    return h("section", { class: "delete-account" }, deleting ? [
      accountForm(i18n, { label: t("delete_account"), submit: t("delete_for_ever"),
        fields: [passwordField("current-password")], message: deleteMessage,
        onsubmit: ({ password }) => this.deleteAccount(password) }),
      h("p", { class: "warning" }, t("delete_sure")),
      h("button", { type: "button", onclick: () => this.askDeletion(false) }, t("cancel")),
    ] : h("button", { type: "button", class: "danger", onclick: () => this.askDeletion(true),
      "aria-describedby": "revokes-delete" }, t("delete_account")),
    revokesNote(i18n, "delete"));
  }
}
