#!/usr/bin/env python3
"""Renders single text lines for the recognizer's tests: dark text on a
light background in the DejaVu fonts (Debian's fonts-dejavu-core) and
WenQuanYi Micro Hei (fonts-wqy-microhei, CJK glyphs), several sizes, Latin
letters, digits, punctuation and Chinese characters of the recognizer's
dictionary (ppocr_keys_v1.txt) mixed with Latin and digits, each written as a binary PPM
(tools/ocr reads PPM/PGM) with its text in lines.txt (one per line, same
order as line_<i>.ppm).

    tools/text_lines.py --out DIR [--page examples/python/test_page.png]

With --page the given image is also converted to DIR/page.ppm.
"""

import argparse
import pathlib

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = pathlib.Path("/usr/share/fonts/truetype")
CJK = "wqy/wqy-microhei.ttc"
# (text, font file under FONT_DIR, pixel size)
LINES = [
    ("Recognition works", "dejavu/DejaVuSans.ttf", 32),
    ("Order No. 7731 / 2026", "dejavu/DejaVuSerif.ttf", 28),
    ("TOTAL 1,234.56 USD", "dejavu/DejaVuSans-Bold.ttf", 36),
    ("mono 0123456789", "dejavu/DejaVuSansMono.ttf", 24),
    ("Hello World 12345", "dejavu/DejaVuSans.ttf", 20),
    ("quiet lazy evening", "dejavu/DejaVuSerif-Italic.ttf", 30),
    # Chinese characters of the dictionary, alone and mixed with Latin and digits.
    ("识别中文文本2026年", CJK, 32),
    ("价格128.50元", CJK, 24),
    ("北京市海淀区100080", CJK, 40),
    ("今天天气很好", CJK, 28),
    ("飞桨PaddleOCR模型", CJK, 36),
    ("数据集共有3500张图片", CJK, 22),
]
MARGIN = 6


def render(text, font_name, size):
    font = ImageFont.truetype(str(FONT_DIR / font_name), size)
    x0, y0, x1, y1 = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox((0, 0), text, font=font)
    line = Image.new("RGB", (x1 - x0 + 2 * MARGIN, y1 - y0 + 2 * MARGIN), (250, 250, 245))
    ImageDraw.Draw(line).text((MARGIN - x0, MARGIN - y0), text, fill=(15, 15, 25), font=font)
    return line


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--page", help="an image to convert to OUT/page.ppm as well")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i, (text, font, size) in enumerate(LINES):
        render(text, font, size).save(out / f"line_{i}.ppm")
    (out / "lines.txt").write_text("".join(text + "\n" for text, _, _ in LINES), encoding="utf-8")
    if args.page:
        Image.open(args.page).convert("RGB").save(out / "page.ppm")


if __name__ == "__main__":
    main()
