"""The key that signs page cursors, held by the app as a service (`gosterge.cursor_key`, set up in
create_app) and read by api/transport/paging.py, which moves bytes and opens no store session itself."""

from __future__ import annotations

from api.context import extension
from api.db import db_session
from store.db import session_scope
from store.server_keys import CURSOR_KEY, get_or_create_server_key, get_server_key


class CursorKey:
    """GOSTERGE_CURSOR_SECRET when configured; otherwise a key generated once and kept in the store,
    so that every worker and host signs and checks with the same one. Read once per worker."""

    def __init__(self, configured: str | None):
        self._key = configured.encode("utf-8") if configured else None

    def __call__(self) -> bytes:
        if self._key is None:
            # Made by the schema upgrade; read on the request's own connection, since a second one
            # per request starves the pool under load. Stored here only if it was lost. Two threads
            # that both read it read the same key.
            key = get_server_key(db_session(), CURSOR_KEY)
            if key is None:
                with session_scope(extension("gosterge.sessions")) as session:
                    key = get_or_create_server_key(session, CURSOR_KEY)
            self._key = key
        return self._key
