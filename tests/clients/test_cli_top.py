"""`dominion top` against a real server: the in-server bots are the leaderboard's fixed
points from the start; an account that plays a rated game joins it once the ledger has
applied it (provisional, its games counted); pools, paging, JSON and Polish."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eventually import eventually

from .serverproc import server_url
from .test_cli_account import PASSWORD, login, register
from .test_cli_commands import dominion

__all__ = ["server_url"]


def test_top_lists_the_bots_pages_and_speaks_polish(server_url: str, tmp_path: Path) -> None:
    server = ("--server", server_url)
    shown = dominion(tmp_path, "top", "--limit", "2", *server)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "2-player leaderboard: places 1-2 of 4"
    assert lines[1].split() == ["1", "strong", "[bot]", "1840", "0", "games"]
    assert lines[2].split()[:3] == ["2", "smithy_big_money", "[bot]"]
    assert lines[3] == "... 2 more (use --offset 2)"
    rest = dominion(tmp_path, "top", "--offset", "2", *server).stdout.splitlines()
    assert [line.split()[1] for line in rest[1:]] == ["big_money", "random"]
    polish = dominion(tmp_path, "top", "--pool", "3-6p", "--lang", "pl", *server).stdout
    assert polish.startswith("Ranking gier od 3 do 6 graczy: miejsca 1-4 z 4\n")
    # the random bot's mu is below 0 in this pool: shown as 0, never negative
    assert polish.splitlines()[-1].split() == ["4", "random", "[bot]", "0", "0", "gier"]
    board = json.loads(dominion(tmp_path, "top", "--json", *server).stdout)
    assert board["pool"] == "2p" and board["total"] == 4 and board["players"][0]["bot"]
    unknown = dominion(tmp_path, "top", "--pool", "5p", *server)
    assert unknown.returncode == 2 and "invalid choice: '5p'" in unknown.stderr
    paging = dominion(tmp_path, "top", "--limit", "0", *server)
    assert paging.returncode == 1 and "(bad_paging)" in paging.stderr


async def test_a_rated_game_puts_its_player_on_the_leaderboard(server_url: str,
                                                              tmp_path: Path) -> None:
    server = ("--server", server_url)
    await register(server_url, "Cy")
    login(tmp_path, server_url, "--name", "Cy", prompt="Password:", secret=PASSWORD)
    created = dominion(tmp_path, "create", "--rated", "--bot", "big_money", "--name", "Cy",
                       "--kingdom", "First Game", *server)
    assert created.returncode == 0, created.stderr
    game = created.stdout.strip()
    played = dominion(tmp_path, "bot", "--game", game, "--name", "Cy", *server)
    assert played.returncode == 0, played.stderr

    def listed() -> bool:
        return "Cy " in dominion(tmp_path, "top", *server).stdout

    await eventually(listed)
    lines = dominion(tmp_path, "top", *server).stdout.splitlines()
    row = next(line for line in lines if line.split()[1] == "Cy")
    assert "[bot]" not in row and row.split()[-2:] == ["1", "game"]
    assert row.split()[2].endswith("?")  # provisional after one game
    assert lines[-1] == "? provisional: too few games yet for the rating to have settled"
    assert "Cy" not in dominion(tmp_path, "top", "--pool", "3-6p", *server).stdout
