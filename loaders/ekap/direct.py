"""Direct-procurement records (doğrudan temin) read for direct_purchases.csv: a saved result with
its contracts (EKAP's `dtDetayGetir` answer, or ihale-mcp's `get_direct_procurement_details`
output that passes EKAP's contract list through), one row per contract that names a supplier and
an amount. A listing (ihale-mcp's `search_direct_procurements`) names neither, and a contract
missing one is reported, never guessed. The rules are docs/ekap.md's "Direct purchases"."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loaders.ekap.records import lookup

# Where a saved result holds each field: EKAP's own names under `dogrudanTeminDetayResult`, then
# ihale-mcp's (`basic`, `authority`). First found wins; dotted paths walk objects.
EKAP = "dogrudanTeminDetayResult."
DIRECT_FIELDS: dict[str, tuple[str, ...]] = {
    "number": (EKAP + "DogrudanTeminBilgileri.Dtn", "basic.dt_no", "dt_no"),
    "name": (EKAP + "DogrudanTeminBilgileri.IsinAdi", "basic.name", "title"),
    "type": (EKAP + "DogrudanTeminBilgileri.Turu", "basic.type", "type.description"),
    "type_code": ("type.code",),
    "date": (EKAP + "DogrudanTeminBilgileri.DtTarihSaati", "basic.dt_datetime"),
    "authority": (EKAP + "IdareBilgileri.Idare", "authority.name", "authority"),
    "top_institution": (EKAP + "IdareBilgileri.EnUstIdare", "authority.top_authority"),
    "parent": (EKAP + "IdareBilgileri.UstIdare", "authority.parent_authority"),
    "province": (EKAP + "IdareBilgileri.Ili", "authority.province"),
    "province_plate": ("province_plate",),
}
# A contract of EKAP's `SozlesmeBilgisiList`: the supplier, the amount and the contract's date.
CONTRACT_FIELDS = {"supplier": "IstekliAdi", "amount": "SozlesmeBedeli", "date": "SozlesmeTarihi"}


@dataclass
class DirectRecord:
    """One direct procurement (one DT number) as a saved record gives it, in input order."""

    file: str
    position: tuple[int, ...]
    fields: dict[str, Any] = field(default_factory=dict)
    okas: list[str] = field(default_factory=list)
    contracts: list[dict[str, Any]] = field(default_factory=list)
    listed: bool = False  # a search listing's item: it can give no contract


def is_direct_result(element: dict[str, Any]) -> bool:
    return isinstance(element.get("dogrudanTeminDetayResult"), dict) or (
        isinstance(element.get("basic"), dict) and bool(lookup(element, "basic.dt_no")))


def read_direct(element: dict[str, Any], *, file: str, position: tuple[int, ...], listed: bool = False) -> DirectRecord:
    record = DirectRecord(file, position, listed=listed)
    for name, paths in DIRECT_FIELDS.items():
        record.fields[name] = next((v for p in paths if (v := lookup(element, p)) is not None), None)
    detail = element.get("dogrudanTeminDetayResult") or {}
    codes = (detail.get("DogrudanTeminBilgileri") or {}).get("BransKodList") if isinstance(detail, dict) else None
    codes = codes if isinstance(codes, list) else lookup_list(element, "basic.okas_codes")
    record.okas = [str(c.get("kod") or c.get("code") or "") if isinstance(c, dict) else str(c) for c in codes]
    contracts = (detail.get("SozlesmeBilgileri") or {}).get("SozlesmeBilgisiList") if isinstance(detail, dict) \
        else None
    contracts = contracts if isinstance(contracts, list) else lookup_list(element, "contracts")
    record.contracts = [c for c in contracts if isinstance(c, dict)]
    return record


def lookup_list(obj: Any, path: str) -> list[Any]:
    for part in path.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else None
    return obj if isinstance(obj, list) else []


def contract_value(contract: dict[str, Any], name: str) -> Any:
    """A contract's field, None when absent, empty, or not a single value (an object or a list)."""
    value = contract.get(CONTRACT_FIELDS[name])
    if value is None or isinstance(value, dict | list) or (isinstance(value, str) and not value.strip()):
        return None
    return value
