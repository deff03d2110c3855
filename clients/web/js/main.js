// The page: loads the server's description, the card catalogue and who is signed in,
// then shows the page the address names (pages.js: the route table) in the page's root,
// and the header (the links, the status line, who is signed in, the language switch) as a
// view of the app's state, drawn again whenever it changes.
// The language follows the browser unless chosen with the switch.

import { accountApi } from "./account_api.js";
import { ACCOUNT_COUNTED, ACCOUNT_WORDS } from "./account_words.js";
import { api, isAdmin } from "./api.js";
import { fill, h, redrawing } from "./dom.js";
import { addWords, I18n, LANGUAGE_NAMES, LANGUAGES } from "./i18n.js";
import { routeOf } from "./pages.js";
import { RATING_COUNTED, RATING_WORDS } from "./rating_words.js";
import { menuView } from "./menu.js";
import { appUrl } from "./routes.js";
import { watchTooltips } from "./tooltip.js";

const root = document.getElementById("app");

addWords(ACCOUNT_WORDS, ACCOUNT_COUNTED);
addWords(RATING_WORDS, RATING_COUNTED);
watchTooltips(document); // every page's cards
const app = {
  i18n: new I18n(window.localStorage, navigator.languages),
  server: null,
  cards: null,
  page: null,
  shown: null, // the route shown ({route, params}), set before the last page stops
  account: null, // {id, name, created_at} once signed in
  admin: false, // the header links the admin page
  menuOpen: false, // the header's menu unfolded (on a phone)
  cameFrom: null, // the address of the last page shown other than signing in: registering
  // goes back there
  status: "", // the header's status line (the connection's)
  setStatus(text) {
    app.status = text;
    redrawHeader();
  },
  setAccount(account) {
    app.account = account;
    redrawHeader();
  },
  route,
};

/** The header: the name (the lobby's link), the menu (menu.js), the status line, who is
 *  signed in, the language. */
function headerView({ i18n, account, status, menuOpen }) {
  const t = (key, vars) => i18n.t(key, vars);
  return [
    h("a", { class: "brand", href: appUrl("#/") }, "Dominion"),
    menuView(app, menuOpen, toggleMenu),
    h("span", { id: "status", role: "status", "aria-live": "polite", hidden: !status }, status),
    h("a", { id: "account", href: appUrl(account ? "#/account" : "#/sign-in"),
      dataset: { signedIn: account ? "yes" : "no" } },
    account ? t("signed_in_as", { name: account.name }) : t("sign_in")),
    // each language by its own name, for its readers: the choice of four on every page
    h("select", { id: "language", "aria-label": t("language"),
      onchange: (event) => switchLanguage(event.target.value) },
    LANGUAGES.map((lang) => h("option", { value: lang, lang, selected: lang === i18n.lang },
      LANGUAGE_NAMES[lang]))),
  ];
}

function toggleMenu() {
  app.menuOpen = !app.menuOpen;
  redrawHeader();
}

const drawHeader = redrawing(document.querySelector("header.top"), () => headerView(app));

function redrawHeader() {
  document.documentElement.lang = app.i18n.lang;
  drawHeader();
}

function switchLanguage(lang) {
  app.i18n.setLanguage(lang);
  document.title = app.i18n.t("title");
  redrawHeader();
  if (app.page?.redraw) app.page.redraw(); // its view says it in the new language
  else route();
}

/** The pages that sign in or register: not gone back to once signed in. */
const SIGNING_IN = ["sign-in", "register"];

let routed = 0; // how many times the address was followed: a page made late is dropped

/** Show the page the address names (again, after the language changed). */
async function route() {
  const at = ++routed;
  app.shown = routeOf(window.location.pathname, window.location.hash);
  if (!SIGNING_IN.includes(app.shown.route.name)) {
    app.cameFrom = { pathname: window.location.pathname, hash: window.location.hash };
  }
  app.page?.stop();
  app.page = null;
  app.menuOpen = false; // a link of the menu followed folds it
  app.setStatus("");
  // the last page's content goes at once: a new page may wait on the server before it
  // draws, and must not show the last game meanwhile
  fill(root, h("p", {}, app.i18n.t("loading")));
  const { route: shown, params } = app.shown;
  try {
    const page = await shown.page(root, app, params);
    if (at !== routed) return; // the address changed while its code loaded
    app.page = page;
    await page.start();
  } catch (error) {
    if (at !== routed) return;
    fill(root, h("p", { class: "refused", role: "alert" },
      error.code === "unknown_game" ? app.i18n.t("not_found") : `⚠ ${error.message}`),
    h("a", { href: "#/" }, app.i18n.t("back")));
  }
}

window.addEventListener("hashchange", route);

async function boot() {
  document.title = app.i18n.t("title");
  redrawHeader();
  let account;
  [app.server, app.cards, account] = await Promise.all([api.server(), api.cards(),
    accountApi.me().catch(() => null)]); // accounts unavailable: the page plays as a guest
  app.setAccount(account);
  app.i18n.setCatalogue(app.cards, 2);
  isAdmin().then((admin) => {
    app.admin = admin;
    redrawHeader();
  });
  await route();
}

boot();
