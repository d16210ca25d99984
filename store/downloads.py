"""What a release file's download costs a key: charged with the key's credits in one transaction,
and remembered, so that resuming the same file within a day is free (api/routes/downloads.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from store.errors import InsufficientCreditsError
from store.keys import DEBIT
from store.models import DownloadCharge

# How long after a charge a key's Range requests for the same file cost nothing.
RESUME_WINDOW = timedelta(days=1)


def charge_download(session: Session, *, key_id: int, sha256: str, cost: int, now: datetime,
                    resume: bool) -> int | None:
    """Charge `cost` credits for the file `sha256` and remember when; the credits left. With `resume`
    (a Range request) nothing is charged when the key paid for the file within RESUME_WINDOW: None.

    The charge is recorded by one INSERT … ON CONFLICT DO UPDATE whose condition PostgreSQL re-checks
    on the locked row (SQLite runs one writer at a time), so parallel parts of one download (a
    segmented download manager) are charged once. InsufficientCreditsError when the key holds fewer
    credits; the caller's transaction is then rolled back, and nothing is remembered."""
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    statement = insert(DownloadCharge).values(key_id=key_id, sha256=sha256, charged_at=now)
    stale = DownloadCharge.charged_at < now - RESUME_WINDOW if resume else None
    statement = statement.on_conflict_do_update(index_elements=["key_id", "sha256"],
                                                set_={"charged_at": now}, where=stale)
    taken = session.execute(statement.returning(DownloadCharge.key_id)).first()
    if taken is None:
        return None  # paid for within the window: a resumed download
    left = session.execute(DEBIT, {"key_id": key_id, "cost": cost}).first()
    if left is None:
        raise InsufficientCreditsError(f"key {key_id} holds fewer than {cost} credits")
    return int(left[0])
