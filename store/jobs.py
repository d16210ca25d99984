"""Release upload jobs: created by the upload, advanced by the loading process, read by any worker."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from store.errors import NotFoundError
from store.models import ReleaseJob

RUNNING = "running"
FINISHED = ("loaded", "refused", "failed")


def create_job(session: Session, job_id: str, *, uploaded_by: str, host: str, now: datetime) -> ReleaseJob:
    row = ReleaseJob(id=job_id, status=RUNNING, stage="receiving", items_written=0, uploaded_by=uploaded_by,
                     host=host, created_at=now, updated_at=now, problem="")
    session.add(row)
    session.flush()
    return row


def get_job(session: Session, job_id: str) -> ReleaseJob:
    row = session.get(ReleaseJob, job_id)
    if row is None:
        raise NotFoundError(f"no upload {job_id}")
    return row


def record_progress(session: Session, job_id: str, *, stage: str, items_written: int, now: datetime) -> None:
    """The loading process's heartbeat: its stage and count, only while the job still runs."""
    session.execute(update(ReleaseJob).where(ReleaseJob.id == job_id, ReleaseJob.status == RUNNING)
                    .values(stage=stage, items_written=items_written, updated_at=now)
                    .execution_options(synchronize_session=False))


def finish_job(session: Session, job_id: str, *, status: str, now: datetime, release_id: int | None = None,
               problem: str = "", items_written: int | None = None) -> bool:
    """Close a running job once; False when it was already finished (by itself or as abandoned)."""
    values: dict[str, Any] = {"status": status, "stage": "done", "finished_at": now, "updated_at": now,
                              "release_id": release_id, "problem": problem}
    if items_written is not None:
        values["items_written"] = items_written
    done = session.execute(update(ReleaseJob).where(ReleaseJob.id == job_id, ReleaseJob.status == RUNNING)
                           .values(**values).execution_options(synchronize_session=False))
    return done.rowcount == 1


def running_job(session: Session) -> ReleaseJob | None:
    """The upload loading now, if any (the schema allows one at a time)."""
    return session.scalars(select(ReleaseJob).where(ReleaseJob.status == RUNNING).limit(1)).first()


def list_running_jobs(session: Session) -> list[ReleaseJob]:
    return list(session.scalars(select(ReleaseJob).where(ReleaseJob.status == RUNNING)))
