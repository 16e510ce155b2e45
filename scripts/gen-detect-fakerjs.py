#!/usr/bin/env python3
"""Generates crates/i18n/tests/corpus/fakerjs.txt: a sixth held-out sample
for crates/i18n/tests/detection.rs (issue 50), of person and place names
from a source the detector never used.

Why: the two person-and-place held-out columns (Faker's held-out part and
Mimesis) were measured after many changes, so they no longer judge
cleanly. This sample is made of the locale data of the npm package
@faker-js/faker 10.6.0 (MIT licence), a separate project from Python's
Faker with its own datasets: first and last names, and cities, streets,
states and counties. Every word that Python Faker 40.63.0 (any of its
providers) or Mimesis 22.2.0 (any of its datasets) has for the same
language is left out, compared exactly and case-folded, so no word of this
sample was ever measured before.

The data is read with node (the package is an ES module): it prints the
`person` and `location` definitions of the locales as JSON. Names are made
exactly as scripts/gen-detect-corpus.py makes them (its `name` and `make`),
with another seed. Deterministic.

Usage:

    npm pack @faker-js/faker@10.6.0 && tar -xzf faker-js-faker-10.6.0.tgz
    pip download --no-deps mimesis==22.2.0 faker==40.63.0
    python3 scripts/gen-detect-fakerjs.py package \\
        mimesis-22.2.0-py3-none-any.whl faker-40.63.0-py3-none-any.whl \\
        > crates/i18n/tests/corpus/fakerjs.txt
"""
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata
import zipfile

SEED = 1006
# A language with fewer new non-ASCII words than this is left out (Finnish:
# Python Faker and Mimesis hold every one of faker-js's words).
MIN_WORDS = 10

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


gen = load("gen", "gen-detect-corpus.py")
fresh = load("fresh", "gen-detect-fresh.py")

# The detector's languages that faker-js has locale data for (it has no
# Bulgarian, Lithuanian, Icelandic or Estonian).
LOCALES = {
    "ja": ["ja"], "zh": ["zh_CN"], "zt": ["zh_TW"], "ko": ["ko"], "ru": ["ru"],
    "uk": ["uk"], "el": ["el"], "ar": ["ar"], "fa": ["fa"], "he": ["he"],
    "th": ["th"], "tr": ["tr"], "vi": ["vi"], "pl": ["pl"], "cs": ["cs_CZ"],
    "sk": ["sk"], "hu": ["hu"], "sl": ["sl_SI"], "ro": ["ro", "ro_MD"],
    "de": ["de", "de_AT", "de_CH"],
    "fr": ["fr", "fr_BE", "fr_CA", "fr_CH", "fr_LU", "fr_SN"],
    "es": ["es", "es_MX"], "pt": ["pt_PT", "pt_BR"], "it": ["it"], "lv": ["lv"],
    "da": ["da"], "sv": ["sv"], "nb": ["nb_NO"], "fi": ["fi"], "nl": ["nl", "nl_BE"],
    "hr": ["hr"],
}
# The definitions taken: person names, and place names.
KEYS = [("person", "first_name"), ("person", "last_name"),
        ("location", "city_name"), ("location", "street_name"),
        ("location", "street_name_part"), ("location", "state"), ("location", "county")]

DUMP = """
const m = await import(process.argv[1] + '/dist/index.js');
const out = {};
for (const loc of process.argv.slice(2)) {
  const d = m.allLocales[loc];
  out[loc] = { person: d.person ?? {}, location: d.location ?? {} };
}
process.stdout.write(JSON.stringify(out));
"""


def strings(v, out):
    if isinstance(v, str):
        out.append(v)
    elif isinstance(v, list):
        for x in v:
            strings(x, out)
    elif isinstance(v, dict):
        for k in sorted(v):
            strings(v[k], out)


def words(lang, texts, known):
    seen = set()
    out = []
    unspaced = lang in gen.UNSPACED
    for s in texts:
        if not s.strip():
            continue
        s = unicodedata.normalize("NFC", s.strip())
        if unspaced:
            parts = re.split(r"[\s、。，．・「」『』（）()!?！？:：;；,.]+", s)
        else:
            parts = re.split(r"[\s,;()\"«»„“”:!?¿¡]+", s)
        for w in parts:
            w = w.strip(".-'’")
            if re.search(r"[{}%#@\\/*<>|\t]", w):
                continue
            if not w or len(w) > 14 or not any(c.isalpha() for c in w):
                continue
            if lang == "vi":
                w = gen.vi1258(w)
            if w in seen or w in known or w.casefold() in known:
                continue
            seen.add(w)
            out.append(w)
    return out


def main():
    pkg = os.path.abspath(sys.argv[1])
    locs = sorted({l for ls in LOCALES.values() for l in ls})
    data = json.loads(subprocess.run(
        ["node", "--input-type=module", "-e", DUMP, pkg, *locs],
        check=True, capture_output=True).stdout)
    with tempfile.TemporaryDirectory() as tmp:
        mim, fak = os.path.join(tmp, "mimesis"), os.path.join(tmp, "faker")
        zipfile.ZipFile(sys.argv[2]).extractall(mim)
        zipfile.ZipFile(sys.argv[3]).extractall(fak)
        sys.path.insert(0, fak)
        mimesis = {**fresh.FRESH, **fresh.ADDED}
        print("# A sixth held-out sample for crates/i18n/tests/detection.rs (issue 50).")
        print(f"# GENERATED by scripts/gen-detect-fakerjs.py (seed {SEED}) from the locale")
        print("# data of the npm package @faker-js/faker 10.6.0 (MIT licence, Copyright")
        print("# (c) 2022-2025 the faker-js contributors; faker.js (c) 2011-2020 Marak")
        print("# Squires): first and last names, cities, streets, states, counties;")
        print("# leaving out every word Python Faker 40.63.0 or Mimesis 22.2.0 has for")
        print("# the language. Format: <lang> TAB fakerjs TAB <kind> TAB <name>; kind")
        print("# n = ordinary, s = short (one word). Never for tuning.")
        for lang, ls in LOCALES.items():
            known = set(gen.words(lang))
            if lang in mimesis:
                known |= set(fresh.words(mim, lang, mimesis[lang], set()))
            known |= {w.casefold() for w in known}
            texts = []
            for loc in ls:
                for group, key in KEYS:
                    strings(data[loc][group].get(key), texts)
            pool = words(lang, texts, known)
            wide = sum(1 for w in pool if not w.isascii())
            print(f"{lang}: {len(pool)} words, {wide} non-ASCII", file=sys.stderr)
            if wide < MIN_WORDS:
                continue
            ordinary, short = gen.make(random.Random(f"{SEED}:{lang}"), lang, pool)
            for n in ordinary:
                print(f"{lang}\tfakerjs\tn\t{n}")
            for n in short:
                print(f"{lang}\tfakerjs\ts\t{n}")


if __name__ == "__main__":
    main()
