"""The request being answered, its globals and the app answering it, reached without Flask's proxies.

The one way to them in api/: no other module imports `flask.request`, `g` or `current_app`
(tests/test_architecture.py), so that the answer's path and the rest reach them alike.
`_get_current_object` is watched by tests/test_library_canaries.py.

`flask.request`, `g` and `current_app` are proxies: every attribute read through one finds the context
again, several times the cost of reading the attribute itself, and a remembered paid answer read
them often enough for it to show in a profile. The helpers here find the object once per call
(`_get_current_object`, the proxies' documented way to their object); code on the answer's path binds
what they return when it needs more than one attribute.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, current_app, g, request
from flask.ctx import _AppCtxGlobals


def this_app() -> Flask:
    return current_app._get_current_object()  # type: ignore[attr-defined]


def this_request() -> Request:
    return request._get_current_object()  # type: ignore[attr-defined]


def request_state() -> _AppCtxGlobals:
    """`g`: what the request's steps leave for the next ones (key, window, session, id)."""
    return g._get_current_object()  # type: ignore[attr-defined]


def extension(name: str) -> Any:
    """One of the app's services (`app.extensions[name]`, set up once in create_app)."""
    return current_app._get_current_object().extensions[name]  # type: ignore[attr-defined]
