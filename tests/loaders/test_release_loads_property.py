"""Whatever small release it is given, `load_release` loads it or refuses it with located problems:
it never ends in a traceback. Empty tables, empty optional cells and tables whose every cell of a
column is empty are where a column's type used to be guessed (an empty column read as DOUBLE)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loaders.procurement.load import load_release
from loaders.procurement.release import ReleaseRejectedError
from tests.helpers import write_release

NAMES = st.text(alphabet="AbİıŞş çÇ.-&'\"ÖöÜü0123456789 ", min_size=1, max_size=12).filter(str.strip)
AMOUNTS = st.one_of(st.none(), st.decimals(min_value=0, max_value=10**9, places=2).map(str))


@st.composite
def releases(draw) -> dict[str, list[dict]]:  # noqa: ANN001
    authorities = [{"authority_id": f"A{i}", "name": draw(NAMES), "province": draw(st.integers(1, 81)),
                    "authority_type": draw(st.sampled_from(["ministry", "municipality", "other", "university"]))}
                   for i in range(draw(st.integers(0, 3)))]
    contractors = [{"contractor_id": f"C{i}", "name": draw(NAMES), "province": draw(st.one_of(st.none(), st.integers(1, 81)))}
                   for i in range(draw(st.integers(0, 3)))]
    tenders, awards, direct = [], [], []
    for i in range(draw(st.integers(0, 4)) if authorities else 0):
        lots = draw(st.integers(1, 3))
        tenders.append({"tender_id": f"2025/{i:06d}", "authority_id": draw(st.sampled_from(authorities))["authority_id"],
                        "tender_date": f"2025-0{draw(st.integers(1, 9))}-1{draw(st.integers(0, 9))}",
                        "procedure": draw(st.sampled_from(["open", "negotiated-21b", "exception-3e"])),
                        "sector": draw(st.sampled_from([4, 13, 23])), "estimated_cost": draw(AMOUNTS), "lots": lots,
                        "name": draw(st.one_of(st.none(), NAMES))})
        for lot in range(1, draw(st.integers(0, lots)) + 1):
            winner = draw(st.one_of(st.none(), st.sampled_from(contractors))) if contractors else None
            awards.append({"tender_id": tenders[-1]["tender_id"], "lot": lot, "bids": draw(st.one_of(st.none(), st.integers(0, 9))),
                           "contractor_id": winner and winner["contractor_id"],
                           "contract_value": draw(AMOUNTS.filter(bool)) if winner else None})
    for i in range(draw(st.integers(0, 3)) if authorities and contractors else 0):
        direct.append({"purchase_id": f"D{i}", "authority_id": draw(st.sampled_from(authorities))["authority_id"],
                       "purchase_date": "2025-03-01", "sector": 4, "supplier_id": draw(st.sampled_from(contractors))["contractor_id"],
                       "amount": draw(AMOUNTS.filter(bool))})
    return {"authorities.csv": authorities, "contractors.csv": contractors, "tenders.csv": tenders,
            "awards.csv": awards, "direct_purchases.csv": direct}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables=releases(), optional=st.booleans())
def test_a_small_release_loads_or_is_refused_never_a_traceback(app, tmp_path_factory, tables, optional):
    directory = write_release(tmp_path_factory.mktemp("release"), tables, optional=optional)
    try:
        result = load_release(directory, app.extensions["gosterge.sessions"])
    except ReleaseRejectedError as exc:  # generated releases are valid: a refusal here is a finding too
        pytest.fail(f"a valid release was refused: {exc.problems}")
    assert result.rows["tenders.csv"] == len(tables["tenders.csv"])


@pytest.mark.parametrize("keep", [(), ("authorities.csv",), ("authorities.csv", "contractors.csv")])
def test_a_release_of_empty_tables_loads(app, tmp_path, keep):
    """The reported case: a release whose tenders were all kept out (only its parties, or nothing)."""
    tables = {"authorities.csv": [{"authority_id": "A1", "name": "Sivas İl Özel İdaresi", "authority_type": "other",
                                   "province": 58}],
              "contractors.csv": [{"contractor_id": "C1", "name": "Bir A.Ş.", "province": None}]}
    load_release(write_release(tmp_path / "r", {f: tables[f] for f in keep}), app.extensions["gosterge.sessions"])
