"""The web client in Debian's Chromium through nginx in front of several nodes sharing a
Redis (tests/cluster/cluster.py: the repository's cluster configuration, on loopback):
a table created on one node is joined from the lobby's listing by a second person and
played, and watched; an automatch game made on a node other than the one a player's lobby socket is
on is played by both. Every game page reaches its game's node: its REST summary by the
game's path, its WebSocket by the game's `ws_url` (docs/HOSTING.md, docs/CLIENTS.md).
And while the nodes serve two versions of the page (an upgrade), either version loads."""

from __future__ import annotations

import json
import re
import shutil
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dominion.server.cluster import owner_of
from tests.cluster.cluster import Cluster, Node, needs_everything, running_cluster
from tests.deploy.proxy import ROOT
from tests.tiers import Tier, starts

from .browser import (
    WAIT_MS,
    Browser,
    Page,
    browser,
    create_table,
    expect,
    more_options,
    new_page,
    page_errors,
    play_together,
)

__all__ = ["browser"]  # fixtures

pytestmark = needs_everything

PANEL = "section.automatch"
DIALOG = "dialog.match-found[open]"


@pytest.fixture(scope="module")
@starts(Tier.SYSTEM)
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with running_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


def until(check: Callable[[], bool], what: str) -> None:
    """Wait for something the nodes do in their own time."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def get_json(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=10) as response:
        answer: dict[str, object] = json.loads(response.read())
    return answer


def sockets_on(node: Node) -> int:
    """The WebSocket connections a node holds (its own /metrics, not through nginx)."""
    with urllib.request.urlopen(f"{node.url}/metrics", timeout=10) as response:
        found = re.search(rf'^dominion_connections{{node="{node.name}"}} (\S+)$',
                          response.read().decode(), flags=re.MULTILINE)
    assert found, f"node {node.name} shows no dominion_connections"
    return int(float(found.group(1)))


def socket_nodes(cluster: Cluster) -> dict[str, int]:
    return {name: sockets_on(node) for name, node in cluster.nodes.items()}


def lists(node: Node, game: str) -> bool:
    page = get_json(f"{node.url}/api/v1/games?state=open")
    games = page["games"]
    assert isinstance(games, list)
    return any(listed["id"] == game for listed in games)


Person = Callable[[], tuple[Page, list[str]]]


@pytest.fixture
def person(browser: Browser, cluster: Cluster) -> Iterator[Person]:
    """Makes a page on the site, and the list of the URLs of the WebSockets it opens from
    then on; every page is closed after the test, failed or not (the next test counts
    the nodes' sockets)."""
    pages: list[Page] = []

    def make() -> tuple[Page, list[str]]:
        page = new_page(browser, cluster.https, test_certificate=True)
        pages.append(page)
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        return page, sockets
    yield make
    for page in pages:
        page.context.close()


def game_socket(cluster: Cluster, game: str) -> str:
    return f"{cluster.https.replace('https://', 'wss://')}/api/v1/ws?game={game}"


def play_a_little_and_resign(pages: list[Page]) -> None:
    """A few answers by each, then the first resigns: the other wins, both see the end."""
    play_together(pages, answers=8)
    pages[0].click('[data-key="resign"]')
    pages[0].click('[data-key="resign-sure"]')
    for page in pages:
        page.wait_for_selector("#end")


def test_a_table_made_on_one_node_is_joined_from_the_lobby_and_played(
        person: Person, cluster: Cluster) -> None:
    ann, ann_sockets = person()
    game = create_table(ann, "Ann", bots={1: ""})
    ann.wait_for_selector(".waiting")
    owner = owner_of(game)
    assert owner in cluster.nodes, game
    # every node lists it, the ones that do not hold it too: the lobby's listing may come
    # from any of them
    for node in cluster.nodes.values():
        until(lambda node=node: lists(node, game), f"node {node.name} lists {game}")

    bob, bob_sockets = person()
    bob.click(f'a[href="#/game/{game}"]')
    bob.fill(".join input[name=name]", "Bob")
    bob.click(".join button[type=submit]")
    watcher, watcher_sockets = person()
    watcher.goto(f"{cluster.https}/#/watch/{game}")
    for page in (ann, bob, watcher):
        page.wait_for_selector("#decision")
    play_a_little_and_resign([ann, bob])
    watcher.wait_for_selector("#end")
    # each page's socket, the spectator's too, asked nginx for the game's node
    assert ann_sockets == bob_sockets == watcher_sockets == [game_socket(cluster, game)]
    assert page_errors(ann) == page_errors(bob) == page_errors(watcher) == []


def seek(page: Page, name: str, *, size_group: str = "0") -> None:
    """Seek a table of one size group (0: 2 players, 2: 5–6) as the guest `name`."""
    panel = page.locator(PANEL)
    page.locator("form.create input[name=name]").fill(name)
    more_options(page)  # the queue's table sizes
    for box in ("0", "1", "2"):
        page.locator(f"form.create input[name=size][value='{box}']").set_checked(
            box == size_group)
    page.locator('form.create [data-quick="queue"]').click()
    expect(panel).to_have_attribute("data-phase", "waiting")


def test_an_automatch_game_on_another_node_than_the_lobby_socket_is_played(
        person: Person, cluster: Cluster) -> None:
    until(lambda: sum(socket_nodes(cluster).values()) == 0, "the earlier pages' sockets close")
    ann, ann_sockets = person()
    seek(ann, "Ann")
    until(lambda: sum(socket_nodes(cluster).values()) == 1, "Ann's lobby socket")
    ann_node = max(socket_nodes(cluster).items(), key=lambda item: item[1])[0]

    # Bob waits for a table nobody else seeks, reloading (his seek is taken up on a new
    # socket) until his lobby socket is on another node than Ann's
    bob, bob_sockets = person()
    seek(bob, "Bob", size_group="2")
    for _ in range(20):
        until(lambda: sum(socket_nodes(cluster).values()) == 2, "Bob's lobby socket")
        if socket_nodes(cluster)[ann_node] == 1:
            break
        bob.reload()
        expect(bob.locator(PANEL)).to_have_attribute("data-phase", "waiting")
    else:
        raise AssertionError(f"nginx passed all of Bob's sockets to node {ann_node}")
    bob_node = next(name for name, count in socket_nodes(cluster).items()
                    if count and name != ann_node)
    bob.locator(f"{PANEL} .seek-cancel").click()
    expect(bob.locator(PANEL)).to_have_attribute("data-phase", "idle")
    seek(bob, "Bob")  # on the same socket

    for page in (ann, bob):
        page.wait_for_selector(DIALOG)
    ann.locator(f"{DIALOG} [data-answer=accept]").click()
    expect(ann.locator(DIALOG)).to_contain_text("Accepted: waiting for the others")
    bob.locator(f"{DIALOG} [data-answer=accept]").click()
    for page in (ann, bob):
        page.wait_for_url("**/#/game/*")
        page.wait_for_selector("#decision")
    game = ann.url.rsplit("/", 1)[1]
    assert bob.url.rsplit("/", 1)[1] == game
    # made by the last to accept, on his lobby socket's node: not Ann's
    assert owner_of(game) == bob_node != ann_node, (game, ann_node, bob_node)
    play_a_little_and_resign([ann, bob])
    # the lobby's sockets went to any node; each game page's, to the game's
    assert ann_sockets[-1] == bob_sockets[-1] == game_socket(cluster, game)
    assert game_socket(cluster, game) not in ann_sockets[:-1] + bob_sockets[:-1]
    assert page_errors(ann) == page_errors(bob) == []


def another_version(folder: Path) -> Path:
    """A package tree like the tests' (.typecheck), whose web page differs by a comment:
    what a node of another version serves, under another digest."""
    package = folder / "dominion"
    package.mkdir(parents=True)
    for part in ("server", "protocol", "bots"):
        (package / part).symlink_to(ROOT / part)
    shutil.copytree(ROOT / "clients", package / "clients",
                    ignore=shutil.ignore_patterns("__pycache__"))
    main = package / "clients" / "web" / "js" / "main.js"
    main.write_text(main.read_text() + "// another version\n")
    return folder


def digest_of(node: Node) -> str:
    """The digest in the paths of the page's files a node serves."""
    with urllib.request.urlopen(f"{node.url}/", timeout=10) as response:
        found = re.search(r"/web/([0-9a-f]+)/", response.read().decode())
    assert found
    return found.group(1)


def test_a_page_of_either_version_loads_while_the_nodes_are_upgraded(
        cluster: Cluster, tmp_path: Path) -> None:
    """An upgrade goes one node at a time (docs/HOSTING.md), so for a while the nodes
    serve two versions of the page, each under its own digest; the page's files go to
    any node: a page of either version gets every file, from a node that has it."""
    upgraded = cluster.nodes["c"]
    upgraded.stop()
    upgraded.start(port=upgraded.port, env={"PYTHONPATH": str(another_version(tmp_path))})
    try:
        digests = {name: digest_of(node) for name, node in cluster.nodes.items()}
        assert digests["c"] != digests["a"] == digests["b"], digests
        for digest in set(digests.values()):
            for _ in range(2 * len(cluster.nodes)):  # round robin: every node is asked
                request = urllib.request.Request(f"{cluster.https}/web/{digest}/js/main.js")
                with urllib.request.urlopen(request, timeout=10,
                                            context=cluster.ssl) as response:
                    assert response.status == 200
    finally:
        upgraded.stop()
        upgraded.start(port=upgraded.port)
