"""The kinds of stored statistics items and what their keys mean: the one place that names the
stored columns `key1`–`key3`. The loader writes every item through `ItemKind.row`, the API filters
through `ItemKind.filters`, and tests/store/test_items.py checks each named key against the kind's item
schema and against the items a release really stores, so renaming a key or adding a kind is one
change here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The stored columns, in the order an ItemKind's keys fill them (store/models.py, StatItem).
KEY_COLUMNS = ("key1", "key2", "key3")


@dataclass(frozen=True)
class ItemKind:
    """One kind of stored item: its name, its keys (filled into KEY_COLUMNS in order) and the API's
    schema of one item. A key that is also a field of the item's body names it in `fields`."""

    name: str
    keys: tuple[str, ...]
    schema: str
    fields: tuple[str | None, ...] = ()

    def row(self, *, seq: int, body: Any, seq_alt: int | None = None, **keys: Any) -> dict[str, Any]:
        """The stored row of one item; every key of the kind must be given (empty for a kind without)."""
        if set(keys) != set(self.keys):
            raise ValueError(f"{self.name} items take the keys {self.keys}, not {tuple(keys)}")
        row: dict[str, Any] = {"kind": self.name, "seq": seq, "seq_alt": seq if seq_alt is None else seq_alt,
                               "body": body}
        for column, name in zip(KEY_COLUMNS, (*self.keys, None, None, None), strict=False):
            row[column] = "" if name is None or keys[name] is None else str(keys[name])
        return row

    def filters(self, **values: Any) -> dict[str, str]:
        """The stored columns to match for the keys given (a None value matches every item)."""
        unknown = set(values) - set(self.keys)
        if unknown:
            raise ValueError(f"{self.name} items have no key {sorted(unknown)}")
        return {column: str(values[name]) for column, name in zip(KEY_COLUMNS, self.keys, strict=False)
                if values.get(name) is not None}

    def key_values(self, row: dict[str, Any]) -> dict[str, str]:
        """The named keys of a stored row (the inverse of `row`)."""
        return {name: row[column] for column, name in zip(KEY_COLUMNS, self.keys, strict=False)}


def _index(name: str, schema: str) -> ItemKind:
    # An index item per (dimension, subject, period); the subject is stored as the release's own id
    # (a plate code, a sector id) or empty for `overall`, and the body shows it as served.
    return ItemKind(name, ("dimension", "subject", "period"), schema, ("dimension", None, "period"))


COMPETITION = _index("competition", "CompetitionIndex")
CONCENTRATION = _index("concentration", "ConcentrationIndex")
DIRECT = _index("direct", "DirectProcurementIndex")
LOCALIZATION = _index("localization", "LocalizationIndex")
PROVINCE_SECTORS = ItemKind("province-sectors", ("province", "sector"), "ProvinceSector", ("province", "sector"))
SUPPLY_FLOWS = ItemKind("supply-flows", ("buyerProvince", "supplierProvince"), "SupplyFlow",
                        ("buyerProvince", "supplierProvince"))
# A ranking per scope ("province" or "sector"), the scope's id and the method; none is a body field.
TOP_AUTHORITIES = ItemKind("top-authorities", ("scope", "scopeId", "method"), "TopAuthority", (None, None, None))
TOP_CONTRACTORS = ItemKind("top-contractors", ("scope", "scopeId", "method"), "TopContractor", (None, None, None))
# What a release holds (/datasets `coverage`): one item, no keys.
COVERAGE = ItemKind("coverage", (), "Datasets")

INDEX_KINDS = {k.name: k for k in (COMPETITION, CONCENTRATION, DIRECT, LOCALIZATION)}
KINDS = {k.name: k for k in (*INDEX_KINDS.values(), PROVINCE_SECTORS, SUPPLY_FLOWS, TOP_AUTHORITIES,
                             TOP_CONTRACTORS, COVERAGE)}
