"""Folders and files the service writes for itself, readable by its own user only: the SQLite
database holds key hashes and sign-up tokens' hashes, the outbox mails live decision links, the
upload folders unpublished releases. Modes are given at creation, whatever the umask allows."""

from __future__ import annotations

import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
# What SQLite writes beside a database file; it gives them the database file's own mode.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def private_folder(path: Path) -> Path:
    """`path` and every missing folder above it, created 0700 (existing ones are left as they are:
    a folder the operator chose, such as /var/lib, is theirs to set)."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:  # made by another process meanwhile
            continue
        folder.chmod(FOLDER_MODE)  # mkdir's mode passes through the umask
    return path


def write_private(path: Path, data: bytes) -> None:
    """A new file holding `data`, 0600 from its creation (never readable by others, even for a moment)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)


def private_sqlite_file(path: Path) -> None:
    """The database file created 0600 before SQLite opens it (SQLite gives its WAL and shared-memory
    files the same mode), and an existing one, with its companions, made 0600 if others could read it."""
    private_folder(path.parent)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        pass
    for file in (path, *(path.with_name(path.name + suffix) for suffix in SQLITE_COMPANIONS)):
        try:
            if file.stat().st_mode & 0o077:
                file.chmod(FILE_MODE)
        except FileNotFoundError:
            continue
