#!/usr/bin/env python3
"""Generates crates/i18n/tests/corpus/generated.txt, the labelled file
names on which crates/i18n/tests/detection.rs measures charset detection.

Source of the words: the locale data of the Faker package (PyPI `faker`,
version 40.63.0, MIT licence): person, place, street, company, job,
colour and lorem word lists of 35 languages. This is not the text the
detector's tables come from (those are derived from Unicode CLDR, see
scripts/gen-charfreq.py), so the measurement is on text the model never saw.

Every distinct word goes to the development part (dev: the words the
model's tables are made from), the validation part (val: unseen by the
tables, for tuning) or the held-out part (held: never used for tuning) by a
hash of the word (sha256, fixed), so the parts share no word; names
are made from the words of one part only, with real-looking decorations
(extensions, dates, numbers, spaces, copies "(2)"). Deterministic: the same
wheel and SEED give the same file.

Usage:

    pip download --no-deps faker==40.63.0
    python3 scripts/gen-detect-corpus.py faker-40.63.0-py3-none-any.whl \
        > crates/i18n/tests/corpus/generated.txt
"""
import hashlib
import importlib
import pkgutil
import random
import re
import sys
import unicodedata
import zipfile
import tempfile

SEED = 2640
PER_LANG = 48      # ordinary names per language and part
SHORT_PER_LANG = 16  # short names (one word, up to 3 names a directory)

LOCALES = {
    "ja": ["ja_JP"], "zh": ["zh_CN"], "zt": ["zh_TW"], "ko": ["ko_KR"],
    "ru": ["ru_RU"], "uk": ["uk_UA"], "bg": ["bg_BG"], "el": ["el_GR"],
    "ar": ["ar_AA", "ar_SA", "ar_EG", "ar_PS", "ar_DZ", "ar_JO", "ar_AE", "ar_BH"],
    "fa": ["fa_IR"], "he": ["he_IL"], "th": ["th_TH", "th"], "tr": ["tr_TR"],
    "vi": ["vi_VN"], "pl": ["pl_PL"], "cs": ["cs_CZ"], "sk": ["sk_SK"],
    "hu": ["hu_HU"], "sl": ["sl_SI"], "ro": ["ro_RO"],
    "de": ["de_DE", "de_AT", "de_CH", "de"], "fr": ["fr_FR", "fr_CH", "fr_CA"],
    "es": ["es_ES", "es", "es_MX"], "pt": ["pt_PT", "pt_BR"], "it": ["it_IT"],
    "lt": ["lt_LT"], "lv": ["lv_LV"],
    # Added in round 3 (the second held-out sample showed that names in
    # languages without Faker words in the tables were read far worse):
    "da": ["da_DK"], "sv": ["sv_SE"], "nb": ["no_NO"], "fi": ["fi_FI"],
    "nl": ["nl_NL", "nl_BE"], "is": ["is_IS"], "et": ["et_EE"], "hr": ["hr_HR"],
}
UNSPACED = {"ja", "zh", "zt", "th"}
EXTS = ["txt", "pdf", "doc", "docx", "xls", "xlsx", "jpg", "png", "zip", "mp3",
        "mp4", "csv", "ppt", "odt", "rar", "7z", "html", "json", "wav", "tif"]


def harvest(loc):
    import faker.providers as P
    out = []
    for prov in pkgutil.iter_modules(P.__path__):
        try:
            m = importlib.import_module(f"faker.providers.{prov.name}.{loc}")
        except Exception:
            continue

        def walk(v):
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, (list, tuple, set, frozenset)):
                for x in sorted(v, key=str) if isinstance(v, (set, frozenset)) else v:
                    walk(x)
            elif isinstance(v, dict):
                for k, x in v.items():
                    walk(k)
                    walk(x)

        for k, v in vars(m.Provider).items():
            if not k.startswith("_") and isinstance(v, (list, tuple, dict, set, frozenset)):
                walk(v)
    return out


def vi1258(word):
    """The form windows-1258 holds: NFD, with the base letter recomposed
    with its first mark when that is one precomposed character of cp1258."""
    out = []
    for ch in unicodedata.normalize("NFC", word):
        try:
            ch.encode("cp1258")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        d = unicodedata.normalize("NFD", ch)
        head = unicodedata.normalize("NFC", d[:2])
        try:
            head.encode("cp1258")
            out.append(head + d[2:])
        except UnicodeEncodeError:
            out.append(d)
    return "".join(out)


def words(lang):
    seen = set()
    out = []
    for loc in LOCALES[lang]:
        for s in harvest(loc):
            if re.search(r"[{}%#@\\/:*?\"<>|\n\t]", s) or not s.strip():
                continue
            s = unicodedata.normalize("NFC", s.strip())
            parts = [s] if lang in UNSPACED else re.split(r"[\s,;()]+", s)
            for w in parts:
                w = w.strip(".-'’")
                if not w or len(w) > 14 or not any(c.isalpha() for c in w):
                    continue
                if lang in UNSPACED and " " in w:
                    continue
                if lang == "vi":
                    w = vi1258(w)
                if w not in seen:
                    seen.add(w)
                    out.append(w)
    return out


def part(lang, w):
    """held (half the words), else val (a third of the rest), else dev.

    Only dev words go into the model's tables (scripts/gen-charfreq.py):
    val words are as unseen as held ones, so the validation part measures
    generalization while tuning, and the held-out part stays untouched."""
    d = hashlib.sha256(f"{lang}:{w}".encode()).digest()
    if d[0] & 1:
        return "held"
    return "val" if d[1] % 3 == 0 else "dev"


def date(rng):
    y, m, d = rng.randint(1998, 2026), rng.randint(1, 12), rng.randint(1, 28)
    return rng.choice([f"{y}-{m:02}-{d:02}", f"{y}{m:02}{d:02}", f"{d:02}.{m:02}.{y}", f"{y}"])


def name(rng, lang, pool):
    w = lambda: rng.choice(pool)
    sep = "" if lang in UNSPACED else " "
    ext = rng.choice(EXTS)
    t = rng.randrange(12)
    if t == 0:
        return w()
    if t == 1:
        return w() + sep + w()
    if t == 2:
        return f"{w()}{sep}{w()}.{ext}"
    if t == 3:
        return f"{w()}_{date(rng)}.{ext}"
    if t == 4:
        return f"{date(rng)} {w()}{sep}{w()}"
    if t == 5:
        return f"{w()} ({rng.randint(1, 9)}).{ext}"
    if t == 6:
        return f"{w()}-{w()}-{rng.randint(1, 999)}.{ext}"
    if t == 7:
        return w() + sep + w() + sep + w()
    if t == 8:
        return f"IMG_{rng.randint(1000, 9999)} {w()}.jpg"
    if t == 9:
        return f"{rng.randint(1, 30):02}. {w()}.{ext}"
    if t == 10:
        return f"{w()}.{ext}"
    return f"{w()}{sep}{rng.randint(1, 2026)}"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        zipfile.ZipFile(sys.argv[1]).extractall(tmp)
        sys.path.insert(0, tmp)
        print("# Labelled file names for crates/i18n/tests/detection.rs. GENERATED by")
        print(f"# scripts/gen-detect-corpus.py (seed {SEED}) from the word lists of the")
        print("# Faker package 40.63.0 (MIT licence, Copyright (c) 2012 Daniele Faraglia")
        print("# and contributors). Format: <lang> TAB <part> TAB <kind> TAB <name>;")
        print("# part dev (its words are in the model's tables), val (validation: words")
        print("# the tables never saw; for tuning) or held (held-out: never for tuning);")
        print("# kind n = ordinary, s = short (one word). No word is in two parts.")
        for lang in LOCALES:
            ws = words(lang)
            pool = lambda ps: [w for w in ws if part(lang, w) in ps]
            # The held-out names are made exactly as before the validation
            # part existed (one generator, after the names of the old
            # development part, which are made and dropped): the held-out
            # part did not change when the development part was split.
            rng = random.Random(f"{SEED}:{lang}")
            make(rng, lang, pool({"dev", "val"}))
            held = make(rng, lang, pool({"held"}))
            dev = make(random.Random(f"{SEED}:{lang}:dev"), lang, pool({"dev"}))
            val = make(random.Random(f"{SEED}:{lang}:val"), lang, pool({"val"}))
            for p, (ordinary, short) in [("dev", dev), ("val", val), ("held", held)]:
                for n in ordinary:
                    print(f"{lang}\t{p}\tn\t{n}")
                for n in short:
                    print(f"{lang}\t{p}\ts\t{n}")


def make(rng, lang, pool, per=None, short_per=None):
    """`per` ordinary names and `short_per` short ones of one part (by
    default PER_LANG and SHORT_PER_LANG)."""
    per = PER_LANG if per is None else per
    short_per = SHORT_PER_LANG if short_per is None else short_per
    out = set()
    ordinary = []
    tries = 0
    while len(ordinary) < per and tries < 10000:
        tries += 1
        n = name(rng, lang, pool)
        if len(n) > 80 or n.isascii() or n in out:
            continue
        if lang not in UNSPACED and rng.random() < 0.3:
            n = n[:1].upper() + n[1:]
        out.add(n)
        ordinary.append(n)
    short = []
    shorts = [w for w in pool if len(w) <= (3 if lang in {"ja", "zh", "zt", "ko"} else 7) and not w.isascii()]
    rng.shuffle(shorts)
    for w in shorts:
        if len(short) >= short_per:
            break
        if w not in out:
            out.add(w)
            short.append(w)
    return ordinary, short

if __name__ == "__main__":
    main()
