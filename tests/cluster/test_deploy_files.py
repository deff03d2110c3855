"""The cluster's deployment files agree with each other: the compose file's `cluster`
profile has a node for each upstream of the cluster nginx configuration, and nginx
accepts that configuration."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from dominion.server.settings import Settings

from ..deploy.proxy import (
    DEPLOY,
    main_config,
    make_certificate,
    needs_nginx,
    needs_openssl,
    needs_systemd_analyze,
    nginx_command,
    systemd_complaints,
)
from .cluster import CLUSTER_CONF, derive_cluster_config

COMPOSE = DEPLOY / "compose.yaml"


def services() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return found


def test_the_cluster_profile_runs_a_node_per_upstream_behind_its_own_nginx() -> None:
    nodes = re.findall(r"^upstream dominion_node_(\w+) \{", CLUSTER_CONF.read_text(),
                       flags=re.MULTILINE)
    assert nodes
    compose = services()
    proxy = compose["nginx-cluster"]
    assert proxy["profiles"] == ["cluster"]
    site = next(v for v in proxy["volumes"] if v.endswith(":/etc/nginx/conf.d/default.conf:ro"))
    assert (COMPOSE.parent / site.split(":")[0]).resolve() == CLUSTER_CONF
    address = proxy["networks"]["edge"]["ipv4_address"]
    volumes = set()
    for name in nodes:
        node = compose[f"node-{name}"]
        assert node["profiles"] == ["cluster"] and "ports" not in node
        environment = node["environment"]
        assert environment["DOMINION_NODE"] == name
        assert environment["DOMINION_NODE_URL"] == f"http://node-{name}:{Settings().port}"
        assert environment["DOMINION_REDIS"].startswith("redis://redis:")
        assert environment["DOMINION_TRUSTED_PROXIES"] == address
        assert proxy["depends_on"][f"node-{name}"]["condition"] == "service_healthy"
        volumes.add(node["volumes"][0].split(":")[0])  # each node its own database
        settings = Settings.from_sources([], environ={**environment, "DOMINION_HOST": "0.0.0.0"})
        assert settings.problem() is None
    assert len(volumes) == len(nodes)
    assert compose["redis"]["profiles"] == ["cluster"]
    # the single server's services are not in the profile: `docker compose up` is unchanged
    assert "profiles" not in compose["dominion"] and "profiles" not in compose["nginx"]


@pytest.mark.integration  # real programs
@needs_nginx
@needs_openssl
def test_nginx_accepts_the_cluster_configuration(tmp_path: Path) -> None:
    site = tmp_path / "site.conf"
    nodes = re.findall(r"server node-(\w+):8080;", CLUSTER_CONF.read_text())
    site.write_text(derive_cluster_config(
        CLUSTER_CONF.read_text(), http_port=18080, https_port=18443,
        node_ports={name: 18100 + index for index, name in enumerate(dict.fromkeys(nodes))},
        cert=tmp_path / "fullchain.pem", key=tmp_path / "privkey.pem", acme_root=tmp_path))
    make_certificate(tmp_path)
    (tmp_path / "nginx.conf").write_text(main_config(tmp_path, site))
    result = subprocess.run(nginx_command(tmp_path, "-t"), capture_output=True, text=True,
                            timeout=30, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None or
                    shutil.which("dominion-server") is None,
                    reason="systemd-analyze or the dominion-server command is not installed "
                           "(apt-get install systemd; pip install -e '.[dev]')")
@pytest.mark.integration  # real programs
def test_systemd_accepts_the_node_template_with_its_drop_in(tmp_path: Path) -> None:
    """dominion-server@.service is the single server's unit under a template name, with
    the drop-in that reads each node's own settings file."""
    program = shutil.which("dominion-server")
    assert program is not None
    unit = (DEPLOY / "systemd" / "dominion-server.service").read_text()
    (tmp_path / "dominion-server@.service").write_text(
        unit.replace("/opt/dominion/venv/bin/dominion-server", program))
    drop_in = tmp_path / "dominion-server@.service.d"
    drop_in.mkdir()
    shutil.copy(DEPLOY / "systemd" / "dominion-server@.service.d" / "node.conf", drop_in)
    result = subprocess.run(["systemd-analyze", "verify", "dominion-server@a.service"],
                            capture_output=True, text=True, timeout=60, check=False,
                            env={**os.environ, "SYSTEMD_UNIT_PATH": f"{tmp_path}:"})
    output = result.stdout + result.stderr
    assert result.returncode == 0 and "dominion-server@" not in output \
        and "node.conf" not in output, output


def test_the_cluster_profile_shares_a_postgresql_for_accounts() -> None:
    """The nodes start after a healthy PostgreSQL whose password is in a host-local file
    (never committed), its data on a volume of its own."""
    compose = services()
    postgres = compose["postgres"]
    assert postgres["profiles"] == ["cluster"] and "ports" not in postgres
    assert postgres["env_file"] == ["postgres.env"]
    assert "postgres.env" in (DEPLOY / ".gitignore").read_text().splitlines()
    assert "pg_isready" in postgres["healthcheck"]["test"]
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])
    nodes = [name for name in compose if name.startswith("node-")]
    assert nodes and all(compose[name]["depends_on"]["postgres"]["condition"]
                         == "service_healthy" for name in nodes)


@needs_systemd_analyze
@pytest.mark.integration  # real programs
def test_systemd_accepts_the_accounts_backup_timer(tmp_path: Path) -> None:
    units = ["dominion-accounts-backup.service", "dominion-accounts-backup.timer"]
    assert systemd_complaints(tmp_path, units, ["dominion-accounts-backup.timer"]) == ""
