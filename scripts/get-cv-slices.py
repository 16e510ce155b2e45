#!/usr/bin/env python3
"""Copy the Common Voice sentences of issue 50's nineteenth pass.

Mozilla Common Voice's sentence files (common-voice/common-voice,
server/data/<locale>/; CC0 1.0 but for the europarl-* files, none used here:
LICENSES/CC0-CommonVoice.txt) are the optional `--cv=DIR` input of
scripts/gen-charfreq.py. The tenth pass took the first lines of one file per
language (scripts/get-cv-sentences.sh: alphabetical, so biased towards a few
first letters). This pass takes lines from the whole of each file: k slices
spread evenly over the file, M whole lines each. Usage, from a clone of the
repository that has the commits below:

    python3 scripts/get-cv-slices.py /path/to/common-voice DIR

writes DIR/<lang>.txt. Which sentences are kept out (a SHA-256 of each
sentence) is decided in gen-charfreq.py, as in the tenth pass.

A slice is defined on the file's text (UTF-8 decoded; positions in code
points): N = its length, slice i of k starts at offset o = N * (2i + 1) //
(2k), and takes the M lines that begin at or after o (the line that o falls
inside is skipped, unless o is 0 or the line begins exactly at o). k = 0 means
the whole file. The slices of a language are written one after the other in
the order of SELECTION, each line ending in a newline.

The snapshot of the repository is larger than this project's fetch limit, so
the slices were read with the search tool's file reader (which pages the
stored text by code points) from offset o - 1 (to see whether a line begins
at o), whole lines only, and
copied by hand. The copies used had the SHA-256 sums of SHA256 below (lt.txt
is the tenth pass's copy, whose sum an independent copy of this pass matched;
lv.txt and it.txt could not be checked against a clone here). The script
prints the sums of what it writes, so a rebuild from a clone shows at once
whether it matches. No table made from these copies was taken (nineteenth
pass, docs/dev/charset-detection.md).
"""
import hashlib
import os
import subprocess
import sys

# (lang, commit, path, k, M); the Italian wiki file holds sentences taken
# from Wikipedia (a 2021 re-run of the extractor), frasi.txt prose of other
# kinds. Each at the commit of the version the file reader stores.
SELECTION = [
    ("lt", "797acab8b036a7b14abf88f0b663eb3d1d4e0a79",
     "server/data/lt/sentence-collector.txt", 0, 0),
    ("lv", "01c8d7db710b1f1476184b1ee36fc9fc77b941d2",
     "server/data/lv/sentence-collector.txt", 8, 120),
    ("it", "0db232d4f476ecaeb3b4dc476ea9a06bf0c85add",
     "server/data/it/wiki.it.rerun-2021-10.txt", 7, 80),
    ("it", "000e5f3912b7d1df85900ee9ae1876492344313f",
     "server/data/it/frasi.txt", 3, 80),
]

SHA256 = {
    "lt": "9076b4f940a0667876a3318671bbeb686eab1bcdd97ac9ce3f36f07ec7f7f563",
    "lv": "4b576e8d04acab8658d359b0271ccb8adee461c176f2684c46d0ab1a12c80cd3",
    "it": "8eee9e435b77d0bc10063ae7d314fdb90cc3ed717c0457ce59af944faf5692d6",
}


def slices(text, k, m):
    """The lines of k slices of m lines each (k = 0: every line)."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if k == 0:
        return lines
    out = []
    n = len(text)
    for i in range(k):
        o = n * (2 * i + 1) // (2 * k)
        start = 0 if o == 0 else text.index("\n", o - 1) + 1
        out.extend(text[start:].split("\n")[:m])
    return out


def main():
    repo, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    chosen = {}
    for lang, commit, path, k, m in SELECTION:
        blob = subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"],
                              check=True, capture_output=True).stdout
        chosen.setdefault(lang, []).extend(slices(blob.decode("utf-8"), k, m))
    for lang, lines in chosen.items():
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        with open(os.path.join(out, f"{lang}.txt"), "wb") as fh:
            fh.write(data)
        digest = hashlib.sha256(data).hexdigest()
        same = "same as the pass's copy" if digest == SHA256[lang] else "DIFFERS from the pass's copy"
        print(f"{digest}  {lang}.txt  {len(lines)} lines  {same}")


if __name__ == "__main__":
    main()
