"""The host's "Calibration:" line with a calibration file configured ([camera] calibration = FILE): the builder
sees their file is in use, also while the camera waits for a board of this game to learn from."""

import dataclasses

import cv2

from companion.cli import _make_camera
from companion.table.camera_watch import CameraWatch
from companion.table.camera_words import text
from companion.table.config import load_settings
from vision.board import load_template
from vision.calibrate import reading_colours, save_calibration
from vision.sources import ImageFiles
from vision.synth import CAMEL_BGR, EDITION_CAMELS, SceneVariation, render_scene

CLEAN = SceneVariation(light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95),
                       hand_chance=0.0)
TRACK = {2: ["green"], 5: ["yellow"], 7: ["red"], 10: ["blue"], 12: ["purple"], 14: ["black"], 16: ["white"]}


def test_a_configured_calibration_file_is_named_not_called_no_calibration(tmp_path):
    image, _ = render_scene(load_template("2018"), TRACK, 3, CLEAN)
    photo, calibration = tmp_path / "board.png", tmp_path / "my-table.json"
    cv2.imwrite(str(photo), image)
    save_calibration(reading_colours("2018"), calibration)
    settings = dataclasses.replace(load_settings(None), camera="files", camera_source=str(photo), camera_board="2018",
                                   camera_calibration=str(calibration), data=tmp_path / "data")
    watch = _make_camera(settings)
    try:
        assert watch is not None and watch.learnt == f"calibrated from {calibration}", watch.learnt
    finally:
        watch.stop()

    # A lesson waiting, then refused (the game says otherwise than the table shows): still "from FILE".
    profiles = {camel: CAMEL_BGR[camel] for camel in EDITION_CAMELS["2018"]}
    watch = CameraWatch(lambda: ImageFiles(photo), load_template("2018"), profiles, agree=1,
                        calibration_file="my-table.json")
    watch.learn("game", 1, {**TRACK, 2: ["yellow"], 5: ["green"]})
    assert watch.learnt == ("calibrated from my-table.json; not yet from a board of this game: waiting for a steady "
                            "frame of the board the game confirmed")
    watch.step(ImageFiles(photo))
    assert watch.learnt == ("calibrated from my-table.json; not yet from a board of this game: the board differs "
                            "from the game; it tries again later"), watch.learnt
    watch.forget("game")
    assert watch.learnt == ("calibrated from my-table.json; not yet from a board of this game: it learns from the "
                            "next board the game confirms (a leg's start)")


def test_the_line_names_the_camels_a_lesson_left_out(tmp_path, monkeypatch):
    """A camel hidden on the board the camera learnt from (behind the pyramid at a 2018 start) keeps the colour it
    had: the host is told which, since a camel that read badly before still will."""
    import vision.calibrate

    image, _ = render_scene(load_template("2018"), TRACK, 3, CLEAN)
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), image)
    profiles = {camel: CAMEL_BGR[camel] for camel in EDITION_CAMELS["2018"]}
    learnt = vision.calibrate.calibrate_from_board

    for hidden, english, french in (
        ((), "calibrated from a board the game confirmed", "étalonnée sur un plateau confirmé par la partie"),
        (("white",), "calibrated from a board the game confirmed; the white camel was hidden there and keeps the "
         "colour it had", "étalonnée sur un plateau confirmé par la partie ; le chameau blanc, caché, garde la "
         "couleur qu'il avait"),
        (("blue", "green", "white"), "calibrated from a board the game confirmed; the blue, green and white camels "
         "were hidden there and keep the colours they had", "étalonnée sur un plateau confirmé par la partie ; les "
         "chameaux bleu, vert et blanc, cachés, gardent les couleurs qu'ils avaient"),
    ):
        def hiding(*args, left_out=hidden, **kwargs):  # the real lesson, as if these camels stood behind the pyramid
            return dataclasses.replace(learnt(*args, **kwargs), left_out=left_out)

        monkeypatch.setattr(vision.calibrate, "calibrate_from_board", hiding)
        watch = CameraWatch(lambda: ImageFiles(photo), load_template("2018"), profiles, agree=1)
        watch.learn("game", 1, TRACK)
        watch.step(ImageFiles(photo))
        assert watch.learnt == english, watch.learnt
        assert text(watch.learnt_words, "fr") == f"édition 2018 : {french}", text(watch.learnt_words, "fr")
