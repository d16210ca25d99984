"""An independent reading of a release for the OCDS tests: its CSVs read with the csv module, what the
package must say about each tender, and the official schemas with both extensions merged in."""

from __future__ import annotations

import copy
import csv
import io
import json
import zipfile
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

from store.reference.lists import provinces

STANDARD = Path(__file__).resolve().parents[1] / "loaders" / "ocds" / "standard"
RELEASE_SCHEMA_URL = "https://standard.open-contracting.org/schema/1__1__5/release-schema.json"
# Written here from the mapping's own words (docs/ocds.md), not taken from the code under test.
METHODS = {"open": "open", "restricted": "selective"}


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON Merge Patch, as OCDS applies an extension to the release schema."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


@cache
def merged_release_schema() -> dict[str, Any]:
    schema = json.loads((STANDARD / "release-schema.json").read_text(encoding="utf-8"))
    for extension in ("lots", "bids"):
        schema = merge_patch(schema, json.loads((STANDARD / "extensions" / extension / "release-schema.json")
                                                .read_text(encoding="utf-8")))
    return schema


@cache
def _validators() -> tuple[jsonschema.Draft4Validator, jsonschema.Draft4Validator]:
    merged = merged_release_schema()
    registry = Registry().with_resource(RELEASE_SCHEMA_URL, Resource.from_contents(merged, default_specification=DRAFT4))
    package_schema = json.loads((STANDARD / "release-package-schema.json").read_text(encoding="utf-8"))
    checker = jsonschema.Draft4Validator.FORMAT_CHECKER
    return (jsonschema.Draft4Validator(package_schema, registry=registry, format_checker=checker),
            jsonschema.Draft4Validator(merged, format_checker=checker))


def validate_package(package: dict[str, Any]) -> None:
    """The package against release-package-schema.json (its reference to the release schema resolved
    to the merged one, never fetched) and every release against the merged schema, formats checked.

    The package schema's `uniqueItems` on `releases` compares every pair of releases (minutes for
    the demo's 8,000), so the envelope is checked with its first release, and the releases are shown
    distinct by their ids, which is stronger: no two may even share an `id`."""
    package_validator, release_validator = _validators()
    envelope = {**package, "releases": package["releases"][:1]}
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in package_validator.iter_errors(envelope)]
    assert not errors, errors[:10]
    assert package["releases"], "a package holds at least one release"
    assert len({(r["ocid"], r["id"]) for r in package["releases"]}) == len(package["releases"])
    for release in package["releases"]:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in release_validator.iter_errors(release)]
        assert not errors, (release["ocid"], errors[:10])


def read_tables(tables_zip: Path) -> dict[str, list[dict[str, str]]]:
    with zipfile.ZipFile(tables_zip) as archive:
        names = {Path(n).name: n for n in archive.namelist()}
        return {name.removesuffix(".csv"): list(csv.DictReader(io.TextIOWrapper(archive.open(names[name]), "utf-8")))
                for name in ("tenders.csv", "awards.csv", "authorities.csv", "contractors.csv")}


def _region(province: str) -> str | None:
    return provinces()[int(province)].name if province else None


def expected_tenders(tables: dict[str, list[dict[str, str]]]) -> dict[str, dict[str, Any]]:
    """İKN -> what its OCDS release must hold, from the CSVs alone."""
    authorities = {a["authority_id"]: a for a in tables["authorities"]}
    contractors = {c["contractor_id"]: c for c in tables["contractors"]}
    expected = {}
    for t in tables["tenders"]:
        authority = authorities[t["authority_id"]]
        expected[t["tender_id"]] = {
            "method": METHODS.get(t["procedure"], "limited"), "procedure": t["procedure"],
            "estimate": Decimal(t["estimated_cost"]) if t["estimated_cost"] else None,
            "lots": int(t["lots"]), "awards": {}, "bids": {},
            "buyer": (authority["name"], _region(authority["province"])), "suppliers": set(),
        }
    for w in tables["awards"]:
        tender = expected[w["tender_id"]]
        if w["bids"]:
            tender["bids"][str(int(w["lot"]))] = int(w["bids"])
        if w["contractor_id"]:
            contractor = contractors[w["contractor_id"]]
            tender["awards"][str(int(w["lot"]))] = (contractor["name"], Decimal(w["contract_value"]))
            tender["suppliers"].add((contractor["name"], _region(contractor["province"])))
    return expected


def _amount(value: dict[str, Any]) -> Decimal:
    assert value["currency"] == "TRY"
    return Decimal(repr(value["amount"]))


def observed_tender(release: dict[str, Any]) -> dict[str, Any]:
    """The same facts read back from one OCDS release."""
    tender = release["tender"]
    parties = {p["id"]: p for p in release["parties"]}
    buyer = parties[release["buyer"]["id"]]
    assert buyer["roles"] == ["buyer"]
    awards = {}
    for award in release.get("awards", []):
        (supplier,) = award["suppliers"]
        (lot,) = award["relatedLots"]
        awards[lot] = (supplier["name"], _amount(award["value"]))
    contracts = {c["awardID"]: _amount(c["value"]) for c in release.get("contracts", [])}
    assert contracts == {a["id"]: _amount(a["value"]) for a in release.get("awards", [])}
    return {
        "method": tender["procurementMethod"], "procedure": tender["procurementMethodDetails"].split(":")[0],
        "estimate": _amount(tender["value"]) if "value" in tender else None,
        "lots": len(tender["lots"]), "awards": awards,
        "bids": {s["relatedLot"]: s["value"] for s in release.get("bids", {}).get("statistics", [])
                 if s["measure"] == "validBids"},
        "buyer": (buyer["name"], buyer["address"].get("region")),
        "suppliers": {(p["name"], p["address"].get("region")) for p in release["parties"] if "supplier" in p["roles"]},
    }
