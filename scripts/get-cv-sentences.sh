#!/bin/sh
# Copies the Common Voice sentences that scripts/gen-charfreq.py takes with
# --cv=DIR (issue 50, tenth pass; CC0 1.0, LICENSES/CC0-CommonVoice.txt):
# the first lines of one file per language of common-voice/common-voice,
# each at the commit where it was read. Usage, from a clone of that repository
# with those commits:
#
#     sh scripts/get-cv-sentences.sh /path/to/common-voice DIR
#
# The selection is fixed (file, commit, number of lines); which sentences are
# kept out is decided in gen-charfreq.py by a SHA-256 of each sentence. The
# copies used in the tenth pass (read with the search tool's file reader, page
# by page, whole lines only) had these SHA-256 sums:
#
#     9076b4f940a0667876a3318671bbeb686eab1bcdd97ac9ce3f36f07ec7f7f563  lt.txt
#     19213fa0a0dd0b2d611b081ba45a9835944e9106f36e8ccd0fe01363cef5784f  lv.txt
#     df5b311cd3bdc488e2c9990992bc0ba0e39bf4781b417f9afff9abd07ea7907f  it.txt
#     e93e341c211212edd9802d90ff60debcdd4327b5ab82ba689900f5662bc3535c  ro.txt
#     05bd7c246d0adfdc9cddc9b11a88fb2ae1db511cfa18e817d9eb7ea0e8f83dff  nb.txt
set -e
repo=$1
out=$2
mkdir -p "$out"
take() { # lang commit path lines
    git -C "$repo" show "$2:$3" | head -n "$4" > "$out/$1.txt"
}
take lt 797acab8b036a7b14abf88f0b663eb3d1d4e0a79 server/data/lt/sentence-collector.txt 147
take lv 01c8d7db710b1f1476184b1ee36fc9fc77b941d2 server/data/lv/sentence-collector.txt 1045
take it 0db232d4f476ecaeb3b4dc476ea9a06bf0c85add server/data/it/wiki.it.rerun-2021-10.txt 253
take ro 1398fbc838c12a2014364f04401e129bb01fdacb server/data/ro/sentence-collector.txt 356
take nb 01ea2527ed82210b4f8145b2f9035a0b2c3c20bc server/data/nb-NO/sentence-collector.txt 337
