"""The dashboard as Streamlit's ASGI app (`streamlit run dashboard/server.py`), its page shell told where the
server is.

Streamlit's page shell finds its server by trying the page's own path first (`/news/_stcore/health` and
`/news/_stcore/host-config`, which Streamlit answers 404 on purpose) and only then the root, so every page
but the first left two 404s in the browser's console. The shell reads the server's address from
`window.__streamlit.BACKEND_BASE_URL` when a host page sets it; this app sets it to the site's root in
every HTML page it serves, so the shell asks the right address first and only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import streamlit as st
from starlette.middleware import Middleware

Message = MutableMapping[str, Any]
BACKEND_BASE = b'<script>window.__streamlit={BACKEND_BASE_URL:window.location.origin+"/"}</script>'
# Streamlit's own addresses (its server, scripts, styles and media): passed through untouched.
PASS_THROUGH = ("/_stcore/", "/static/", "/media/", "/component/", "/app/static/")


class BackendBase:
    """ASGI middleware adding BACKEND_BASE at the head of each HTML page."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or any(p in scope["path"] for p in PASS_THROUGH):
            await self.app(scope, receive, send)
            return
        # The page is rewritten, so it is asked for uncompressed (it is a few kilobytes).
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]}
        start: Message = {}
        parts: list[bytes] = []

        async def rewrite(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            parts.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body, headers = b"".join(parts), list(start.get("headers", []))
            if any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers) and body:
                body = body.replace(b"<head>", b"<head>" + BACKEND_BASE, 1)
                headers = [(k, v) for k, v in headers if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, rewrite)


app = st.App(Path(__file__).resolve().parent / "app.py", middleware=[Middleware(BackendBase)])
