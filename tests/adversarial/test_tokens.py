"""Finding 10: no token the server hands out starts with `-`, and the command line takes
one that does anyway (older servers handed them out)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest

from dominion.clients.args import joined_values
from dominion.server.play import seat_tokens as tokens


def test_tokens_never_start_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = itertools.chain(["-" + "a" * 31, "-" + "b" * 31], iter(lambda: "c" * 32, None))
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda size: next(drawn))
    assert tokens.new_token() == "c" * 32  # drawn again until it does not


def test_real_tokens_never_start_with_a_dash() -> None:
    # one in 64 did: among 2,000, about 31 would
    assert not any(tokens.new_token().startswith("-") for _ in range(2000))


def test_a_token_value_starting_with_a_dash_is_read_as_the_value() -> None:
    token = "-Xy_" + "a" * 28
    assert joined_values(["bot", "--token", token, "--game", "g-1"]) == [
        "bot", f"--token={token}", "--game", "g-1"]
    # an option after --token is not taken for its value
    assert joined_values(["bot", "--token", "--game", "g-1"]) == ["bot", "--token", "--game",
                                                                 "g-1"]


@pytest.mark.integration  # the command, a program
def test_the_bot_command_takes_a_token_starting_with_a_dash() -> None:
    """It gets as far as the server (none is listening), past the argument parser."""
    result = subprocess.run(
        [sys.executable, "-m", "dominion.clients.cli", "bot", "--strategy", "big_money",
         "--game", "g-0123456789ab", "--token", "-Xy_" + "a" * 28, "--server",
         "http://127.0.0.1:9"], capture_output=True, text=True, check=False, timeout=60)
    assert "expected one argument" not in result.stderr, result.stderr
    assert result.returncode != 2 or "usage:" not in result.stderr
