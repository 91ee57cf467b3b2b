"""ASGI entry point: the production server (``gunicorn -c config/gunicorn.conf.py``, uvicorn workers).

An event loop per worker holds every client connection, so clients that send their request slowly
(slowloris) cost a socket each, never a worker or a thread (issue 19, finding 4; docs/security.md).
Views stay synchronous: Django runs each request's view in a thread of its own.
"""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
