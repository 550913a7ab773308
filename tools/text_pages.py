#!/usr/bin/env python3
"""Generates text pages for calibrating and checking the OCR detector
(opt --quantize=int8 --calibration_dir): light pages with dark lines of
English words in the DejaVu fonts (Debian's fonts-dejavu-core), drawn with
PIL, normalized as ppocr_det_en_PP-OCRv3's reference input (RGB/255, then
ImageNet mean/std), written as raw float32 NCHW [1,3,H,W] .bin files, one
page each. Pages differ by --seed; the same seed gives the same pages.

    tools/text_pages.py --out DIR [--count 4] [--seed 1] [--size 640]
"""

import argparse
import pathlib
import random
import struct

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = pathlib.Path("/usr/share/fonts/truetype/dejavu")
FONTS = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"]
WORDS = ("the quick brown fox jumps over lazy dog model int8 scale page text line "
         "invoice total amount date paddle engine detect order number street city "
         "report summary table figure 2026 42.50 EUR No. 7 ID-1138 hello world").split()
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def render(rng, size):
    """One page as a PIL RGB image."""
    shade = rng.randint(225, 250)
    page = Image.new("RGB", (size, size), (shade, shade, shade - rng.randint(0, 10)))
    draw = ImageDraw.Draw(page)
    y = rng.randint(10, 40)
    while True:
        px = rng.randint(16, 40)
        font = ImageFont.truetype(str(FONT_DIR / rng.choice(FONTS)), px)
        if y + px > size - 10:
            break
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 7)))
        ink = rng.randint(0, 60)
        draw.text((rng.randint(10, size // 3), y), text, fill=(ink, ink, ink + 10), font=font)
        y += px + rng.randint(12, 50)
    return page


def to_nchw(page):
    """Normalized float32 NCHW bytes."""
    w, h = page.size
    pixels = page.load()
    planes = []
    for c in range(3):
        values = [(pixels[x, y][c] / 255.0 - MEAN[c]) / STD[c] for y in range(h) for x in range(w)]
        planes.append(struct.pack("<%df" % len(values), *values))
    return b"".join(planes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=640)
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    for i in range(args.count):
        path = out / ("page_%d_%02d.bin" % (args.seed, i))
        path.write_bytes(to_nchw(render(rng, args.size)))
        print("wrote", path)


if __name__ == "__main__":
    main()
