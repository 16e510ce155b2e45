#!/usr/bin/env python3
"""Generates crates/i18n/src/detect/charfreq.txt, the character unigram
tables of the client's per-name charset detector (crates/i18n/src/detect).

Source: the word-frequency lists of the `wordfreq` package (PyPI, version
3.1.1). wordfreq's code is Apache-2.0; its data is CC-BY-SA 4.0 (see the
package README, section "License", and the sources it credits). The table
written here is a derived work of that data -- per-language character
frequencies, rounded to whole bits -- and carries the same licence.

Usage (needs `pip download --no-deps wordfreq==3.1.1` and `pip install msgpack`):

    python3 scripts/gen-charfreq.py path/to/wordfreq-3.1.1-py3-none-any.whl \
        > crates/i18n/src/detect/charfreq.txt

How: every word of a language's "small" list weighs its frequency
(10^(-bin/100)); each character of the word (lowercased, and for Vietnamese
also in NFD, which is what windows-1258 holds) gets that weight. The cost
of a character is -log2 of its share of all characters (ASCII included),
rounded. Bigrams: -log2 P(second | first) of letter pairs inside words
that hold a non-ASCII letter, the most frequent 800 per alphabetic
or 800 (Latin) per alphabetic language. Only non-ASCII letters and marks are written, at most MAX[lang]
of them, the most frequent first. Traditional Chinese ("zt") is derived
from Simplified through wordfreq's own Traditional->Simplified mapping: a
traditional character costs what its simplified form costs, plus one bit.
"""
import gzip
import io
import math
import sys
import unicodedata
import zipfile

import msgpack

LANGS = ["ja", "zh", "ko", "ru", "uk", "bg", "mk", "el", "ar", "fa", "he", "tr", "vi",
         "pl", "cs", "sk", "sl", "hu", "ro", "de", "fr", "es", "pt", "it", "nl", "ca",
         "sv", "da", "nb", "fi", "lt", "lv"]
MAX = {"ja": 2600, "zh": 3000, "ko": 1400}
DEFAULT_MAX = 160
MAX_COST = 22


def load(zf, name):
    with zf.open("wordfreq/data/" + name) as f:
        return msgpack.unpackb(gzip.decompress(f.read()), raw=False, strict_map_key=False)


def char_costs(cbpack, vi=False):
    weights = {}
    total = 0.0
    for i, words in enumerate(cbpack[1:]):
        if not words:
            continue
        w = 10 ** (-i / 100)
        for word in words:
            forms = [word]
            if vi:
                forms.append(unicodedata.normalize("NFD", word))
            for form in forms:
                for ch in form.lower():
                    weights[ch] = weights.get(ch, 0.0) + w / len(forms)
                    total += w / len(forms)
    out = {}
    for ch, w in weights.items():
        if ord(ch) < 0x80:
            continue
        cat = unicodedata.category(ch)
        if not (cat.startswith("L") or cat.startswith("M")):
            continue
        out[ch] = min(MAX_COST, max(1, round(-math.log2(w / total))))
    return out


CJK = {"ja", "zh", "ko"}
NONLATIN = {"ru", "uk", "bg", "mk", "el", "ar", "fa", "he"}


def bigram_costs(cbpack, vi=False):
    """-log2 P(b | a) for letter pairs inside words with a non-ASCII member,
    "^" and "$" standing for the start and the end of a word."""
    pair = {}
    first = {}
    for i, words in enumerate(cbpack[1:]):
        if not words:
            continue
        w = 10 ** (-i / 100)
        for word in words:
            forms = [word]
            if vi:
                forms.append(unicodedata.normalize("NFD", word))
            for form in forms:
                # "^" and "$" stand for the start and the end of a word.
                form = "^" + form.lower() + "$"
                letter = lambda c: c in "^$" or c.isalpha() or unicodedata.category(c).startswith("M")
                for a, b in zip(form, form[1:]):
                    if not letter(a) or a == "$":
                        continue
                    first[a] = first.get(a, 0.0) + w / len(forms)
                    if not letter(b) or b == "^":
                        continue
                    if a.isascii() and b.isascii():
                        continue
                    pair[a + b] = pair.get(a + b, 0.0) + w / len(forms)
    return pair, first


def main():
    zf = zipfile.ZipFile(sys.argv[1])
    tables = {}
    for lang in LANGS:
        tables[lang] = char_costs(load(zf, f"small_{lang}.msgpack.gz"), vi=(lang == "vi"))
    mapping = load(zf, "_chinese_mapping.msgpack.gz")
    zt = {}
    for ch, cost in tables["zh"].items():
        zt[ch] = cost
    for trad, simp in mapping.items():
        trad = chr(trad) if isinstance(trad, int) else trad
        if len(trad) == 1 and len(simp) == 1 and simp in tables["zh"]:
            zt[trad] = min(MAX_COST, tables["zh"][simp] + 1)
    # Simplified-only forms stay in zt at their cost + 2: Big5 cannot hold
    # most of them anyway, and the round trip removes those.
    for ch in tables["zh"]:
        if ch not in zt:
            zt[ch] = min(MAX_COST, tables["zh"][ch] + 2)
    tables["zt"] = zt
    bigrams = {}
    for lang in LANGS:
        if lang in CJK:
            continue
        pair, first = bigram_costs(load(zf, f"small_{lang}.msgpack.gz"), vi=(lang == "vi"))
        keep = 800 if lang in NONLATIN else 800
        top = sorted(pair.items(), key=lambda kv: -kv[1])[:keep]
        bigrams[lang] = {ab: min(MAX_COST, max(0, round(-math.log2(w / first[ab[0]])))) for ab, w in top}
    print("# Character unigram costs (-log2 p, whole bits) per language, for the")
    print("# client's charset detector. GENERATED by scripts/gen-charfreq.py from")
    print("# the data of wordfreq 3.1.1 (Robyn Speer et al.), licensed CC-BY-SA 4.0:")
    print("# https://creativecommons.org/licenses/by-sa/4.0/ -- this file is a derived")
    print("# work under the same licence. Format: <lang> <cost> <characters>, and for")
    print("# bigrams (-log2 P(second | first), letters inside a word, at least one")
    print("# non-ASCII; ^ and $ are the start and end of a word): <lang>2 <cost>")
    print("# <pairs...> (two characters each, no separator)")
    for lang in LANGS + ["zt"]:
        t = tables[lang]
        limit = MAX.get(lang, MAX.get(lang.replace("zt", "zh"), DEFAULT_MAX))
        if lang == "zt":
            limit = 3600
        best = sorted(t.items(), key=lambda kv: (kv[1], kv[0]))[:limit]
        by_cost = {}
        for ch, cost in best:
            by_cost.setdefault(cost, []).append(ch)
        for cost in sorted(by_cost):
            print(f"{lang} {cost} {''.join(sorted(by_cost[cost]))}")
    for lang, table in bigrams.items():
        by_cost = {}
        for ab, cost in table.items():
            by_cost.setdefault(cost, []).append(ab)
        for cost in sorted(by_cost):
            print(f"{lang}2 {cost} {''.join(sorted(by_cost[cost]))}")


if __name__ == "__main__":
    main()
