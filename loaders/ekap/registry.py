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
    by_id: dict[str, Authority] = field(default_factory=dict)  # EKAP's id, or the id a base released it under

    def add_authority(self, name: str, province: int, kind: str, *, ekap_id: str | None = None,
                      fixed_id: str | None = None) -> Authority:
        """The authority of this name and province, created on first sight; EKAP's id when it has one.

        One id is one authority: when a record gives an id already known under another name or
        province, that authority takes the latest record's name, province and type (the release
        holds one row per id, and the loader refuses a repeated one)."""
        key = (normalise_name(name), province)
        known = self.by_id.get(ekap_id) if ekap_id else None
        if known is not None:
            if self.authorities.get(key) is not known:
                known.name, known.province, known.type = name, province, kind
                self.authorities[key] = known
            return known
        entry = self.authorities.get(key)
        if entry is None:
            entry = self.authorities[key] = Authority(fixed_id, name, province, kind, ekap_id)
        elif entry.ekap_id is None and ekap_id:
            entry.ekap_id = ekap_id
        for given in (ekap_id, fixed_id):
            if given:
                self.by_id.setdefault(given, entry)
        return entry

    def distinct_authorities(self) -> list[Authority]:
        """Each authority once, though it may be reached by several names."""
        return list({id(a): a for a in self.authorities.values()}.values())

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
