"""Rebuild ``data/fonts/`` from the system's font packages (a dev-time tool).

The renderers never read system fonts: everything they draw with ships in
``data/fonts/``. This script makes those files reproducible:

* DejaVu Sans and DejaVu Sans Bold (Latin, Greek, Cyrillic and symbols, so that
  most player names render) are copied unchanged, with their licence.
* Noto Sans CJK SC Regular and Bold are cut down to the characters the images
  need: every character of ``renderers.labels``, ASCII, CJK punctuation and
  full-width forms, the 6,763 characters of GB2312, and every character of
  CC-CEDICT's words, simplified and traditional (``zhon``): player names. GB2312
  level 1 alone (3,755) drew 婷, 琪, 睿 and 鑫 as boxes, so 李婷 showed as 李□. The
  full fonts are ~20 MB each; the subsets about 3 MB each. Glyph outlines are
  kept as they are (CFF), hinting and layout tables are dropped because Pillow's
  basic layout uses neither.

Usage (Debian; fonttools is a dev-time tool, not a runtime dependency)::

    apt-get install -y fonts-dejavu-core fonts-noto-cjk
    pip install fonttools zhon
    python3 -m renderers.build_fonts            # writes data/fonts/
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

from renderers.labels import all_label_text

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
DEJAVU_COPYRIGHT = Path("/usr/share/doc/fonts-dejavu-core/copyright")
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
NOTO_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
NOTO_SC_INDEX = 2  # face index of "Noto Sans CJK SC" inside Debian's .ttc collections
OUT = Path(__file__).resolve().parent.parent / "data" / "fonts"

DEJAVU_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
NOTO_FILES = {
    "NotoSansCJK-Regular.ttc": "NotoSansCJKsc-Regular-subset.otf",
    "NotoSansCJK-Bold.ttc": "NotoSansCJKsc-Bold-subset.otf",
}


def gb2312() -> str:
    """The 6,763 Chinese characters of GB2312 (bytes 0xB0A1-0xF7FE): both levels."""
    chars = []
    for hi in range(0xB0, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.append(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:  # the five unassigned places at the end of level 1
                continue
    return "".join(chars)


def name_characters() -> str:
    """The characters of CC-CEDICT's words, simplified and traditional (``zhon``): the
    ones players' names use beyond GB2312 (玥, 祎, 堃; 陳, 張 of a traditional name)."""
    from zhon import cedict

    return "".join(sorted(set(cedict.simplified) | set(cedict.traditional)))


def subset_text() -> str:
    """Every character the CJK subset keeps."""
    ascii_ = "".join(chr(c) for c in range(0x20, 0x7F))
    cjk_punct = "".join(chr(c) for c in range(0x3000, 0x3020))
    fullwidth = "".join(chr(c) for c in range(0xFF01, 0xFF5F))
    extra = "·…—–‘’“”□×♠♥♦♣"
    return ascii_ + cjk_punct + fullwidth + extra + all_label_text() + gb2312() + name_characters()


def _licence_text(copyright_file: Path, licence: str) -> str:
    """A licence body out of a Debian copyright file (un-indented, '.' lines blank)."""
    text = copyright_file.read_text(encoding="utf-8")
    match = re.search(rf"^License: {re.escape(licence)}\n((?: .*\n?)+)", text, re.MULTILINE)
    if match is None:
        raise SystemExit(f"no '{licence}' licence text in {copyright_file}")
    lines = [line[1:] for line in match.group(1).splitlines()]
    return "\n".join("" if line == "." else line for line in lines).strip() + "\n"


def build(out: Path = OUT) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    out.mkdir(parents=True, exist_ok=True)
    for name in DEJAVU_FILES:
        shutil.copyfile(DEJAVU_DIR / name, out / name)
    (out / "LICENSE-DejaVu.txt").write_text(
        "DejaVu fonts: Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved.\n"
        "Bitstream Vera is a trademark of Bitstream, Inc. DejaVu changes are in public domain.\n\n"
        + _licence_text(DEJAVU_COPYRIGHT, "bitstream-vera"),
        encoding="utf-8",
    )

    text = subset_text()
    for source, target in NOTO_FILES.items():
        font = TTCollection(str(NOTO_DIR / source)).fonts[NOTO_SC_INDEX]
        options = subset.Options()
        options.layout_features = []
        options.hinting = False
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True  # the renderer finds missing glyphs by their .notdef box
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        font.recalcTimestamp = False  # keep the source's date: rebuilds are byte-identical
        font.save(str(out / target))
    (out / "OFL-NotoSansCJK.txt").write_text(
        "Noto Sans CJK: © 2014-2021 Adobe (http://www.adobe.com/).\n"
        "Subset by renderers/build_fonts.py (a modified version under the same licence).\n\n"
        + _licence_text(NOTO_COPYRIGHT, "SIL-1.1"),
        encoding="utf-8",
    )
    for path in sorted(out.iterdir()):
        print(f"{path.stat().st_size / 1024:8.0f} KB  {path.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output folder (data/fonts)")
    build(parser.parse_args().out)


if __name__ == "__main__":
    main()
