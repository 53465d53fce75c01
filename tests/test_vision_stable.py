"""A board is steady once its picture has stayed still for several frames; its reading is the still frames'
consensus."""

import cv2
import numpy as np
import pytest

from vision.read import Reading
from vision.stable import StableReadings, StillPicture, consensus

BOARD = {3: ["green", "red"], 7: ["blue"]}
REGION = (20, 10, 300, 190)
CAMEL = (60, 40)  # about a camel's size in a 1280x720 frame's board region cut to this small picture


def reading(track, unseen=(), confidence=0.9):
    return Reading(track, confidence, [f"the {camel} camel is not seen" for camel in unseen], tuple(unseen))


def scene(camels=((100, 80, (40, 200, 60)), (200, 120, (200, 90, 30))), hand=None):
    """A sandy board with textured print and a few camels (x, y, BGR), maybe an arm (x, y) over it."""
    texture = np.random.default_rng(7).normal(0, 25, (200, 320, 1)).astype(np.float32)
    image = np.clip(np.array([150, 200, 225], np.float32) + cv2.GaussianBlur(texture, (0, 0), 2)[:, :, None], 0, 255)
    image = image.astype(np.uint8)
    for x, y, colour in camels:
        cv2.rectangle(image, (x, y), (x + CAMEL[0] // 6, y + CAMEL[1] // 6), colour, -1)
    if hand is not None:
        cv2.ellipse(image, hand, (60, 18), 30, 0, 360, (110, 150, 205), -1)
    return image


def noisy(image, seed, sigma=4.0, gain=0.03):
    """The same picture as a camera reads it again: fresh sensor noise, the exposure breathing, a JPEG."""
    rng = np.random.default_rng(seed)
    frame = image.astype(np.float32) * (1 + rng.normal(0, gain)) + rng.normal(0, sigma, image.shape)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], cv2.IMREAD_COLOR)


def test_a_still_board_whose_reading_flickers_is_steady_and_read_by_consensus():
    # The blind reading of a still board flickers (uncalibrated colours, sensor noise): red unseen on one frame,
    # a level off on another. The picture does not move, so the board is steady after three frames, and each
    # camel is where more than two thirds of its still frames put it.
    still = scene()
    flicker = [reading(BOARD), reading({3: ["green"], 7: ["blue"]}, ["red"]),
               reading({3: ["red", "green"], 7: ["blue"]}), reading(BOARD), reading(BOARD, confidence=0.5)]
    stable = StableReadings(agree=3)
    answers = []
    for seed, one in enumerate(flicker):
        answers.append((stable.feed(one, noisy(still, seed), REGION), stable.unseen))
    assert answers[:2] == [(None, ()), (None, ())]
    assert answers[2] == ({3: ["green"], 7: ["blue"]}, ("red",))  # red: two frames of three
    assert answers[3:] == [(BOARD, ()), (BOARD, ())] and stable.frames == 5
    assert len(stable.still_readings) == 5
    assert stable.reading.confidence == pytest.approx(np.mean([0.9, 0.9, 0.9, 0.9, 0.5]))


def test_a_moving_hand_or_a_moved_camel_is_never_steady_however_the_readings_agree():
    still = scene()
    stable = StableReadings(agree=2)
    same = reading(BOARD)  # even a reader that says the same every frame
    assert stable.feed(same, noisy(still, 1), REGION) is None
    assert stable.feed(same, noisy(still, 2), REGION) == BOARD and stable.run == 1
    for k in range(4):  # an arm sliding over the board
        assert stable.feed(same, noisy(scene(hand=(60 + 30 * k, 60 + 10 * k)), 3 + k), REGION) is None
        assert stable.frames == 1 and stable.reading is None and stable.unseen == ()
    assert stable.feed(same, noisy(still, 7), REGION) is None  # the first still frame again: a new run
    assert stable.feed(same, noisy(still, 8), REGION) == BOARD and stable.run == 6  # the arm: four runs of one
    # One camel put down a few pixels (about 2 cm on the board) further on, no hand in view.
    moved = scene(camels=((100, 80, (40, 200, 60)), (215, 120, (200, 90, 30))))
    assert stable.feed(same, noisy(moved, 9), REGION) is None
    assert stable.feed(same, noisy(moved, 10), REGION) == BOARD
    # The camera bumped: the board's region is found elsewhere.
    assert stable.feed(same, noisy(moved, 11), (30, 10, 310, 190)) is None
    assert stable.feed(None) is None and stable.frames == 0 and stable.unseen == () and stable.run == 9
    assert stable.feed(None) is None and stable.run == 9
    with pytest.raises(ValueError):
        stable.feed(same)
    with pytest.raises(ValueError):
        StableReadings(agree=0)


def test_a_camel_hidden_in_every_frame_does_not_keep_a_still_board_from_counting():
    # The pyramid hides blue in every frame: the board is still, and counts, blue unseen.
    hidden = {3: ["green", "red"]}
    still = scene()
    stable = StableReadings(agree=3)
    for seed in range(2):
        assert stable.feed(reading(hidden, ["blue"]), noisy(still, seed), REGION) is None
    assert stable.feed(reading(hidden, ["blue"]), noisy(still, 2), REGION) == hidden
    assert stable.unseen == ("blue",)


def test_the_picture_is_still_through_noise_exposure_and_shake_but_not_a_small_camel_moved():
    picture = StillPicture()
    still = scene()
    assert not picture.feed(noisy(still, 0), REGION)  # the first frame starts the run
    shaken = cv2.warpAffine(still, np.float32([[1, 0, 0.6], [0, 1, -0.4]]), (320, 200), borderMode=cv2.BORDER_REPLICATE)
    assert all(picture.feed(noisy(frame, seed, sigma=6, gain=0.06), REGION)
               for seed, frame in enumerate([still, still, shaken, still], 1))
    moved = scene(camels=((100, 80, (40, 200, 60)), (200, 128, (200, 90, 30))))  # 8 px: about 1.5 cm
    assert picture.changed_pixels(noisy(moved, 9), REGION) > picture.config.pixels
    assert picture.changed_pixels(noisy(still, 10)[:150], REGION) is None  # a smaller picture is another one
    # The markers' jitter moves the board's region by a pixel or two: the run's region is compared, still the same.
    assert picture.feed(noisy(still, 11), (21, 12, 301, 189))
    # The camera bumped by a few pixels: the picture has changed even where the markers are found the same.
    bumped = cv2.warpAffine(still, np.float32([[1, 0, 4], [0, 1, 2]]), (320, 200), borderMode=cv2.BORDER_REPLICATE)
    assert picture.changed_pixels(noisy(bumped, 12), REGION) > picture.config.pixels


def test_consensus_puts_each_camel_where_most_frames_do_and_leaves_the_rest_unseen():
    readings = [
        reading({3: ["green", "red"], 7: ["blue"]}),
        reading({3: ["green"], 8: ["blue"], 7: ["red"]}),
        reading({3: ["red", "green"], 9: ["blue"]}, ["white"]),
    ]
    agreed = consensus(readings, share=0.5)
    # green and red on 3 in every frame; their order as two of three frames give it; blue never twice alike.
    assert agreed.track == {3: ["green", "red"]}
    assert agreed.unseen == ("blue", "white")
    assert agreed.problems == ["the blue camel is not seen", "the white camel is not seen"]
    # No frame shows all three on 3 at once: ordered by where they stood in the frames that showed them.
    parts = [["green", "red"], ["green", "blue"], ["red", "blue"], ["green", "red"], ["red", "blue"]]
    assert consensus([reading({3: stack}) for stack in parts], share=0.5).track == {3: ["green", "red", "blue"]}
    # By default more than two thirds must agree: two frames of three are not enough, three of four are.
    two_of_three = [reading({3: ["green", "red"]}), reading({3: ["green"], 7: ["red"]}), reading({3: ["green", "red"]})]
    assert consensus(two_of_three, share=0.5).track == {3: ["green", "red"]}
    assert consensus(two_of_three).track == {3: ["green"]} and consensus(two_of_three).unseen == ("red",)
    assert consensus([*two_of_three, reading({3: ["green", "red"]})]).track == {3: ["green", "red"]}
    with pytest.raises(ValueError):
        consensus([])
    with pytest.raises(ValueError):
        consensus(two_of_three, share=1.0)


def test_a_dim_picture_is_still_when_it_does_not_change():
    """In a dim room most of the picture can lie below the 8 grey levels the exposure's gain was once measured
    against, while the markers' paper stays bright: the same frame twice came out thousands of pixels changed (a
    gain of an eighth), and the camera waited for ever for a still board."""
    dim = (scene().astype(np.float32) * 0.02).astype(np.uint8)  # a dark room: grey 2 to 5...
    dim[40:160, 60:260] = scene()[40:160, 60:260]  # ...but for the lamp's pool of light on the board
    dim[70:90, 120:150] = (250, 250, 250)  # and a marker's white paper in it
    assert np.median(dim) < 8
    picture = StillPicture()
    assert not picture.feed(dim, REGION)
    assert picture.changed_pixels(dim, REGION) == 0
    assert picture.feed(dim.copy(), REGION)
    assert picture.feed(noisy(dim, 1, sigma=1.0, gain=0.02), REGION)
