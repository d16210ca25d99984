"""Time and peak memory of exporting a release as an OCDS release package (gzip), from its tables.

    .venv/bin/python benchmarks/ocds_export.py --scale national   # the full run
    .venv/bin/python benchmarks/ocds_export.py --release PATH/national.zip             # a release at hand
    .venv/bin/python benchmarks/ocds_export.py --smoke                                 # CI: tiny, checked

The release is generated in a process of its own and exported in another, so that the peak memory
printed is the export's alone: unzipping, reading the CSVs into DuckDB and grouping each tender's
lots (this process), and building the releases (its worker processes, one per core).
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loaders.ocds.export import export_package  # noqa: E402
from loaders.settings import load_settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="demo", choices=["tiny", "demo", "national"])
    parser.add_argument("--release", help="an existing release ZIP instead of generating one")
    parser.add_argument("--smoke", action="store_true", help="a tiny release, and check that the package reads back")
    args = parser.parse_args()
    if not args.release:
        # Generated in a process of its own and exported in another (this script again), so that the
        # peak memory figures are the export's alone.
        work = Path(tempfile.mkdtemp(prefix="gosterge-ocds-bench-"))
        scale = "tiny" if args.smoke else args.scale
        path = work / f"{scale}.zip"
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cli", "generate", "procurement", "--scale", scale, "--seed", "1",
                        "--out", str(path)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        print(f"generated {scale} release in {time.perf_counter() - started:.1f} s ({path.stat().st_size / 1e6:.0f} MB zipped)",
              flush=True)
        again = [sys.executable, __file__, "--release", str(path), *(["--smoke"] if args.smoke else [])]
        return subprocess.run(again).returncode
    path = Path(args.release)
    work = Path(tempfile.mkdtemp(prefix="gosterge-ocds-bench-"))
    out = work / "ocds.json.gz"
    started, cpu = time.perf_counter(), time.process_time()
    count = export_package(path, out, load_settings())
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"exported {count} releases: {out.stat().st_size / 1e6:.0f} MB gzip")
    print(f"export wall time {seconds:.1f} s; CPU {cpu:.1f} s in this process (DuckDB's threads included) and "
          f"{children.ru_utime + children.ru_stime:.1f} s in its worker processes; peak RSS {peak_mb:.0f} MB "
          "(a worker's own peak is not known: a forked child reports its parent's size at the fork)")
    if args.smoke:
        with gzip.open(out, "rt", encoding="utf-8") as handle:
            package = json.load(handle)
        assert len(package["releases"]) == count > 0, "the package does not hold one release per tender"
    return 0


if __name__ == "__main__":
    sys.exit(main())
