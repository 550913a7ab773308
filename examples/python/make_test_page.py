#!/usr/bin/env python3
"""Renders the OCR example's test page: dark text lines on a light page,
drawn with PIL and the DejaVu fonts of Debian's fonts-dejavu-core (no
download). The line positions are known exactly (line_boxes()), so the
example's test can check that the detected boxes cover every line.

    examples/python/make_test_page.py [--out examples/python/test_page.png]
"""

import argparse
import pathlib

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = pathlib.Path("/usr/share/fonts/truetype/dejavu")
SIZE = (800, 560)
BACKGROUND = (245, 245, 240)
INK = (20, 20, 30)
# (text, left, top, font file, pixel size)
LINES = [
    ("Paddle models from Python", 40, 30, "DejaVuSans-Bold.ttf", 40),
    ("Detect text lines with PP-OCRv3", 40, 110, "DejaVuSans.ttf", 30),
    ("and check their direction.", 40, 165, "DejaVuSans.ttf", 30),
    ("Invoice 2026-11-25   total 42.50 EUR", 40, 240, "DejaVuSansMono.ttf", 24),
    ("The quick brown fox jumps over the lazy dog", 40, 310, "DejaVuSerif.ttf", 26),
    ("small print: boxes are drawn in red", 40, 380, "DejaVuSans-Oblique.ttf", 20),
    ("HELLO WORLD", 430, 450, "DejaVuSans-Bold.ttf", 36),
    ("line eight", 60, 470, "DejaVuSans.ttf", 28),
]


def _font(name, size):
    return ImageFont.truetype(str(FONT_DIR / name), size)


def line_boxes():
    """[(text, (left, top, right, bottom))]: the ink box of every line."""
    draw = ImageDraw.Draw(Image.new("RGB", SIZE))
    return [(text, draw.textbbox((x, y), text, font=_font(font, size)))
            for text, x, y, font, size in LINES]


def render_page():
    """The page as a PIL RGB image."""
    page = Image.new("RGB", SIZE, BACKGROUND)
    draw = ImageDraw.Draw(page)
    for text, x, y, font, size in LINES:
        draw.text((x, y), text, fill=INK, font=_font(font, size))
    return page


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(pathlib.Path(__file__).with_name("test_page.png")))
    args = parser.parse_args()
    render_page().save(args.out)
    for text, box in line_boxes():
        print(f"{box}  {text}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
