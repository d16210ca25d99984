"""Loading an uploaded release in a process of its own, so that a load of minutes never holds a
server worker: started by the admin upload, it records its stage in the store while it runs, then
the release or the problems, and removes its folder (the upload and every temporary file) on every
way out. `python -m loaders.procurement.jobs JOB_ID FOLDER` with GOSTERGE_DATABASE_URL set."""

from __future__ import annotations

import fcntl
import logging
import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.orm import Session

from loaders.procurement.load import load_release
from loaders.procurement.release import ReleaseRejectedError
from loaders.settings import load_settings
from store.db import create_store_engine, make_session_factory, session_scope
from store.errors import StoreConflictError
from store.jobs import (
    RUNNING,
    create_job,
    finish_job,
    get_job,
    list_running_jobs,
    record_progress,
    running_job,
)
from store.keys import record_audit
from store.models import ReleaseJob
from store.private import private_folder
from store.problems import ProblemRecord, internal, refused
from store.times import as_utc

log = logging.getLogger("gosterge.loaders.jobs")
UPLOAD_NAME = "release.zip"
LOCK_NAME = "lock"
HEARTBEAT_SECONDS = 2
# A folder younger than this may belong to an upload still being received: never swept.
SWEEP_AFTER_SECONDS = 60
# A load on another host is taken for dead when its heartbeat (every HEARTBEAT_SECONDS) is older than this.
HEARTBEAT_STALE_SECONDS = 60
ABANDONED = internal("The load stopped before it finished (its process ended: the server restarted, or it was "
                     "killed); nothing was switched. Upload the release again.")


def now() -> datetime:
    return datetime.now(UTC)


def hold_lock(folder: Path) -> int:
    """Take the folder's lock and return its descriptor. The kernel releases it when every process
    holding the descriptor has ended, however it ended: that is how a load is seen to be alive."""
    descriptor = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return descriptor


def is_alive(folder: Path) -> bool:
    """Whether a process on this host still holds the folder's lock."""
    try:
        descriptor = os.open(folder / LOCK_NAME, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)


def sweep(uploads: Path) -> list[str]:
    """Remove the folders of loads that no process holds any more (a killed load, a lost machine);
    returns the job ids removed. A load removes its own folder when it ends, at any moment: a folder
    gone by the time it is looked at is passed over."""
    removed = []
    for folder in uploads.glob("*") if uploads.is_dir() else []:
        try:
            age = time.time() - folder.stat().st_mtime
        except FileNotFoundError:
            continue
        if age > SWEEP_AFTER_SECONDS and not is_alive(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder.name)
    return removed


@dataclass(frozen=True)
class JobState:
    """What an upload's status URL shows: the job as stored, or `failed` for a load whose process is
    gone although the store still says it runs (its end is recorded by the next upload)."""

    job: ReleaseJob
    status: str
    problem: ProblemRecord | None


class UploadRunningError(Exception):
    """Another upload is loading: one loads at a time, so that releases activate in the order they
    were accepted (docs/decisions.md)."""

    def __init__(self, job: ReleaseJob):
        super().__init__(f"upload {job.id} is still loading")
        self.job = job


def receive_upload(session: Session, uploads: Path, save: Callable[[Path], None], *, uploaded_by: str,
                   database_url: str) -> ReleaseJob:
    """Record the loads that died as failed, remove their folders, then take a new upload: its
    folder and lock, the file (`save` writes it), the job, and the process that loads it. Raises
    UploadRunningError, having kept nothing, while another upload loads."""
    settle_abandoned(session, uploads)
    if (running := running_job(session)) is not None:
        raise UploadRunningError(running)
    job_id = secrets.token_hex(8)
    folder = private_folder(uploads / job_id)  # an unpublished release: the service's user alone reads it
    lock = hold_lock(folder)
    try:
        save(folder / UPLOAD_NAME)
        job = create_job(session, job_id, uploaded_by=uploaded_by, host=socket.gethostname(), now=now())
        session.commit()
        start_job(job_id, folder, lock=lock, database_url=database_url)
    except StoreConflictError:
        # Another upload was accepted between the check above and this one's job (the schema's
        # unique index on running jobs decided): refused like any upload that finds one running.
        session.rollback()
        shutil.rmtree(folder, ignore_errors=True)
        if (running := running_job(session)) is None:
            raise
        raise UploadRunningError(running) from None
    except BaseException:
        session.rollback()
        shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        os.close(lock)  # the loading process holds its own copy of the lock from here on
    return job


def read_job(session: Session, job_id: str, uploads: Path) -> JobState:
    """An upload's state, read only. A job the store says runs but whose process is gone may have
    recorded its end (and removed its folder) since it was read: then it is read again, in a new
    transaction, before it is called dead."""
    job = get_job(session, job_id)
    if job.status == RUNNING and not _is_running(job, uploads):
        session.rollback()  # ends the read snapshot; nothing was written
        job = get_job(session, job_id)
        if job.status == RUNNING and not _is_running(job, uploads):
            return JobState(job, "failed", ABANDONED)
    return JobState(job, job.status, ProblemRecord.from_json(job.problem) if job.problem else None)


def settle_abandoned(session: Session, uploads: Path) -> list[str]:
    """Record every load that died as failed and remove its folder; returns their job ids."""
    settled = []
    for job in list_running_jobs(session):
        if not _is_running(job, uploads) and finish_job(session, job.id, status="failed", now=now(),
                                                         problem=ABANDONED.to_json()):
            settled.append(job.id)
    session.commit()
    for job_id in settled:
        shutil.rmtree(uploads / job_id, ignore_errors=True)
    sweep(uploads)
    return settled


def _is_running(job: ReleaseJob, uploads: Path) -> bool:
    """A load is seen alive by its lock on its own host, and by its heartbeat elsewhere."""
    if job.host == socket.gethostname():
        return is_alive(uploads / job.id)
    return (now() - as_utc(job.updated_at)).total_seconds() < HEARTBEAT_STALE_SECONDS


def start_job(job_id: str, folder: Path, *, lock: int, database_url: str) -> subprocess.Popen:
    """Start the loading process. It inherits the folder's lock (`lock`, taken by the caller before
    the upload was written), so the folder is never without a live holder until the load ends."""
    env = {**os.environ, "GOSTERGE_DATABASE_URL": database_url}
    process = subprocess.Popen([sys.executable, "-m", "loaders.procurement.jobs", job_id, str(folder), str(lock)],
                               env=env, pass_fds=(lock,), start_new_session=True, stdin=subprocess.DEVNULL)
    # Reap the process when it ends, so that it does not linger as a zombie of the server worker.
    threading.Thread(target=process.wait, daemon=True).start()
    return process


class Heartbeat:
    """Writes the load's stage to the store every HEARTBEAT_SECONDS from a thread of its own: the load
    itself never waits for that write (on SQLite it would wait for its own write transaction)."""

    def __init__(self, sessions, job_id: str):  # noqa: ANN001
        self.sessions, self.job_id = sessions, job_id
        self.stage, self.items = "unpacking", 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __call__(self, stage: str, items: int) -> None:
        self.stage, self.items = stage, items

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)

    def _run(self) -> None:
        while True:
            try:
                with session_scope(self.sessions) as session:
                    record_progress(session, self.job_id, stage=self.stage, items_written=self.items, now=now())
            except Exception as error:  # noqa: BLE001  (a missed beat is retried; the load goes on)
                log.warning("upload %s: progress not recorded: %s", self.job_id, error)
            if self._stop.wait(HEARTBEAT_SECONDS):
                return


def run_job(job_id: str, folder: Path, database_url: str) -> int:
    """Load the uploaded release and record how it ended; 0 when it was loaded. The folder goes
    whatever happens, after the outcome is recorded (a reader seeing no folder takes the job for
    dead)."""
    engine = create_store_engine(database_url)
    sessions = make_session_factory(engine)
    try:
        status, problem = _load(sessions, job_id, folder)
        if problem is not None:
            with session_scope(sessions) as session:
                finish_job(session, job_id, status=status, now=now(), problem=problem.to_json())
        return 0 if status == "loaded" else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        engine.dispose()


def _load(sessions, job_id: str, folder: Path) -> tuple[str, ProblemRecord | None]:  # noqa: ANN001
    """(status, problem) of one load; a loaded release records itself in its own transaction."""
    try:
        with Heartbeat(sessions, job_id) as heartbeat:
            uploaded_by = _uploaded_by(sessions, job_id)

            def record_loaded(session, release_id: int) -> None:  # noqa: ANN001
                # In the release's own transaction: the job says "loaded" exactly when the release is.
                finish_job(session, job_id, status="loaded", now=now(), release_id=release_id,
                           items_written=heartbeat.items)
                record_audit(session, actor=uploaded_by, action="release.upload", target=str(release_id),
                             detail=job_id, now=now())
            load_release(folder / UPLOAD_NAME, sessions, uploaded_by=uploaded_by, progress=heartbeat,
                         workdir=folder, before_commit=record_loaded, keep=load_settings().keep_releases)
        return "loaded", None
    except ReleaseRejectedError as exc:
        return "refused", refused(f"The release was refused: {exc.total} problem(s).",
                                  errors=[p.as_dict() for p in exc.problems], total=exc.total)
    except Exception as exc:  # noqa: BLE001  (whatever stopped the load is reported, not lost)
        log.exception("upload %s failed", job_id)
        return "failed", internal(f"The load stopped: {type(exc).__name__}: {exc}"[:2000])


def _uploaded_by(sessions, job_id: str) -> str:  # noqa: ANN001
    with session_scope(sessions) as session:
        return get_job(session, job_id).uploaded_by


def main(argv: list[str]) -> int:
    """JOB_ID FOLDER LOCK_FD: the lock descriptor stays open, inherited, for the whole run."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    job_id, folder = argv[0], Path(argv[1])
    database_url = load_settings().database_url
    if not database_url:
        raise SystemExit("GOSTERGE_DATABASE_URL is not set")
    return run_job(job_id, folder, database_url)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
