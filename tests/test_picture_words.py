"""The camera's English sentences said again in the page's language (companion/table/picture_words.py): made by
vision itself here (vision.focus's figures, vision.locate's BoardNotFound, the camera watch's rewording), so a
sentence vision rewords is caught here rather than reaching a French page in English."""

from __future__ import annotations

import pytest

from companion.table.camera_watch import _without_calibration_advice
from companion.table.picture_words import not_found_said, problems_in
from vision.focus import MIN_FRAME, PictureQuality
from vision.locate import BoardNotFound

ENGLISH = ("picture", "board", "marker", "camera", "the ")


def vision_problems() -> list[str]:
    """Every picture problem vision.focus words, with figures (a frame too small, blurred, dark, overexposed)."""
    said = PictureQuality(edge_px=6.3, white=41.0, black=10.0, snr=30.0, clipped=0.31, markers=4,
                          frame=(640, 360)).problems()
    said += PictureQuality(edge_px=2.0, white=120.0, black=20.0, snr=9.0, clipped=0.0, markers=4,
                           frame=MIN_FRAME).problems()  # too noisy (said only when not too dark)
    return said


def test_every_picture_problem_vision_words_is_said_in_french_with_its_figures():
    problems = [*vision_problems(), "space 16 is outside the picture",
                "low confidence (0.12): the camels' colours do not fit this picture; calibrate the camera "
                "(camelup vision calibrate) in the table's light"]
    assert len(problems) == 7, problems
    french, languages = problems_in(problems, "fr")
    assert languages == ["fr"] * 7, list(zip(problems, languages, strict=True))
    assert french[0].startswith("l'image fait 640×360 : réglez la caméra sur 1280×720")
    assert french[1].startswith("l'image est floue (les bords des marqueurs font 6,3 px de large")  # 6.3 as French
    assert french[2].startswith("l'image est trop sombre (le papier blanc des marqueurs est à 41 sur 255")
    assert french[3].startswith("l'image est surexposée (31 % du plateau")
    assert french[4].startswith("l'image est trop bruitée (le contraste des marqueurs fait 9 fois le bruit")
    assert french[5].startswith("la case 16 est hors de l'image")
    assert french[6].startswith("confiance faible (0,12) : les couleurs des chameaux")
    for text in french:
        assert not any(word in text for word in ENGLISH), text


def test_a_sentence_not_known_stays_english_and_is_marked_so():
    problems = ["the picture is too dark (the markers' white paper is at 41 of 255, the reader needs at least 60): "
                "more light", "a new problem vision says one day"]
    said, languages = problems_in(problems, "fr")
    assert languages == ["fr", "en"] and said[1] == problems[1] and said[0].startswith("l'image est trop sombre")
    assert problems_in(problems, "en") == (problems, ["en", "en"])


@pytest.mark.parametrize("error, french", [
    (BoardNotFound([0, 1, 2, 3]), "marqueurs 0 (en haut à gauche), 1 (en haut à droite), 2 (en bas à droite), "
                                  "3 (en bas à gauche) non vus : tournez la caméra vers le plateau"),
    (BoardNotFound([2], disagree=True), "marqueur 2 (en bas à droite) non vu : faites-le entrer dans l'image, ou "
                                        "enlevez ce qui le couvre ; les marqueurs vus (0, 1, 3) ne s'accordent pas"),
    (BoardNotFound([2, 3], {0: 41.0, 1: 57.2}), "marqueurs 2 (en bas à droite), 3 (en bas à gauche) non vus : "
                                                "tournez la caméra vers le plateau pour que les quatre soient dans "
                                                "l'image, et enlevez ce qui les couvre ; les marqueurs 0, 1 sont à "
                                                "57 px de leur place : la caméra a-t-elle bougé ?"),
    (BoardNotFound([3], {0: 30.0}), "marqueur 3 (en bas à gauche) non vu : faites-le entrer dans l'image, ou enlevez "
                                    "ce qui le couvre ; le marqueur 0 est à 30 px de sa place"),
])
def test_why_the_board_is_not_found_is_said_in_french(error, french):
    message = _without_calibration_advice(str(error))  # as the camera watch says it to the host
    said = not_found_said(message, "fr")
    assert said is not None and said.startswith(french), said
    assert not any(word in said for word in ENGLISH), said
    # With a whole-picture problem said first (vision.focus.not_found_words), the markers' part is still found.
    assert not_found_said(message.replace("board not found: ", "board not found: the picture is black: ...; "),
                          "fr") == said


def test_a_not_found_message_with_a_part_not_known_here_is_not_half_translated():
    moved = str(BoardNotFound([2], {0: 57.0}))  # vision read's own advice (calibrate again), not the watch's
    assert not_found_said(moved, "fr") is None
    assert not_found_said("the camera stopped", "fr") is None


def test_a_camera_that_cannot_be_opened_is_said_in_french():
    from companion.table.picture_words import unavailable_said
    from vision.sources import CameraError, open_source

    with pytest.raises(CameraError) as error:  # a webcam that is not there, as OpenCV reports it
        open_source("webcam", "/dev/video97").read()
    message = f"{error.value}: play goes on by hand"  # as the camera watch says it
    said = unavailable_said(message, "fr")
    assert said == ("impossible d'ouvrir la caméra '/dev/video97' : est-elle branchée, et cet utilisateur est-il "
                    "dans le groupe video ?"), said
    assert unavailable_said("the camera stopped (boom): play goes on by hand", "fr") is None
