"""Rebuild voice_agent/defaults/names/*.txt.gz from the names-dataset package (Apache-2.0).

    pip install names-dataset==3.3.1
    python scripts/build_name_lists.py [--rank 500]

names-dataset ranks first names and surnames per country (105 countries). Loading it takes seconds and
gigabytes, far too much for a voice assistant's start-up, so the scrubber ships only the names ranked
within ``--rank`` in at least one country, one name per line (about 30k of each). Chinese-script names
are left out (the Chinese finder segments running text instead).
"""

from __future__ import annotations

import argparse
import gzip
import pickle
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "voice_agent" / "defaults" / "names"


def _names(path: Path, rank: int) -> list[str]:
    with gzip.open(path) as handle:
        table = pickle.load(handle)
    keep = []
    for name, info in table.items():
        ranks = info.get("rank") or {}
        if not ranks or min(ranks.values()) > rank:
            continue
        if len(name) < 2 or " " in name or not name.replace("-", "").replace("'", "").isalpha():
            continue
        if any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in name):
            continue
        keep.append(name)
    return sorted(keep)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rank", type=int, default=500, help="keep names ranked this high in some country")
    parser.add_argument(
        "--source", type=Path, help="the names_dataset/v3 folder (default: the installed one)"
    )
    args = parser.parse_args()
    source = args.source
    if source is None:
        import names_dataset

        source = Path(names_dataset.__file__).parent / "v3"
    OUT.mkdir(parents=True, exist_ok=True)
    for stem, out in (("first_names", "first.txt.gz"), ("last_names", "last.txt.gz")):
        names = _names(source / f"{stem}.pkl.gz", args.rank)
        data = ("\n".join(names) + "\n").encode("utf-8")
        (OUT / out).write_bytes(gzip.compress(data, mtime=0))  # byte-identical on every rebuild
        print(f"{out}: {len(names)} names")


if __name__ == "__main__":
    main()
