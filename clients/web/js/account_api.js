// Accounts, passkeys and profiles over REST (docs/SERVER.md, "Accounts"): the session is
// an HttpOnly cookie the page never sees; these calls only send it along.

import { call } from "./api.js";

const player = (name) => `/players/${encodeURIComponent(name)}`;

export const accountApi = {
  /** The signed-in account, or null for a guest. */
  async me() {
    try {
      return (await call("GET", "/account")).account;
    } catch (error) {
      if (error.code === "not_signed_in") return null;
      throw error;
    }
  },
  register: (name, password) => call("POST", "/account/register", { name, password }),
  signIn: (name, password) => call("POST", "/account/sign-in", { name, password }),
  signOut: () => call("POST", "/account/sign-out"),
  signOutEverywhere: () => call("POST", "/account/sign-out-everywhere"),
  changePassword: (oldPassword, newPassword) => call("POST", "/account/password",
    { old_password: oldPassword, new_password: newPassword }),
  deleteAccount: (password) => call("DELETE", "/account", { password }),
  myGames: () => call("GET", "/account/games"),
  reclaim: (id) => call("POST", `/games/${encodeURIComponent(id)}/reclaim`),
  passkeys: () => call("GET", "/account/passkeys"),
  passkeyRegistrationOptions: () => call("POST", "/account/passkeys/register/options"),
  registerPasskey: (name, credential) => call("POST", "/account/passkeys/register",
    { name, credential }),
  removePasskey: (id) => call("DELETE", `/account/passkeys/${encodeURIComponent(id)}`),
  passkeySignInOptions: () => call("POST", "/passkeys/sign-in/options"),
  passkeySignIn: (credential) => call("POST", "/passkeys/sign-in", { credential }),
  player: (name) => call("GET", player(name)),
  playerGames: (name, query) => call("GET", `${player(name)}/games?${new URLSearchParams(query)}`),
};
