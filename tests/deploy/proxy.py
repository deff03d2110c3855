"""nginx on loopback with the repository's configuration, in front of a real server.

`deploy/nginx/dominion.conf` is used as it is, with only what ties it to a real host
replaced (each replacement must match exactly once, so the derivation cannot drift from
the file): its listen addresses become 127.0.0.1 and free ports (the IPv6 listens go),
the compose upstream `dominion:8080` becomes the test server, and the certificate is a
self-signed one for 127.0.0.1 made with openssl at test time. Both server blocks are
exercised: TLS (lobby, WebSocket, replays) and the plain-HTTP redirect.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..server.test_process import free_port, start_server

ROOT = Path(__file__).resolve().parent.parent.parent
DEPLOY = ROOT / "deploy"
NGINX_CONF = DEPLOY / "nginx" / "dominion.conf"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(path, os.X_OK)),
        None)


def openssl_binary() -> str | None:
    return shutil.which("openssl")


needs_nginx = pytest.mark.skipif(
    nginx_binary() is None,
    reason="nginx is not installed (apt-get install nginx; .ci/run installs it)")
needs_openssl = pytest.mark.skipif(
    openssl_binary() is None, reason="openssl, which makes the test certificate, is not installed "
           "(apt-get install openssl)")


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt-get install systemd)")


def systemd_complaints(folder: Path, units: list[str], verified: list[str]) -> str:
    """What `systemd-analyze verify` says of the `verified` instances of deploy/systemd's
    `units`, copied into `folder` ("" when it accepts them)."""
    for name in units:
        shutil.copy(DEPLOY / "systemd" / name, folder)
    result = subprocess.run(["systemd-analyze", "verify", *verified],
                            capture_output=True, text=True, timeout=60, check=False,
                            env={**os.environ, "SYSTEMD_UNIT_PATH": f"{folder}:"})
    said = result.stdout + result.stderr
    ours = [line for line in said.splitlines()
            if any(unit.split("@")[0].split(".")[0] in line for unit in units)]
    return said if result.returncode != 0 or ours else ""


def derive_config(text: str, *, http_port: int, https_port: int, upstream_port: int,
                  cert: Path, key: Path, acme_root: Path) -> str:
    """The repository's nginx configuration, tied to loopback and the test's files."""
    replacements = [
        (r"^\s*listen \[::\]:80;\n", ""),
        (r"^\s*listen \[::\]:443 ssl;\n", ""),
        (r"\blisten 80;", f"listen 127.0.0.1:{http_port};"),
        (r"\blisten 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
        (r"\bserver dominion:8080;", f"server 127.0.0.1:{upstream_port};"),
        (r"/etc/nginx/certs/fullchain\.pem;", f"{cert};"),
        (r"/etc/nginx/certs/privkey\.pem;", f"{key};"),
        (r"\broot /var/www/certbot;", f"root {acme_root};"),
    ]
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        assert count == 1, f"{NGINX_CONF.name}: expected {pattern!r} once, found {count}"
    listens = re.findall(r"^\s*listen\s+([^;\s]+)", text, flags=re.MULTILINE)
    assert listens and all(a.startswith("127.0.0.1:") for a in listens), listens
    return text


def main_config(tmp: Path, site: Path) -> str:
    """A whole nginx.conf around the site file: everything under `tmp`."""
    user = "user root root;\n" if os.geteuid() == 0 else ""  # temp files in a 0700 folder
    temp = "\n".join(f"    {kind}_temp_path {tmp / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"{user}worker_processes 1;\npid {tmp / 'nginx.pid'};\n"
            f"error_log {tmp / 'error.log'} warn;\n"
            "events { worker_connections 256; }\n"
            f"http {{\n    access_log {tmp / 'access.log'};\n{temp}\n"
            f"    include {site};\n}}\n")


def make_certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    openssl = openssl_binary()
    assert openssl is not None
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=30)
    return cert, key


@dataclass
class Proxy:
    https: str  # https://127.0.0.1:port
    http: str
    server: str  # the server itself, not through nginx
    ssl: ssl.SSLContext
    folder: Path

    @property
    def wss(self) -> str:
        return self.https.replace("https://", "wss://") + "/api/v1/ws"

    def access_log(self) -> str:
        path = self.folder / "access.log"
        return path.read_text() if path.exists() else ""


def nginx_command(folder: Path, *args: str) -> list[str]:
    nginx = nginx_binary()
    assert nginx is not None
    return [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"),
            "-e", str(folder / "error.log"), *args]


def write_configs(folder: Path, upstream_port: int) -> tuple[int, int]:
    """Derived site + main config in `folder`; the HTTP and HTTPS ports chosen."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = make_certificate(folder)
    (folder / "acme").mkdir(exist_ok=True)
    http_port, https_port = free_port(), free_port()
    while https_port == http_port:
        https_port = free_port()
    site = folder / "dominion.conf"
    site.write_text(derive_config(NGINX_CONF.read_text(), http_port=http_port,
                                  https_port=https_port, upstream_port=upstream_port,
                                  cert=cert, key=key, acme_root=folder / "acme"))
    (folder / "nginx.conf").write_text(main_config(folder, site))
    return http_port, https_port


@contextmanager
def proxied_server(tmp_path: Path, *server_args: str) -> Iterator[Proxy]:
    """A real dominion-server process and nginx in front of it, both on 127.0.0.1."""
    process, server_url = start_server(tmp_path / "games.sqlite3", *server_args)
    folder = tmp_path / "nginx"
    nginx: subprocess.Popen[bytes] | None = None
    try:
        http_port, https_port = write_configs(folder, int(server_url.rsplit(":", 1)[1]))
        nginx = subprocess.Popen(nginx_command(folder, "-g", "daemon off;"),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait_for_port(https_port, nginx, folder)
        context = ssl.create_default_context(cafile=str(folder / "fullchain.pem"))
        yield Proxy(f"https://127.0.0.1:{https_port}", f"http://127.0.0.1:{http_port}",
                    server_url, context, folder)
    finally:
        if nginx is not None and nginx.poll() is None:
            nginx.terminate()
            try:
                nginx.wait(10)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_for_port(port: int, process: subprocess.Popen[bytes], folder: Path) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.02)
    log = (folder / "error.log").read_text() if (folder / "error.log").exists() else ""
    output = process.stdout.read().decode() if process.stdout and process.poll() is not None \
        else ""
    raise AssertionError(f"nginx did not start:\n{output}\n{log}")
