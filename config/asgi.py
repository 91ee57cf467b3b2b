"""The production server's application (``gunicorn -c config/gunicorn.conf.py``, uvicorn workers).

uvicorn reads every request on an asyncio event loop — the request line, the headers and the whole
body — and only then hands it to Django (WSGI, ``config.wsgi``) in a thread of a fixed pool of
``GUNICORN_THREADS`` (8). So a client sending its request slowly (slowloris, a trickled body) holds
one socket and costs no thread, while the threads keep their database connections from one request
to the next (``CONN_MAX_AGE``), as under gunicorn's gthread workers (issue 19, finding 4;
docs/security.md). uvicorn's own WSGI bridge is used because it buffers the whole body before the
thread runs (a2wsgi would read it from the thread); its deprecation warning is silenced here.
"""
import os
import warnings
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")



def _trimmed_headers(app: Any) -> Any:
    """Django writes ``Set-Cookie`` values with a leading space (``cookie.output(header="")``),
    which WSGI servers tolerate and h11 refuses: header values are passed on trimmed."""

    def wrapped(environ: dict[str, Any], start_response: Any) -> Any:
        def trimmed(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, [(name, value.strip()) for name, value in headers], exc_info)

        return app(environ, trimmed)

    return wrapped


with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from uvicorn.middleware.wsgi import _WSGIMiddleware

    application = _WSGIMiddleware(_trimmed_headers(get_wsgi_application()),
                                  workers=int(os.environ.get("GUNICORN_THREADS", "8")))
