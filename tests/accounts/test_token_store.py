"""Both stores keep personal access tokens and bot accounts the same way (run against
each)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dominion.server.accounts import AccountStore
from dominion.server.accounts.store import Scope

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
LATER = NOW + timedelta(days=1)
PLAY = frozenset({Scope.PLAY, Scope.READ})


async def test_a_token_finds_its_account_and_records_its_last_use(store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    made = await store.add_token(b"t1", ada.id, "my bot", PLAY, NOW, None)
    assert (made.description, made.scopes, made.expires_at, made.last_used_at) == (
        "my bot", PLAY, None, None)
    found = await store.token_account(b"t1", LATER)
    assert found is not None
    token, account = found
    assert (token.id, account.id, account.bot, token.scopes) == (made.id, ada.id, False, PLAY)
    assert token.last_used_at is None  # as it was before this use
    [listed] = await store.tokens_of(ada.id)
    assert listed.last_used_at == LATER and listed.created_at == NOW
    assert await store.token_account(b"nope", NOW) is None


async def test_an_expired_token_is_found_but_its_last_use_stays(store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    await store.add_token(b"t1", ada.id, "", PLAY, NOW, LATER)
    found = await store.token_account(b"t1", LATER)
    assert found is not None and found[0].expires_at == LATER
    [listed] = await store.tokens_of(ada.id)
    assert listed.last_used_at is None


async def test_only_the_owner_revokes_a_token_and_deletion_revokes_all(
        store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    first = await store.add_token(b"a1", ada.id, "one", PLAY, NOW, None)
    second = await store.add_token(b"a2", ada.id, "two", frozenset({Scope.READ}), NOW, LATER)
    await store.add_token(b"b1", bob.id, "bob's", PLAY, NOW, None)
    assert [token.id for token in await store.tokens_of(ada.id)] == [first.id, second.id]
    assert not await store.delete_token(bob.id, first.id)
    assert await store.token_account(b"a1", NOW) is not None
    assert await store.delete_token(ada.id, first.id)
    assert not await store.delete_token(ada.id, first.id)
    assert await store.token_account(b"a1", NOW) is None
    await store.delete_account(bob.id, NOW)
    assert await store.token_account(b"b1", NOW) is None
    assert await store.tokens_of(bob.id) == []


async def test_live_tokens_are_those_neither_revoked_nor_gone_with_their_account(
        store: AccountStore) -> None:
    """What a node asks about its connections' tokens, however many (one query)."""
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    kept = await store.add_token(b"a1", ada.id, "", PLAY, NOW, None)
    revoked = await store.add_token(b"a2", ada.id, "", PLAY, NOW, None)
    bobs = await store.add_token(b"b1", bob.id, "", PLAY, NOW, None)
    every = {kept.id, revoked.id, bobs.id}
    assert await store.live_tokens(every) == every
    assert await store.delete_token(ada.id, revoked.id)
    await store.delete_account(bob.id, NOW)
    assert await store.live_tokens(every | set(range(10_000, 50_000))) == {kept.id}
    assert await store.live_tokens(set()) == set()


async def test_an_account_becomes_a_bot_account(store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    assert not ada.bot
    await store.make_bot(ada.id)
    found = await store.account_by_key("ada")
    assert found is not None and found.bot
    await store.add_token(b"t", ada.id, "", frozenset({Scope.BOT_PLAY}), NOW, None)
    used = await store.token_account(b"t", NOW)
    assert used is not None and used[1].bot
