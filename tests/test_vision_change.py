"""vision.change: which spaces' windows of a still camera's picture changed since a reference frame, after the
exposure and white balance drift, tolerant of a pixel or two of a bumped board; and which a large change reaching
in from the picture's edge (an arm) lies over."""

from __future__ import annotations

import cv2
import numpy as np

from vision.change import NO_CHANGE_KNOWN, change_since

WINDOWS = {1: (40, 40, 60, 60), 2: (160, 40, 60, 60), 3: (280, 40, 60, 60), 4: (40, 160, 60, 60),
           5: (160, 160, 60, 60), 6: (280, 160, 60, 60)}


def board(seed: int = 3) -> np.ndarray:
    """A textured board (smooth blotches, as a printed board's art) with a little noise."""
    rng = np.random.default_rng(seed)
    art = cv2.resize(rng.uniform(60, 200, (30, 40, 3)).astype(np.float32), (400, 300), interpolation=cv2.INTER_CUBIC)
    return np.clip(art, 0, 255)


def photo(picture: np.ndarray, gain=(1.0, 1.0, 1.0), seed: int = 0) -> np.ndarray:
    noisy = picture * np.array(gain, np.float32) + np.random.default_rng(seed).normal(0, 2.5, picture.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def test_the_same_board_in_another_exposure_and_white_balance_a_pixel_off_is_unchanged() -> None:
    reference = photo(board())
    drifted = photo(np.roll(board(), (1, 2), axis=(0, 1)), gain=(1.25, 1.1, 0.85), seed=1)
    change = change_since(reference, drifted, WINDOWS)
    assert change.unchanged == set(WINDOWS), change.changed
    assert change.under_arm == frozenset()


def test_a_camel_set_down_changes_its_space_only() -> None:
    reference = photo(board())
    picture = board()
    cv2.ellipse(picture, (190, 195), (9, 6), 0, 0, 360, (40, 60, 200), -1)  # a small red camel on space 5
    change = change_since(reference, photo(picture, gain=(0.9, 0.9, 0.9), seed=2), WINDOWS)
    assert change.unchanged == set(WINDOWS) - {5}, change.changed


def test_an_arm_reaching_in_from_the_edge_covers_the_spaces_it_lies_over() -> None:
    reference = photo(board())
    picture = board()
    cv2.line(picture, (0, 200), (190, 190), (40, 90, 30), 36)  # a dark green sleeve from the left to space 5
    change = change_since(reference, photo(picture, seed=3), WINDOWS)
    assert 5 in change.under_arm and 4 in change.under_arm and not change.under_arm & {1, 2, 3, 6}
    assert {5, 4}.isdisjoint(change.unchanged) and {1, 2, 3} <= change.unchanged
    # The same patch of change away from the picture's edges is no arm (a camel, a tile).
    island = board()
    cv2.circle(island, (190, 190), 25, (40, 90, 30), -1)
    assert change_since(reference, photo(island, seed=4), WINDOWS).under_arm == frozenset()


def test_pictures_of_another_size_say_nothing() -> None:
    assert change_since(photo(board()), photo(board())[:200], WINDOWS) is NO_CHANGE_KNOWN
