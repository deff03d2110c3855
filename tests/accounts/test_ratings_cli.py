"""`dominion-server ratings recompute` on each account store: the ratings rebuilt from the
ledger with today's parameters, in one transaction, and what changed printed."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from dominion.server.accounts import open_account_store
from dominion.server.main import main
from dominion.server.ratings import Pool, ledger, model, update
from dominion.server.ratings.ledger import RatedGame, RatedSeat

from .test_admin_cli import store_options


async def _ledger_of_two_games(options: list[str]) -> int:
    """Ada beats Big Money, then loses to Bob; her 2-player rating shown."""
    store = open_account_store(options[3] if len(options) > 2 else "", options[1])
    await store.start()
    try:
        now = datetime.now(UTC)
        ada = await store.create_account("Ada", "ada", "h", now)
        bob = await store.create_account("Bob", "bob", "h", now)
        for game in (
                RatedGame("g-1", "2026-12-01T10:00:00Z", (
                    RatedSeat(0, 0, account_id=ada.id), RatedSeat(1, 1, bot="big_money"))),
                RatedGame("g-2", "2026-12-01T11:00:00Z", (
                    RatedSeat(0, 1, account_id=ada.id), RatedSeat(1, 0, account_id=bob.id)))):
            assert await store.apply_rated_game(game, now)
        return (await store.ratings_of(ada.id))[Pool.TWO_PLAYER].display
    finally:
        await store.close()


def test_recompute_prints_what_todays_parameters_change(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    options = store_options(store_kind, tmp_path, request)
    before = asyncio.run(_ledger_of_two_games(options))
    assert main(["ratings", "recompute", *options]) == 0
    assert capsys.readouterr().out == "0 ratings changed\n"  # the same parameters
    wider = PlackettLuce(mu=model.MU, sigma=model.SIGMA, beta=2 * model.BETA, tau=model.TAU)
    monkeypatch.setattr(ledger, "update", lambda ratings, ranks: update(ratings, ranks, wider))
    assert main(["ratings", "recompute", *options]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "2 ratings changed"
    assert printed[0].startswith(f"Ada 2p: {before} -> ") and printed[0].endswith("(2 games)")
    assert printed[1].startswith("Bob 2p: ")


def test_recompute_needs_its_action(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["ratings", "rebuild"])
    assert "invalid choice: 'rebuild'" in capsys.readouterr().err
