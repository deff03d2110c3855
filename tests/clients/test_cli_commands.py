"""The `dominion` command against a real server, as a person runs it: create, join,
list, watch, bot, and a replay downloaded, shown and verified."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.process_cpu import run

from .serverproc import server_url

__all__ = ["server_url"]


def dominion(config: Path, *args: str, cpu_limit: float = 30,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command, given `cpu_limit` seconds of its CPU (a busy machine only makes it wait
    longer for a core)."""
    return run([sys.executable, "-m", "dominion.clients.cli", *args], cpu_limit,
               env={**os.environ, "DOMINION_CONFIG_DIR": str(config), **(env or {})})


def spawn(config: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "dominion.clients.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "DOMINION_CONFIG_DIR": str(config)})


@pytest.mark.system  # a whole game
def test_a_whole_game_through_the_command(server_url: str, tmp_path: Path) -> None:
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    # Ann saves her server and name once; Bob passes them as options and environment.
    saved = dominion(ann, "config", "--server", server_url, "--name", "Ann")
    assert saved.returncode == 0 and f"server = {server_url}" in saved.stdout
    created = dominion(ann, "create", "--seats", "2", "--kingdom", "First Game")
    assert created.returncode == 0, created.stderr
    game = created.stdout.strip()
    assert game.startswith("g-") and "seat 0" in created.stderr
    assert json.loads((ann / "tokens.json").read_text())[game]["0"]["seat"] == 0

    listed = dominion(ann, "list", "--state", "open")
    assert game in listed.stdout and "open" in listed.stdout and "1/2" in listed.stdout

    watch = spawn(bob, "watch", game, "--server", server_url, "--lang", "pl")
    joined = subprocess.run(
        [sys.executable, "-m", "dominion.clients.cli", "join", game],
        capture_output=True, text=True, check=False, timeout=30,
        env={**os.environ, "DOMINION_CONFIG_DIR": str(bob), "DOMINION_SERVER": server_url,
             "DOMINION_NAME": "Bob"})
    assert joined.returncode == 0, joined.stderr
    assert joined.stdout.strip() == "seat 1"

    # Each bot takes the seat whose token its owner saved.
    bots = [spawn(ann, "bot", "--game", game, "--strategy", "big_money"),
            spawn(bob, "bot", "--game", game, "--strategy", "smithy_big_money",
                  "--server", server_url, "--name", "Bob")]
    for bot in bots:
        out, err = bot.communicate(timeout=60)
        assert bot.returncode == 0, err
        assert game in out and "Winner" in out
    out, err = watch.communicate(timeout=30)
    assert watch.returncode == 0, err
    assert "Ann: tura 1" in out and "Gra się skończyła." in out  # --lang pl throughout
    assert "Miedziaki" in out and "Copper" not in out  # --lang pl

    finished = dominion(ann, "list", "--state", "finished", "--player", "Bob", "--json")
    assert [g["id"] for g in json.loads(finished.stdout)["games"]] == [game]

    replay = tmp_path / "game.json"
    downloaded = dominion(ann, "replay", "download", game, "-o", str(replay))
    assert downloaded.returncode == 0, downloaded.stderr
    shown = dominion(ann, "replay", "show", str(replay), "--all")
    assert shown.returncode == 0, shown.stderr
    assert "Ann's turn 1" in shown.stdout and "Ann's hand: " in shown.stdout
    assert "Bob's hand: " in shown.stdout and "Winner" in shown.stdout
    # the hands shown are the ones drawn: turn 1's player drew them before it
    verified = dominion(ann, "replay", "verify", str(replay))
    assert verified.returncode == 0 and verified.stdout.startswith(f"{game}: ok:")


def test_create_with_server_bots_and_errors(server_url: str, tmp_path: Path) -> None:
    created = dominion(tmp_path, "create", "--server", server_url, "--name", "Cy",
                       "--seats", "3", "--bot", "random", "--bot", "2=big_money")
    assert created.returncode == 0, created.stderr
    game = created.stdout.strip()
    shown = dominion(tmp_path, "list", "--server", server_url, "--json", "--players", "3")
    summary = next(g for g in json.loads(shown.stdout)["games"] if g["id"] == game)
    assert [s["bot"] for s in summary["seats"]] == [None, "random", "big_money"]
    assert summary["time_control"] is None  # the server's default for unrated: none
    assert summary["bot_pace"] == "instant"  # the tests' servers' (tests/conftest.py)
    clocked = dominion(tmp_path, "create", "--server", server_url, "--name", "Di",
                       "--clock", "0.5+2", "--bot-pace", "slow")
    assert clocked.returncode == 0, clocked.stderr
    listed = json.loads(dominion(tmp_path, "list", "--server", server_url, "--json").stdout)
    summary = next(g for g in listed["games"] if g["id"] == clocked.stdout.strip())
    assert summary["time_control"] == {"initial_seconds": 30, "increment_seconds": 2}
    assert summary["bot_pace"] == "slow"
    unclear = dominion(tmp_path, "create", "--server", server_url, "--clock", "ten")
    assert unclear.returncode == 2 and "10+5" in unclear.stderr
    refused = dominion(tmp_path, "join", "g-nope", "--server", server_url)
    assert refused.returncode == 1 and "unknown_game" in refused.stderr
    unreachable = dominion(tmp_path, "list", "--server", "http://127.0.0.1:9")
    assert unreachable.returncode == 2 and "Cannot reach" in unreachable.stderr
    assert "Is it running? Start one with `dominion-server`" in unreachable.stderr


def test_the_readme_demo_two_local_bots_and_a_watcher(server_url: str, tmp_path: Path) -> None:
    """README: `dominion bot --strategy big_money` makes a table, `dominion watch GAME`
    follows it live, `dominion bot --strategy smithy_big_money --game GAME` takes its free
    seat (one config folder, as on one machine); watching it again once it has ended."""
    first = spawn(tmp_path, "bot", "--strategy", "big_money", "--server", server_url)
    processes = [first]
    try:
        assert first.stdout is not None
        game = first.stdout.readline().strip()  # it creates a table and prints its id
        assert game.startswith("g-")
        watch = spawn(tmp_path, "watch", game, "--server", server_url)
        processes.append(watch)
        assert watch.stdout is not None
        assert "waiting for" in watch.stdout.readline().lower()  # watching before the start
        # a small --delay, as a person watching uses
        second = spawn(tmp_path, "bot", "--strategy", "smithy_big_money", "--server",
                       server_url, "--delay", "0.01", "--game", game)
        processes.append(second)
        for bot in (first, second):
            out, err = bot.communicate(timeout=60)
            assert bot.returncode == 0, err
        out, err = watch.communicate(timeout=30)
        assert watch.returncode == 0, err
        # followed live, to the end (the words are the terminal client's, which may change)
        assert "smithy_big_money bot" in out and "winner" in out.lower()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    # each seat's token kept under its bot's name (neither overwrote the other)
    saved = json.loads((tmp_path / "tokens.json").read_text())[game]
    assert {seat: entry["name"] for seat, entry in saved.items()} == {
        "0": "big_money bot", "1": "smithy_big_money bot"}
    # watching the ended game shows its result and exits
    again = dominion(tmp_path, "watch", game, "--server", server_url, cpu_limit=20)
    assert again.returncode == 0, again.stderr
    assert "over" in again.stdout.lower() and "winner" in again.stdout.lower()


def test_a_bot_sits_at_a_strangers_table_only_when_told_to(server_url: str,
                                                          tmp_path: Path) -> None:
    """`dominion bot` makes its own table even when a stranger's is open; `--join-open`
    takes the newest open table's free seat, under a name no seat has yet."""
    server = ("--server", server_url)
    stranger = tmp_path / "stranger"
    created = dominion(stranger, "create", *server, "--name", "big_money bot")
    assert created.returncode == 0, created.stderr
    theirs = created.stdout.strip()
    mine = tmp_path / "mine"
    first = spawn(mine, "bot", "--strategy", "big_money", *server)
    processes = [first]
    try:
        assert first.stdout is not None
        game = first.stdout.readline().strip()
        assert game.startswith("g-") and game != theirs  # its own table, not the open one
        processes.append(spawn(mine, "bot", "--strategy", "smithy_big_money", *server,
                               "--game", game))
        finish(processes)
        # the stranger's is now the newest open table: --join-open sits there (and the
        # stranger's own bot takes their seat again)
        processes = [spawn(mine, "bot", "--strategy", "big_money", *server, "--join-open"),
                     spawn(stranger, "bot", *server, "--game", theirs, "--name",
                           "big_money bot")]
        outs = finish(processes)
        assert all(theirs in out for out in outs)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    saved = json.loads((mine / "tokens.json").read_text())
    assert {seat: entry["name"] for seat, entry in saved[theirs].items()} == {
        "1": "big_money bot 2"}  # not the stranger's seat's name
    both = dominion(mine, "bot", *server, "--game", game, "--join-open")
    assert both.returncode == 2 and "not allowed with" in both.stderr


def finish(processes: list[subprocess.Popen[str]]) -> list[str]:
    """What each command printed, once each has ended well."""
    outs = []
    for process in processes:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        outs.append(out)
    return outs


@pytest.mark.system  # every command, twice
def test_every_command_speaks_polish(server_url: str, tmp_path: Path) -> None:
    """`--lang pl`, the saved language and DOMINION_LANG translate what every command
    says, its `--help`, and the server's refusals, not only the game screen."""
    saved = dominion(tmp_path, "config", "--server", server_url, "--name", "Ala",
                     "--lang", "pl")
    assert saved.returncode == 0 and "Zapisano: " in saved.stdout, saved.stdout
    # a table with a server bot starts at once; Ala's own bot plays her seat to the end
    created = dominion(tmp_path, "create", "--seats", "2", "--bot", "big_money")
    assert created.returncode == 0, created.stderr
    game = created.stdout.strip()
    assert "Utworzono grę" in created.stderr and "Gra jest w toku; zapisano token" in created.stderr
    full = dominion(tmp_path, "join", game)
    assert full.returncode == 1 and "Ta gra już się zaczęła. (game_started)" in full.stderr
    bot = dominion(tmp_path, "bot", "--game", game, cpu_limit=60)
    assert bot.returncode == 0, bot.stderr
    assert f"Wracasz na miejsce 0 w grze {game}." in bot.stderr
    assert "Wygryw" in bot.stdout and "odpowiedzi)" in bot.stdout
    listed = dominion(tmp_path, "list", "--player", "Ala")
    assert "zakończona" in listed.stdout and "finished" not in listed.stdout
    assert "brak gier" in dominion(tmp_path, "list", "--player", "Nikt").stdout

    replay = tmp_path / "gra.json"
    downloaded = dominion(tmp_path, "replay", "download", game, "-o", str(replay))
    assert downloaded.stdout.strip() == f"Zapisano: {replay}"
    verified = dominion(tmp_path, "replay", "verify", str(replay))
    assert verified.returncode == 0 and "ziarno zgadza się" in verified.stdout
    (tmp_path / "gra.txt").write_text("Dominion, edycja 2\n")
    text = dominion(tmp_path, "replay", "verify", str(tmp_path / "gra.txt"))
    assert text.returncode == 2 and "zapis tekstowy" in text.stderr

    # the environment's language wins over the saved one; the option over both
    english = dominion(tmp_path, "join", "g-nope", env={"DOMINION_LANG": "en"})
    assert "There is no such game" in english.stderr
    unknown = dominion(tmp_path, "replay", "download", "g-nope", "--lang", "pl",
                       env={"DOMINION_LANG": "en"})
    assert unknown.returncode == 1 and "Nie ma takiej gry. (unknown_game)" in unknown.stderr
    unreachable = dominion(tmp_path, "list", "--server", "http://127.0.0.1:9")
    assert unreachable.returncode == 2 and "Nie można połączyć się z serwerem" in \
        unreachable.stderr
    helped = dominion(tmp_path, "create", "--help")
    assert "liczba miejsc przy nowym stole" in helped.stdout
    # argparse's own words too
    assert helped.stdout.startswith("użycie: dominion create") and "\nopcje:\n" in helped.stdout
    mistyped = dominion(tmp_path, "list", "--limit", "x")
    assert mistyped.returncode == 2 and "dominion list: błąd: argument --limit: " \
        "nieprawidłowa wartość (int): 'x'" in mistyped.stderr


def test_list_takes_every_state_the_server_lists_by() -> None:
    from dominion.clients.cli import STATES
    from dominion.server.storage.records import LISTING_STATES

    assert STATES == LISTING_STATES
