"""The page's reconnecting (clients/web/js/net.js) under Node: the wait before each try is
drawn from zero up to a bound that doubles to the Python client's `RECONNECT_MAX_DELAY`,
so a page finds a restarted server within seconds, its returns spread over the bound."""

from __future__ import annotations

import pytest

from dominion.clients.net import RECONNECT_FIRST_DELAY, RECONNECT_MAX_DELAY

from .node import needs_node, run_module

pytestmark = pytest.mark.integration  # Node.js runs the modules

SCRIPT = """
import { RECONNECT_MAX_MS, reconnectDelay } from "%(net)s";

const tries = [...Array(40).keys()];
console.log(JSON.stringify({
  most: RECONNECT_MAX_MS,
  longest: tries.map((failures) => reconnectDelay(failures, () => 1)),
  shortest: tries.map((failures) => reconnectDelay(failures, () => 0)),
}));
"""


@needs_node
def test_the_pages_waits_double_up_to_the_clients_bound() -> None:
    waits = run_module(SCRIPT, modules=["net"])
    assert waits["most"] == RECONNECT_MAX_DELAY * 1000
    first = RECONNECT_FIRST_DELAY * 1000
    assert waits["longest"][:6] == [first, 2 * first, 4 * first, 8 * first, 4000, 4000]
    assert set(waits["longest"][4:]) == {RECONNECT_MAX_DELAY * 1000}
    assert set(waits["shortest"]) == {0}
