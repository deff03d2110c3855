"""Device cookies: signed for one account by its password hash; another account's, a
forged or damaged one, or one from before a password change is no device cookie."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from dominion.server.accounts.devices import device_value, known_device, parse_device
from dominion.server.accounts.store import Account

ADA = Account(4242, "Ada", "ada", "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$aGFzaA",
              datetime(2026, 12, 1, tzinfo=UTC))


def test_a_device_cookie_names_its_account_and_is_known_for_it_only() -> None:
    value = device_value(ADA)
    assert value is not None and value.startswith("4242.")
    assert known_device(parse_device(value), ADA)
    assert device_value(ADA) != value  # a new nonce each sign-in
    bob = replace(ADA, id=4343, name="Bob", name_key="bob")
    assert not known_device(parse_device(value), bob)


def test_forged_damaged_or_outdated_device_cookies_are_no_device_cookies() -> None:
    value = device_value(ADA)
    assert value is not None
    account_id, nonce, signature = value.split(".")
    forged = f"{account_id}.{nonce}.{'A' * 43}"
    other_nonce = f"{account_id}.{'B' * 22}.{signature}"
    for candidate in (forged, other_nonce, value[:-1], value + "A", "", "4242", None):
        assert not known_device(parse_device(candidate), ADA), candidate
    new_password = replace(ADA, password_hash=ADA.password_hash + "x")  # type: ignore[operator]
    assert not known_device(parse_device(value), new_password)
    assert device_value(replace(ADA, password_hash=None)) is None
