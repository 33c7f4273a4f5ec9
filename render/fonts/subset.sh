#!/bin/sh
# Rebuilds cjk.otf, the Chinese letters of the pictures' text: the glyphs
# of Noto Sans CJK SC Bold for every Chinese character and punctuation
# mark in the messages of package render. Run it from render/fonts after
# adding Chinese words that a picture writes (TestPictureFontWritesChinese
# names the letters missing). It needs Debian's fonts-noto-cjk and
# python3-fonttools.
set -eu
src=/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc
letters=$(mktemp)
trap 'rm -f "$letters"' EXIT
/usr/bin/python3 - "$letters" ../*.go <<'PY'
import sys
out, files = sys.argv[1], sys.argv[2:]
cjk = set()
for name in files:
    if name.endswith("_test.go"):
        continue
    for ch in open(name, encoding="utf-8").read():
        o = ord(ch)
        if 0x3000 <= o <= 0x303F or 0x3400 <= o <= 0x9FFF or 0xFF00 <= o <= 0xFFEF:
            cjk.add(ch)
open(out, "w", encoding="utf-8").write("".join(sorted(cjk)))
PY
# Font 2 of the collection is the simplified Chinese one (SC).
/usr/bin/python3 -m fontTools.subset "$src" --font-number=2 --text-file="$letters" \
	--output-file=cjk.otf --layout-features= --no-hinting --desubroutinize \
	--name-IDs=0,1,2,3,4,5,6,13,14 --drop-tables+=vhea,vmtx,VORG
