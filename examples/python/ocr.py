#!/usr/bin/env python3
"""Reads the text of an image with PaddleOCR's three models run through
paddlelite: the DB detector finds the lines, each is straightened, turned
upright by the direction classifier where needed, and read by the PP-OCRv4
recognizer, whose per-step class probabilities are CTC-decoded with its
dictionary. Prints one line per box; draws the boxes with their text.

    examples/python/ocr.py IMAGE [--out lines.png]
        [--det_model DIR|FILE.nb] [--cls_model DIR|FILE.nb]
        [--rec_model DIR|FILE.nb] [--rec_keys ppocr_keys_v1.txt]
        [--rec_batch 6] [--rec_max_padding 0.1]

The detector's input, the crop and the classifier's input come from
ocr_det.py; the DB boxes (unclip ratio 2.0, PaddleOCR 3's pipeline value)
and the CTC decoding are the engine's own helpers (lite.db_boxes,
lite.ctc_greedy_decode), the ones tools/ocr uses. The recognizer's input is
the line at height 48, its width by aspect ratio (padded to 320, or to a
multiple of 8 when longer), normalized (x/255 - 0.5) / 0.5. Lines are
recognized in batches of up to --rec_batch, sorted by aspect ratio and
zero-padded to the widest, as tools/ocr does: the recognizer's attention
blocks see the padding, so a line joins a batch only while the batch is at
most --rec_max_padding wider than the line's own input (with more padding
the model reads some lines differently; docs/ocr.md).
"""

import argparse
import pathlib
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

import ocr_det
from paddlelite import lite

REC_MODEL = ocr_det.SHARED / "ppocr_rec_ch_PP-OCRv4_from_onnx"
REC_HEIGHT, REC_MIN_WIDTH, REC_ALIGN = 48, 320, 8
CLS_THRESH = 0.9
REC_BATCH, REC_MAX_PADDING = 6, 0.1
UNCLIP_RATIO = 2.0


def rec_input(line_image):
    w, h = line_image.size
    width = max(1, int(np.ceil(REC_HEIGHT * w / h)))
    padded = max(REC_MIN_WIDTH, -(-width // REC_ALIGN) * REC_ALIGN)
    pixels = np.asarray(line_image.convert("RGB").resize((width, REC_HEIGHT), Image.BILINEAR),
                        np.float32)
    x = np.zeros((1, 3, REC_HEIGHT, padded), np.float32)
    x[0, :, :, :width] = ((pixels / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)
    return x


def recognize(crops, rec, classes, batch=REC_BATCH, max_padding=REC_MAX_PADDING):
    """[(text, score)] of each line image, in order, read in batches (see the
    module's docstring); also the number of recognizer runs."""
    order = sorted(range(len(crops)), key=lambda i: crops[i].width / crops[i].height)
    texts, runs, first = [None] * len(crops), 0, 0
    while first < len(order):
        inputs = [rec_input(crops[order[first]])]
        while (first + len(inputs) < len(order) and len(inputs) < batch):
            x = rec_input(crops[order[first + len(inputs)]])
            if x.shape[3] > inputs[0].shape[3] * (1.0 + max_padding):
                break
            inputs.append(x)
        width = max(x.shape[3] for x in inputs)
        padded = np.zeros((len(inputs), 3, REC_HEIGHT, width), np.float32)
        for b, x in enumerate(inputs):
            padded[b, :, :, :x.shape[3]] = x[0]
        probs = ocr_det.run(rec, padded)
        runs += 1
        for b in range(len(inputs)):
            texts[order[first + b]] = lite.ctc_greedy_decode(probs[b], classes)
        first += len(inputs)
    return texts, runs


def read(image, det, cls, rec, classes, batch=REC_BATCH, max_padding=REC_MAX_PADDING):
    """[{'box', 'score', 'angle', 'angle_score', 'text', 'text_score'}];
    classes: lite.load_ctc_dictionary(keys file)."""
    lines, crops = [], []
    x, (sx, sy) = ocr_det.det_input(image)
    prob = ocr_det.run(det, x)[0, 0]
    for corners, score in lite.db_boxes(prob, unclip_ratio=UNCLIP_RATIO):
        corners = corners / [sx, sy]
        line = {"box": corners, "score": score}
        crop = ocr_det.crop(image, corners)
        if crop.height >= 1.5 * crop.width:  # a line running down the page
            crop = crop.rotate(90, expand=True)
        if cls is not None:
            probs = ocr_det.run(cls, ocr_det.cls_input(crop))[0]
            line["angle"] = ocr_det.CLS_LABELS[int(np.argmax(probs))]
            line["angle_score"] = float(probs.max())
            if line["angle"] == "180" and line["angle_score"] > CLS_THRESH:
                crop = crop.rotate(180)
        lines.append(line)
        crops.append(crop)
    texts, _ = recognize(crops, rec, classes, batch, max_padding)
    for line, (text, score) in zip(lines, texts):
        line["text"], line["text_score"] = text, score
    return lines


def draw(image, lines):
    """The image with every box outlined and its text written above it."""
    out = image.convert("RGB")
    pen = ImageDraw.Draw(out)
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 12)
    except OSError:
        font = ImageFont.load_default()
    for line in lines:
        corners = [tuple(p) for p in line["box"]]
        pen.polygon(corners, outline=(220, 30, 30), width=2)
        pen.text((corners[0][0], corners[0][1] - 14), line["text"], fill=(30, 30, 220), font=font)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("image")
    parser.add_argument("--out", help="write the image with boxes and text drawn (PNG, JPEG, ...)")
    parser.add_argument("--det_model", default=str(ocr_det.SHARED / "ppocr_det_en_PP-OCRv3"))
    parser.add_argument("--cls_model", default=str(ocr_det.SHARED / "ppocr_cls_mobile_v2.0"))
    parser.add_argument("--rec_model", default=str(REC_MODEL))
    parser.add_argument("--rec_keys", help="dictionary (default: REC_MODEL/ppocr_keys_v1.txt)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rec_batch", type=int, default=REC_BATCH,
                        help="lines per recognizer run (1: one at a time)")
    parser.add_argument("--rec_max_padding", type=float, default=REC_MAX_PADDING,
                        help="how much wider than a line's own input its batch may be")
    args = parser.parse_args(argv)
    keys_path = args.rec_keys or pathlib.Path(args.rec_model) / "ppocr_keys_v1.txt"
    try:
        image = Image.open(args.image)
        image.load()
        classes = lite.load_ctc_dictionary(str(keys_path))
        det = ocr_det.create_predictor(args.det_model, args.threads)
        cls = ocr_det.create_predictor(args.cls_model, args.threads)
        rec = ocr_det.create_predictor(args.rec_model, args.threads)
        if args.rec_batch < 1 or args.rec_max_padding < 0:
            raise ValueError("--rec_batch must be at least 1 and --rec_max_padding at least 0")
        lines = read(image, det, cls, rec, classes, args.rec_batch, args.rec_max_padding)
    except (OSError, ValueError, lite.LiteError) as e:
        print(f"ocr: error: {e}", file=sys.stderr)
        return 1
    for i, line in enumerate(lines):
        print(f"{i}: {line['text']}  (score {line['text_score']:.2f}, "
              f"angle {line['angle']})")
    if args.out:
        draw(image, lines).save(args.out)
        print(f"wrote {args.out} ({len(lines)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
