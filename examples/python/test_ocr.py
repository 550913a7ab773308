"""The OCR example: the engine's CTC decoding and DB boxes as the module
exposes them (hand-built probabilities with known decodes; the DB boxes
against ocr_det.py's numpy version on a synthetic map), and (with
../shared/models) every line of the committed test page read exactly,
upright and upside down, and the command line."""

import pathlib

import numpy as np
import pytest
from PIL import Image

import make_test_page
import ocr
import ocr_det
from paddlelite import lite

HERE = pathlib.Path(__file__).resolve().parent
# The page's lines as words in reading order (the wide gap inside the
# invoice line makes it two boxes).
PAGE_WORDS = " ".join(text for text, *_ in make_test_page.LINES).split()


def one_hot(classes, count):
    return np.eye(count, dtype=np.float32)[classes] * 0.8 + 0.2 / count


def test_ctc_decode_collapses_repeats_and_drops_blanks():
    classes = ["", "a", "b", " "]
    text, score = lite.ctc_greedy_decode(one_hot([1, 1, 0, 1, 3, 2, 2, 0], 4), classes)
    assert text == "aa b"
    assert score == pytest.approx(0.85)
    with pytest.raises(lite.LiteError, match="5 classes"):
        lite.ctc_greedy_decode(one_hot([1], 5), classes)


def test_dictionary_file(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_bytes("x\r\ny\n中".encode())
    assert lite.load_ctc_dictionary(str(keys)) == ["", "x", "y", "中", " "]
    with pytest.raises(lite.LiteError, match="nothing.txt"):
        lite.load_ctc_dictionary(str(tmp_path / "nothing.txt"))


def test_db_boxes_agree_with_the_numpy_version():
    prob = np.zeros((200, 300), np.float32)
    prob[40:60, 50:150] = 0.9
    prob[120:150, 30:250] = 0.7
    prob[150:152, 10:12] = 0.9  # too small for both
    engine = lite.db_boxes(prob, unclip_ratio=2.0)
    numpy = ocr_det.db_boxes(prob, unclip_ratio=2.0)
    assert len(engine) == len(numpy) == 2
    for (corners, score), (np_corners, np_score) in zip(engine, numpy):
        np.testing.assert_allclose(corners, np_corners, atol=1e-6)
        assert score == pytest.approx(np_score, abs=1e-6)


@pytest.fixture(scope="module")
def models(shared_models):
    return (ocr_det.create_predictor(shared_models / "ppocr_det_en_PP-OCRv3"),
            ocr_det.create_predictor(shared_models / "ppocr_cls_mobile_v2.0"),
            ocr_det.create_predictor(ocr.REC_MODEL),
            lite.load_ctc_dictionary(str(ocr.REC_MODEL / "ppocr_keys_v1.txt")))


def test_reads_every_line_of_the_test_page(models):
    lines = ocr.read(Image.open(HERE / "test_page.png"), *models)
    assert " ".join(line["text"] for line in lines).split() == PAGE_WORDS
    assert all(line["text_score"] > 0.8 for line in lines)


def test_batches_read_the_page_as_one_line_at_a_time(models):
    page = Image.open(HERE / "test_page.png")
    one = ocr.read(page, *models, batch=1)
    batched = ocr.read(page, *models)
    assert [line["text"] for line in batched] == [line["text"] for line in one]
    crops = [ocr_det.crop(page, line["box"]) for line in one]
    _, runs = ocr.recognize(crops, models[2], models[3])
    assert runs < len(crops)  # some lines did share a run


def test_reads_the_page_upside_down(models):
    lines = ocr.read(make_test_page.render_page().rotate(180), *models)
    assert all(line["angle"] == "180" for line in lines)
    # Turned, the reading order is bottom-up, right to left: reverse it. The
    # detector's boxes on the turned page are a few pixels lower than on the
    # upright one, and the recognizer drops the spaces of the two tightest
    # lines (HELLO WORLD, small print): the characters are compared.
    read = "".join(line["text"] for line in reversed(lines)).replace(" ", "")
    assert read == "".join(PAGE_WORDS)


@pytest.mark.parametrize("angle", [90, -90])
def test_reads_the_page_sideways(models, angle):
    # The lines run down the page: their crops are tall and turned to lie flat.
    lines = ocr.read(make_test_page.render_page().rotate(angle, expand=True), *models)
    words = " ".join(line["text"] for line in lines).split()
    assert sorted(words) == sorted(PAGE_WORDS)


def test_command_line_prints_the_text_and_draws_it(models, tmp_path, capsys):
    out = tmp_path / "lines.png"
    assert ocr.main([str(HERE / "test_page.png"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == f"wrote {out} ({len(printed) - 1} lines)"
    assert printed[0].startswith("0: Paddle models from Python  (score ")
    assert Image.open(out).size == make_test_page.SIZE


def test_missing_dictionary_is_a_one_line_error(tmp_path, capsys):
    assert ocr.main([str(HERE / "test_page.png"), "--rec_keys", str(tmp_path / "none.txt")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ocr: error: ") and "none.txt" in err
