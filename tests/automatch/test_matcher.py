"""The matcher, alone: close ratings first, the window widening with the wait, the
longest waiting first, every size and edition respected, nobody at two tables."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dominion.server.automatch.matcher import (
    BASE_WINDOW,
    MAX_WINDOW,
    WIDEN_PER_SECOND,
    Seek,
    eligible,
    fits,
    form_tables,
    window,
)
from dominion.server.ratings.model import Pool, Rating

NOW = 1_000.0
SETTLED = 40.0
"""A settled player's sigma: the window is barely wider for it."""


def seek(player: str, mu: float, *, sizes: tuple[int, ...] = (2,), waited: float = 0.0,
         edition: int = 2, rated: bool = False, penalty: float = 0.0,
         sigma: float = SETTLED) -> Seek:
    rating = Rating(mu, sigma)
    return Seek(player, frozenset(sizes), edition, rated,
                {Pool.TWO_PLAYER: rating, Pool.MULTIPLAYER: rating}, NOW - waited, penalty)


def test_close_ratings_are_paired_before_far_ones() -> None:
    tables = form_tables([seek("a", 1500, waited=2), seek("far", 1580, waited=1),
                          seek("close", 1510)], NOW)
    assert [table.players for table in tables] == [("a", "close")]


def test_a_window_too_narrow_pairs_nobody_until_the_wait_widens_it() -> None:
    gap = BASE_WINDOW + 10 * WIDEN_PER_SECOND  # beyond both windows at first
    assert form_tables([seek("a", 1500), seek("b", 1500 + gap)], NOW) == []
    later = form_tables([seek("a", 1500, waited=12), seek("b", 1500 + gap, waited=12)], NOW)
    assert [set(table.players) for table in later] == [{"a", "b"}]


def test_the_window_widens_with_the_wait_up_to_its_cap() -> None:
    one = seek("a", 1500, waited=0)
    assert window(one, 2, NOW) == BASE_WINDOW + 0.25 * SETTLED
    assert window(seek("a", 1500, waited=4), 2, NOW) == BASE_WINDOW + 4 * WIDEN_PER_SECOND \
        + 0.25 * SETTLED
    assert window(seek("a", 1500, waited=3600), 2, NOW) == MAX_WINDOW + 0.25 * SETTLED


def test_an_uncertain_rating_has_a_wider_window() -> None:
    assert window(seek("new", 1500, sigma=500), 2, NOW) > window(seek("old", 1500), 2, NOW)


def test_each_must_accept_the_spread_a_newcomer_alone_does_not_decide() -> None:
    """The longer waiter's window is wide, the newcomer's narrow: no table."""
    gap = BASE_WINDOW + 50
    assert form_tables([seek("old", 1500, waited=30), seek("new", 1500 + gap)], NOW) == []


def test_the_longest_waiting_are_seated_first() -> None:
    seeks = [seek("new", 1500, waited=0), seek("old", 1500, waited=9),
             seek("middle", 1500, waited=5)]
    tables = form_tables(seeks, NOW)
    assert len(tables) == 1 and set(tables[0].players) == {"old", "middle"}
    assert tables[0].players == ("old", "middle")


def test_a_penalty_keeps_a_seek_out_until_it_has_waited_that_long() -> None:
    struck = seek("struck", 1500, waited=5, penalty=10)
    assert not eligible(struck, NOW)
    assert form_tables([struck, seek("b", 1500)], NOW) == []
    assert form_tables([seek("struck", 1500, waited=11, penalty=10), seek("b", 1500)], NOW)


def test_sizes_editions_and_rated_never_mix() -> None:
    seeks = [seek("two", 1500), seek("three", 1500, sizes=(3,)),
             seek("first", 1500, edition=1), seek("rated", 1500, rated=True)]
    assert form_tables(seeks, NOW) == []


def test_the_largest_size_every_member_accepts_is_tried_first() -> None:
    seeks = [seek(name, 1500, sizes=(3, 4)) for name in "abcd"]
    tables = form_tables(seeks, NOW)
    assert [(table.size, len(table.players)) for table in tables] == [(4, 4)]
    three = form_tables(seeks[:3], NOW)
    assert [(table.size, len(table.players)) for table in three] == [(3, 3)]


SEEKS = st.lists(
    st.builds(
        seek,
        player=st.text("abcdefghijklmnop", min_size=1, max_size=3),
        mu=st.floats(900, 2100),
        sizes=st.sets(st.integers(2, 6), min_size=1, max_size=5).map(tuple),
        waited=st.floats(0, 60),
        edition=st.sampled_from((1, 2)),
        rated=st.booleans(),
        penalty=st.sampled_from((0.0, 0.0, 10.0, 40.0)),
        sigma=st.floats(30, 500)),
    max_size=40, unique_by=lambda one: one.player)


# three times the profile's examples: 300 in the full run, 60 in the unit tier
@settings(max_examples=3 * settings.default.max_examples, deadline=None)
@given(SEEKS)
def test_every_table_keeps_every_rule(seeks: list[Seek]) -> None:
    by_player = {one.player: one for one in seeks}
    tables = form_tables(seeks, NOW)
    seated = [player for table in tables for player in table.players]
    assert len(seated) == len(set(seated)), "a player at two tables"
    for table in tables:
        members = [by_player[player] for player in table.players]
        assert len(members) == table.size
        assert all(table.size in one.sizes and one.edition == table.edition
                   and one.rated == table.rated and eligible(one, NOW) for one in members)
        assert fits(members, table.size, NOW)
        assert [one.since for one in members] == sorted(one.since for one in members)
