"""Time and peak memory of exporting a release as an OCDS release package (gzip), from its tables.

    flock /work/heavy.lock .venv/bin/python benchmarks/ocds_export.py --scale national   # the full run
    .venv/bin/python benchmarks/ocds_export.py --release PATH/national.zip             # a release at hand
    .venv/bin/python benchmarks/ocds_export.py --smoke                                 # CI: tiny, checked

The release is generated in a process of its own, so that the peak memory printed (`ru_maxrss` of
this process) is the export's alone: unzipping, reading the CSVs into DuckDB, grouping each tender's
lots and writing the package.
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
    work = Path(tempfile.mkdtemp(prefix="gosterge-ocds-bench-"))
    scale = "tiny" if args.smoke else args.scale
    path = Path(args.release) if args.release else work / f"{scale}.zip"
    if not args.release:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cli", "generate", "procurement", "--scale", scale, "--seed", "1",
                        "--out", str(path)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        print(f"generated {scale} release in {time.perf_counter() - started:.1f} s ({path.stat().st_size / 1e6:.0f} MB zipped)")
    out = work / "ocds.json.gz"
    started, cpu = time.perf_counter(), time.process_time()
    count = export_package(path, out, load_settings())
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"exported {count} releases: {out.stat().st_size / 1e6:.0f} MB gzip")
    print(f"export wall time {seconds:.1f} s ({cpu:.1f} s CPU in this process), peak RSS {peak_mb:.0f} MB")
    if args.smoke:
        with gzip.open(out, "rt", encoding="utf-8") as handle:
            package = json.load(handle)
        assert len(package["releases"]) == count > 0, "the package does not hold one release per tender"
    return 0


if __name__ == "__main__":
    sys.exit(main())
