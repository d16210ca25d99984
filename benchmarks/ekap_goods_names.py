"""How well the goods-name table (loaders/ekap/goods.py) places goods tenders, on saved EKAP records.

Every goods tender (mal alımı) of the records is listed with its name, the sector its OKAS codes
give (when it publishes any) and the sector its name's words give, ignoring the codes. Printed:
coverage (the share of goods tenders the words place) and, on those with OKAS codes, precision
(the share of the placed ones whose words give the codes' sector); and which sector the coded ones
fall in, the measure behind the goods fallback sector.

    .venv/bin/python benchmarks/ekap_goods_names.py [PATH ...]   # default: the shared and test fixtures
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loaders.ekap.files import list_files  # noqa: E402
from loaders.ekap.goods import goods_sector  # noqa: E402
from loaders.ekap.importer import read_inputs  # noqa: E402
from loaders.ekap.inputs import is_plainly_not_a_record  # noqa: E402
from loaders.ekap.mapping import okas_codes, sector_from_codes, tender_type  # noqa: E402
from loaders.ekap.report import Report  # noqa: E402
from loaders.ekap.tables import goods_name  # noqa: E402
from loaders.ekap.tenders import TenderPicture, build_picture, group_records  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [ROOT.parent / "shared" / "fixtures" / "ekap", ROOT / "tests" / "fixtures" / "ekap",
           ROOT / "tests" / "fixtures" / "ekap-markup"]


def kind(picture: TenderPicture) -> str | None:
    notice = picture.first_notice
    printed = picture.fields.get("type") or (notice.fields.get("tender_type") if notice else None) \
        or picture.announced.get("tender_type")
    return tender_type(printed, picture.fields.get("type_code"))


def goods_pictures(paths: list[Path]) -> list[TenderPicture]:
    files = [p for p in list_files(paths).files if not is_plainly_not_a_record(p)]
    report = Report()
    records = [r for result in read_inputs(files, workers=1) for r in result.records]
    pictures = [build_picture(group, report) for group in group_records(records, report)]
    return [p for p in pictures if kind(p) == "goods"]


def percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f} %)" if whole else "0/0"


def main() -> int:
    pictures = goods_pictures([Path(p) for p in sys.argv[1:]] or [p for p in DEFAULT if p.is_dir()])
    coded = placed = placed_coded = agree = 0
    by_code: Counter[int] = Counter()
    for picture in pictures:
        name = goods_name(picture)
        truth = sector_from_codes(okas_codes(picture.okas))
        words, found = goods_sector(name)
        coded += truth is not None
        placed += words is not None
        if truth is not None:
            by_code[truth] += 1
            placed_coded += words is not None
            agree += words is not None and words == truth
        print(f"{picture.ikn:14} okas {truth or '-':>3}  words {words or '-':>3} {found}  {name!r}")
    print(f"goods tenders: {len(pictures)}, with OKAS codes: {coded}")
    print(f"coverage (placed by words): {percent(placed, len(pictures))}; of those with OKAS codes: "
          f"{percent(placed_coded, coded)}")
    print(f"precision (words give the codes' sector, of the coded ones placed): {percent(agree, placed_coded)}")
    print("sectors of the coded ones:", ", ".join(f"{s}: {n}" for s, n in by_code.most_common()) or "none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
