"""Authorities and contractors, each kept once: an authority by its normalised name and province
(whatever shape named it), a contractor by its normalised legal name. An entity keeps the id it
was first released under, so ids stay stable from week to week."""

from __future__ import annotations

from dataclasses import dataclass, field

from loaders.ekap.names import contractor_id, normalise_name, stable_id

ABROAD = 0  # a contractor province meaning "abroad": written as an empty province


@dataclass
class Authority:
    id: str | None
    name: str
    province: int
    type: str
    ekap_id: str | None = None
    used: bool = False


@dataclass
class Contractor:
    id: str
    name: str
    province: int | None = None  # a plate, ABROAD, or None when unknown
    used: bool = False


@dataclass
class Registry:
    authorities: dict[tuple[str, int], Authority] = field(default_factory=dict)
    contractors: dict[str, Contractor] = field(default_factory=dict)

    def add_authority(self, name: str, province: int, kind: str, *, ekap_id: str | None = None,
                      fixed_id: str | None = None) -> Authority:
        """The authority of this name and province, created on first sight; EKAP's id when it has one."""
        key = (normalise_name(name), province)
        entry = self.authorities.get(key)
        if entry is None:
            entry = self.authorities[key] = Authority(fixed_id, name, province, kind, ekap_id)
        elif entry.ekap_id is None and ekap_id:
            entry.ekap_id = ekap_id
        return entry

    def authority_id(self, entry: Authority) -> str:
        if entry.id is None:
            key = (normalise_name(entry.name), entry.province)
            entry.id = str(entry.ekap_id) if entry.ekap_id else stable_id("A", entry.province, key[0])
        return entry.id

    def add_contractor(self, name: str, *, fixed_id: str | None = None) -> Contractor:
        key = normalise_name(name)
        entry = self.contractors.get(key)
        if entry is None:
            entry = self.contractors[key] = Contractor(fixed_id or contractor_id(name), name)
        return entry
