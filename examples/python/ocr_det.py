#!/usr/bin/env python3
"""Finds the text lines of an image with PaddleOCR's DB detector and checks
each line's direction with the text-direction classifier, both run through
paddlelite; draws the boxes and prints them.

    examples/python/ocr_det.py IMAGE [--out boxes.png]
        [--det_model DIR|FILE.nb] [--cls_model DIR|FILE.nb]

A model is a directory with inference.pdmodel + inference.pdiparams (or
__model__ + params: the full predictor optimizes it on load) or an optimized
.nb file (the light predictor). The defaults are ppocr_det_en_PP-OCRv3 and
ppocr_cls_mobile_v2.0 in ../shared/models next to the checkout.

The DB post-processing is numpy only: threshold the probability map,
connected regions (run-length labelling), the minimum-area rectangle of each
region (convex hull + rotating calipers), the mean probability inside it as
its score, and the "unclip" that grows the shrunk text kernel back to the
line (by area * ratio / perimeter on every side).
"""

import argparse
import pathlib
import platform
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from paddlelite import lite

SHARED = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "models"
IMAGENET_MEAN = np.array([0.485, 0.456, 0.406], np.float32)
IMAGENET_STD = np.array([0.229, 0.224, 0.225], np.float32)
CLS_LABELS = ("0", "180")
CLS_HEIGHT, CLS_WIDTH = 48, 192
# The full predictor's places: x86 + host on x86-64; the aarch64 wheel has no
# x86 target (it refuses the place), host there.
CPU_TARGETS = ([lite.TargetType.X86] if platform.machine() == "x86_64" else []) + [
    lite.TargetType.Host]


def create_predictor(path, threads=1):
    """A predictor for a model directory (full predictor) or a .nb file (light)."""
    path = pathlib.Path(path)
    if path.suffix == ".nb":
        config = lite.MobileConfig()
        config.set_model_from_file(str(path))
    else:
        config = lite.CxxConfig()
        if (path / "inference.pdmodel").exists():
            config.set_model_file(str(path / "inference.pdmodel"))
            config.set_param_file(str(path / "inference.pdiparams"))
        else:
            config.set_model_dir(str(path))
        config.set_valid_places([lite.Place(t) for t in CPU_TARGETS])
    config.set_threads(threads)
    return lite.create_paddle_predictor(config)


def run(predictor, x):
    predictor.get_input(0).from_numpy(x)
    predictor.run()
    return predictor.get_output(0).numpy()


# ---- detection ------------------------------------------------------------

def det_input(image, limit_side=960):
    """NCHW float32 of the image resized to multiples of 32 (longest side at
    most limit_side), ImageNet-normalized; and the (x, y) scale applied."""
    w, h = image.size
    ratio = min(1.0, limit_side / max(w, h))
    rw = max(32, int(round(w * ratio / 32)) * 32)
    rh = max(32, int(round(h * ratio / 32)) * 32)
    pixels = np.asarray(image.convert("RGB").resize((rw, rh), Image.BILINEAR), np.float32)
    x = (pixels / 255.0 - IMAGENET_MEAN) / IMAGENET_STD
    return x.transpose(2, 0, 1)[None].copy(), (rw / w, rh / h)


def label_regions(mask):
    """8-connected regions of a boolean map, as lists of runs (y, x0, x1),
    x1 exclusive. Runs of adjacent rows that touch are merged (union-find)."""
    runs = []
    row_runs = []  # per row: (first run index, count)
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), np.int8)
    padded[:, 1:-1] = mask
    steps = np.diff(padded, axis=1)
    for y in range(mask.shape[0]):
        starts = np.flatnonzero(steps[y] == 1)
        ends = np.flatnonzero(steps[y] == -1)
        row_runs.append((len(runs), len(starts)))
        runs.extend((y, int(s), int(e)) for s, e in zip(starts, ends))
    parent = list(range(len(runs)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for y in range(1, mask.shape[0]):
        above_first, above_count = row_runs[y - 1]
        first, count = row_runs[y]
        a, b = above_first, first
        while a < above_first + above_count and b < first + count:
            _, a0, a1 = runs[a]
            _, b0, b1 = runs[b]
            if a0 <= b1 and b0 <= a1:  # touching, diagonals included
                parent[find(b)] = find(a)
            if a1 < b1:
                a += 1
            else:
                b += 1
    regions = {}
    for i in range(len(runs)):
        regions.setdefault(find(i), []).append(runs[i])
    return [regions[k] for k in sorted(regions)]


def convex_hull(points):
    """Counter-clockwise hull of (x, y) points (Andrew's monotone chain)."""
    pts = sorted(set(map(tuple, points)))
    if len(pts) <= 2:
        return np.array(pts, np.float64)

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) -
                                     (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(reversed(pts))
    return np.array(lower[:-1] + upper[:-1], np.float64)


def min_area_rect(points):
    """(center, (width, height), unit x axis) of the smallest rectangle
    holding the points, trying every hull edge direction."""
    hull = convex_hull(points)
    if len(hull) < 3:
        lo, hi = hull.min(axis=0), hull.max(axis=0)
        return (lo + hi) / 2, hi - lo, np.array([1.0, 0.0])
    edges = np.roll(hull, -1, axis=0) - hull
    axes = edges / np.maximum(np.linalg.norm(edges, axis=1, keepdims=True), 1e-12)
    normals = np.stack([-axes[:, 1], axes[:, 0]], axis=1)
    along, across = hull @ axes.T, hull @ normals.T  # [points, edges]
    extent_a = along.max(axis=0) - along.min(axis=0)
    extent_n = across.max(axis=0) - across.min(axis=0)
    best = int(np.argmin(extent_a * extent_n))
    axis, normal = axes[best], normals[best]
    mid_a = (along[:, best].max() + along[:, best].min()) / 2
    mid_n = (across[:, best].max() + across[:, best].min()) / 2
    center = mid_a * axis + mid_n * normal
    size = np.array([extent_a[best], extent_n[best]])
    if abs(axis[0]) < abs(axis[1]):  # keep the width axis closest to horizontal
        axis, size = np.array([normal[0], normal[1]]), size[::-1]
    if axis[0] < 0:
        axis = -axis
    return center, size, axis


def rect_corners(center, size, axis):
    """Corners top-left, top-right, bottom-right, bottom-left (y down)."""
    normal = np.array([-axis[1], axis[0]])
    half_w, half_h = size[0] / 2 * axis, size[1] / 2 * normal
    return np.array([center - half_w - half_h, center + half_w - half_h,
                     center + half_w + half_h, center - half_w + half_h])


def mean_inside(prob, corners):
    """Mean of the map inside the polygon (DB's box score)."""
    h, w = prob.shape
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(corners.max(axis=0)).astype(int), 0, [w - 1, h - 1])
    mask = Image.new("L", (x1 - x0 + 1, y1 - y0 + 1), 0)
    ImageDraw.Draw(mask).polygon([tuple(p) for p in corners - [x0, y0]], fill=1)
    mask = np.asarray(mask, bool)
    return float(prob[y0:y1 + 1, x0:x1 + 1][mask].mean()) if mask.any() else 0.0


def db_boxes(prob, thresh=0.3, box_thresh=0.6, unclip_ratio=1.5, min_size=3):
    """DB post-processing of a probability map: [(corners [4, 2], score)]."""
    boxes = []
    for region in label_regions(prob > thresh):
        points = [(x, y) for y, x0, x1 in region for x in (x0, x1 - 1)]
        center, size, axis = min_area_rect(points)
        if min(size) < min_size:
            continue
        score = mean_inside(prob, rect_corners(center, size, axis))
        if score < box_thresh:
            continue
        # Unclip: the polygon offset by area * ratio / perimeter; for a
        # rectangle that is the same rectangle grown by it on every side.
        distance = size[0] * size[1] * unclip_ratio / (2 * (size[0] + size[1]))
        grown = size + 2 * distance
        if min(grown) < min_size + 2:
            continue
        boxes.append((rect_corners(center, grown, axis), score))
    boxes.sort(key=lambda b: (round(b[0][:, 1].min() / 10), b[0][:, 0].min()))
    return boxes


# ---- direction classifier -------------------------------------------------

def crop(image, corners):
    """The box straightened to an upright (width, height) image."""
    width = int(round(np.linalg.norm(corners[1] - corners[0])))
    height = int(round(np.linalg.norm(corners[3] - corners[0])))
    quad = corners[[0, 3, 2, 1]].ravel().tolist()  # PIL: NW, SW, SE, NE
    return image.transform((max(width, 1), max(height, 1)), Image.QUAD, quad, Image.BILINEAR)


def cls_input(line_image):
    w, h = line_image.size
    width = min(CLS_WIDTH, max(1, int(np.ceil(CLS_HEIGHT * w / h))))
    pixels = np.asarray(line_image.convert("RGB").resize((width, CLS_HEIGHT), Image.BILINEAR),
                        np.float32)
    x = np.zeros((1, 3, CLS_HEIGHT, CLS_WIDTH), np.float32)
    x[0, :, :, :width] = ((pixels / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)
    return x


# ---- the example ----------------------------------------------------------

def detect(image, det, cls=None):
    """[{'box': corners in image pixels, 'score', 'angle', 'angle_score'}]."""
    x, (sx, sy) = det_input(image)
    prob = run(det, x)[0, 0]
    lines = []
    for corners, score in db_boxes(prob):
        corners = corners / [sx, sy]
        line = {"box": corners, "score": score}
        if cls is not None:
            probs = run(cls, cls_input(crop(image, corners)))[0]
            line["angle"] = CLS_LABELS[int(np.argmax(probs))]
            line["angle_score"] = float(probs.max())
        lines.append(line)
    return lines


def draw(image, lines):
    """The image with every box outlined and labelled "index: angle"."""
    out = image.convert("RGB")
    pen = ImageDraw.Draw(out)
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 12)
    except OSError:
        font = ImageFont.load_default()
    for i, line in enumerate(lines):
        corners = [tuple(p) for p in line["box"]]
        pen.polygon(corners, outline=(220, 30, 30), width=2)
        label = f"{i}: {line['angle']}\u00b0" if "angle" in line else str(i)
        pen.text((corners[0][0], corners[0][1] - 14), label, fill=(220, 30, 30), font=font)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("image")
    parser.add_argument("--out", help="write the image with the boxes drawn (PNG, JPEG, ...)")
    parser.add_argument("--det_model", default=str(SHARED / "ppocr_det_en_PP-OCRv3"))
    parser.add_argument("--cls_model", default=str(SHARED / "ppocr_cls_mobile_v2.0"))
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        image = Image.open(args.image)
        image.load()
        det = create_predictor(args.det_model, args.threads)
        cls = create_predictor(args.cls_model, args.threads)
    except (OSError, lite.LiteError) as e:
        print(f"ocr_det: error: {e}", file=sys.stderr)
        return 1
    lines = detect(image, det, cls)
    for i, line in enumerate(lines):
        corners = " ".join(f"({x:.0f},{y:.0f})" for x, y in line["box"])
        print(f"{i}: {corners} score {line['score']:.2f} "
              f"angle {line['angle']} ({line['angle_score']:.2f})")
    if args.out:
        draw(image, lines).save(args.out)
        print(f"wrote {args.out} ({len(lines)} text boxes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
