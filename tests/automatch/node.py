"""`python tests/automatch/node.py RATINGS.json SERVER-OPTIONS...`: `dominion-server` with
automatch's ratings looked up by the seeker's name in a JSON file ({"name": mu}), so
that a test's simulated guests have spread ratings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dominion.server.accounts import Account
from dominion.server.main import main
from dominion.server.ratings.model import Pool, Rating

SIGMA = 40.0
"""A settled player's uncertainty, the same for everyone."""


def run(ratings_file: Path, arguments: list[str]) -> int:
    ratings: dict[str, float] = json.loads(ratings_file.read_text())

    async def by_name(account: Account | None, name: str, pool: Pool) -> Rating:
        return Rating(ratings[name], SIGMA)
    return main(arguments, ratings=by_name)


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1]), sys.argv[2:]))
