"""Findings 2 and 5 (server half): text that cannot be stored or that would steer a
terminal is refused at the edge with a typed error, and nothing else suffers for it."""

from __future__ import annotations

import pytest

from dominion.server.play.text import check_chat, check_name
from dominion.server.refusal import Refusal
from tests.server.restapi import Api, case, stored_counts
from tests.server.test_rest import api, db, make_api

__all__ = ["api", "db", "make_api"]

LONE_SURROGATE = "x\ud800"


async def test_a_name_with_a_lone_surrogate_is_refused_and_games_go_on(api: Api,
                                                                       db: str) -> None:
    await api.error("POST", "/api/v1/games", 400, "bad_name",
                    json={"name": LONE_SURROGATE, "seats": 2})
    assert stored_counts(db) == (0, 0)
    created = await api.create(name="Ann", seats=2)
    await api.error("POST", f"/api/v1/games/{created['game']['id']}/join", 400, "bad_name",
                    json={"name": LONE_SURROGATE})
    await api.error("POST", f"/api/v1/games/{created['game']['id']}/leave", 403, "bad_token",
                    json={"token": LONE_SURROGATE})
    assert (await api.call("GET", "/healthz", 200))["status"] == "ok"
    await api.create(name="Bob", seats=2)
    assert stored_counts(db)[0] == 2


# each table's cases on one app (an app a case cost more than all their requests)
STEERING_NAMES = (
    "\x1b[2J\x1b]0;owned\x07",  # clear the screen, set the window title
    "Ann\u202egnp.exe",  # right-to-left override
    "A\x00nn",  # NUL
    "A\u200bnn",  # zero-width space
    "Ann\u2028Bob",  # line separator
    "\u0301Ann",  # starts with a combining mark
    "Ann\ue000",  # private use
    "...", "-", "?!",  # punctuation alone: no name to tell a player by
)
ORDINARY_NAMES = ("Zoë", "Łucja", "山田", "O'Brien-Smith", "Ann 😀", "Δ 2")


async def test_names_that_would_steer_a_screen_are_refused(api: Api, db: str) -> None:
    game = (await api.create(name="Ann", seats=3))["game"]["id"]
    for name in STEERING_NAMES:
        with case(repr(name)):
            await api.error("POST", "/api/v1/games", 400, "bad_name",
                            json={"name": name, "seats": 2})
            await api.error("POST", f"/api/v1/games/{game}/join", 400, "bad_name",
                            json={"name": name})
            assert stored_counts(db) == (1, 3)  # one game, its three (free) seats


async def test_ordinary_names_of_every_script_are_taken(api: Api) -> None:
    for name in ORDINARY_NAMES:
        with case(name):
            assert (await api.create(name=name, seats=2))["game"]["seats"][0]["name"] == name


def test_names_are_stripped_and_composed() -> None:
    assert check_name("  Zoe\u0308\t") == "Zoë"


@pytest.mark.parametrize("text", ["\x1b[2J", "one\ntwo", "tab\there", "\u202eevil",
                                  "\u2066isolate", "x\ud800", "\x7f", "\x9b31m",
                                  "ad\u200bmin", "ban\u2060ned", "\ufeffhi"])
def test_chat_lines_that_would_steer_a_screen_are_refused(text: str) -> None:
    with pytest.raises(Refusal) as refused:
        check_chat(text, 500)
    assert refused.value.code == "bad_text"


PERSIAN_WITH_A_NON_JOINER = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # "I want"
ENGLANDS_FLAG = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.mark.parametrize("text", ["gl hf", "👨\u200d👩\u200d👧 family", "naïve café", "שלום",
                                  PERSIAN_WITH_A_NON_JOINER, ENGLANDS_FLAG])
def test_ordinary_chat_is_taken(text: str) -> None:
    assert check_chat(text, 500) == text
