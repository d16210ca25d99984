"""Authority-type shares on a list of EKAP authority names (one a line, `#` for comments): how
many names each rule of loaders/ekap/authority_types.py gives each type, and which names none of
them places (`other`). The names are classified alone, as a search record gives them (idareAdi,
no parent authority).

    .venv/bin/python benchmarks/ekap_authority_types.py [NAMES.txt ...]   # default: the test list
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loaders.ekap.authority_types import classify_authority  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "ekap-markup" / "authority-names.txt"


def read_names(paths: list[Path]) -> list[str]:
    return [line.strip() for path in paths for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def main() -> int:
    names = read_names([Path(p) for p in sys.argv[1:]] or [DEFAULT])
    kinds = {name: classify_authority(name)[0] for name in names}
    counts = Counter(kinds.values())
    print(f"{len(names)} names")
    for kind, n in counts.most_common():
        print(f"  {kind:36} {n:4}  {100 * n / len(names):5.1f} %")
    print("other:", *sorted(n for n, k in kinds.items() if k == "other"), sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
