#!/usr/bin/env python3
"""User-interface text of gettext catalogues (issue 50, third pass): a new
training source for the detector's tables, and two held-out samples for
crates/i18n/tests/detection.rs.

- Django 5.2.8 (PyPI `django`, BSD-3-Clause, LICENSES/BSD-3-Clause-Django.txt):
  the translated strings (`msgstr`) of every `django.po` in the wheel
  (django/conf/locale and the contrib apps). Every distinct word of a
  language goes by a SHA-256 of the word to the held-out part (4
  words in 20: held-out, never in the tables, never for tuning: the
  `django` column of the detection test, corpus/django.txt), the
  validation part (3 in 20: never in the tables, for tuning: `djval`) or
  the training part (the rest; scripts/gen-charfreq.py adds its text to
  the tables).
- Sphinx 8.2.3 (PyPI `sphinx`, BSD-2-Clause, LICENSES/BSD-2-Clause-Sphinx.txt):
  the translated strings of `sphinx/locale/*/LC_MESSAGES/sphinx.po`. Never
  used for the tables or for tuning: the `sphinx` column (corpus/sphinx.txt),
  a held-out sample from a source nothing else uses.
- Wagtail 8.0.1 (PyPI `wagtail`, BSD-3-Clause, LICENSES/BSD-3-Clause-Wagtail.txt):
  the translated strings of the `django.po` and `djangojs.po` of its apps.
  Never used for the tables: the validation sample `wtval` (corpus/wagtail.txt),
  for tuning, from a source the tables never saw.

Names are made as scripts/gen-detect-corpus.py makes them (its `name` and
`make`, 96 ordinary and 16 short names a language), each sample with its
own seed. Romanian `ș` `ț` are written `ş` `ţ` (legacy systems). Deterministic.

Usage:

    pip download --no-deps django==5.2.8 sphinx==8.2.3 wagtail==8.0.1
    python3 scripts/gen-detect-ui.py django django-5.2.8-py3-none-any.whl \\
        > crates/i18n/tests/corpus/django.txt
    python3 scripts/gen-detect-ui.py sphinx sphinx-8.2.3-py3-none-any.whl \\
        > crates/i18n/tests/corpus/sphinx.txt
    python3 scripts/gen-detect-ui.py wagtail wagtail-8.0.1-py3-none-any.whl \\
        > crates/i18n/tests/corpus/wagtail.txt
"""
import ast
import hashlib
import importlib.util
import os
import random
import re
import sys
import unicodedata
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gen", os.path.join(HERE, "gen-detect-corpus.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

SEED = {"django": 5280, "sphinx": 8230, "wagtail": 8010}
# The model's language -> the catalogue's locale directory
DJANGO = {
    "ru": "ru", "uk": "uk", "bg": "bg", "mk": "mk", "el": "el", "ar": "ar", "fa": "fa",
    "he": "he", "tr": "tr", "vi": "vi", "pl": "pl", "cs": "cs", "sk": "sk", "sl": "sl",
    "hu": "hu", "ro": "ro", "de": "de", "fr": "fr", "es": "es", "pt": "pt", "it": "it",
    "nl": "nl", "ca": "ca", "sv": "sv", "da": "da", "nb": "nb", "fi": "fi", "lt": "lt",
    "lv": "lv", "is": "is", "et": "et", "hr": "hr", "th": "th",
}
SPHINX = {"pt": "pt_PT"}
# Wagtail's locale directories (a language's several ones are all read)
WAGTAIL = {
    "tr": ["tr", "tr_TR"], "pl": ["pl"], "cs": ["cs"], "sk": ["sk_SK"], "sl": ["sl"],
    "hu": ["hu"], "ro": ["ro"], "de": ["de"], "fr": ["fr"], "es": ["es"], "pt": ["pt_PT"],
    "it": ["it"], "lt": ["lt"], "lv": ["lv"], "et": ["et"], "hr": ["hr_HR"],
}
# The languages of the held-out samples: pdf.js's (Central European,
# Baltic, Italian and a few more of the same charsets)
SAMPLE = ["cs", "sk", "pl", "hu", "ro", "hr", "sl", "it", "lt", "lv", "de", "fr", "es",
          "pt", "tr", "et"]


def msgstrs(text):
    """The non-empty translated strings of a .po file."""
    out = []
    cur = None
    for line in text.splitlines():
        if line.startswith("msgstr"):
            cur = [re.sub(r"^msgstr(\[\d+\])?\s*", "", line)]
            out.append(cur)
        elif line.startswith('"') and cur is not None:
            cur.append(line)
        else:
            cur = None
    res = []
    for parts in out:
        s = "".join(ast.literal_eval(p) for p in parts if p.startswith('"'))
        if s and not s.startswith("Project-Id-Version"):
            res.append(s)
    return res


def catalogue(wheel, kind, lang):
    """Every translated string of the language in the wheel, in a fixed order."""
    if kind == "django":
        locs, domains = [DJANGO.get(lang)], ["django"]
    elif kind == "wagtail":
        locs, domains = WAGTAIL.get(lang, []), ["django", "djangojs"]
    else:
        locs, domains = [SPHINX.get(lang, lang)], ["sphinx"]
    if not all(locs):
        return []
    ends = tuple(f"/locale/{loc}/LC_MESSAGES/{d}.po" for loc in locs for d in domains)
    with zipfile.ZipFile(wheel) as z:
        names = sorted(n for n in z.namelist() if n.endswith(ends))
        out = []
        for n in names:
            out += msgstrs(z.read(n).decode("utf-8"))
    return out


def clean(s, lang):
    s = unicodedata.normalize("NFC", s)
    # python-format, brace and HTML placeholders out
    s = re.sub(r"%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[sdifrxX%]", " ", s)
    s = re.sub(r"\{[^}]*\}|<[^>]*>|&[a-z]+;", " ", s)
    if lang == "ro":
        s = s.translate(str.maketrans("șțȘȚ", "şţŞŢ"))
    return s


def part(lang, w):
    """Django's words: "held" (a fifth: held-out, never for tuning), "val"
    (15 %: validation, for tuning) or "train" (the rest: the tables)."""
    d = hashlib.sha256(f"django:{lang}:{w.lower()}".encode()).digest()
    return "held" if d[0] < 51 else "val" if d[0] < 90 else "train"


EXCALIDRAW = {
    "cs": "cs-CZ", "sk": "sk-SK", "pl": "pl-PL", "hu": "hu-HU", "ro": "ro-RO", "sl": "sl-SI",
    "lt": "lt-LT", "lv": "lv-LV", "it": "it-IT", "de": "de-DE", "fr": "fr-FR", "es": "es-ES",
    "pt": "pt-PT", "tr": "tr-TR", "nl": "nl-NL", "ca": "ca-ES", "sv": "sv-SE", "da": "da-DK",
    "nb": "nb-NO", "fi": "fi-FI", "ru": "ru-RU", "uk": "uk-UA", "bg": "bg-BG", "el": "el-GR",
    "ar": "ar-SA", "fa": "fa-IR", "he": "he-IL", "th": "th-TH", "vi": "vi-VN",
}


def excalidraw_strings(tgz, lang):
    """Every string of Excalidraw's locale file (npm @excalidraw/excalidraw,
    its source maps' sourcesContent), in a fixed order."""
    import json
    import tarfile
    loc = EXCALIDRAW.get(lang)
    if not loc:
        return []
    out = []
    with tarfile.open(tgz) as tar:
        for m in sorted(tar.getmembers(), key=lambda m: m.name):
            base = os.path.basename(m.name)
            if "/dist/dev/locales/" in m.name and base.startswith(loc + "-") and base.endswith(".js.map"):
                data = json.load(tar.extractfile(m))
                for src in data.get("sourcesContent") or []:
                    stack = [json.loads(src)]
                    while stack:
                        v = stack.pop()
                        if isinstance(v, dict):
                            stack.extend(v[k] for k in sorted(v, reverse=True))
                        elif isinstance(v, list):
                            stack.extend(reversed(v))
                        elif isinstance(v, str) and v:
                            out.append(v)
    return out


def train_text(wheel, lang, strings=None):
    """The training part's text of Django's catalogue: each string with the
    held-out part's words left out (scripts/gen-charfreq.py splits it)."""
    out = []
    for s in catalogue(wheel, "django", lang) if strings is None else strings:
        kept = [t for t in clean(s, lang).split()
                if all(part(lang, w) == "train" for w in pieces(t))
                and all(part(lang, w) == "train" for w in TABLE_SPLIT.split(t) if w)]
        out.append(" ".join(kept))
    return out


# How scripts/gen-charfreq.py cuts text into words: a token whose pieces
# are training words can still hold a validation or held-out word there
# (`l'année`, `jean-luc`), so both cuts must be training words.
TABLE_SPLIT = re.compile(r"[\s\d\.,;:!?()\[\]/\"«»“”„—–\-_|*+=<>#%&@~^`'’]+")


def pieces(s):
    """The words of a string, as the held-out samples cut them."""
    for w in re.split(r"[\s,;()\"«»„“”:!?¿¡…]+", s):
        w = w.strip(".-'’")
        if w:
            yield w


def pool(wheel, kind, lang, want="held"):
    seen = set()
    out = []
    for s in catalogue(wheel, kind, lang):
        for w in pieces(clean(s, lang)):
            if re.search(r"[{}%#@\\/*<>|\t=$_]", w):
                continue
            if len(w) > 14 or not any(c.isalpha() for c in w):
                continue
            if kind == "django" and part(lang, w) != want:
                continue
            if w in seen:
                continue
            seen.add(w)
            out.append(w)
    return out


def main():
    kind, wheel = sys.argv[1], sys.argv[2]
    gen.PER_LANG = 96
    src = {"wagtail": "Wagtail 8.0.1 (BSD-3-Clause; LICENSES/BSD-3-Clause-Wagtail.txt): a validation\n# sample (wtval, for tuning) from a source the tables never use",
           "django": "Django 5.2.8 (BSD-3-Clause; LICENSES/BSD-3-Clause-Django.txt): the held-out fifth\n# of its words (part django) and its validation part (djval, for tuning)",
           "sphinx": "Sphinx 8.2.3 (BSD-2-Clause; LICENSES/BSD-2-Clause-Sphinx.txt): a source used nowhere else"}[kind]
    what = "A validation sample" if kind == "wagtail" else "A held-out sample"
    print(f"# {what} for crates/i18n/tests/detection.rs (issue 50).")
    print(f"# GENERATED by scripts/gen-detect-ui.py (seed {SEED[kind]}) from the translations of")
    print(f"# {src}.")
    print(f"# Format: <lang> TAB <part> TAB <kind> TAB <name>; kind n = ordinary, s = short.")
    print("# For tuning." if kind == "wagtail" else "# Never for tuning.")
    for lang in SAMPLE:
        parts = {"django": [("held", kind), ("val", "djval")], "wagtail": [("held", "wtval")]}
        for want, name in parts.get(kind, [("held", kind)]):
            words = pool(wheel, kind, lang, want)
            seed = f"{SEED[kind]}:{lang}" + (f":{want}" if kind == "django" else "")
            ordinary, short = gen.make(random.Random(seed), lang, words)
            for n in ordinary:
                print(f"{lang}\t{name}\tn\t{n}")
            for n in short:
                print(f"{lang}\t{name}\ts\t{n}")


if __name__ == "__main__":
    main()
