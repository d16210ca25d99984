"""The files a release offers for download, kept in a folder of their own per release.

`<root>/<release id>/` holds the files and `files.json`, the manifest that lists each with its size
and SHA-256. A folder is built aside (`<root>/.building-<release id>-…`) and renamed into place
whole, so that a reader finds either every file with its manifest or no folder at all.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MANIFEST = "files.json"
BUILDING = ".building-"
# Under the var folder unless GOSTERGE_RELEASE_FILES_DIR says otherwise: read by the loaders, which
# write the files, and by the API, which serves them, so the default lives here, below both.
DEFAULT_FOLDER = "release-files"


def default_root(var_dir: Path) -> Path:
    """Where release files are kept when GOSTERGE_RELEASE_FILES_DIR is not set."""
    return Path(var_dir) / DEFAULT_FOLDER


@dataclass(frozen=True)
class ReleaseFile:
    name: str  # the file's name in the folder, also the name a download is saved under
    kind: str  # "tables" (the release's CSVs as loaded, zipped) or "ocds" (the OCDS release package)
    media_type: str
    size: int  # bytes
    sha256: str  # hex
    path: Path

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "mediaType": self.media_type, "size": self.size,
                "sha256": self.sha256}


@dataclass(frozen=True)
class ReleaseFiles:
    release_id: int
    release: str  # the release's name (ISO week)
    files: list[ReleaseFile]

    def by_kind(self, kind: str) -> ReleaseFile | None:
        return next((f for f in self.files if f.kind == kind), None)


def tables_name(release: str) -> str:
    """The name of a release's tables file: also the last part of its download URL."""
    return f"gosterge-{release}-tables.zip"


def ocds_name(release: str) -> str:
    """The name of a release's OCDS package: also the last part of its download URL (and the package's `uri`)."""
    return f"gosterge-{release}-ocds.json.gz"


def release_folder(root: Path, release_id: int) -> Path:
    return Path(root) / str(int(release_id))


def describe_file(path: Path, kind: str, media_type: str) -> ReleaseFile:
    """A file's entry: its size and SHA-256, read in pieces (a national package is gigabytes)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return ReleaseFile(path.name, kind, media_type, path.stat().st_size, digest.hexdigest(), path)


def building_folder(root: Path, release_id: int) -> Path:
    """A fresh folder to build a release's files in, beside where they will be published."""
    Path(root).mkdir(parents=True, exist_ok=True)
    folder = Path(root) / f"{BUILDING}{int(release_id)}-{os.getpid()}-{os.urandom(4).hex()}"
    folder.mkdir()
    return folder


def publish_release_files(root: Path, release_id: int, release: str, building: Path, files: list[ReleaseFile]) -> Path:
    """Write the manifest into `building` and rename it into place. A folder left by a release of the
    same id (an id SQLite handed out again after a failed load) is replaced."""
    manifest = {"releaseId": int(release_id), "release": release, "files": [f.as_dict() for f in files]}
    (building / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    target = release_folder(root, release_id)
    if target.exists():
        shutil.rmtree(target)
    os.replace(building, target)
    return target


def read_release_files(root: Path, release_id: int) -> ReleaseFiles | None:
    """The files of a release as its manifest lists them, or None when it has none (loaded before they
    were built, or removed)."""
    folder = release_folder(root, release_id)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    files = [ReleaseFile(f["name"], f["kind"], f["mediaType"], int(f["size"]), f["sha256"], folder / f["name"])
             for f in manifest["files"]]
    return ReleaseFiles(int(manifest["releaseId"]), manifest["release"], files)


def remove_release_files(root: Path, release_id: int) -> None:
    """Remove a release's folder and any half-built one of the same id; nothing to remove is no error."""
    shutil.rmtree(release_folder(root, release_id), ignore_errors=True)
    if Path(root).is_dir():
        for leftover in Path(root).glob(f"{BUILDING}{int(release_id)}-*"):
            shutil.rmtree(leftover, ignore_errors=True)
