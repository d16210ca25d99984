"""Pruning releases past the retention (`gosterge releases prune --keep N`, and after every load with
GOSTERGE_KEEP_RELEASES): each step in a transaction of its own, so that answers and debits go on."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy.orm import Session, sessionmaker

from loaders.settings import load_settings
from store import release_files
from store.db import session_scope
from store.retention import mark_pruned, prune_step, pruned_releases, reclaim_step, releases_to_prune

log = logging.getLogger("gosterge.loaders.procurement")


def remove_release_files(release_id: int) -> None:
    """Remove what a release keeps outside the SQL store: its downloadable files under
    GOSTERGE_RELEASE_FILES_DIR. Called once the release's tables are gone."""
    release_files.remove_release_files(load_settings().release_files_dir, release_id)


def prune_releases(sessions: sessionmaker[Session], keep: int, *,
                   remove_files: Callable[[int], None] = remove_release_files) -> list[int]:
    """Prune every complete release but the `keep` most recently loaded and the active one; returns
    the ids pruned now (oldest first). Finishes any prune that stopped halfway, then hands the
    freed space back to the file system where the store can (store/retention.py)."""
    with session_scope(sessions) as session:
        candidates = releases_to_prune(session, keep)
    pruned = []
    for release_id in candidates:
        with session_scope(sessions) as session:
            if mark_pruned(session, release_id, now=datetime.now(UTC)):
                pruned.append(release_id)
    with session_scope(sessions) as session:
        to_clear = pruned_releases(session)
    for release_id in to_clear:
        while _step(sessions, prune_step, release_id):
            pass
        remove_files(release_id)
    while _step(sessions, reclaim_step):
        pass
    if pruned:
        log.info("pruned releases %s, keeping the last %d and the one served", pruned, keep)
    return pruned


def _step(sessions: sessionmaker[Session], step: Callable[..., bool], *args: int) -> bool:
    with session_scope(sessions) as session:
        return step(session, *args)
