"""Hostile notice markup for `gosterge ekap import`: CPU seconds to read a result notice whose
heading is deeply nested bold (`<b><b><b>…`), the shape that made the heading scan quadratic
(700 KB took 110 s). The reading must grow in step with the size: doubling the markup should
roughly double the time, not quadruple it.

    .venv/bin/python benchmarks/ekap_hostile.py [--kb 700]   # the full run (docs/benchmarks.md)
    .venv/bin/python benchmarks/ekap_hostile.py --smoke      # CI: 100 KB, fails past a generous bound
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loaders.ekap.notice import parse_notice  # noqa: E402

NOTICE_TAIL = ("<table><tr><td>İhale kayıt numarası</td><td>:</td><td>2026/612345</td></tr>"
               "<tr><td>4- Sözleşmenin</td></tr><tr><td>b) Bedeli</td><td>:</td><td>1.000,00 TRY</td></tr></table>")
SMOKE_KB, SMOKE_BOUND_S = 100, 20.0  # far above the linear reading's time, far below the quadratic one's


def nested_bold(kb: int) -> str:
    depth = kb * 1024 // len("<b>x")
    return "<b>SONUÇ İLANI" + "<b>x" * depth + "</b>" * (depth + 1) + NOTICE_TAIL


def cpu_seconds(kb: int) -> float:
    html = nested_bold(kb)
    started = time.process_time()
    parse_notice(html, html=True)
    return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=700, help="size of the nested markup in KB")
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_KB} KB; fail past {SMOKE_BOUND_S} s")
    args = parser.parse_args()
    sizes = [SMOKE_KB] if args.smoke else [args.kb // 4, args.kb // 2, args.kb]
    for kb in sizes:
        seconds = cpu_seconds(kb)
        print(f"nested <b> heading, {kb:5} KB: {seconds:7.2f} s CPU")
    if args.smoke and seconds > SMOKE_BOUND_S:
        print(f"slower than {SMOKE_BOUND_S} s: the heading scan is no longer one pass", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
