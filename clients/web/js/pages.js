// The app's pages, by address: the route table (routes.js matches it). Each route makes
// its page's controller, which keeps the page's state, `start`s (loading what it shows),
// draws it (a `view` of its state, patched into the root at each `redraw`) and `stop`s
// when the address changes. A page's module is loaded when the page is first shown, so
// that a first visit loads only its own page's code. The last route is the default: the
// lobby.

import { seats } from "./api.js";
import { matchRoute } from "./routes.js";

/** @type {Array<{name: string, path: string, page: (root: HTMLElement, app: object,
 *  params: object) => Promise<{start: () => Promise<void>, stop: () => void}>}>} */
export const ROUTES = [
  { name: "admin", path: "#/admin", page: async (root, app) => {
    const { AdminPage } = await import("./admin.js");
    return new AdminPage(root, app);
  } },
  { name: "game", path: "#/game/:id", page: async (root, app, { id }) => {
    if (!seats.get(id)) { // no seat held here: the table's page, to join it or watch
      const { TablePage } = await import("./lobby.js");
      return new TablePage(root, app, id);
    }
    const { GamePage } = await import("./game.js");
    return new GamePage(root, app, id, seats.get(id));
  } },
  { name: "watch", path: "#/watch/:id", page: async (root, app, { id }) => {
    const { GamePage } = await import("./game.js");
    return new GamePage(root, app, id, null);
  } },
  { name: "replay", path: "#/replay/:id", page: async (root, app, { id }) => {
    const { ReplayPage } = await import("./replay.js");
    return new ReplayPage(root, app, id);
  } },
  { name: "sign-in", path: "#/sign-in", page: async (root, app) => {
    const { SignInPage } = await import("./account.js");
    return new SignInPage(root, app, false);
  } },
  { name: "register", path: "#/register", page: async (root, app) => {
    const { SignInPage } = await import("./account.js");
    return new SignInPage(root, app, true);
  } },
  { name: "account", path: "#/account", page: async (root, app) => {
    const { AccountPage } = await import("./account.js");
    return new AccountPage(root, app);
  } },
  { name: "tokens", path: "#/account/tokens", page: async (root, app) => {
    const { TokensPage } = await import("./tokens.js");
    return new TokensPage(root, app);
  } },
  { name: "top", path: "#/top/:pool?", page: async (root, app, { pool }) => {
    const { LeaderboardPage } = await import("./leaderboard.js");
    return new LeaderboardPage(root, app, pool);
  } },
  { name: "stats", path: "/stats", page: async (root, app) => {
    const { StatsPage } = await import("./stats.js");
    return new StatsPage(root, app);
  } },
  { name: "profile", path: "/@/:name", page: async (root, app, { name }) => {
    const { ProfilePage } = await import("./profile.js");
    return new ProfilePage(root, app, name);
  } },
  { name: "lobby", path: "#/", page: async (root, app) => {
    const { LobbyPage } = await import("./lobby.js");
    return new LobbyPage(root, app);
  } },
];

/** The route the address names (`{route, params}`). */
export function routeOf(pathname, hash) {
  return matchRoute(ROUTES, pathname, hash);
}
