#!/usr/bin/env bash
# Remakes ui/src/fonts/article-math.woff2, the font the articles' formulas are set in, from
# Debian's fonts-stix (STIX Math 1.1, SIL Open Font License). Run by hand when the character set
# below should change; the build only copies the result.
#
# The subset keeps Latin, Greek, the operators, arrows and delimiters, the math italic and bold
# letters and the OpenType MATH table (stretchy fractions, sums, brackets), about 90 kB instead of
# 480 kB. The STIX licence asks modified versions to carry another name, so the subset is
# renamed "Article Math"; its copyright and licence fields are kept.
# Needs: apt-get (Debian), python3 with `pip install fonttools brotli`.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/ui/src/fonts/article-math.woff2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$work" && apt-get download fonts-stix >/dev/null && dpkg-deb -x fonts-stix_*.deb x)
source_font="$work/x/usr/share/fonts/opentype/stix-word/STIXMath-Regular.otf"

unicodes="U+0020-007E,U+00A0-00FF,U+0131,U+0237,U+0300-036F,U+0391-03A9,U+03B1-03C9,U+03D1,U+03D5,U+03D6,\
U+03F0,U+03F1,U+03F5,U+2000-206F,U+20D0-20F0,U+2100-214F,U+2190-21FF,U+2200-22FF,U+2300-23FF,\
U+27E8-27EF,U+2980-2998,U+1D400-1D467,U+1D6A4-1D6A5,U+1D6A8-1D71B"

pyftsubset "$source_font" --unicodes="$unicodes" --layout-features='*' --name-IDs='*' \
  --output-file="$work/subset.otf" 2>/dev/null

python3 - "$work/subset.otf" "$out" <<'EOF'
import sys
from fontTools.ttLib import TTFont

font = TTFont(sys.argv[1])
names = font["name"]
for record in list(names.names):
    if record.nameID in (1, 3, 4, 6, 16, 17, 21, 22):
        names.removeNames(nameID=record.nameID)
for platform in ((3, 1, 0x409), (1, 0, 0)):
    names.setName("Article Math", 1, *platform)
    names.setName("Regular", 2, *platform)
    names.setName("Article Math Regular; subset of STIX Math 1.1.1", 3, *platform)
    names.setName("Article Math Regular", 4, *platform)
    names.setName("ArticleMath-Regular", 6, *platform)
    names.setName("Subset of STIX Math 1.1.1 (Debian fonts-stix), renamed as its licence asks.", 10, *platform)
if "CFF " in font:
    cff = font["CFF "].cff
    cff.fontNames = ["ArticleMath-Regular"]
    top = cff.topDictIndex[0]
    top.FullName = "Article Math Regular"
    top.FamilyName = "Article Math"
font.flavor = "woff2"
font.save(sys.argv[2])
EOF
ls -l "$out"
