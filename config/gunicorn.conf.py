"""The production server: ``gunicorn -c config/gunicorn.conf.py`` (README, "Running in production").

gunicorn supervises ``GUNICORN_WORKERS`` uvicorn workers (``uvicorn_worker.UvicornH11Worker``) serving
``config.asgi``: each worker reads whole requests on an asyncio event loop, then runs Django (WSGI)
in one of ``GUNICORN_THREADS`` threads. A client trickling its request line and headers byte by
byte (slowloris) holds one socket and costs nothing while it waits:
with the earlier ``-k gthread --threads 8`` setup, 100 such connections from one client took every
thread (a thread reads a whole request before it serves it) and starved the site for 45 s (issue 19,
finding 4). uvicorn's h11 parser also refuses request heads over 16 kB, and idle keep-alive
connections close after ``keepalive`` seconds. Every setting can be overridden on the command line.

Tested by ``tests/test_security_slowloris.py`` (100 trickling connections on 127.0.0.1 while normal
requests keep answering).
"""
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
worker_class = "uvicorn_worker.UvicornH11Worker"  # h11: request heads over 16 kB refused
wsgi_app = "config.asgi:application"
keepalive = 5  # seconds an idle keep-alive connection stays open
timeout = 30  # a worker that stops answering its master for this long is restarted
graceful_timeout = 30
backlog = 2048
# Django's threads per worker: config/asgi.py reads GUNICORN_THREADS (default 8).
