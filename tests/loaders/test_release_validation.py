"""Every rule of the release format: a broken release is refused with its file, row and column, and the
release served before stays served."""

from __future__ import annotations

import copy
import zipfile

import pytest

from loaders.procurement.load import load_release
from loaders.procurement.release import ReleaseRejectedError
from tests.conftest import release_template
from tests.helpers import write_release
from tests.loaders.test_procurement_statistics import TABLES


def broken(change) -> dict:  # noqa: ANN001
    tables = copy.deepcopy(TABLES)
    change(tables)
    return tables


def setitem(file: str, index: int, column: str, value):  # noqa: ANN001
    def change(tables):  # noqa: ANN001
        tables[file][index][column] = value
    return change


def append(file: str, row: dict):  # noqa: ANN001
    def change(tables):  # noqa: ANN001
        tables[file].append(row)
    return change


CASES = [
    ("value does not parse: lots", setitem("tenders.csv", 0, "lots", "two"), "tenders.csv", 2, "lots"),
    ("decimal comma", setitem("awards.csv", 0, "contract_value", "800,5"), "awards.csv", 2, "contract_value"),
    ("bad date", setitem("tenders.csv", 1, "tender_date", "2024-13-01"), "tenders.csv", 3, "tender_date"),
    ("date before 2019", setitem("direct_purchases.csv", 2, "purchase_date", "2018-12-31"), "direct_purchases.csv", 4,
     "purchase_date"),
    ("date after publishedAt", setitem("tenders.csv", 3, "tender_date", "2026-11-21"), "tenders.csv", 5, "tender_date"),
    ("duplicated id", setitem("contractors.csv", 1, "contractor_id", "C1"), "contractors.csv", 2, "contractor_id"),
    ("unknown authority", setitem("tenders.csv", 0, "authority_id", "A9"), "tenders.csv", 2, "authority_id"),
    ("unknown contractor", setitem("awards.csv", 0, "contractor_id", "C9"), "awards.csv", 2, "contractor_id"),
    ("unknown sector", setitem("tenders.csv", 0, "sector", 44), "tenders.csv", 2, "sector"),
    ("unknown procedure", setitem("tenders.csv", 0, "procedure", "auction"), "tenders.csv", 2, "procedure"),
    ("unknown authority type", setitem("authorities.csv", 0, "authority_type", "army"), "authorities.csv", 2,
     "authority_type"),
    ("unknown province", setitem("authorities.csv", 1, "province", 82), "authorities.csv", 3, "province"),
    ("lot outside 1..lots", setitem("awards.csv", 0, "lot", 2), "awards.csv", 2, "lot"),
    ("lot repeated", setitem("awards.csv", 2, "lot", 1), "awards.csv", 3, "lot"),
    ("negative amount", setitem("direct_purchases.csv", 0, "amount", "-5"), "direct_purchases.csv", 2, "amount"),
    ("negative estimated cost", setitem("tenders.csv", 0, "estimated_cost", "-1"), "tenders.csv", 2, "estimated_cost"),
    ("award without value", setitem("awards.csv", 0, "contract_value", None), "awards.csv", 2, "contract_value"),
    ("missing required value", setitem("tenders.csv", 2, "tender_date", None), "tenders.csv", 4, "tender_date"),
    ("unknown tender in awards", append("awards.csv", {"tender_id": "2024/999999", "lot": 1, "bids": 1,
                                                       "contractor_id": "C1", "contract_value": 1}), "awards.csv", 9,
     "tender_id"),
]


@pytest.fixture(scope="module")
def database_template(request, tmp_path_factory):
    """TABLES loaded once for the module: the database of each test using `served` is a copy of it."""
    folder = tmp_path_factory.mktemp("good")
    yield from release_template(request, tmp_path_factory, write_release(folder / "good", TABLES), folder / "files")


@pytest.fixture
def served(app, auth, database_template):
    """The app serving TABLES, loaded as release 1."""
    client = app.test_client()

    def datasets() -> dict:
        return client.get("/v1/public-procurement/datasets", headers=auth).get_json()

    before = datasets()
    assert before["releaseId"] == 1
    return datasets, before


@pytest.mark.parametrize(("case", "change", "file", "row", "column"), CASES, ids=[c[0] for c in CASES])
def test_broken_release_is_rejected_and_old_one_served(app, served, tmp_path, case, change, file, row, column):
    datasets, before = served
    path = write_release(tmp_path / "bad", broken(change))
    with pytest.raises(ReleaseRejectedError) as caught:
        load_release(path, app.extensions["gosterge.sessions"])
    located = [(p.file, p.row, p.column) for p in caught.value.problems]
    assert (file, row, column) in located, caught.value.problems
    assert datasets() == before


def test_wrong_row_count_in_manifest(app, served, tmp_path):
    datasets, before = served
    path = write_release(tmp_path / "bad", TABLES, rows_override={"awards.csv": 99})
    with pytest.raises(ReleaseRejectedError) as caught:
        load_release(path, app.extensions["gosterge.sessions"])
    assert any(p.file == "manifest.json" and p.column == "rows" and "awards.csv" in p.message
               for p in caught.value.problems)
    assert datasets() == before


def test_missing_column_and_missing_file(app, served, tmp_path):
    datasets, before = served
    path = write_release(tmp_path / "bad", TABLES)
    text = (path / "contractors.csv").read_text(encoding="utf-8").replace("province", "il")
    (path / "contractors.csv").write_text(text, encoding="utf-8")
    (path / "direct_purchases.csv").unlink()
    with pytest.raises(ReleaseRejectedError) as caught:
        load_release(path, app.extensions["gosterge.sessions"])
    located = {(p.file, p.column) for p in caught.value.problems}
    assert ("contractors.csv", "province") in located
    assert ("direct_purchases.csv", None) in located
    assert datasets() == before


def test_every_problem_is_listed_at_once(app, served, tmp_path):
    change = [setitem("tenders.csv", 0, "lots", "x"), setitem("direct_purchases.csv", 0, "amount", "-1")]
    path = write_release(tmp_path / "bad", broken(lambda t: [c(t) for c in change]))
    with pytest.raises(ReleaseRejectedError) as caught:
        load_release(path, app.extensions["gosterge.sessions"])
    files = {p.file for p in caught.value.problems}
    assert {"tenders.csv", "direct_purchases.csv"} <= files


def test_zip_with_escaping_path_is_refused(app, served, tmp_path):
    datasets, before = served
    source = write_release(tmp_path / "src", TABLES)
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for child in source.iterdir():
            zf.write(child, child.name)
        zf.writestr("../../etc/evil.csv", "x")
    with pytest.raises(ReleaseRejectedError) as caught:
        load_release(archive, app.extensions["gosterge.sessions"])
    assert "leaves the archive" in caught.value.problems[0].message
    assert datasets() == before


def test_zip_bomb_is_refused(app, served, tmp_path):
    source = write_release(tmp_path / "src", TABLES)
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for child in source.iterdir():
            if child.name != "awards.csv":
                zf.write(child, child.name)
        zf.writestr("awards.csv", "0" * 50_000_000)
    with pytest.raises(ReleaseRejectedError) as caught:
        load_release(archive, app.extensions["gosterge.sessions"])
    assert [(p.file, "compression ratio" in p.message) for p in caught.value.problems] == [("awards.csv", True)]


def test_interrupted_load_leaves_old_release_served(app, served, tmp_path, monkeypatch):
    datasets, before = served
    from loaders.procurement import compute

    original = compute.supply_flow_items

    def fail_midway(con):  # noqa: ANN001
        yield from list(original(con))[:3]
        raise KeyboardInterrupt

    monkeypatch.setattr(compute, "supply_flow_items", fail_midway)
    with pytest.raises(KeyboardInterrupt):
        load_release(write_release(tmp_path / "next", TABLES, release="2026-W48"), app.extensions["gosterge.sessions"])
    assert datasets() == before
    monkeypatch.setattr(compute, "supply_flow_items", original)
    load_release(write_release(tmp_path / "next2", TABLES, release="2026-W48"), app.extensions["gosterge.sessions"])
    assert datasets()["release"] == "2026-W48"


def _manifest_problems(tmp_path, change) -> list:  # noqa: ANN001
    import json

    from loaders.procurement.release import read_manifest

    directory = write_release(tmp_path / "release", TABLES)
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    change(manifest)
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ReleaseRejectedError) as caught:
        read_manifest(directory)
    return caught.value.problems


@pytest.mark.parametrize(("column", "value"), [
    ("release", "\u0662\u0660\u0662\u0666-W47"),  # Arabic-Indic digits, which `\d` would take
    ("datasets[0].name", "tend\u202eers"), ("datasets[0].name", "tenders\u200b"),
    ("datasets[0].citation", "cite\u2066 tenders"), ("datasets[0].citation", "\ufeffcite"),
    ("datasets[0].url", "javascript:alert(1)"), ("datasets[0].url", "data:text/html,x"),
    ("datasets[0].url", "https://"), ("datasets[0].url", "https://ekap.kik.gov.tr/\u200b"),
    ("datasets[0].url", "https://ekap.kik.gov.tr/a b"), ("datasets[0].url", "https://[::1"),
])
def test_manifest_text_that_reads_otherwise_than_written_is_refused(tmp_path, column, value):
    """Names, citations and addresses are shown by /datasets and the dashboard as written: no bidi
    controls or invisible characters, and a dataset's address is an http(s) URL (no javascript:)."""
    def change(manifest):  # noqa: ANN001
        if column == "release":
            manifest["release"] = value
        else:
            manifest["datasets"][0][column.rpartition(".")[2]] = value

    problems = _manifest_problems(tmp_path, change)
    assert [(p.file, p.column) for p in problems] == [("manifest.json", column)], problems
