"""The OCR example: its numpy DB post-processing on synthetic maps, the
committed test page, and (with ../shared/models) the detector + direction
classifier on that page, checked against the page's known line positions."""

import pathlib

import numpy as np
import pytest
from PIL import Image, ImageDraw

import make_test_page
import ocr_det

HERE = pathlib.Path(__file__).resolve().parent


def polygon_mask(size, corners):
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).polygon([tuple(p) for p in corners], fill=1)
    return np.asarray(mask, bool)


def test_committed_page_is_the_generated_one():
    committed = np.asarray(Image.open(HERE / "test_page.png").convert("RGB"))
    assert np.array_equal(committed, np.asarray(make_test_page.render_page()))


def test_regions_are_eight_connected():
    mask = np.zeros((6, 8), bool)
    mask[1, 1] = mask[2, 2] = mask[3, 3] = True  # one diagonal stroke
    mask[1, 6] = mask[2, 6] = True               # a separate bar
    regions = ocr_det.label_regions(mask)
    assert sorted(sum(x1 - x0 for _, x0, x1 in r) for r in regions) == [2, 3]


def test_db_boxes_on_a_synthetic_map():
    prob = np.zeros((200, 300), np.float32)
    prob[40:60, 50:150] = 0.9  # 100 x 20 kernel, axis-aligned
    rotated = ocr_det.rect_corners(np.array([200.0, 140.0]), np.array([80.0, 16.0]),
                                   np.array([np.cos(np.pi / 6), np.sin(np.pi / 6)]))
    prob[polygon_mask((300, 200), rotated)] = 0.8
    prob[150:152, 10:12] = 0.9  # too small: dropped
    prob[10:30, 200:290] = 0.4  # above thresh, below box_thresh: dropped
    boxes = ocr_det.db_boxes(prob)
    assert len(boxes) == 2
    (flat, flat_score), (tilted, tilted_score) = boxes
    # Pixel centres span 99 x 19; unclip grows each side by
    # 99 * 19 * 1.5 / (2 * (99 + 19)) = 11.95.
    assert flat_score == pytest.approx(0.9)
    np.testing.assert_allclose(flat.min(axis=0), [50 - 11.95, 40 - 11.95], atol=0.01)
    np.testing.assert_allclose(flat.max(axis=0), [149 + 11.95, 59 + 11.95], atol=0.01)
    assert tilted_score > 0.75
    direction = tilted[1] - tilted[0]
    assert np.degrees(np.arctan2(direction[1], direction[0])) == pytest.approx(30, abs=2)


@pytest.fixture(scope="module")
def predictors(shared_models):
    return (ocr_det.create_predictor(shared_models / "ppocr_det_en_PP-OCRv3"),
            ocr_det.create_predictor(shared_models / "ppocr_cls_mobile_v2.0"))


def test_boxes_cover_the_rendered_lines(predictors):
    page = make_test_page.render_page()
    lines = ocr_det.detect(page, *predictors)
    known = make_test_page.line_boxes()
    covered = np.zeros(page.size[::-1], bool)
    for line in lines:
        box = polygon_mask(page.size, line["box"])
        covered |= box
        # Every box lies on exactly one rendered line (none spans two, none
        # is found where nothing was drawn).
        hits = [text for text, (x0, y0, x1, y1) in known
                if box[y0:y1, x0:x1].sum() > 0.5 * box.sum()]
        assert len(hits) == 1, (line["box"], hits)
        assert line["angle"] == "0" and line["angle_score"] > 0.9
    for text, (x0, y0, x1, y1) in known:
        assert covered[y0:y1, x0:x1].mean() > 0.75, text


def test_upside_down_page_reads_180(predictors):
    lines = ocr_det.detect(make_test_page.render_page().rotate(180), *predictors)
    assert len(lines) >= len(make_test_page.LINES)
    assert all(line["angle"] == "180" for line in lines)


def test_command_line_writes_the_picture(shared_models, tmp_path, capsys):
    out = tmp_path / "boxes.png"
    assert ocr_det.main([str(HERE / "test_page.png"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == f"wrote {out} ({len(printed) - 1} text boxes)"
    assert Image.open(out).size == make_test_page.SIZE


def test_missing_model_is_a_one_line_error(tmp_path, capsys):
    assert ocr_det.main([str(HERE / "test_page.png"), "--det_model", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ocr_det: error: ") and str(tmp_path / "none") in err
