"""A software authenticator for tests: it makes WebAuthn credentials (an ES256 key, the
`none` attestation) and signs assertions as a browser would hand them to the page's
script (`PublicKeyCredential.toJSON()`), for a chosen origin and relying party, with a
sign counter that grows by one at each use."""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

UP, UV, AT = 0x01, 0x04, 0x40
"""authenticator data flags: user present, user verified, attested credential data."""


def b64(data: bytes) -> str:
    return bytes_to_base64url(data)


@dataclass
class SoftKey:
    """One credential: its id, its private key, its user handle and its counter."""

    rp_id: str
    user_handle: bytes
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    count: int = 0

    def cose_public_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    def auth_data(self, flags: int, attested: bytes = b"") -> bytes:
        self.count += 1
        return (hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags])
                + struct.pack(">I", self.count) + attested)


def challenge_of(credential: dict[str, Any]) -> str:
    """The challenge a credential's client data answers."""
    data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
    challenge: str = data["challenge"]
    return challenge


def client_data(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                       "crossOrigin": False}).encode()


def registration(options: dict[str, Any], origin: str, *,
                 credential_id: bytes | None = None) -> tuple[SoftKey, dict[str, Any]]:
    """A new credential answering registration options (with a chosen id, if given),
    and its JSON."""
    key = SoftKey(options["rp"]["id"], base64url_to_bytes(options["user"]["id"]))
    if credential_id is not None:
        key.credential_id = credential_id
    public = key.cose_public_key()
    attested = bytes(16) + struct.pack(">H", len(key.credential_id)) + key.credential_id + public
    attestation = cbor2.dumps({"fmt": "none", "attStmt": {},
                               "authData": key.auth_data(UP | UV | AT, attested)})
    data = client_data("webauthn.create", options["challenge"], origin)
    return key, {"id": b64(key.credential_id), "rawId": b64(key.credential_id),
                 "type": "public-key", "clientExtensionResults": {},
                 "response": {"clientDataJSON": b64(data), "attestationObject": b64(attestation),
                              "transports": ["internal"]}}


def assertion(key: SoftKey, options: dict[str, Any], origin: str) -> dict[str, Any]:
    """The key's answer to sign-in options, as JSON."""
    data = client_data("webauthn.get", options["challenge"], origin)
    auth = key.auth_data(UP | UV)
    signature = key.key.sign(auth + hashlib.sha256(data).digest(), ec.ECDSA(hashes.SHA256()))
    return {"id": b64(key.credential_id), "rawId": b64(key.credential_id), "type": "public-key",
            "clientExtensionResults": {},
            "response": {"clientDataJSON": b64(data), "authenticatorData": b64(auth),
                         "signature": b64(signature), "userHandle": b64(key.user_handle)}}
