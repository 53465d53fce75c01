"""A scorer's camel colours are fixed: the shadings each may be seen in (``camel_shadings``) are worked out once per
scorer and handed to each window's evidence and to the other tone's check, which then give what they gave working
them out themselves, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import vision.silhouette as silhouette
import vision.silhouette_evidence as evidence_module
import vision.silhouette_geometry as geometry
from tests.photo_kit import calibrated
from vision.photo import make_table, render_scene
from vision.read import ReadConfig, observe
from vision.silhouette import FitConfig, SilhouetteScorer
from vision.silhouette_evidence import camel_evidence, camel_shadings, like_other_tone

TRACK = {3: ["yellow"], 6: ["orange", "white"], 11: ["blue"]}
PROFILES = np.array([[9.0, 11.0, 10.0], [70.0, 150.0, 205.0], [124.0, 148.0, 174.0], [16.0, 15.0, 114.0]],
                    np.float32)


def test_a_scorer_works_the_shadings_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table(515_151, "2014")
    colours = calibrated(table, "light")
    image, _ = render_scene(table, TRACK, seed=4, tier="light")
    observation = observe(ReadConfig(), table.template, image)
    calls = []

    def counted(fit: FitConfig, profiles: np.ndarray) -> tuple[float, np.ndarray]:
        calls.append(len(profiles))
        return camel_shadings(fit, profiles)

    monkeypatch.setattr(silhouette, "camel_shadings", counted, raising=False)
    monkeypatch.setattr(evidence_module, "camel_shadings", counted)
    geometry._last_shapes.clear()
    scorer = SilhouetteScorer(observation, colours.profiles, table.template, board_bgr=colours.board_bgr)
    assert len(scorer.spaces) > 10  # (the windows' evidence was worked out, each without working the shadings out)
    assert calls == [len(colours.profiles)]


def test_shadings_handed_in_give_the_same_evidence_bit_for_bit() -> None:
    fit = FitConfig()
    rng = np.random.default_rng(11)
    pixels = rng.uniform(0, 255, (3000, 3)).astype(np.float32)
    board = np.array([150, 200, 230], np.float32)
    known = [PROFILES[0], None, PROFILES[1], PROFILES[2], PROFILES[3]]
    table = (np.array([40, 60, 90], np.float32), rng.uniform(0, 1, 3000) < 0.3)
    shadings = camel_shadings(fit, PROFILES)
    for glare in (0.0, fit.glare):
        worked_out = camel_evidence(fit, pixels, board, known, table, glare=glare)
        handed_in = camel_evidence(fit, pixels, board, known, table, glare=glare, shadings=shadings)
        for mine, theirs in zip(handed_in, worked_out, strict=True):
            assert mine.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("row", range(len(PROFILES)))
def test_a_colours_row_of_the_shadings_tells_the_other_tone_as_its_own_do(row: int) -> None:
    fit = FitConfig()
    rng = np.random.default_rng(row)
    pixels = rng.uniform(0, 255, (40, 50, 3)).astype(np.float32)
    board_distance = rng.uniform(0, 0.3, (40, 50)).astype(np.float32)
    tone = np.array([90, 150, 200], np.float32)
    darkest, brightest = camel_shadings(fit, PROFILES)
    alone = like_other_tone(fit, pixels, board_distance, PROFILES[row], tone)
    handed_in = like_other_tone(fit, pixels, board_distance, PROFILES[row], tone, (darkest, brightest[row : row + 1]))
    assert alone.any() and not alone.all()
    assert np.array_equal(handed_in, alone)
