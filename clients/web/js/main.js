// The page: loads the server's description, the card catalogue and who is signed in,
// then shows the page the address names (routes.js): #/ (lobby), #/game/ID (your seat, or
// joining it), #/watch/ID, #/replay/ID, #/sign-in, #/register, #/account,
// #/account/tokens (tokens.js), #/admin (admins only), #/top/POOL (the leaderboards,
// linked from the header), and a player's profile at /@/NAME.
// The language follows the browser unless chosen with the switch.

import { AccountPage, SignInPage, showAccount } from "./account.js";
import { AdminPage, showAdminLink } from "./admin.js";
import { accountApi } from "./account_api.js";
import { ACCOUNT_COUNTED, ACCOUNT_WORDS } from "./account_words.js";
import { api, seats } from "./api.js";
import { fill, h } from "./dom.js";
import { GamePage } from "./game.js";
import { addWords, I18n } from "./i18n.js";
import { LeaderboardPage } from "./leaderboard.js";
import { LobbyPage, tablePage } from "./lobby.js";
import { ProfilePage } from "./profile.js";
import { RATING_COUNTED, RATING_WORDS } from "./rating_words.js";
import { ReplayPage } from "./replay.js";
import { routeOf } from "./routes.js";
import { TokensPage } from "./tokens.js";
import { watchTooltips } from "./tooltip.js";

const root = document.getElementById("app");
const status = document.getElementById("status");
const languageButton = document.getElementById("language");
const accountLink = document.getElementById("account");
const leaderboardLink = document.getElementById("leaderboard-link");
const guideLink = document.getElementById("guide-link");

addWords(ACCOUNT_WORDS, ACCOUNT_COUNTED);
addWords(RATING_WORDS, RATING_COUNTED);
watchTooltips(document); // every page's cards
const app = {
  i18n: new I18n(window.localStorage, navigator.languages),
  server: null,
  cards: null,
  page: null,
  account: null, // {id, name, created_at} once signed in
  setStatus(text) {
    status.textContent = text;
    status.hidden = !text;
  },
  setAccount(account) {
    app.account = account;
    showAccount(accountLink, app.i18n, account);
  },
  route,
};

function showLanguage() {
  document.documentElement.lang = app.i18n.lang;
  languageButton.textContent = app.i18n.t("language");
  languageButton.setAttribute("lang", app.i18n.lang === "pl" ? "en" : "pl");
  document.title = app.i18n.t("title");
  leaderboardLink.textContent = app.i18n.t("leaderboard");
  guideLink.textContent = app.i18n.t("guide");
  showAccount(accountLink, app.i18n, app.account);
}

/** Show the page the address names (again, after the language changed). */
async function route() {
  app.page?.stop();
  app.page = null;
  app.setStatus("");
  // the last page's content goes at once: a new page may wait on the server before it
  // draws, and must not show the last game meanwhile
  fill(root, h("p", {}, app.i18n.t("loading")));
  const { kind, id } = routeOf(window.location.pathname, window.location.hash);
  try {
    if (kind === "admin") app.page = new AdminPage(root, app);
    else if (kind === "game" && seats.get(id)) app.page = new GamePage(root, app, id, seats.get(id));
    else if (kind === "game") await tablePage(root, app, id);
    else if (kind === "watch") app.page = new GamePage(root, app, id, null);
    else if (kind === "replay") app.page = new ReplayPage(root, app, id);
    else if (kind === "sign-in" || kind === "register") {
      app.page = new SignInPage(root, app, kind === "register");
    } else if (kind === "account" && id === null) app.page = new AccountPage(root, app);
    else if (kind === "account" && id === "tokens") app.page = new TokensPage(root, app);
    else if (kind === "profile") app.page = new ProfilePage(root, app, id);
    else if (kind === "top") app.page = new LeaderboardPage(root, app, id);
    else app.page = new LobbyPage(root, app);
    await app.page?.start();
  } catch (error) {
    fill(root, h("p", { class: "refused", role: "alert" },
      error.code === "unknown_game" ? app.i18n.t("not_found") : `⚠ ${error.message}`),
    h("a", { href: "#/" }, app.i18n.t("back")));
  }
}

languageButton.addEventListener("click", () => {
  app.i18n.setLanguage(app.i18n.lang === "pl" ? "en" : "pl");
  showLanguage();
  if (app.page?.render && app.page.state) app.page.render();
  else route();
});
window.addEventListener("hashchange", route);

async function boot() {
  showLanguage();
  let account;
  [app.server, app.cards, account] = await Promise.all([api.server(), api.cards(),
    accountApi.me().catch(() => null)]); // accounts unavailable: the page plays as a guest
  app.setAccount(account);
  app.i18n.setCatalogue(app.cards, 2);
  showAdminLink(document.querySelector("header.top"));
  await route();
}

boot();
