#!/usr/bin/env python3
"""Thai words from PyThaiNLP 5.4.0's CC0 word lists (issue 50, thirteenth
pass): a training part for the Thai lines of charfreq.txt
(scripts/gen-charfreq.py --thai=WHEEL) and a validation sample,
crates/i18n/tests/corpus/thval.txt, for examples/thai_names.rs.

Usage:

    pip download --no-deps pythainlp==5.4.0
    python3 scripts/gen-detect-thai.py pythainlp-5.4.0-py3-none-any.whl \
        > crates/i18n/tests/corpus/thval.txt

Only files that pythainlp/corpus/corpus_license.md releases under CC0 1.0
are read (LICENSES/CC0-PyThaiNLP.txt): words_th.txt (a list of Thai
words), tnc_freq.txt and ttc_freq.txt (words of the Thai National Corpus
and the Thai Textbook Corpus with their frequencies; a word seen MIN_FREQ
times or more counts once, its frequency is not used otherwise), thailand_provinces_th.csv (the names of
the 77 provinces) and countries_th.txt. The person-name lists of the wheel
(person_names_*_th.txt, family_names_th.txt: the Thai Male and Female
Names Corpus) are CC-BY-SA 4.0 and are never read, nor are the other
CC-BY-SA lists (wikipedia_titles_th.txt, volubilis_words_th.txt) or the
files the licence file does not name.

Every word (NFC, stripped; Thai letters only, U+0E01..U+0E5B, 2 to 24 of
them) goes to one part by the first byte of SHA-256 of its UTF-8 bytes:
below 128 training, 128..191 validation, 192 and above kept out (read
nowhere, never looked at). Training words that are a Thai run of a name of
the test corpus's validation or held-out parts (tests/corpus/generated.txt
parts val and held, tests/corpus/fakerjs.txt) are dropped without being
printed. The validation sample is SAMPLE words of words_th.txt's
validation part and every province and country of it, so no held-out word enters the table through this source; nor
the validation sample, which is tuned on.

THAI_TRAIN_FILES (a comma-separated subset of FILES) limits the training
words to those files: a tuning aid of issue 50's fourteenth pass (the
frequency lists alone were tried and not taken); unset, all of FILES.
"""
import hashlib
import os
import random
import sys
import unicodedata
import zipfile

FILES = ["words_th.txt", "tnc_freq.txt", "ttc_freq.txt", "thailand_provinces_th.csv", "countries_th.txt"]
TRAIN_BELOW = 128
VAL_BELOW = 192
# Validation names: this many words of the dictionary lists, chosen by
# SEED, plus every province and country of the validation part.
SAMPLE = 1500
SEED = 5400
# A word of the frequency lists is read when seen this often or more (the
# rarest are mostly typos and fragments: ยยยยยย, อก่น).
MIN_FREQ = 3


def thai_word(w):
    return 2 <= len(w) <= 24 and all("\u0e01" <= c <= "\u0e5b" for c in w)


def part(w):
    b = hashlib.sha256(w.encode("utf-8")).digest()[0]
    return "train" if b < TRAIN_BELOW else "val" if b < VAL_BELOW else "out"


def read_words(wheel):
    """(file, word) for every Thai word of FILES, in file order."""
    with zipfile.ZipFile(wheel) as z:
        for name in FILES:
            text = z.read(f"pythainlp/corpus/{name}").decode("utf-8")
            for line in text.splitlines():
                if name.endswith(".csv"):
                    field = line.split(",")[0]
                elif name.endswith("_freq.txt"):
                    field, _, freq = line.partition("\t")
                    if not freq.strip().isdigit() or int(freq) < MIN_FREQ:
                        continue
                else:
                    field = line
                w = unicodedata.normalize("NFC", field.strip())
                if thai_word(w):
                    yield name, w


def held_runs():
    """Thai runs of the names of the validation and held-out parts of the
    test corpus (never printed)."""
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = os.path.join(here, "..", "crates", "i18n", "tests", "corpus")
    runs = set()
    for fname, parts in [("generated.txt", {"val", "held"}), ("fakerjs.txt", None)]:
        with open(os.path.join(corpus, fname), encoding="utf-8") as fh:
            for line in fh:
                f = line.rstrip("\n").split("\t")
                if len(f) < 4 or f[0] != "th" or (parts is not None and f[1] not in parts):
                    continue
                run = ""
                for c in f[3] + " ":
                    if "\u0e01" <= c <= "\u0e5b":
                        run += c
                    else:
                        if run:
                            runs.add(run)
                        run = ""
    return runs


def train_words(wheel):
    """The training part's distinct words, sorted (for gen-charfreq.py)."""
    skip = held_runs()
    files = os.environ.get("THAI_TRAIN_FILES")
    files = set(files.split(",")) if files else set(FILES)
    return sorted({w for f, w in read_words(wheel) if f in files and part(w) == "train" and w not in skip})


def main():
    wheel = sys.argv[1]
    skip = held_runs()
    dictionary = set()
    places = set()
    for name, w in read_words(wheel):
        if part(w) != "val" or w in skip:
            continue
        if name in ("thailand_provinces_th.csv", "countries_th.txt"):
            places.add(w)
        elif name == "words_th.txt":
            dictionary.add(w)
    rng = random.Random(SEED)
    chosen = rng.sample(sorted(dictionary - places), SAMPLE)
    print("# Thai validation names for crates/i18n/examples/thai_names.rs. GENERATED by")
    print("# scripts/gen-detect-thai.py (seed 5400) from PyThaiNLP 5.4.0's CC0 word lists")
    print("# (words_th.txt, tnc_freq.txt, ttc_freq.txt, thailand_provinces_th.csv,")
    print("# countries_th.txt; LICENSES/CC0-PyThaiNLP.txt): the SHA-256 validation")
    print("# quarter, never in a table. Format: th <kind> <word>; kind w (a word of")
    print("# words_th.txt) or p (a province or country).")
    for w in chosen:
        print(f"th w {w}")
    for w in sorted(places):
        print(f"th p {w}")


if __name__ == "__main__":
    main()
