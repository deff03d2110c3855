// Passkeys in the browser (WebAuthn): the server's options (JSON, base64url for bytes)
// made into what navigator.credentials wants, and the credential it gives back made
// into JSON again. By hand rather than PublicKeyCredential.parse*FromJSON / toJSON,
// which older browsers lack.

import { accountApi } from "./account_api.js";

/** base64url text -> bytes */
export function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** bytes (an ArrayBuffer or a view) -> base64url text, unpadded */
export function toBase64url(bytes) {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes)
    : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((d) => ({ ...d, id: fromBase64url(d.id) }));

/** Registration options (JSON) -> navigator.credentials.create's argument. */
export function creationOptions(json) {
  return { publicKey: { ...json, challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials) } };
}

/** Sign-in options (JSON) -> navigator.credentials.get's argument. */
export function requestOptions(json) {
  return { publicKey: { ...json, challenge: fromBase64url(json.challenge),
    allowCredentials: descriptors(json.allowCredentials) } };
}

/** A PublicKeyCredential (made or asserted) as the server reads it. */
export function credentialJson(credential) {
  const { response } = credential;
  const json = {};
  for (const field of ["clientDataJSON", "attestationObject", "authenticatorData", "signature",
    "userHandle"]) {
    if (response[field]) json[field] = toBase64url(response[field]);
  }
  if (response.getTransports) json.transports = response.getTransports();
  return { id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {}, response: json };
}

export function passkeysSupported() {
  return typeof window !== "undefined" && "PublicKeyCredential" in window
    && Boolean(navigator.credentials);
}

/** A refusal of the browser's own (cancelled, timed out, not allowed) for the page to say. */
export class PasskeyCancelled extends Error {
  constructor() {
    super("passkey not used");
    this.code = "passkey_cancelled";
  }
}

async function ceremony(run) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DOMException) throw new PasskeyCancelled();
    throw error;
  }
}

/** Make a passkey for the signed-in account, under `name`; the server keeps it. */
export async function addPasskey(name) {
  const options = await accountApi.passkeyRegistrationOptions();
  const credential = await ceremony(() => navigator.credentials.create(creationOptions(options)));
  return accountApi.registerPasskey(name, credentialJson(credential));
}

/** Sign in with a passkey the authenticator offers; the account signed in. */
export async function signInWithPasskey() {
  const options = await accountApi.passkeySignInOptions();
  const credential = await ceremony(() => navigator.credentials.get(requestOptions(options)));
  return accountApi.passkeySignIn(credentialJson(credential));
}
