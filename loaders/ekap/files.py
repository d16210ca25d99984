"""Which files an import reads, and reading one safely: the folder given is not trusted. Only
regular files are read (a FIFO would hang the import, a device such as /dev/zero never ends), a
symlink is followed only to a regular file inside the folder it was found in, every file is read
up to a size cap, and files matching an `--exclude` pattern are left out. Every file not read is
listed with why."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

# The largest file read. A result notice is a few KB and a saved search answer or bundle of a
# week's tenders a few MB; a file past this is not a record an operator saved, and reading it
# whole (as JSON must be read) would only cost memory.
MAX_FILE_BYTES = 32 * 1024 * 1024


class InputError(Exception):
    """A path given on the command line that cannot be read at all."""


class FileRefusedError(Exception):
    """A file that is not read: `reason` is the report's reason, the message says why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass
class Listing:
    files: list[Path] = field(default_factory=list)
    refused: list[tuple[Path, FileRefusedError]] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)


def excluded(path: Path, patterns: list[str]) -> bool:
    """Whether a glob pattern matches the file's name or its whole path as given."""
    return any(fnmatchcase(path.name, p) or fnmatchcase(str(path), p) for p in patterns)


def list_files(paths: list[Path], exclude: list[str] | None = None) -> Listing:
    """Every file under the paths, in the order given, folders walked recursively in name order;
    a path named on the command line is taken as given (a symlink to a regular file is read)."""
    listing, patterns = Listing(), exclude or []
    for path in paths:
        if path.is_dir():
            for found in _walk(path, listing):
                _keep(found, patterns, listing)
        elif os.path.lexists(path):
            _keep(path, patterns, listing)
        else:
            raise InputError(f"{path}: no such file or directory")
    return listing


def _walk(folder: Path, listing: Listing) -> list[Path]:
    found: list[Path] = []
    inside = folder.resolve()
    for root, folders, names in os.walk(folder):  # symlinked folders are listed, never entered
        folders.sort()  # os.walk descends in this order: name order at every level
        for name in sorted(names + [f for f in folders if os.path.islink(os.path.join(root, f))]):
            path = Path(root, name)
            if path.is_symlink() and not path.resolve().is_relative_to(inside):
                listing.refused.append((path, FileRefusedError(
                    "symlink-out-of-folder", f"a symlink to {path.resolve()}, outside {folder}: not followed")))
            else:
                found.append(path)
    return found


def _keep(path: Path, patterns: list[str], listing: Listing) -> None:
    if excluded(path, patterns):
        listing.excluded.append(str(path))
    else:
        listing.files.append(path)


def read_bytes(path: Path) -> bytes:
    """The file's bytes, when it is a regular file no larger than MAX_FILE_BYTES. Opened without
    blocking (a FIFO does not wait for a writer) and checked on the open file, so a file swapped
    after the listing is checked as it is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise FileRefusedError("unreadable-file", f"cannot be opened: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
            raise FileRefusedError("not-a-regular-file", f"{kind}, not a regular file: not read")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise FileRefusedError("file-too-large", f"larger than {MAX_FILE_BYTES} bytes, the most a file may "
                               "hold (docs/ekap.md): not read")
    return data
