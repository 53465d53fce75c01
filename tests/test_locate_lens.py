"""The lens fit of a following frame: kept while the markers stay where they were, fitted again once they move."""

import cv2
import numpy as np
import pytest

from vision.board import load_template
from vision.locate import fit_lens
from vision.read import Pose

SIZE = (1280, 720)


def _corners(template, shift=(0.0, 0.0), k1=-0.15):
    """Each marker's corners as a camera with radial distortion ``k1`` sees them, moved by ``shift`` pixels."""
    matrix = np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]])
    rvec, tvec = np.array([2.3, 0.1, -0.1]), np.array([-330.0, 50.0, 800.0])
    found = {}
    for marker in template.markers:
        points = np.array([(x, y, 0.0) for x, y in template.marker_corners(marker)])
        pixels, _ = cv2.projectPoints(points, rvec, tvec, matrix, np.array([k1, 0, 0, 0, 0]))
        found[marker] = pixels.reshape(-1, 2) + np.array(shift)
    return found


def test_the_same_corners_give_the_fit_found_for_them_without_fitting_again():
    template = load_template("2014")
    corners = _corners(template)
    first = fit_lens(template, corners, SIZE, 850.0)
    again = fit_lens(template, {marker: quad.copy() for marker, quad in corners.items()}, SIZE, 850.0)
    assert first is not None and again is first
    assert first.radial == pytest.approx(-0.15, abs=0.01)
    # Its arrays are shared by every frame that asks: nobody may change them.
    with pytest.raises(ValueError):
        first.translation[0] = 0.0


def test_a_camera_that_moved_gets_its_lens_fitted_again():
    template = load_template("2014")
    still = fit_lens(template, _corners(template), SIZE, 850.0)
    moved = fit_lens(template, _corners(template, shift=(6.0, -4.0)), SIZE, 850.0)
    assert still is not None and moved is not None and moved is not still
    # The pose follows the markers: it puts their corners where they are now seen (the old one 7 px off).
    now = _corners(template, shift=(6.0, -4.0))
    points = np.array([(x, y, 0.0) for marker in now for x, y in template.marker_corners(marker)])
    seen = np.concatenate(list(now.values()))
    for fitted, off in ((moved, 0.5), (still, None)):
        pose = Pose(fitted.matrix, fitted.rotation, fitted.translation, fitted.radial)
        error = np.linalg.norm(pose.project(points) - seen, axis=1).mean()
        assert error < off if off else error > 6, error
    assert moved.radial == pytest.approx(still.radial, abs=0.01)


def test_a_different_guess_or_a_lens_without_distortion_is_fitted_on_its_own():
    template = load_template("2014")
    corners = _corners(template)
    bent = fit_lens(template, corners, SIZE, 850.0)
    straight = fit_lens(template, corners, SIZE, 850.0, radial=False)
    assert bent is not None and straight is not None and straight is not bent
    assert straight.radial == 0.0 and bent.radial != 0.0
