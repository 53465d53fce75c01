"""The camels' real size is part of a table's calibration: saved, corrected by hand, named when wrong, read with."""

import dataclasses
import json
import types

import pytest

from vision.calibrate import CalibrationError, load_calibration, reading_colours, save_calibration
from vision.camel_size import CamelSize


@pytest.fixture
def saved(tmp_path):
    return save_calibration(reading_colours("2018"), tmp_path / "table.json")


def _edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def test_a_calibration_records_the_usual_size_and_a_file_from_before_it_loads_with_it(saved):
    assert json.loads(saved.read_text())["camel_size"] == {"length_mm": 30.0, "width_mm": 14.0, "step_mm": 19.5}
    old = _edit(saved, lambda data: data.pop("camel_size"))
    loaded = load_calibration(old)
    assert loaded.camel_size == CamelSize() and loaded.camel_size.usual
    assert (loaded.fit().length_mm, loaded.fit().width_mm, loaded.fit().step_mm) == (30.0, 14.0, 19.5)


def test_a_size_corrected_by_hand_is_what_the_reader_draws_its_camels_with(saved):
    _edit(saved, lambda data: data["camel_size"].update(length_mm=32.5, step_mm=18))
    loaded = load_calibration(saved)
    assert loaded.camel_size == CamelSize(32.5, 14.0, 18.0) and not loaded.camel_size.usual
    fit = loaded.fit()
    assert (fit.length_mm, fit.width_mm, fit.step_mm) == (32.5, 14.0, 18.0)
    assert "this table's" in loaded.camel_size.describe()
    # Saved again, the hand's numbers stay.
    again = save_calibration(loaded, saved.with_name("again.json"))
    assert load_calibration(again).camel_size == loaded.camel_size


@pytest.mark.parametrize(
    ("camel_size", "words"),
    [
        ("big", "camel_size: must be an object with length_mm, width_mm, step_mm"),
        ({"length_mm": 300}, "camel_size.length_mm: must be a number of millimetres, 20 to 45"),
        ({"step_mm": "19"}, "camel_size.step_mm: must be a number of millimetres, 12 to 30"),
        ({"width_mm": True}, "camel_size.width_mm: must be a number"),
        ({"height": 22}, "camel_size.height: not a camel size"),
    ],
)
def test_a_bad_size_in_the_file_is_named(saved, camel_size, words):
    _edit(saved, lambda data: data.update(camel_size=camel_size))
    with pytest.raises(CalibrationError, match=words):
        load_calibration(saved)


def test_vision_read_with_a_calibration_reads_with_its_camels_size(saved, tmp_path, capsys, monkeypatch):
    import cv2

    import vision.reader
    import vision.silhouette
    from companion.cli import main
    from vision.photo import make_table, render_scene

    table = make_table(5, "2018")
    image, _ = render_scene(table, {3: ["red"], 8: ["blue", "white"]}, 2, "clean")
    scene = tmp_path / "scene.png"
    cv2.imwrite(str(scene), image)
    _edit(saved, lambda data: data["camel_size"].update(length_mm=31, width_mm=13.5, step_mm=18.5))
    used = []

    class Recording(vision.silhouette.SilhouetteScorer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            used.append(self.fit)

    # Where the reader looks the scorer up (it imports it once, at the top of vision.reader).
    monkeypatch.setattr(vision.reader, "SilhouetteScorer", Recording)
    assert main(["vision", "read", str(scene), "--calibration", str(saved)]) == 0
    assert json.loads(capsys.readouterr().out)["track"]
    assert used and {(fit.length_mm, fit.width_mm, fit.step_mm) for fit in used} == {(31.0, 13.5, 18.5)}


def test_calibrating_from_a_known_board_keeps_the_size_it_is_given():
    from vision.calibrate import calibrate_from_board
    from vision.photo import make_table, render_calibration
    from vision.read import ReadConfig
    from vision.synth import EDITION_CAMELS

    table = make_table(31, "2014")
    photo, truth = render_calibration(table, 0, "clean")
    layout = {int(space): stack for space, stack in truth["track"].items()}
    size = CamelSize(31.0, 14.5, 19.0)
    calibration = calibrate_from_board(ReadConfig(), table.template, list(EDITION_CAMELS["2014"]), photo, layout,
                                       camel_size=size)
    assert calibration.camel_size == size and calibration.as_json()["camel_size"]["length_mm"] == 31.0


def test_doctor_names_the_calibrations_camel_size(saved):
    from companion.doctor import _camera
    from companion.table.config import load_settings

    settings = dataclasses.replace(load_settings(None), camera="picamera2", camera_calibration=str(saved))
    machine = types.SimpleNamespace(service_active=lambda: True)
    check = _camera(settings, machine)
    assert check.ok and "(camel size 30 × 14 mm, 19.5 mm higher per camel stacked, the game's)" in check.detail
    _edit(saved, lambda data: data["camel_size"].update(length_mm=28))
    assert "camel size 28 × 14 mm, 19.5 mm higher per camel stacked, this table's" in _camera(settings, machine).detail


def test_calibrating_again_keeps_the_size_entered_in_the_file_it_replaces(tmp_path, capsys):
    import cv2

    from companion.cli import main
    from vision.photo import make_table, render_calibration

    photo, saved = tmp_path / "cal.png", tmp_path / "camera.json"
    cv2.imwrite(str(photo), render_calibration(make_table(31, "2014"), 0, "clean")[0])
    assert main(["vision", "calibrate", str(photo), "--board", "2014", "--out", str(saved)]) == 0
    assert "(the game's usual" in capsys.readouterr().out
    _edit(saved, lambda data: data["camel_size"].update(length_mm=31.5))
    assert main(["vision", "calibrate", str(photo), "--board", "2014", "--out", str(saved)]) == 0
    assert "camel size: 31.5 × 14 mm, 19.5 mm higher per camel stacked (this table's" in capsys.readouterr().out
    assert load_calibration(saved).camel_size == CamelSize(31.5, 14.0, 19.5)
