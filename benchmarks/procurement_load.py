"""Time and peak memory of loading a procurement release end to end (validate + compute + store).

    .venv/bin/python benchmarks/procurement_load.py --scale national      # the full benchmark
    .venv/bin/python benchmarks/procurement_load.py --scale tiny          # the CI smoke version
"""

from __future__ import annotations

import argparse
import logging
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loaders.procurement.generate import generate_release  # noqa: E402
from loaders.procurement.load import load_release  # noqa: E402
from loaders.settings import load_settings  # noqa: E402
from store.db import create_store_engine, make_session_factory  # noqa: E402
from store.schema import upgrade  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="demo", choices=["tiny", "demo", "national"])
    parser.add_argument("--release", help="an existing release ZIP instead of generating one")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")  # the load's stages, timed
    work = Path(tempfile.mkdtemp(prefix="gosterge-bench-"))
    path = Path(args.release) if args.release else None
    if path is None:
        started = time.perf_counter()
        path = generate_release(args.scale, seed=1, out=work / f"{args.scale}.zip",
                                published=datetime(2026, 11, 20, 6, tzinfo=UTC))
        print(f"generated {args.scale} release in {time.perf_counter() - started:.1f} s "
              f"({path.stat().st_size / 1e6:.0f} MB zipped)")
    engine = create_store_engine(args.database_url or f"sqlite:///{work / 'bench.db'}")
    upgrade(engine)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    # The release's download files go beside the benchmark's store, not into the project's var/.
    settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(work / "release-files")})
    result = load_release(path, make_session_factory(engine), settings=settings)
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"loaded {result.name}: rows {result.rows}, {result.items} served items")
    print(f"load wall time {seconds:.1f} s, peak RSS {peak_mb:.0f} MB (before load {before / 1024:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
