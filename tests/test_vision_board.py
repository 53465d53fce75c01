"""Board templates and the printable marker sheet."""

import json
import re
import struct
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from vision.board import MARKER_IDS, TemplateError, load_template, parse_template, ring_template
from vision.markers import DPI, marker_sheet


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_shipped_templates_load_with_16_spaces_and_4_markers(edition):
    template = load_template(edition)
    assert template.edition == edition and sorted(template.spaces) == list(range(1, 17))
    assert sorted(template.markers) == list(MARKER_IDS)
    # Spaces do not overlap markers, and the ring runs clockwise from the top left.
    assert template.space_centre(1)[1] < template.space_centre(6)[1] < template.space_centre(9)[1]
    assert template.space_centre(1)[0] < template.space_centre(5)[0]
    assert template.space_centre(16)[0] == template.space_centre(1)[0]
    width, height = template.size
    for marker_id in MARKER_IDS:
        for x, y in template.marker_corners(marker_id):
            assert 0 <= x <= width and 0 <= y <= height


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.pop("spaces"), "'spaces' is missing"),
        (lambda t: t["spaces"].pop("7"), "every space"),
        (lambda t: t["markers"].pop("2"), "ids 0, 1, 2 and 3"),
        (lambda t: t["markers"].__setitem__("1", [5]), "markers.1: must be [x, y]"),
        (lambda t: t.__setitem__("marker_size", -3), "marker_size"),
        (lambda t: t["spaces"].__setitem__("3", [[0, 0], [1, 0], [1, 1]]), "spaces.3 must list 4 corners"),
    ],
)
def test_bad_templates_name_the_key(change, words):
    data = ring_template("2018")
    change(data)
    with pytest.raises(TemplateError, match=re.escape(words)):
        parse_template(json.loads(json.dumps(data)))


def test_unknown_edition_or_file(tmp_path):
    with pytest.raises(TemplateError, match="neither an edition"):
        load_template("1999")
    path = tmp_path / "mine.json"
    path.write_text("{oops")
    with pytest.raises(TemplateError, match="not JSON"):
        load_template(str(path))


def test_the_marker_sheet_has_the_four_markers_at_their_true_size():
    sheet = marker_sheet(50.0)
    assert sheet.shape == (round(297 / 25.4 * DPI), round(210 / 25.4 * DPI))
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    corners, ids, _ = detector.detectMarkers(sheet)
    assert sorted(ids.flatten().tolist()) == [0, 1, 2, 3]
    for quad in corners:
        side_px = abs(quad[0][1][0] - quad[0][0][0]) + 1
        assert side_px / DPI * 25.4 == pytest.approx(50.0, abs=0.3)
    with pytest.raises(ValueError, match="20 to 80 mm"):
        marker_sheet(150)


def test_markers_command_writes_a_png_that_says_its_dpi(tmp_path, capsys):
    out = tmp_path / "markers.png"
    assert main(["vision", "markers", "--out", str(out)]) == 0
    data = out.read_bytes()
    at = data.index(b"pHYs")
    x_per_metre, y_per_metre, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1 and x_per_metre == y_per_metre == round(DPI / 0.0254)
    assert cv2.imread(str(out)) is not None
    assert main(["vision", "markers", "--out", str(tmp_path / "sheet.pdf")]) == 2
    assert "PNG" in capsys.readouterr().err


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_shipped_templates_are_the_ring_board_generator_s(edition):
    # Markers about 5 cm out from the track's corners: regenerate rather than edit by hand.
    shipped = json.loads((Path(__file__).parents[1] / "vision" / "templates" / f"board-{edition}.json").read_text())
    assert shipped == json.loads(json.dumps(ring_template(edition)))
    template = load_template(edition)
    gap = template.spaces[1][0][0] - (template.markers[0][0] + template.marker_size)
    assert gap >= 40
