"""A new table's bots' pace (`bot_pace` of a create request): the one asked for, else
the server's, and instant at a bot account's table, where bots play bots."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from dominion.bots import BotPace
from dominion.protocol import ErrorCode
from dominion.server.play.lobby import bot_pace_option, table_bot_pace
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings

SLOW_SERVER = Settings(bot_pace=BotPace.SLOW)
PERSON: Any = SimpleNamespace(bot=False)
BOT_ACCOUNT: Any = SimpleNamespace(bot=True)


def test_a_table_has_the_pace_it_asks_for_else_the_servers() -> None:
    assert table_bot_pace({"bot_pace": "fast"}, None, SLOW_SERVER) == BotPace.FAST
    assert table_bot_pace({}, None, SLOW_SERVER) == BotPace.SLOW
    assert table_bot_pace({}, PERSON, SLOW_SERVER) == BotPace.SLOW


def test_a_bot_accounts_table_is_instant_unless_it_asks() -> None:
    assert table_bot_pace({}, BOT_ACCOUNT, SLOW_SERVER) == BotPace.INSTANT
    assert table_bot_pace({"bot_pace": "normal"}, BOT_ACCOUNT, SLOW_SERVER) == BotPace.NORMAL


@pytest.mark.parametrize("pace", ["Normal", "0.8", 0.8, None, ["fast"]])
def test_a_pace_that_is_not_one_is_refused(pace: object) -> None:
    with pytest.raises(Refusal) as refused:
        table_bot_pace({"bot_pace": pace}, None, SLOW_SERVER)
    assert refused.value.code == ErrorCode.BAD_OPTION


def test_an_instant_table_stores_no_pace_as_tables_made_before_paces() -> None:
    assert bot_pace_option(BotPace.INSTANT) == {}
    assert bot_pace_option(BotPace.SLOW) == {"bot_pace": "slow"}
