"""A previous weekly release as the base of the next: its rows are kept, its authorities and
contractors keep their ids, and the new records replace its tenders lot by lot."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from loaders.ekap.registry import Registry
from loaders.procurement.release import COLUMNS, open_release
from loaders.procurement.validate import check_release


class BaseReleaseError(Exception):
    """The base release cannot be built on."""


@dataclass
class BaseRelease:
    release: str = ""  # its ISO week
    tenders: dict[str, dict[str, str]] = field(default_factory=dict)
    awards: dict[str, dict[int, dict[str, str]]] = field(default_factory=dict)
    authorities: list[dict[str, str]] = field(default_factory=list)
    contractors: list[dict[str, str]] = field(default_factory=list)
    direct_purchases: list[dict[str, str]] = field(default_factory=list)
    citations: dict[str, tuple[str, str]] = field(default_factory=dict)
    authority_ids: set[str] = field(default_factory=set)
    contractor_ids: set[str] = field(default_factory=set)


def _rows(directory: Path, file: str) -> list[dict[str, str]]:
    with open(directory / file, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def read_base(path: Path, registry: Registry) -> BaseRelease:
    """Validate the base like any release (ReleaseRejectedError lists its problems) and seed the registry."""
    base = BaseRelease()
    with open_release(path) as opened:
        check_release(opened)
        if opened.manifest.synthetic:
            raise BaseReleaseError(f"{path} is a synthetic release; EKAP records build only on real releases")
        base.release = opened.manifest.release
        base.citations = {d["file"]: (d["citation"], d.get("url", "")) for d in opened.manifest.datasets}
        tables = {file: _rows(opened.directory, file) for file in COLUMNS}
    base.authorities, base.contractors = tables["authorities.csv"], tables["contractors.csv"]
    for row in tables["authorities.csv"]:
        registry.add_authority(row["name"], int(row["province"]), row["authority_type"], fixed_id=row["authority_id"])
        base.authority_ids.add(row["authority_id"])
    for row in tables["contractors.csv"]:
        entry = registry.add_contractor(row["name"], fixed_id=row["contractor_id"])
        entry.province = int(row["province"]) if row["province"] else None
        base.contractor_ids.add(row["contractor_id"])
    base.tenders = {row["tender_id"]: row for row in tables["tenders.csv"]}
    for row in tables["awards.csv"]:
        base.awards.setdefault(row["tender_id"], {})[int(row["lot"])] = row
    base.direct_purchases = tables["direct_purchases.csv"]
    return base
