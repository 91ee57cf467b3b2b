"""Issue 19, finding 4: slowloris. 100 connections trickling their request from one client starved
gunicorn (``-k gthread --threads 8``: a thread reads a whole request before serving it) for 45 s.

The production configuration (``config/gunicorn.conf.py``: uvicorn workers on an event loop) is
started here on 127.0.0.1 only, 100 connections send a request head one byte every half second, and
ordinary requests made meanwhile must each answer within 2 s. Bounded: ~10 s of trickling, every
socket closed and the server stopped at the end. (With the old gthread command the ordinary requests
waited for the trickling ones: the first timed out.)
"""
from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from django.conf import settings

HOST = "127.0.0.1"
SLOW_CLIENTS = 100
TRICKLE_SECONDS = 10.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _start_server(tmp_path: Path, port: int) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL",
                                                             "DJANGO_ALLOW_ASYNC_UNSAFE", "CELERY_BROKER_URL")}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0", "DJANGO_SECURE_SSL_REDIRECT": "0",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": HOST,
                "DATABASE_URL": f"sqlite:///{tmp_path / 'slow.sqlite3'}", "TCGDB_VAR_DIR": str(tmp_path),
                "GUNICORN_WORKERS": "2", "DJANGO_LOG_LEVEL": "ERROR"})
    cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", "config/gunicorn.conf.py",
           "-b", f"{HOST}:{port}", "--log-level", "warning"]
    return subprocess.Popen(cmd, cwd=settings.BASE_DIR, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "server.log", "wb"))


def _wait_ready(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server stopped:\n" + log.read_text(errors="replace")[-3000:]
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError("the server did not answer:\n" + log.read_text(errors="replace")[-3000:])


def test_the_production_server_keeps_answering_while_100_connections_trickle(tmp_path):
    port = _free_port()
    url = f"http://{HOST}:{port}/accounts/login/"
    proc = _start_server(tmp_path, port)
    slow: list[socket.socket] = []
    stop = threading.Event()
    try:
        _wait_ready(url, proc, tmp_path / "server.log")
        for _ in range(SLOW_CLIENTS):
            s = socket.create_connection((HOST, port), timeout=5)
            s.sendall(f"GET /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\n".encode())
            slow.append(s)

        def trickle() -> None:  # one more header byte per connection every half second, never the end
            while not stop.wait(0.5):
                for s in slow:
                    try:
                        s.sendall(b"X")
                    except OSError:
                        pass

        thread = threading.Thread(target=trickle, daemon=True)
        thread.start()
        time.sleep(1.0)  # every slow connection has started its request
        latencies = []
        t_end = time.monotonic() + TRICKLE_SECONDS
        with httpx.Client(timeout=5) as client:
            while time.monotonic() < t_end:
                t0 = time.monotonic()
                r = client.get(url, headers={"Connection": "close"})
                latencies.append(time.monotonic() - t0)
                assert r.status_code == 200
                time.sleep(0.5)
        assert len(latencies) >= 8 and max(latencies) < 2.0, latencies
        alive = sum(1 for s in slow if s.fileno() != -1)
        assert alive == SLOW_CLIENTS  # the attack really was going on all along
    finally:
        stop.set()
        for s in slow:
            s.close()
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
