"""The mapping's codes come from the standard's closed codelists, and any tender the release format
allows becomes a release valid against the schema with both extensions."""

from __future__ import annotations

import csv

from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.ocds.mapping import (
    TenderRow,
    classification,
    main_procurement_category,
    ocid,
    procurement_method,
    tender_release,
)
from loaders.settings import SettingError, load_settings
from store.reference.lists import procedures, provinces, sectors
from tests.ocds_reference import STANDARD, validate_package


def _codes(path) -> set[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        return {row["Code"] for row in csv.DictReader(handle)}


def test_every_procedure_and_sector_maps_into_the_closed_codelists():
    methods = _codes(STANDARD / "codelists" / "method.csv")
    categories = _codes(STANDARD / "codelists" / "procurementCategory.csv")
    assert {p: procurement_method(p) for p in ("open", "restricted", "negotiated-21b", "exception-3g")} == {
        "open": "open", "restricted": "selective", "negotiated-21b": "limited", "exception-3g": "limited"}
    assert {procurement_method(p) for p in procedures()} <= methods
    assert {main_procurement_category(s) for s in sectors()} == categories
    assert main_procurement_category(23) == "works"  # Yapım işleri, CPV 45


def test_okas_codes_of_eight_digits_are_cpv_and_others_keep_a_scheme_of_their_own():
    assert classification("45233140") == {"scheme": "CPV", "id": "45233140"}
    assert classification("452132501") == {"scheme": "TR-OKAS", "id": "452132501"}
    assert ocid("ocds-a1b2c3", "2026/1343415") == "ocds-a1b2c3-2026-1343415"


def test_an_ocid_prefix_that_is_not_registered_form_is_refused_naming_the_setting():
    for bad in ("ocds-ABCDEF", "ocds-12345", "ocds-1234567", "abcd-123456"):
        try:
            load_settings({"GOSTERGE_OCID_PREFIX": bad})
        except SettingError as exc:
            assert "GOSTERGE_OCID_PREFIX" in str(exc)
        else:
            raise AssertionError(bad)


amounts = st.decimals(min_value=0, max_value=10**12, places=2, allow_nan=False).map(lambda d: format(d, "f"))
lot_rows = st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 50)), st.booleans(), amounts,
                              st.one_of(st.none(), st.sampled_from(sorted(provinces())))), min_size=0, max_size=4)


@settings(max_examples=60, deadline=None)
@given(procedure=st.sampled_from(sorted(procedures())), sector=st.sampled_from(sorted(sectors())),
       estimate=st.one_of(st.none(), amounts), rows=lot_rows, extra_lots=st.integers(0, 3),
       name=st.one_of(st.none(), st.text(min_size=1, max_size=40)),
       okas=st.lists(st.from_regex(r"[0-9]{8,9}", fullmatch=True), max_size=3))
def test_any_tender_of_the_release_format_is_a_valid_release(procedure, sector, estimate, rows, extra_lots, name, okas):
    lots = [(i, bids, f"C{i % 2}" if awarded else None, value if awarded else None,
             f"Firma {i % 2}" if awarded else None, province)
            for i, (bids, awarded, value, province) in enumerate(rows, start=1)]
    row = TenderRow("2024/000123", "2024-02-29", procedure, sector, estimate, len(rows) + extra_lots or 1, name,
                    "A1", "Kurum", 6, lots, tuple(okas))
    release = tender_release(row, prefix="ocds-gstrge", release_name="2026-W47", release_date="2026-11-20T06:00:00Z")
    package = {"uri": "https://example.org/p.json", "version": "1.1", "publishedDate": "2026-11-20T06:00:00Z",
               "publisher": {"name": "test"}, "releases": [release]}
    validate_package(package)
    assert len(release["tender"]["lots"]) == row.lots
    assert [a["relatedLots"] for a in release.get("awards", [])] == [[str(r[0])] for r in lots if r[2]]
