"""The scorer's evidence does not depend on the order in which the camels' colours are named. A patch of one colour
lying under another camel's colour stays (a camel standing on the one whose band it is); that was judged on the
evidence as the earlier colours' forgotten patches had left it, so a band could be kept or forgotten by the order of
the names (independent renderer, development seed 97, table 5, light, scene 0: the yellow evidence of space 8's
window).
"""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.calibration_independent import calibration_photo
from benchmarks.camera_independent import bench_table, calibration_board, suffix
from benchmarks.independent.scene import render
from companion.cli import main
from vision.calibration_file import load_calibration
from vision.image_file import load_photo
from vision.read import ReadConfig, observe
from vision.silhouette import SilhouetteScorer

SEED, TABLE, LIGHT, SCENE = 97, 5, "light", 0
TRACK = {11: ["yellow"], 13: ["orange", "green"], 12: ["white"], 15: ["blue"]}
"""That scene's board, in the order the bench drew it (the renderer's draws follow it)."""


@pytest.fixture(scope="module")
def scorers(tmp_path_factory):
    """That scene's scorer with the camels' names in the calibration's order and reversed, and which colours'
    patches were found lying under another camel's colour, per window (``_under_a_camel`` answering yes)."""
    folder = tmp_path_factory.mktemp("order")
    table, board = bench_table(SEED, TABLE, {edition: calibration_board(edition) for edition in ("2014", "2018")})
    photo = folder / f"calibration.{suffix(LIGHT)}"
    calibration_photo(table, board, LIGHT, photo)
    out = folder / "cal.json"
    assert main(["vision", "calibrate", str(photo), "--board", table.edition, "--out", str(out)]) == 0
    calibration = load_calibration(str(out))
    scene = folder / f"scene.{suffix(LIGHT)}"
    render(table, LIGHT, TRACK, SCENE + 1, str(scene))
    image = load_photo(str(scene))
    seen = observe(ReadConfig(), calibration.template, image)
    named = list(calibration.profiles.items())
    kept: set[tuple[int, str]] = set()
    judged = SilhouetteScorer._lying_flat
    under = SilhouetteScorer._under_a_camel

    def lying_flat(self, window, found, label, limit, surely):
        def under_a_camel(surely, label, box):
            answer = under(surely, label, box)
            if answer:
                kept.add((window.space, self.names[label]))
            return answer
        self._under_a_camel = under_a_camel
        try:
            return judged(self, window, found, label, limit, surely)
        finally:
            del self._under_a_camel

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SilhouetteScorer, "_lying_flat", lying_flat)
        made = [SilhouetteScorer(seen, dict(order), calibration.template, fit=calibration.fit(),
                                 board_bgr=calibration.board_bgr) for order in (named, named[::-1])]
    return made, kept


def test_each_camels_evidence_is_the_same_whatever_the_order_of_the_names(scorers):
    (first, reversed_), kept = scorers
    # The scene still asks the question: on space 8 a yellow patch is kept as lying under another camel's colour.
    assert (8, "yellow") in kept
    assert first.names == reversed_.names[::-1]
    assert set(first._windows) == set(reversed_._windows)
    for space, window in first._windows.items():
        other = reversed_._windows[space]
        for label, name in enumerate(first.names):
            assert np.array_equal(window.evidence[..., label], other.evidence[..., reversed_.names.index(name)]), (
                space, name)
