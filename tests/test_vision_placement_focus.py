"""Focus and exposure (vision.focus) before the placement advice: measured on the markers' printed edges against
OpenCV's own blur arithmetic, a blurred or badly exposed picture said first (on the page, by doctor and in `vision
read`'s problems) with the advice it would make wrong held back; the Pi camera's autofocus; the calibration photo
taken while the companion holds the camera."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.table.placement_advice import advice_items
from companion.table.placement_still import PHOTO_NAME, StillRequests, capture
from tests.fake_picamera2 import forget_fake_picamera2, install_fake_picamera2, picamera2_source
from tests.test_doctor import pi  # noqa: F401  (a Raspberry Pi as doctor sees it)
from vision import focus
from vision.calibrate import calibrate
from vision.focus import measure_picture
from vision.photo import make_table, render_calibration, render_scene
from vision.placement import assess_placement
from vision.read import ReadConfig
from vision.reader import read_board
from vision.sources import CameraError, ImageFiles, PiCamera
from vision.synth import EDITION_CAMELS


def _marker_picture(width: int = 1280, side: int = 120) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """A real ArUco marker (OpenCV's own drawing) on white paper on a grey table, and its corners."""
    height = width * 9 // 16
    image = np.full((height, width, 3), 90, np.uint8)
    x0, y0 = width // 3, height // 3
    quiet = side * 8 // 70  # the sheet's 8 mm white border around a 70 mm square
    image[y0 - quiet : y0 + side + quiet, x0 - quiet : x0 + side + quiet] = 230
    marker = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), 0, side)
    image[y0 : y0 + side, x0 : x0 + side] = np.where(marker[..., None] > 0, 230, 15)
    corners = np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], np.float32) - 0.5
    return image, {0: corners}


@pytest.mark.parametrize("sigma", [0.75, 1.25, 2.0])
def test_the_edge_width_is_what_a_gaussian_blur_of_sigma_makes_of_a_printed_edge(sigma):
    image, markers = _marker_picture()
    sharp = measure_picture(image, markers).edge_px
    blurred = measure_picture(cv2.GaussianBlur(image, (0, 0), sigma), markers).edge_px
    # The same step blurred by OpenCV in one row: its contrast over its steepest pixel-to-pixel slope (about
    # σ·√(2π) for a wide blur).
    row = cv2.GaussianBlur(np.repeat(np.array([[15.0] * 40 + [230.0] * 40]), 9, axis=0), (0, 0), sigma)[4]
    expected = 215 / float(np.abs(np.diff(row)).max())
    assert sharp < 1.3
    assert blurred == pytest.approx(expected, rel=0.08)


def test_beyond_the_limit_the_width_keeps_growing_and_is_called_blurred():
    # The sheet's 8 mm of white paper bound what is measured: far past the limit the figure grows more slowly.
    image, markers = _marker_picture()
    widths = [measure_picture(cv2.GaussianBlur(image, (0, 0), sigma), markers) for sigma in (1.0, 2.5, 3.5, 5.0)]
    assert [q.edge_px for q in widths] == sorted(q.edge_px for q in widths)
    assert [q.blurred for q in widths] == [False, True, True, True]


def test_a_large_still_is_measured_in_the_pixels_of_its_1280_wide_copy():
    small, markers = _marker_picture(1280, 120)
    large, large_markers = _marker_picture(4608, 432)
    for sigma in (1.5, 3.0):
        in_small = measure_picture(cv2.GaussianBlur(small, (0, 0), sigma), markers).edge_px
        in_large = measure_picture(cv2.GaussianBlur(large, (0, 0), sigma * 3.6), large_markers).edge_px
        assert in_large == pytest.approx(in_small, abs=0.5)


def test_exposure_is_the_papers_white_and_the_inks_black_with_the_noise_on_the_paper():
    image, markers = _marker_picture()
    quality = measure_picture(image, markers)
    assert quality.white == pytest.approx(230, abs=2) and quality.black == pytest.approx(15, abs=2)
    assert quality.ok and quality.problems() == []
    dark = measure_picture((image * 0.2).astype(np.uint8), markers)
    assert dark.too_dark and "too dark" in dark.problems()[0] and f"{focus.MIN_WHITE:.0f}" in dark.problems()[0]
    # A dim room: the camera's gain brings the paper up to 150 and the noise with it.
    noise = np.random.default_rng(1).normal(0, 25, image.shape)
    dim = (image.astype(np.float32) - 15) * (135 / 215) + 15
    noisy = np.clip(dim + noise, 0, 255).astype(np.uint8)
    said = measure_picture(noisy, markers)
    # Each channel's noise, as the grey the measure looks at has it (OpenCV's weights average some of it away).
    grey_noise = float(cv2.cvtColor(noise.astype(np.float32), cv2.COLOR_BGR2GRAY).std())
    assert said.snr == pytest.approx(135 / grey_noise, rel=0.2)
    assert said.too_noisy and not said.too_dark and "too noisy" in said.problems()[0]


@pytest.fixture(scope="module")
def table():
    return make_table(203, "2018")


@pytest.fixture(scope="module")
def scene(table):
    image, truth = render_scene(table, {1: ["red", "blue"], 3: ["yellow"], 14: ["green"], 16: ["white"]}, 1,
                                "light")
    return image, truth


def test_a_blurred_picture_is_said_first_and_the_advice_blur_would_make_wrong_is_held_back(table, scene):
    image, _ = scene
    sharp = assess_placement(table.template, image)
    assert sharp.picture is not None and sharp.picture.ok and sharp.ok, sharp.advice
    # Blur that also covers marker 0 with a card: blurred, it is not "hidden by the pyramid" or anything else.
    blurred_image = cv2.GaussianBlur(image, (0, 0), 2.5)
    quad = np.array(sharp.markers[0]["corners"])
    (x0, y0), (x1, y1) = quad.min(axis=0).astype(int) - 8, quad.max(axis=0).astype(int) + 8
    blurred_image[y0:y1, x0:x1] = 200
    report = assess_placement(table.template, blurred_image)
    assert report.picture.blurred and report.advice[0].startswith("the picture is blurred")
    assert f"{report.picture.edge_px:.1f} px wide" in report.advice[0]
    assert not any("hidden" in line or "cannot be seen" in line or "cm from" in line for line in report.advice)
    items = advice_items(report.as_json())
    assert [key for key, _ in items] == ["placement.blurred"]
    assert items[0][1]["edge"] == f"{report.picture.edge_px:.1f}"


@pytest.mark.parametrize(("change", "key"), [
    (lambda image: (image * 0.25).astype(np.uint8), "placement.too_dark"),
    (lambda image: np.clip(image.astype(np.float32) * 2.5, 0, 255).astype(np.uint8), "placement.overexposed"),
])
def test_a_badly_exposed_picture_is_said_first_on_the_page_too(table, scene, change, key):
    from companion.table.placement_view import changes

    report = assess_placement(table.template, change(scene[0])).as_json()
    said = changes(report, "fr")
    assert said["change_keys"][0] == key and said["changes_language"] == "fr"
    assert report["ok"] is False and report["picture"][key.split(".")[1]] is True


def test_vision_read_names_a_blurred_picture_among_its_problems(table, scene):
    config = ReadConfig()
    photo, _ = render_calibration(table, 0, "light")
    colours = calibrate(config, table.template, list(EDITION_CAMELS["2018"]), photo)
    sharp = read_board(config, table.template, colours.profiles, scene[0], colours.board_bgr)
    assert not any("blurred" in problem for problem in sharp.problems)
    blurred = read_board(config, table.template, colours.profiles, cv2.GaussianBlur(scene[0], (0, 0), 2.5),
                         colours.board_bgr)
    assert blurred.problems[0].startswith("the picture is blurred")


def test_two_markers_judge_no_space_and_blame_no_pyramid(table):
    # The camera turned up: the near markers are in the picture, the far ones above it.
    from tests.test_vision_placement import _moved

    image, _ = render_scene(_moved(table, 800, 45, 0, aim=(0.0, -260.0)), {3: ["red"]}, 1, "clean")
    report = assess_placement(table.template, image)
    assert report.pose_markers == 2
    assert report.spaces == {} and report.hidden_spaces == []
    assert not any("pyramid" in line or "cannot be seen" in line for line in report.advice)


@pytest.fixture
def fake_picamera2(tmp_path, monkeypatch):
    """A stand-in Pi camera offering ``camera_controls`` (an expression), which keeps the controls it is sent."""
    yield lambda camera_controls: install_fake_picamera2(tmp_path, monkeypatch, picamera2_source(
        attributes="made = []", controls=camera_controls, init="self.controls = []\nPicamera2.made.append(self)",
        set_controls="self.controls.append(controls)"))
    forget_fake_picamera2()


@pytest.mark.parametrize(("controls", "autofocus"), [
    ('{"AfMode": (0, 2, 0), "ExposureTime": (1, 100000, 0)}', True),  # Camera Module 3
    ('{"ExposureTime": (1, 100000, 0)}', False),  # Camera Module 2: a fixed lens
])
def test_a_pi_camera_that_can_focus_focuses_continuously(fake_picamera2, controls, autofocus):
    fake_picamera2(controls)
    camera = PiCamera(settle_seconds=0)
    import picamera2

    sent = picamera2.Picamera2.made[-1].controls
    assert ({"AfMode": 2} in sent) == autofocus
    assert all("AfMode" not in c for c in sent[1:] if autofocus) or not autofocus, "set once, before the start"
    assert camera.autofocus == autofocus


def test_a_pi_with_little_memory_takes_no_full_resolution_still(fake_picamera2, monkeypatch):
    import vision.sources

    fake_picamera2("{}")
    camera = PiCamera(settle_seconds=0)
    monkeypatch.setattr(vision.sources, "memory_bytes", lambda: 1024**3)
    with pytest.raises(CameraError, match=r"1\.0 GB"):
        camera.still()


class _Source:
    def __init__(self, still=None):
        self._still = still

    def read(self):
        return np.zeros((720, 1280, 3), np.uint8)

    def __getattr__(self, name):
        if name == "still" and self._still is not None:
            return self._still
        raise AttributeError(name)


def test_a_still_asked_for_from_another_thread_is_taken_by_the_cameras_thread():
    import threading

    requests = StillRequests()
    frame = np.zeros((720, 1280, 3), np.uint8)
    full = np.ones((2592, 4608, 3), np.uint8)
    got = []
    asking = threading.Thread(target=lambda: got.append(requests.request(timeout=5)))
    asking.start()
    while not got:  # the camera's loop: a frame, then whatever is asked
        requests.serve(_Source(still=lambda: full), frame)
        asking.join(timeout=0.01)
    assert got[0] is full
    asking = threading.Thread(target=lambda: got.append(requests.request(timeout=5)))
    asking.start()
    while len(got) < 2:
        requests.serve(_Source(), frame)  # a webcam takes no still: its frame will do
        asking.join(timeout=0.01)
    assert got[1] is frame
    with pytest.raises(CameraError, match="no picture within"):
        StillRequests().request(timeout=0.05)  # nobody serves: the camera is not running


def test_the_placement_page_takes_the_calibration_photo_and_keeps_it_beside_the_games(tmp_path, table, scene):
    from companion.table.web import create_app

    requests = StillRequests()
    watch = SimpleNamespace(template=table.template, latest_frame=scene[0], stills=requests,
                            learnt_path=tmp_path / "camera-calibration.json")
    client = create_app(tmp_path, testing=True, camera=watch).test_client()
    from tests.test_placement_page import _game

    game = _game(client)
    import threading

    stop = threading.Event()

    def camera_thread():
        while not stop.is_set():
            requests.serve(_Source(still=lambda: scene[0]), scene[0])
            stop.wait(0.01)

    threading.Thread(target=camera_thread, daemon=True).start()
    try:
        response = client.get(f"/camera/placement?frame=still&game={game['game_id']}&token={game['host_token']}")
        refused = client.get(f"/camera/placement?frame=still&game={game['game_id']}&token={game['seats'][0]['token']}")
    finally:
        stop.set()
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.headers["X-Saved-As"] == PHOTO_NAME and response.headers["X-Board"] == "2018"
    saved = cv2.imread(str(tmp_path / PHOTO_NAME))
    assert saved.shape == scene[0].shape
    assert refused.status_code == 403 and refused.mimetype != "image/jpeg"


def test_capture_takes_the_photo_when_the_camera_is_free_and_says_where_to_get_it_when_the_service_holds_it(
        tmp_path, scene):
    source = tmp_path / "board.png"
    cv2.imwrite(str(source), scene[0])
    settings = SimpleNamespace(camera="files", camera_source=str(source), camera_board="2018", data=str(tmp_path))
    status, said = capture(settings, tmp_path / "photo.jpg", service_holds_camera=True)
    assert status == 0 and "camelup vision calibrate" in said and (tmp_path / "photo.jpg").exists()
    held = SimpleNamespace(camera="picamera2", camera_source="", camera_board="2018", data=str(tmp_path))
    status, said = capture(held, tmp_path / "other.jpg", service_holds_camera=True)
    assert status == 1 and "Take the calibration photo" in said and str(tmp_path / PHOTO_NAME) in said
    assert not (tmp_path / "other.jpg").exists()
    status, said = capture(settings, tmp_path / "missing" / "photo.jpg", service_holds_camera=False)
    assert status == 2 and "folder that exists" in said
    assert ImageFiles(tmp_path / "photo.jpg").read().shape == scene[0].shape


def test_doctor_sends_to_the_placement_page_while_the_service_holds_the_camera(pi):  # noqa: F811
    """Opening a camera the running service holds fails like a broken ribbon cable: doctor does not try."""
    from tests.test_doctor import doctor

    pi.service_active = lambda: True
    checks, summary = doctor(pi, camera="picamera2", pyramid="none")
    placement = checks["camera placement"]
    assert placement.ok and "Place the camera" in placement.detail and "ribbon" not in placement.detail
    assert "camera placement" not in summary.split("\n")[-1]
