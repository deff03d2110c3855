// The protocol client (docs/PROTOCOL.md, version 2): one WebSocket, `hello`, requests
// with ids answered by `ack` or `error`, pushes, and reconnecting with a growing delay
// (at most RECONNECT_MAX_MS: a restarted server is found again within seconds), after
// which every followed game is resumed from the last event the page holds.

import { decode } from "../vendor/msgpack/decode.mjs";
import { encode } from "../vendor/msgpack/encode.mjs";

export const SUBPROTOCOL = "dominion.v2.msgpack";
export const CLIENT_NAME = "dominion-web/0.1";
/** Closes that reconnecting cannot fix: protocol error, no common version, replaced. */
const FINAL_CLOSES = new Set([4000, 4001, 4006]);
const RECONNECT_FIRST_MS = 250;
/** The longest wait between two tries to reconnect (the Python client's bound too). */
export const RECONNECT_MAX_MS = 4000;

/** The wait before try number `failures` (from 0): drawn from zero up to a bound that
 *  doubles up to RECONNECT_MAX_MS ("full jitter": the pages of a restarted server come
 *  back spread over the whole bound, not all at once). */
export function reconnectDelay(failures, random = Math.random) {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.min(failures, 16)) * random();
}

export class ServerError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class ConnectionLost extends Error {}

export class Connection {
  /**
   * @param {string} url the WebSocket URL
   * @param {(message: object) => void} onPush every frame without an id
   * @param {(status: string, code?: number) => void} onStatus "open", "reconnecting",
   *   or "closed" (with the close code) when the page must not reconnect
   */
  constructor(url, onPush, onStatus) {
    this.url = url;
    this.onPush = onPush;
    this.onStatus = onStatus;
    this.nextId = 1;
    this.pending = new Map();
    this.games = new Map(); // game id -> {token, lastSeq: () => number}
    this.ws = null;
    this.failures = 0;
    this.limits = null;
    this.lastHeard = 0;
    this.watchdog = null;
    this.stopped = false;
    this.ready = false; // welcomed on the current socket
  }

  /** Connect and say hello; resolves once welcomed. */
  async open() {
    this.stopped = false;
    await new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, [SUBPROTOCOL]);
      ws.binaryType = "arraybuffer";
      this.ws = ws;
      ws.onmessage = (message) => this.receive(message.data);
      ws.onclose = (close) => {
        reject(new ConnectionLost(`closed (${close.code})`));
        this.closed(ws, close.code);
      };
      ws.onopen = resolve;
    });
    const welcome = await this.request("hello", { versions: [2], client: CLIENT_NAME });
    this.limits = welcome.limits;
    this.ready = true;
    this.failures = 0;
    this.lastHeard = Date.now();
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => this.checkAlive(), 1000);
    this.onStatus("open");
    for (const [game, follow] of this.games) this.resume(game, follow);
  }

  /** Keep following a game: resumed now if connected, and after every (re)connect. */
  follow(game, token, lastSeq) {
    const follow = { token, lastSeq };
    this.games.set(game, follow);
    return this.ready ? this.resume(game, follow) : Promise.resolve();
  }

  resume(game, follow) {
    const fields = { game, last_seq: follow.lastSeq() };
    if (follow.token) fields.token = follow.token;
    return this.request("resume", fields).catch((error) => {
      if (!(error instanceof ConnectionLost)) this.onPush({ type: "resume_failed", game, error });
    });
  }

  request(type, fields = {}) {
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ConnectionLost("not connected"));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(encode({ type, id, ...fields }));
    });
  }

  receive(data) {
    this.lastHeard = Date.now();
    let message;
    try {
      message = decode(new Uint8Array(data));
    } catch {
      return; // not one msgpack value: nothing a page can do with it
    }
    if (message === null || typeof message !== "object") return;
    const waiting = Number.isInteger(message.id) ? this.pending.get(message.id) : undefined;
    if (waiting && (message.type === "ack" || message.type === "welcome")) {
      this.pending.delete(message.id);
      waiting.resolve(message);
    } else if (waiting && message.type === "error") {
      this.pending.delete(message.id);
      waiting.reject(new ServerError(message.code, message.message));
    } else if (message.type !== "pong") {
      this.onPush(message);
    }
  }

  /** The server sends something at least every heartbeat; silence means a dead link. */
  checkAlive() {
    const heartbeat = (this.limits?.heartbeat_seconds ?? 20) * 1000;
    if (this.ws && Date.now() - this.lastHeard > 2 * heartbeat + 5000) this.ws.close();
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ready = false;
    clearInterval(this.watchdog);
    for (const waiting of this.pending.values()) waiting.reject(new ConnectionLost("closed"));
    this.pending.clear();
    this.nextId = 1;
    if (this.stopped || FINAL_CLOSES.has(code)) {
      this.onStatus("closed", code);
      return;
    }
    this.onStatus("reconnecting", code);
    const delay = reconnectDelay(this.failures);
    this.failures += 1;
    setTimeout(() => this.open().catch(() => {}), delay);
  }

  /** Close for good (leaving the page's game view). */
  stop() {
    this.stopped = true;
    this.games.clear();
    this.ws?.close(1000);
  }
}

/** The server's WebSocket URL, on the page's own host. */
export function websocketUrl(location, path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/** A game's WebSocket URL: its `ws_url` (docs/PROTOCOL.md, section 1), built from its id,
 *  so that a proxy in front of several nodes passes it to the game's node. */
export function gameWebsocketUrl(location, path, game) {
  return websocketUrl(location, `${path}?game=${encodeURIComponent(game)}`);
}
