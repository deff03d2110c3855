"""Several real `dominion-server` nodes behind the repository's cluster nginx
configuration, sharing their own redis-server, all on 127.0.0.1 and free ports.

`deploy/nginx/dominion-cluster.conf` is used as it is, with only what ties it to a real
host replaced (as `tests/deploy/proxy.py` does for the single-node file): listen
addresses, each compose service `node-X:8080` (its upstream and `dominion_any`), the
certificate (self-signed at test time) and the ACME folder.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import signal
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ..accounts.postgres import PostgresServer
from ..accounts.postgres import missing as missing_postgres
from ..deploy.proxy import (
    DEPLOY,
    main_config,
    make_certificate,
    needs_nginx,
    needs_openssl,
    nginx_command,
    wait_for_port,
)
from ..server.test_process import free_port, start_server
from ..tiers import Tier, starts

CLUSTER_CONF = DEPLOY / "nginx" / "dominion-cluster.conf"
NODES = ("a", "b", "c")
FAST = ("--messages-per-second", "100000", "--burst", "100000",
        "--sqlite-synchronous", "NORMAL",
        "--games-per-address", "1000", "--trusted-proxies", "127.0.0.1")
"""Limits lifted for many games from one address. The heartbeat keeps the server's
period (--cluster-refresh-seconds 2: a node that has not beaten for 6 s counts as gone):
with a shorter one, a node that a loaded runner starved for a second dropped out of the
others' peers, and an export under way left its replays out."""

needs_redis = pytest.mark.skipif(
    shutil.which("redis-server") is None,
    reason="redis-server is not installed (apt-get install redis-server; .ci/run does)")
needs_everything = [needs_redis, needs_nginx, needs_openssl]


def stop_process(process: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    if process is not None and process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Redis:
    """A redis-server of the test's own, without persistence (a cache, as in production)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait_for_port(self.port, self.process, self.folder)

    def stop(self) -> None:
        stop_process(self.process)


@contextlib.contextmanager
def running_redis(folder: Path) -> Iterator[Redis]:
    """A redis-server of its own in `folder` (made if need be), stopped at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    server = Redis(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
@starts(Tier.INTEGRATION)
def redis(tmp_path: Path) -> Iterator[Redis]:
    """A test's own redis-server."""
    with running_redis(tmp_path / "redis") as server:
        yield server


@dataclass
class Node:
    name: str
    db: Path
    redis: Redis
    public_url: str
    accounts_url: str = ""
    """The PostgreSQL the nodes share: accounts and the archive of ended games."""
    process: subprocess.Popen[bytes] | None = None
    url: str = ""

    def start(self, port: int | None = None, env: dict[str, str] | None = None) -> None:
        """Start (or start again, on the same port and database; `env` for its process)."""
        shared = ("--accounts-url", self.accounts_url) if self.accounts_url else ()
        self.process, self.url = start_server(
            self.db, "--node", self.name, "--redis", self.redis.url,
            "--public-url", self.public_url, *shared, *FAST, port=port, env=env)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(15)

    def stop(self) -> None:
        stop_process(self.process)


@dataclass
class Cluster:
    https: str
    ssl: ssl.SSLContext
    redis: Redis
    nodes: dict[str, Node]
    folder: Path
    nginx: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def access_log(self) -> str:
        path = self.folder / "access.log"
        return path.read_text() if path.exists() else ""

    def mend(self) -> None:
        """Start again what a test stopped and did not start (it failed before it could):
        Redis, then any node, each on its own port (its database too), so that one
        failure does not fail the tests after it with it."""
        if self.redis.process is None or self.redis.process.poll() is not None:
            self.redis.start()
        for node in self.nodes.values():
            if node.process is None or node.process.poll() is not None:
                node.start(port=node.port)


def derive_cluster_config(text: str, *, http_port: int, https_port: int,
                          node_ports: dict[str, int], cert: Path, key: Path,
                          acme_root: Path) -> str:
    """The repository's cluster configuration, tied to loopback and the test's nodes."""
    replacements = [
        (r"^\s*listen \[::\]:80;\n", "", 1),
        (r"^\s*listen \[::\]:443 ssl;\n", "", 1),
        (r"\blisten 80;", f"listen 127.0.0.1:{http_port};", 1),
        (r"\blisten 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;", 1),
        (r"/etc/nginx/certs/fullchain\.pem;", f"{cert};", 1),
        (r"/etc/nginx/certs/privkey\.pem;", f"{key};", 1),
        (r"\broot /var/www/certbot;", f"root {acme_root};", 1),
    ]
    # each node is in its own upstream and in dominion_any
    replacements += [(rf"\bserver node-{name}:8080;", f"server 127.0.0.1:{port};", 2)
                     for name, port in node_ports.items()]
    for pattern, replacement, expected in replacements:
        text, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        assert count == expected, f"{CLUSTER_CONF.name}: {pattern!r} {count} times"
    assert not re.search(r"\bserver node-", text), "a node of the file has no test node"
    return text


def wait_until_every_node_knows_the_others(nodes: dict[str, Node],
                                           seconds: float = 60) -> None:
    """Until each node's latest heartbeat has seen every node (one beat per 2 s): a node
    started before the others learns of them only at its next beat, and a test that
    asked it sooner would find their games missing with no node named missing."""
    deadline = time.monotonic() + seconds
    for name, node in nodes.items():
        wanted = f'dominion_cluster_nodes{{node="{name}"}} {float(len(nodes))}'
        while True:
            with urllib.request.urlopen(f"{node.url}/metrics", timeout=10) as response:
                metrics = response.read().decode()
            if wanted in metrics:
                break
            seen = [line for line in metrics.splitlines()
                    if line.startswith("dominion_cluster_nodes")]
            assert time.monotonic() < deadline, f"node {name} counts {seen}, not {wanted}"
            time.sleep(0.05)


@contextlib.contextmanager
def running_cluster(folder: Path) -> Iterator[Cluster]:
    """redis-server, PostgreSQL, a node per name in NODES, and nginx in front of them, as
    on a host (docs/HOSTING.md): the nodes share PostgreSQL's accounts and archive, and
    each node's public URL is nginx's (the web page served through nginx has that
    Origin)."""
    why = missing_postgres()
    if why is not None:
        pytest.skip(f"no PostgreSQL for the nodes to share ({why}): "
                    "apt-get install postgresql")
    postgres = PostgresServer()
    postgres.start()
    try:
        with _running_cluster(folder, postgres.url) as cluster:
            yield cluster
    finally:
        postgres.stop()
        postgres.remove()


@contextlib.contextmanager
def _running_cluster(folder: Path, accounts_url: str) -> Iterator[Cluster]:
    redis = Redis(folder)
    http_port, https_port = free_port(), free_port()
    while https_port == http_port:
        https_port = free_port()
    public_url = f"https://127.0.0.1:{https_port}"
    nodes = {name: Node(name, folder / f"node-{name}.sqlite3", redis, public_url,
                        accounts_url) for name in NODES}
    nginx: subprocess.Popen[bytes] | None = None
    try:
        redis.start()
        for node in nodes.values():
            node.start()
        wait_until_every_node_knows_the_others(nodes)
        site_folder = folder / "nginx"
        site_folder.mkdir()
        cert, key = make_certificate(site_folder)
        (site_folder / "acme").mkdir()
        site = site_folder / "dominion.conf"
        site.write_text(derive_cluster_config(
            CLUSTER_CONF.read_text(), http_port=http_port, https_port=https_port,
            node_ports={name: node.port for name, node in nodes.items()}, cert=cert, key=key,
            acme_root=site_folder / "acme"))
        (site_folder / "nginx.conf").write_text(main_config(site_folder, site))
        nginx = subprocess.Popen(nginx_command(site_folder, "-g", "daemon off;"),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait_for_port(https_port, nginx, site_folder)
        context = ssl.create_default_context(cafile=str(cert))
        yield Cluster(public_url, context, redis, nodes, site_folder,
                      nginx)
    finally:
        stop_process(nginx)
        for node in nodes.values():
            node.stop()
        redis.stop()
