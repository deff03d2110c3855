// The REST lobby (docs/SERVER.md, `GET /api/v1/openapi.json`): JSON in, JSON out, and
// refusals as {"error": {"code", "message"}}, raised here as ApiError.

export class ApiError extends Error {
  constructor(code, message, status, retryAfterMs = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

export async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`/api/v1${path}`, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error || {};
    throw new ApiError(error.code || "http_error", error.message || response.statusText,
      response.status, error.retry_after_ms ?? null);
  }
  return data;
}

export const api = {
  server: () => call("GET", "/server"),
  cards: () => call("GET", "/cards"),
  games: (query) => call("GET", `/games?${new URLSearchParams(query)}`),
  game: (id) => call("GET", `/games/${encodeURIComponent(id)}`),
  create: (body) => call("POST", "/games", body),
  join: (id, name) => call("POST", `/games/${encodeURIComponent(id)}/join`, { name }),
  replay: (id) => call("GET", `/games/${encodeURIComponent(id)}/replay`),
  replayUrl: (id, format) => `/api/v1/games/${encodeURIComponent(id)}/replay?format=${format}`,
};

/** Seat tokens, one entry per game, in the browser's storage. */
export const seats = {
  key: (game) => `dominion.seat.${game}`,
  get(game) {
    try {
      return JSON.parse(localStorage.getItem(this.key(game)));
    } catch {
      return null;
    }
  },
  set(game, seat, token) {
    localStorage.setItem(this.key(game), JSON.stringify({ seat, token }));
  },
  forget(game) {
    localStorage.removeItem(this.key(game));
  },
};

/** Is the browser signed in as an admin? (Anything but a 200 to GET /api/v1/admin says
 *  no.) The header links the admin page for an admin only. */
export async function isAdmin(request = call) {
  try {
    await request("GET", "/admin");
    return true;
  } catch {
    return false;
  }
}
