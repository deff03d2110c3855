"""What can be checked here of the files that cannot run here (no Docker engine, no
systemd as PID 1): the compose file parsed as YAML, the Dockerfile's instructions, the
systemd units (systemd-analyze verify when available; the backup unit's command run),
the example environment file against the server's settings, the image's health check run
against a real server, and HOSTING.md's steps that can run here: the Redis step on
Debian's redis.conf, the upgrade check's log filter, a new node's nginx routes."""

from __future__ import annotations

import asyncio
import configparser
import importlib.metadata
import ipaddress
import json
import os
import re
import shlex
import shutil
import signal
import sqlite3
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import fields
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import yaml

from dominion.server.accounts import migrations
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.accounts.store import sqlite_path_beside
from dominion.server.settings import ENV_PREFIX, Settings
from dominion.server.storage import SCHEMA_VERSION

from ..cluster.cluster import CLUSTER_CONF, derive_cluster_config
from ..eventually import eventually
from ..server.test_process import free_port, start_server
from ..server.test_storage import old_file
from .proxy import (
    DEPLOY,
    NGINX_CONF,
    ROOT,
    main_config,
    make_certificate,
    needs_nginx,
    needs_openssl,
    needs_systemd_analyze,
    nginx_command,
    systemd_complaints,
    wait_for_port,
)

DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
UNIT = DEPLOY / "systemd" / "dominion-server.service"
ENV_EXAMPLE = DEPLOY / "server.env.example"
HOSTING = ROOT / "docs" / "HOSTING.md"
SECRET_WORDS = re.compile(r"(password|passwd|secret|api[_-]?key|private[_-]?key|token)\s*[=:]",
                          re.IGNORECASE)


# -- the Dockerfile ---------------------------------------------------------------------

def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs: comments dropped, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", "\n".join(
        line for line in text.splitlines() if not line.lstrip().startswith("#")))
    result = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            result.append((word.upper(), " ".join(rest.split())))
    return result


def final_stage() -> list[tuple[str, str]]:
    steps = instructions(DOCKERFILE.read_text())
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def test_the_image_runs_as_an_unprivileged_user() -> None:
    stage = final_stage()
    assert stage[0] == ("FROM", "python:3.11-slim")
    users = [args for word, args in stage if word == "USER"]
    assert users, "the image must set USER"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0"), user
    # nothing runs as root after the switch, and the server is the default command
    after = [word for word, _ in stage[[w for w, _ in stage].index("USER"):]]
    assert "RUN" not in after
    cmd = json.loads(dict(stage)["CMD"])
    assert cmd == ["dominion-server", "--host", "0.0.0.0"]


def test_the_image_keeps_the_database_on_a_volume_and_checks_health() -> None:
    stage = dict(final_stage())
    assert "DOMINION_DB=/data/dominion.sqlite3" in stage["ENV"]
    assert json.loads(stage["VOLUME"]) == ["/data"]
    assert stage["EXPOSE"] == str(Settings().port)
    assert stage["STOPSIGNAL"] == "SIGTERM"
    health = stage["HEALTHCHECK"]
    assert "/healthz" in health and "--interval=" in health and "CMD" in health


def test_the_dockerfile_copies_what_exists_and_holds_no_secrets() -> None:
    steps = instructions(DOCKERFILE.read_text())
    for word, args in steps:
        assert word != "ADD", "COPY, not ADD (no remote or archive sources)"
        if word == "COPY" and not args.startswith("--from"):
            for source in args.split()[:-1]:
                assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
        if word in ("ENV", "ARG"):
            assert not SECRET_WORDS.search(args), args
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text().split()
    for needed in ("pyproject.toml", "setup.py", "README.md", "server", "protocol", "bots",
                   "clients"):
        assert f"!{needed}" in ignore


def healthcheck_command() -> list[str]:
    health = dict(final_stage())["HEALTHCHECK"]
    command: list[str] = json.loads(health[health.index("CMD ") + 4:])
    return command


@pytest.mark.integration  # real programs
async def test_the_images_health_check_works_against_a_real_server(tmp_path: Path) -> None:
    """The HEALTHCHECK command, run here against a server (on the port it reads)."""
    command = healthcheck_command()
    assert command == yaml.safe_load(COMPOSE.read_text())[
        "services"]["dominion"]["healthcheck"]["test"][1:]
    assert command[0] == "python"
    process, url = start_server(tmp_path / "games.sqlite3")
    port = url.rsplit(":", 1)[1]
    try:
        env = {**os.environ, "DOMINION_PORT": port}
        run = [shutil.which("python3") or "python3", *command[1:]]
        healthy = await asyncio.to_thread(subprocess.run, run, env=env, timeout=30,
                                          capture_output=True, check=False)
        assert healthy.returncode == 0, healthy.stderr
        env["DOMINION_PORT"] = "1"  # nothing listens there: unhealthy
        unhealthy = await asyncio.to_thread(subprocess.run, run, env=env, timeout=30,
                                            capture_output=True, check=False)
        assert unhealthy.returncode != 0
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 15)


# -- the compose file -------------------------------------------------------------------

def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def test_compose_builds_the_image_and_keeps_data_on_a_volume() -> None:
    data = compose()
    server = data["services"]["dominion"]
    build = server["build"]
    context = (COMPOSE.parent / build["context"]).resolve()
    assert context == ROOT and (context / build["dockerfile"]).resolve() == DOCKERFILE
    volume, mount = server["volumes"][0].split(":")[:2]
    assert mount == "/data" and volume in data["volumes"]
    assert server["env_file"] == ["server.env"] and ENV_EXAMPLE.exists()
    assert "/healthz" in " ".join(server["healthcheck"]["test"])
    assert "ports" not in server, "only nginx is published"
    assert server["expose"] == [str(Settings().port)]
    assert server["stop_signal"] == "SIGTERM"
    assert all(key.startswith(ENV_PREFIX) for key in server["environment"])


def test_compose_puts_nginx_in_front_and_trusts_only_it() -> None:
    data = compose()
    services = data["services"]
    nginx = services["nginx"]
    assert nginx["depends_on"]["dominion"]["condition"] == "service_healthy"
    assert sorted(nginx["ports"]) == ["443:443", "80:80"]
    mounts = {m.split(":")[1]: m.split(":") for m in nginx["volumes"]}
    site = mounts["/etc/nginx/conf.d/default.conf"]
    assert (COMPOSE.parent / site[0]).resolve() == NGINX_CONF and site[2] == "ro"
    assert mounts["/etc/nginx/certs"][2] == "ro"
    assert "/var/www/certbot" in mounts
    address = nginx["networks"]["edge"]["ipv4_address"]
    assert services["dominion"]["environment"]["DOMINION_TRUSTED_PROXIES"] == address
    subnet = data["networks"]["edge"]["ipam"]["config"][0]["subnet"]
    assert address.rsplit(".", 1)[0] == subnet.split("/")[0].rsplit(".", 1)[0]
    # the nginx configuration's upstream is the compose service and its port
    assert re.search(r"server dominion:(\d+);", NGINX_CONF.read_text()).group(1) == str(  # type: ignore[union-attr]
        Settings().port)


def test_hosting_starts_the_whole_cluster_profile_after_making_its_files() -> None:
    """HOSTING's and the compose file's start of the profile (`up -d --build`) start every
    service of it (naming services starts only those and what they depend on), and in
    HOSTING the files those services read are made before the first start."""
    services = compose()["services"]
    profile = {name for name, service in services.items()
               if "cluster" in service.get("profiles", [])}
    assert {"redis", "postgres", "nginx-cluster"} < profile
    guide = HOSTING.read_text()
    starts = [line for text in (guide, COMPOSE.read_text()) for line in text.splitlines()
              if "docker compose --profile cluster up -d --build" in line]
    assert len(starts) >= 2
    for line in starts:
        assert set(line.split("--build", 1)[1].split()) == profile, line
    first_start = guide.index("docker compose --profile cluster up")
    for made in ("> postgres.env", "DOMINION_ACCOUNTS_URL=postgresql://dominion:"):
        assert guide.index(made) < first_start, made
    assert services["postgres"]["env_file"] == ["postgres.env"]


# -- nginx's timeouts and limits against the server's ------------------------------------

def location(name: str, after: str = "listen 443 ssl;") -> str:
    """A location block of the TLS server block (or of the block holding `after`)."""
    text = NGINX_CONF.read_text()
    start = text.index(f"location {name} {{", text.index(after))
    return text[start:text.index("}", start)]


def seconds(block: str, directive: str) -> int:
    found = re.search(rf"{directive}\s+(\d+)s;", block)
    assert found, f"{directive} missing"
    return int(found.group(1))


def test_nginx_outwaits_the_servers_idle_timeout() -> None:
    defaults = Settings()
    ws = location("= /api/v1/ws")
    for header in ("Upgrade $http_upgrade", "Connection $dominion_connection_upgrade",
                   "X-Forwarded-For $proxy_add_x_forwarded_for",
                   "X-Forwarded-Proto $scheme"):
        assert f"proxy_set_header {header};" in ws
    assert seconds(ws, "proxy_read_timeout") > defaults.idle_timeout_seconds
    assert seconds(ws, "proxy_send_timeout") > defaults.idle_timeout_seconds
    rest = location("/")
    assert "X-Forwarded-For $proxy_add_x_forwarded_for" in rest
    assert "client_max_body_size 64k;" in NGINX_CONF.read_text()
    assert "return 301 https://" in location("/", after="listen 80;")


# -- the systemd unit -------------------------------------------------------------------

def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None,
                                       delimiters=("=",), comment_prefixes=("#", ";"))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    return parser


def test_the_unit_has_the_required_keys() -> None:
    service = unit()["Service"]
    assert service["User"] == "dominion" and service["User"] != "root"
    assert service["EnvironmentFile"] == "/etc/dominion/server.env"
    assert service["ExecStart"].endswith("/dominion-server")
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"] == "/var/lib/dominion"
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    environment = UNIT.read_text()
    assert "Environment=DOMINION_DB=/var/lib/dominion/dominion.sqlite3" in environment
    assert "Environment=DOMINION_HOST=127.0.0.1" in environment
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd)")
@pytest.mark.integration  # real programs
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    """Verified as written, but with ExecStart pointing at this machine's dominion-server
    (verify checks the program exists; /opt/dominion/venv is the host's layout)."""
    program = shutil.which("dominion-server")
    if program is None:
        pytest.skip("the dominion-server command is not installed (pip install -e '.[dev]')")
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace("/opt/dominion/venv/bin/dominion-server",
                                             program))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=60, check=False)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if UNIT.name in line]
    assert result.returncode == 0 and not complaints, result.stdout + result.stderr


# -- the SQLite backup timer -------------------------------------------------------------

BACKUP_UNIT = DEPLOY / "systemd" / "dominion-backup@.service"


def exec_start(path: Path, instance: str) -> list[str]:
    """A unit's ExecStart as systemd runs it: lines joined, specifiers and `$$` resolved."""
    text = path.read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    command = re.sub(r"%(.)", lambda m: {"%": "%", "i": instance}[m.group(1)],
                     line.removeprefix("ExecStart=")).replace("$$", "$")
    return shlex.split(command)


def run_backup_unit(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    """The unit's command on this machine: this Python, this checkout, a folder here."""
    backups = tmp_path / "backups"
    backups.mkdir(exist_ok=True)
    command = [part.replace("/opt/dominion/venv/bin/python", sys.executable)
               .replace("/opt/dominion/src/deploy/", f"{DEPLOY}/")
               .replace("/var/backups/dominion/", f"{backups}/")
               for part in exec_start(BACKUP_UNIT, "a")]
    assert command[:2] == ["/bin/sh", "-c"] and "--keep 14" in command[2]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "DOMINION_DB": str(db), "DOMINION_NODE": "a"})


@pytest.mark.integration  # real programs
def test_the_backup_unit_copies_the_games_file_and_the_accounts_file_beside_it(
        tmp_path: Path) -> None:
    db = tmp_path / "node-a.sqlite3"
    for path in (db, tmp_path / "node-a.accounts.sqlite3"):
        sqlite3.connect(path).close()
    made = run_backup_unit(tmp_path, db)
    assert made.returncode == 0, made.stderr
    copies = sorted(path.name for path in (tmp_path / "backups").iterdir())
    assert [name.split("-")[2] for name in copies] == ["node", "node"], copies
    assert any("-node-a.accounts-" in name for name in copies), copies
    # a node whose accounts are in PostgreSQL has no accounts file: its games only
    (tmp_path / "node-a.accounts.sqlite3").unlink()
    assert run_backup_unit(tmp_path, db).returncode == 0
    assert len(list((tmp_path / "backups").iterdir())) == 3
    # a games file that is not there is a failure systemd shows, never a silent success
    missing = run_backup_unit(tmp_path, tmp_path / "gone.sqlite3")
    assert missing.returncode != 0 and "backup failed" in missing.stderr


def test_the_backup_unit_reads_the_servers_settings() -> None:
    """The node's own settings file (DOMINION_DB, DOMINION_NODE) after the shared one, as
    the node's server unit reads them; the unit's default file is the server unit's."""
    text = BACKUP_UNIT.read_text()
    assert text.index("EnvironmentFile=/etc/dominion/server.env") < text.index(
        "EnvironmentFile=-/etc/dominion/node-%i.env")
    assert "Environment=DOMINION_DB=/var/lib/dominion/dominion.sqlite3" in text
    assert "Environment=DOMINION_DB=/var/lib/dominion/dominion.sqlite3" in UNIT.read_text()
    assert "User=dominion" in text and "ReadWritePaths=/var/lib/dominion /var/backups/dominion" \
        in text
    guide = HOSTING.read_text()
    assert "dominion-backup@.{service,timer}" in guide and "dominion-backup@a.timer" in guide


@needs_systemd_analyze
@pytest.mark.integration  # real programs
def test_systemd_accepts_the_sqlite_backup_timer(tmp_path: Path) -> None:
    assert systemd_complaints(tmp_path, ["dominion-backup@.service", "dominion-backup@.timer"],
                              ["dominion-backup@a.timer", "dominion-backup@a.service"]) == ""


# -- the example environment file -------------------------------------------------------

def example_lines() -> dict[str, tuple[str, bool]]:
    """DOMINION_* name -> (value, active) for each setting line, active or commented."""
    found: dict[str, tuple[str, bool]] = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        match = re.fullmatch(r"(#?)(DOMINION_[A-Z0-9_]+)=(.*)", line.strip())
        if match:
            found[match.group(2)] = (match.group(3), not match.group(1))
    return found


def test_the_example_environment_lists_every_setting_with_its_default() -> None:
    lines = example_lines()
    text = ENV_EXAMPLE.read_text()
    names = {ENV_PREFIX + f.name.upper() for f in fields(Settings)}
    assert names - set(lines) == set(), "settings missing from server.env.example"
    assert set(lines) - names == set(), "server.env.example names unknown settings"
    blocks = text.split("\n\n")
    for f in fields(Settings):
        env = ENV_PREFIX + f.name.upper()
        block = next(b for b in blocks if re.search(rf"^#?{env}=", b, re.MULTILINE))
        default = f.default
        shown = ("none" if default == () else str(int(default))
                 if isinstance(default, float) and default.is_integer() else str(default))
        assert re.search(rf"default: ({re.escape(shown)}|empty)\b", block) or \
            re.search(rf"default: [^\n]*\b{re.escape(shown)}\b", block), \
            f"{env}: the default {shown!r} is not documented next to it"


def test_the_example_environment_is_accepted_by_the_server() -> None:
    active = {name: value for name, (value, on) in example_lines().items() if on}
    assert {"DOMINION_HOST", "DOMINION_PORT", "DOMINION_DB"}.isdisjoint(active)
    settings = Settings.from_sources([], environ=active)
    assert settings.problem() is None
    assert settings.public_url.startswith("https://")
    assert settings.allowed_origins == (settings.public_url,)
    assert settings.trusted_proxies == ("127.0.0.1",)


def example_block(name: str) -> str:
    """The comment lines just above a setting's line in the example file, joined."""
    lines = ENV_EXAMPLE.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(rf"#?{name}=", line))
    start = at
    while start > 0 and lines[start - 1].startswith("# ") \
            and not lines[start - 1].startswith("# --"):
        start -= 1
    return " ".join(line.removeprefix("#").strip() for line in lines[start:at])


def test_the_example_names_exactly_the_takeover_strategies_the_server_accepts() -> None:
    from dominion.bots import STRATEGIES

    said = example_block("DOMINION_TAKEOVER_STRATEGY")
    listed = re.search(r"bots \(docs/BOTS\.md\): ([^(]+)\(", said)
    assert listed, said
    names = set(re.findall(r"[a-z_]+(?::\d+)?", listed.group(1))) - {"or"}
    assert names == set(STRATEGIES)
    assert all(Settings(takeover_strategy=name).problem() is None for name in names)


def test_the_example_says_trusted_proxies_may_be_networks_the_server_accepts() -> None:
    said = example_block("DOMINION_TRUSTED_PROXIES")

    def network(word: str) -> bool:
        try:
            ipaddress.ip_network(word, strict=False)
        except ValueError:
            return False
        return True

    examples = [word for word in re.findall(r"[0-9a-f.:/]+", said) if network(word)]
    assert any("/" in example for example in examples), said  # networks, not only addresses
    assert any(":" in example for example in examples), said  # and IPv6
    assert Settings(trusted_proxies=tuple(examples)).problem() is None and len(examples) >= 4
    assert Settings(trusted_proxies=("nginx",)).problem() is not None
    assert "host name is refused" in said


def test_no_secrets_or_keys_in_deploy() -> None:
    for path in DEPLOY.rglob("*"):
        if path.is_file():
            text = path.read_text()
            assert "-----BEGIN" not in text, path
            for line in text.splitlines():
                if not line.lstrip().startswith("#"):
                    assert not SECRET_WORDS.search(line), f"{path}: {line}"
    ignored = (DEPLOY / ".gitignore").read_text().split()
    assert {"server.env", "certs/", "backups/"} <= set(ignored)


# -- the hosting guide ------------------------------------------------------------------

def test_the_hosting_guide_names_every_setting_and_metric() -> None:
    guide = HOSTING.read_text()
    for f in fields(Settings):
        assert ENV_PREFIX + f.name.upper() in guide, f"HOSTING.md: {f.name}"
    server_doc = (ROOT / "docs" / "SERVER.md").read_text()
    metrics = set(re.findall(r"`(dominion_[a-z_]+)", server_doc))
    assert metrics and all(metric in guide for metric in metrics), metrics


REDIS_CONF = Path("/etc/redis/redis.conf")


def redis_config(conf: Path, folder: Path, setting: str) -> str:
    """`setting` as a redis-server started on `conf` (on a port of its own) has it."""
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", str(conf), "--port", str(port), "--bind", "127.0.0.1", "--dir",
         str(folder), "--daemonize", "no", "--supervised", "no", "--logfile", "",
         "--pidfile", str(folder / "redis.pid")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, folder)
        answer = subprocess.run(["redis-cli", "-p", str(port), "CONFIG", "GET", setting],
                                capture_output=True, text=True, timeout=30, check=True)
    finally:
        process.terminate()
        process.wait(15)
    name, value = answer.stdout.split("\n")[:2]
    assert name == setting, answer.stdout
    return value


@pytest.mark.skipif(not REDIS_CONF.exists() or shutil.which("redis-cli") is None,
                    reason="Debian's redis-server is not installed (apt-get install "
                           "redis-server)")
@pytest.mark.integration  # real programs
def test_hostings_redis_step_turns_persistence_off_on_debians_config(tmp_path: Path) -> None:
    conf = tmp_path / "redis.conf"
    shutil.copy(REDIS_CONF, conf)
    assert redis_config(conf, tmp_path, "save") != "", "Debian's file snapshots by default"
    guide = HOSTING.read_text()
    (step,) = [line for line in guide.splitlines() if line.endswith(f">> {REDIS_CONF}")]
    subprocess.run(["sh", "-c", step.replace(str(REDIS_CONF), str(conf))], check=True,
                   timeout=30)
    assert redis_config(conf, tmp_path, "save") == ""
    assert redis_config(conf, tmp_path, "appendonly") == "no"
    assert "redis-cli CONFIG GET save" in guide


def hosting_node_d_routes(port: int) -> tuple[str, list[str]]:
    """HOSTING's "Adding a node", step 1: node d's upstream (on `port`) and map lines."""
    guide = HOSTING.read_text()
    step = " ".join(guide[guide.index("### Adding a node"):guide.index("2. Start it")].split())
    upstream = re.search(r"`upstream dominion_node_d` \(`server 127\.0\.0\.1:8084;` and "
                         r"`keepalive 16;`", step)
    assert upstream, step
    lines = re.findall(r"`(~\^(?:/api/v1/games/)?g-d- +dominion_node_d;)`", step)
    assert len(lines) == 2, step
    return (f"upstream dominion_node_d {{\n    server 127.0.0.1:{port};\n    keepalive 16;\n}}\n",
            lines)


@pytest.mark.integration  # real programs
@needs_nginx
@needs_openssl
def test_a_new_nodes_ids_reach_it_once_nginx_has_hostings_first_step(tmp_path: Path) -> None:
    """With step 1 of "Adding a node" done and the node not started yet, its games' ids
    are answered 503 node_unavailable by nginx (they wait for it), where an id of a node
    nginx does not know reaches another node and is 404: the order HOSTING gives."""
    process, server_url = start_server(tmp_path / "games.sqlite3")
    folder = tmp_path / "nginx"
    folder.mkdir()
    nginx: subprocess.Popen[bytes] | None = None
    try:
        cert, key = make_certificate(folder)
        http_port, https_port = free_port(), free_port()
        server_port = int(server_url.rsplit(":", 1)[1])
        text = derive_cluster_config(
            CLUSTER_CONF.read_text(), http_port=http_port, https_port=https_port,
            node_ports=dict.fromkeys(("a", "b", "c"), server_port), cert=cert, key=key,
            acme_root=folder)
        upstream, lines = hosting_node_d_routes(free_port())  # d does not run yet
        text = text.replace("upstream dominion_any {", upstream + "upstream dominion_any {", 1)
        for line, after in zip(lines, ("~^/api/v1/games/g-c-", "~^g-c-"), strict=True):
            at = text.index("\n", text.index(after)) + 1
            text = f"{text[:at]}    {line}\n{text[at:]}"
        site = folder / "site.conf"
        site.write_text(text)
        (folder / "nginx.conf").write_text(main_config(folder, site))
        nginx = subprocess.Popen(nginx_command(folder, "-g", "daemon off;"),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait_for_port(https_port, nginx, folder)
        context = ssl.create_default_context(cafile=str(cert))

        def status(game: str) -> tuple[int, str]:
            try:
                with urllib.request.urlopen(
                        f"https://127.0.0.1:{https_port}/api/v1/games/{game}",
                        context=context, timeout=10) as answer:
                    return answer.status, answer.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()

        code, body = status("g-d-0123456789ab")
        assert code == 503 and json.loads(body)["error"]["code"] == "node_unavailable"
        assert status("g-e-0123456789ab")[0] == 404  # a node nginx does not know
    finally:
        stop = [proc for proc in (nginx, process) if proc is not None and proc.poll() is None]
        for proc in stop:
            proc.terminate()
            proc.wait(15)


def upgrade_section() -> str:
    guide = HOSTING.read_text()
    return guide[guide.index("## Upgrading"):guide.index("## What to watch")]


@pytest.mark.integration  # real programs
async def test_the_upgrade_check_shows_what_hosting_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server of this version started on an older games file and accounts file: the
    guide's log filter shows each migration step and `server ready`, and GET
    /api/v1/server the installed version."""
    db = tmp_path / "dominion.sqlite3"
    await old_file(db, 4, monkeypatch)
    with monkeypatch.context() as old:
        old.setattr(migrations, "STEPS", migrations.STEPS[:3])
        accounts = SqliteAccountStore(sqlite_path_beside(str(db)))
        await accounts.start()
        await accounts.close()
    section = upgrade_section()
    filters = set(re.findall(r"grep -E '([^']+)'", section))
    assert len(filters) == 1 and "journalctl -u dominion-server" in section
    (shown,) = filters

    process, url = start_server(db, env={"DOMINION_LOG_FORMAT": "auto"})
    try:
        async with aiohttp.ClientSession() as session:
            server = await (await session.get(f"{url}/api/v1/server")).json()
        # it listens at once and says it is ready once its games are back: wait for that
        log = Path(getattr(process.stdout, "name", ""))
        await eventually(lambda: "server ready" in log.read_text())
    finally:
        process.send_signal(signal.SIGTERM)
        output = (await asyncio.to_thread(process.communicate, timeout=15))[0].decode()
    assert server["version"] == importlib.metadata.version("dominion-server")
    lines = [json.loads(line) for line in output.splitlines() if re.search(shown, line)]
    steps = [(line["store"], line["from_version"], line["to_version"]) for line in lines
             if line["message"] == "schema migrated"]
    # the test's old files are at games version 4 and accounts version 3
    assert steps == [*(("games", old, old + 1) for old in range(4, SCHEMA_VERSION)),
                     *(("accounts", old, old + 1) for old in range(3, migrations.LATEST))]
    assert lines[-1]["message"] == "server ready" and lines[-1]["restored_games"] == 1
    for name in ("store", "db", "from_version", "to_version", "migration", "seconds"):
        assert f"`{name}`" in section


@pytest.mark.integration  # real programs
def test_the_upgrade_check_names_the_version_command() -> None:
    """`dominion-server --version` as HOSTING shows it, where this version has it."""
    beside = Path(sys.executable).with_name("dominion-server")  # this Python's, not PATH's
    program = str(beside) if beside.exists() else shutil.which("dominion-server")
    if program is None:
        pytest.skip("the dominion-server command is not installed (pip install -e '.[dev]')")
    result = subprocess.run([program, "--version"], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    first, *rest = result.stdout.splitlines()
    assert first == f"dominion-server {importlib.metadata.version('dominion-server')}"
    engine = re.compile(r"engine: (compiled( \(.+\))?|pure Python \(.+\))")
    assert any(engine.fullmatch(line) for line in rest), result.stdout
    assert "dominion-server --version" in upgrade_section()
