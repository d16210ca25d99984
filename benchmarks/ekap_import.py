"""Time and peak memory of `gosterge ekap import` on a national year of EKAP records.

A generator writes about 140,000 tenders as EKAP hands them out: most as one saved tender detail
per file (announcements with the result notices as HTML in EKAP's layout), some in bundles with
Markdown notices, some as bare Markdown notices; multi-lot tenders, cancelled tenders, corrections,
spelling variants of firms, foreign contractors. Then the import runs on every core and the
release it writes is loaded, to show the output is a valid release.

    .venv/bin/python benchmarks/ekap_import.py                 # the full benchmark (140,000 tenders)
    .venv/bin/python benchmarks/ekap_import.py --smoke         # the CI smoke version (2,000 tenders)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loaders.ekap.importer import import_ekap  # noqa: E402
from loaders.ekap.places import ekap_province_ids  # noqa: E402
from loaders.procurement.load import load_release  # noqa: E402
from store.db import create_store_engine, make_session_factory  # noqa: E402
from store.reference.lists import provinces, sectors  # noqa: E402
from store.schema import upgrade  # noqa: E402

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
KINDS = [("Mal alımı", "1", "Mal", 0.42), ("Hizmet alımı", "3", "Hizmet", 0.33), ("Yapım işi", "2", "Yapım", 0.22),
         ("Danışmanlık hizmet alımı", "4", "Danışmanlık", 0.03)]
PROCEDURES = [("Açık", 0.72), ("Pazarlık (MD 21 B)", 0.06), ("Pazarlık (MD 21 F)", 0.07), ("Pazarlık (MD 21 A)", 0.03),
              ("Belli İstekliler Arasında", 0.01), ("4734 / 3-g", 0.08), ("4734 / 3-e", 0.02), ("4734 / 3-b", 0.01)]
UNITS = [("{p} İL MİLLİ EĞİTİM MÜDÜRLÜĞÜ {d} İLÇE MİLLİ EĞİTİM MÜDÜRLÜĞÜ", "MİLLİ EĞİTİM BAKANLIĞI"),
         ("{d} BELEDİYESİ FEN İŞLERİ MÜDÜRLÜĞÜ", "BELEDİYELER"), ("{p} İL SAĞLIK MÜDÜRLÜĞÜ", "SAĞLIK BAKANLIĞI"),
         ("{p} DEVLET HASTANESİ", "SAĞLIK BAKANLIĞI"), ("{p} ÜNİVERSİTESİ REKTÖRLÜĞÜ", "YÜKSEKÖĞRETİM KURUMLARI"),
         ("{p} İL ÖZEL İDARESİ", "İL ÖZEL İDARELERİ"), ("{p} VALİLİĞİ", "İÇİŞLERİ BAKANLIĞI"),
         ("{d} İLÇE JANDARMA KOMUTANLIĞI", "İÇİŞLERİ BAKANLIĞI"), ("{p} ORMAN BÖLGE MÜDÜRLÜĞÜ", "TARIM VE ORMAN BAKANLIĞI")]
WORDS = ["YILDIZ", "KARADENİZ", "ANADOLU", "ÖZGÜR", "GÜNEŞ", "DOĞAN", "ŞAHİN", "ÇELİK", "AKSOY", "ERDEM", "KAYA",
         "ÖZTÜRK", "ARSLAN", "KOÇ", "IŞIK", "AYDIN", "POLAT", "TÜRKMEN", "ASLAN", "KILIÇ", "BULUT", "ERGÜN"]
TRADES = ["İNŞAAT", "GIDA", "TEMİZLİK", "MEDİKAL", "BİLİŞİM", "TEKSTİL", "PETROL", "ELEKTRİK", "TURİZM", "MADENCİLİK"]
FORMS = [("SANAYİ VE TİCARET LİMİTED ŞİRKETİ", "SAN. VE TİC. LTD. ŞTİ."), ("TİCARET ANONİM ŞİRKETİ", "TİC. A.Ş.")]


def pick(rng: random.Random, weighted: list[tuple]) -> tuple:
    return rng.choices(weighted, weights=[w[-1] for w in weighted])[0]


def amount(value: float) -> str:
    whole, cents = f"{value:.2f}".split(".")
    return f"{int(whole):,}".replace(",", ".") + f",{cents} TRY"


def world(rng: random.Random, n_authorities: int, n_firms: int) -> tuple[list[dict], list[dict]]:
    names = {p.plate: p.name.upper().replace("i", "İ") for p in provinces().values()}
    ekap_id = {plate: i for i, plate in ekap_province_ids().items()}
    authorities = []
    for i in range(n_authorities):
        plate = rng.choice(list(names))
        template, top = rng.choice(UNITS)
        district = f"{rng.choice(WORDS)}{rng.choice(['KÖY', 'LI', 'TEPE', 'PINAR'])}"
        authorities.append({"id": 10000 + i, "adi": template.format(p=names[plate], d=district), "enUstIdareAdi": top,
                            "il": {"adi": names[plate]} if i % 5 else {"id": ekap_id[plate]}, "plate": plate,
                            "district": district})
    firms = []
    for i in range(n_firms):
        form = rng.choice(FORMS)
        stem = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.choice(TRADES)} {i}"
        abroad = rng.random() < 0.01
        firms.append({"name": f"{stem} {form[0]}", "short": f"{stem} {form[1]}", "abroad": abroad,
                      "address": ("HAUPTSTRASSE 1 KÖLN/ALMANYA" if abroad else
                                  f"{rng.choice(WORDS)} MAH. NO: {i % 90} {rng.choice(WORDS)}/{names[rng.choice(list(names))]}")})
    return authorities, firms


def notice_rows(t: dict, lot: dict) -> list:
    multi = [("e", "Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti", amount(t["estimate"]))] if len(t["lots"]) > 1 else []
    return ["1- İhalenin", ("a", "Tarihi", t["date"].strftime("%d.%m.%Y")), ("b", "Türü", t["kind"][0]),
            ("c", "Usulü", t["procedure"]), ("d", "Yaklaşık Maliyeti", amount(t["estimate"])), *multi,
            "2- İhale konusu işin", ("a", "Adı", t["name"]), "3- Teklifler", ("a", "Toplam Teklif Sayısı", str(lot["bids"] + 1)),
            ("b", "Toplam Geçerli Teklif Sayısı", str(lot["bids"])), "4- Sözleşmenin",
            ("a", "Tarihi", (t["date"] + timedelta(days=20)).strftime("%d.%m.%Y")), ("b", "Bedeli", amount(lot["value"])),
            ("c", "Süresi", ""), ("d", "Yüklenici", lot["firm_name"]),
            ("e", "Yüklenicinin uyruğu", "Almanya" if lot["firm"]["abroad"] else "Türkiye"),
            ("f", "Yüklenicinin adresi", lot["firm"]["address"])]


def html_notice(t: dict, lot: dict) -> str:
    cells = [f"<tr><td><b>İhale kayıt numarası</b></td><td><b>:</b></td><td><b>{t['ikn']}</b></td></tr>"]
    for row in notice_rows(t, lot):
        cells.append(f"<tr><td><b>{row}</b></td><td></td><td></td></tr>" if isinstance(row, str) else
                     f"<tr><td><b>{row[0]})</b> {row[1]}</td><td>:</td><td>{row[2]}</td></tr>")
    return (f"<div><p><b>SONUÇ İLANI</b><b>{t['name']}</b><b>{t['authority']['adi']}</b></p><table>"
            + "".join(cells) + "</table><p>Kamuoyuna saygıyla duyurulur.</p></div>")


def markdown_notice(t: dict, lot: dict) -> str:
    lines = [f"**SONUÇ İLANI****{t['name']}****{t['authority']['adi']}**", "", "|  |  |  |", "| --- | --- | --- |",
             f"| **İhale kayıt numarası** | **:** | **{t['ikn']}** |"]
    for row in notice_rows(t, lot):
        lines.append(f"| **{row}** | | |" if isinstance(row, str) else f"| **{row[0]})** {row[1]} | : | {row[2]} |")
    return "\n".join([*lines, "", "Kamuoyuna saygıyla duyurulur."])


def tender(rng: random.Random, i: int, authorities: list[dict], firms: list[dict]) -> dict:
    kind = pick(rng, KINDS)
    divisions = [d for s in sectors().values() for d in s.extra.split(";")]
    division = "45" if kind[1] == "2" else rng.choice(divisions)
    estimate = round(rng.lognormvariate(13.5, 1.3), 2)
    n_lots = 1 if rng.random() < 0.85 else rng.randint(2, 5)
    lots = []
    for _ in range(n_lots):
        firm = rng.choice(firms)
        lots.append({"firm": firm, "firm_name": firm["short"] if rng.random() < 0.2 else firm["name"],
                     "bids": rng.choice([1, 1, 2, 3, 4, 6]), "value": round(estimate / n_lots * rng.uniform(0.6, 1.05), 2)})
    return {"ikn": f"2025/{100000 + i}", "name": f"İHTİYAÇ ALIMI {i}", "kind": kind, "authority": rng.choice(authorities),
            "procedure": pick(rng, PROCEDURES)[0], "date": date(2025, 1, 2) + timedelta(days=rng.randrange(360)),
            "estimate": estimate, "okas": f"{division}{rng.randrange(100000, 999999)}", "lots": lots,
            "cancelled": rng.random() < 0.08, "corrected": rng.random() < 0.01}


def detail(t: dict) -> dict:
    a = t["authority"]
    notices = [] if t["cancelled"] else [
        {"id": k, "ilanTip": "4", "ilanTarihi": f"{t['date'] + timedelta(days=25)}T00:00:00", "veriHtml": html_notice(t, lot)}
        for k, lot in enumerate(t["lots"])]
    if t["corrected"] and notices:
        fixed = {**t["lots"][0], "value": round(t["lots"][0]["value"] * 0.99, 2)}
        notices.append({"id": 99, "ilanTip": "6", "veriHtml": html_notice(t, fixed)})
    return {"item": {"ikn": t["ikn"], "ihaleAdi": t["name"], "kismiIhale": len(t["lots"]) > 1,
                     "ihaleBilgi": {"ihaleTarihSaat": f"{t['date']}T10:00:00", "ihaleTipiAciklama": t["kind"][2],
                                    "ihaleUsulAciklama": t["procedure"],
                                    "ihaleDurumAciklama": "İptal Edilmiş" if t["cancelled"] else "Sonuç İlanı Yayımlanmış"},
                     "ihtiyacKalemiOkasList": [{"kodu": t["okas"]}],
                     "idare": {k: a[k] for k in ("id", "adi", "enUstIdareAdi", "il")},
                     "ilanList": [{"id": 0, "ilanTip": "2", "veriHtml": "<p>İHALE İLANI</p>"}, *notices]}}


def generate(root: Path, n_tenders: int, *, seed: int = 1) -> dict[str, int]:
    """Write the records; 80% as one detail per file, 12% in bundles of 200, 8% as bare notices."""
    rng = random.Random(seed)
    authorities, firms = world(rng, max(200, n_tenders // 7), max(500, n_tenders // 2))
    counts = {"details": 0, "bundles": 0, "notices": 0}
    bundle: list[dict] = []
    for i in range(n_tenders):
        t = tender(rng, i, authorities, firms)
        share = rng.random()
        if share < 0.80 or t["cancelled"]:
            folder = root / "details" / str(t["authority"]["plate"])
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{t['ikn'].replace('/', '-')}.json").write_text(json.dumps(detail(t), ensure_ascii=False), "utf-8")
            counts["details"] += 1
        elif share < 0.92:
            a = t["authority"]
            bundle.append({"tender": {"ikn": t["ikn"], "name": t["name"], "authority": a["adi"],
                                      "province": a["il"].get("adi") or provinces()[a["plate"]].name,
                                      "type": {"code": t["kind"][1]}, "method": t["procedure"],
                                      "tender_datetime": f"{t['date']}T10:00:00"},
                           "announcements": [{"type": {"code": "4"}, "markdown_content": markdown_notice(t, lot)}
                                             for lot in t["lots"]]})
            if len(bundle) == 200:
                counts["bundles"] += 1
                (root / f"bundle-{counts['bundles']:04d}.json").write_text(json.dumps(bundle, ensure_ascii=False), "utf-8")
                bundle = []
        else:
            (root / "notices").mkdir(exist_ok=True)
            for k, lot in enumerate(t["lots"]):
                (root / "notices" / f"{t['ikn'].replace('/', '-')}_{k}.md").write_text(markdown_notice(t, lot), "utf-8")
            counts["notices"] += 1
    if bundle:
        counts["bundles"] += 1
        (root / f"bundle-{counts['bundles']:04d}.json").write_text(json.dumps(bundle, ensure_ascii=False), "utf-8")
    return counts


def _cpu_seconds() -> tuple[float, float]:
    """CPU time (user + system) of this process and of its finished worker processes: on a shared
    machine the wall time says how busy the machine was as much as how much work was done."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tenders", type=int, default=140_000)
    parser.add_argument("--smoke", action="store_true", help="2,000 tenders, for CI")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--keep", action="store_true", help="keep the generated records and the release")
    args = parser.parse_args()
    n = 2_000 if args.smoke else args.tenders
    work = Path(tempfile.mkdtemp(prefix="gosterge-ekap-bench-"))
    try:
        started = time.perf_counter()
        counts = generate(work / "records", n)
        files = sum(1 for _ in (work / "records").rglob("*") if _.is_file())
        print(f"generated {n} tenders in {time.perf_counter() - started:.1f} s: {counts}, {files} files")
        started, cpu = time.perf_counter(), _cpu_seconds()
        result = import_ekap([work / "records"], work / "ekap.zip", release="2026-W47", now=NOW, workers=args.workers)
        seconds, cpu = time.perf_counter() - started, [b - a for a, b in zip(cpu, _cpu_seconds(), strict=True)]
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print("\n".join(result.report.lines()))
        print(f"import wall time {seconds:.1f} s on {args.workers} worker(s); CPU time: importer {cpu[0]:.1f} s, "
              f"workers {cpu[1]:.1f} s; peak RSS: importer {own:.0f} MB, largest worker {workers:.0f} MB; "
              f"release {result.out.stat().st_size / 1e6:.1f} MB")
        engine = create_store_engine(f"sqlite:///{work / 'bench.db'}")
        upgrade(engine)
        loaded = load_release(result.out, make_session_factory(engine))
        print(f"loaded the imported release: rows {loaded.rows}, {loaded.items} items in {loaded.seconds:.1f} s")
        print(f"load average (1, 5, 15 min): {os.getloadavg()}")
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
