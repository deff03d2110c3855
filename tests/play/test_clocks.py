"""The clocks' pure state (server/play/clocks.py): time controls read and checked, charges,
increments, and what a frame says."""

from __future__ import annotations

import pytest

from dominion.server.play.clocks import Clocks, TimeControl
from dominion.server.refusal import Refusal

TEN_FIVE = TimeControl(600, 5)


@pytest.mark.parametrize(("text", "control"), [
    ("10+5", TEN_FIVE), ("0.5+0", TimeControl(30, 0)), ("180+180", TimeControl(10800, 180)),
    ("none", None), ("", None), (" None ", None)])
def test_a_time_control_is_read_as_lichess_writes_it(text: str,
                                                     control: TimeControl | None) -> None:
    assert TimeControl.parse(text) == control
    if control is not None:
        assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("text", ["10", "ten+5", "0.4+0", "181+0", "10+181", "10+-1"])
def test_a_bad_time_control_setting_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        TimeControl.parse(text)


@pytest.mark.parametrize("raw", [
    "10+5", 600, {"initial_seconds": 29, "increment_seconds": 0},
    {"initial_seconds": 10801, "increment_seconds": 0},
    {"initial_seconds": 600, "increment_seconds": 181},
    {"initial_seconds": True, "increment_seconds": 0},
    {"initial_seconds": 600.0, "increment_seconds": 0}, {"increment_seconds": 5}])
def test_a_bad_requested_time_control_is_refused_with_its_code(raw: object) -> None:
    with pytest.raises(Refusal) as refused:
        TimeControl.from_request(raw)
    assert refused.value.code == "bad_time_control"


def test_a_requested_time_control_and_the_options_that_keep_it() -> None:
    control = TimeControl.from_request({"initial_seconds": 600, "increment_seconds": 5})
    assert control == TEN_FIVE and TimeControl.from_request(None) is None
    assert TimeControl.of_options({"time_control": TEN_FIVE.to_dict()}) == TEN_FIVE
    assert TimeControl.of_options({"rated": True}) is None


def test_a_charge_takes_from_the_bank_never_below_zero() -> None:
    clocks = Clocks(TimeControl(60, 0), 2)
    clocks.charge(0, 15_000)
    assert clocks.remaining(0) == 45_000 and clocks.remaining(1) == 60_000
    clocks.charge(0, 90_000)
    assert clocks.remaining(0) == 0


def test_the_increment_comes_when_a_players_own_turn_ends() -> None:
    clocks = Clocks(TEN_FIVE, 3)
    clocks.applied(1, 7_000, None)
    clocks.applied(1, 2_000, 1)  # the answer that ends seat 1's turn
    assert clocks.remaining_ms == [600_000, 596_000, 600_000]


def test_only_the_running_seat_counts_down_in_a_frame() -> None:
    clocks = Clocks(TEN_FIVE, 2)
    assert clocks.wire(3_000)["running"] is None
    clocks.running = 1
    assert clocks.remaining(1, 3_000) == 597_000 and clocks.remaining(0, 3_000) == 600_000
    assert clocks.wire(3_000) == {"remaining_ms": [600_000, 597_000], "running": 1,
                                  "initial_ms": 600_000, "increment_ms": 5_000}
    assert clocks.remaining(1, 10_000_000) == 0
