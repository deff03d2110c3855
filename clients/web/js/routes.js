// Which page an address names, by a table of routes (pages.js holds the app's): a route's
// pattern names a hash (`#/game/:id`: the app's pages) or a path (`/@/:name`: a player's
// profile has a path of its own, which the server serves this page at, so that it can be
// shared as a plain link; so have the card statistics, `/stats`). The hash wins over the
// path; nothing matched, the table's last route is shown (the lobby).

/** A pattern's test: `:NAME` is one part of the address (decoded), `:NAME?` one that may
 *  be left out. */
export function patternOf(pattern) {
  const names = [];
  const source = pattern.replace(/[.*+^$()[\]{}|\\]/g, "\\$&")
    .replace(/\/:(\w+)(\?)?/g, (_, name, optional) => {
      names.push(name);
      return optional ? "(?:/([^/]+))?" : "/([^/]+)";
    });
  return { names, test: new RegExp(`^${source}$`), hash: pattern.startsWith("#") };
}

/**
 * The route an address names, and its parts: `{route, params}` (a part left out is null).
 * @param {Array<{path: string}>} routes the table, in order; its last route is the default
 */
export function matchRoute(routes, pathname, hash) {
  const patterns = routes.map((route) => patternOf(route.path));
  for (const address of [hash, pathname]) {
    const at = patterns.findIndex((pattern) => pattern.hash === address.startsWith("#")
      && pattern.test.test(address));
    if (at < 0) continue;
    const { names, test } = patterns[at];
    const parts = address.match(test).slice(1);
    return { route: routes[at], params: Object.fromEntries(names.map((name, index) => [name,
      parts[index] === undefined ? null : safeDecode(parts[index])])) };
  }
  return { route: routes.at(-1), params: {} };
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a malformed escape: looked up as it is (and not found)
  }
}

/** A player's profile page. */
export function profileUrl(name) {
  return `/@/${encodeURIComponent(name)}`;
}

/** The app's page `hash` from anywhere (a profile's path included). */
export function appUrl(hash) {
  return `/${hash}`;
}

/** The card statistics: a path of its own, as a profile's, to share as a plain link. */
export const STATS_URL = "/stats";

/** The player's guide (docs/PLAYING.md as a page), as the header links it: the server
 *  sends it on to this version's copy. */
export const GUIDE_URL = "/guide";
