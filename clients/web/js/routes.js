// Which page an address names. The hash names the app's pages (#/, #/game/ID, #/watch/ID,
// #/replay/ID, #/sign-in, #/register, #/account, #/account/PAGE, #/top/POOL); a player's profile has
// a path of its own, /@/NAME (the server serves this page there), so that it can be
// shared as a plain link.

const PROFILE_PATH = /^\/@\/([^/]+)$/;

/** {kind, id} for an address's path and hash (kind "lobby" when it names nothing). */
export function routeOf(pathname, hash) {
  const [, kind, id] = hash.match(/^#\/([\w-]+)(?:\/([^/]+))?$/) || [];
  if (kind) return { kind, id: id === undefined ? null : safeDecode(id) };
  const [, name] = pathname.match(PROFILE_PATH) || [];
  if (name) return { kind: "profile", id: safeDecode(name) };
  return { kind: "lobby", id: null };
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

/** The player's guide (docs/PLAYING.md as a page), as the header links it: the server
 *  sends it on to this version's copy. */
export const GUIDE_URL = "/guide";
