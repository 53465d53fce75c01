"""Where to start the camera beside the limits the checks allow: the placement page's "Allowed" column is the
guidance's limits, and below it the README's per-camera start positions, this camera's when the companion knows
it (picamera2's sensor model: imx708 a Camera Module 3, imx219 a Camera Module 2; a USB webcam), else each
camera's; doctor says the same in words."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import cv2
import pytest

from companion.table.placement_still import StillRequests, source_camera
from companion.table.placement_view import placement_words
from companion.table.web import create_app
from tests.browser_kit import SHOTS, new_page, served
from tests.fake_picamera2 import forget_fake_picamera2, install_fake_picamera2, picamera2_source
from tests.test_placement_page import SETUP
from vision import guidance
from vision.photo import make_table, render_scene
from vision.sources import PiCamera, Webcam

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


@pytest.fixture
def picamera2(tmp_path, monkeypatch):
    def install(properties: str) -> PiCamera:
        install_fake_picamera2(tmp_path, monkeypatch, picamera2_source(properties=properties))
        return PiCamera(settle_seconds=0)

    yield install
    forget_fake_picamera2()


@pytest.mark.parametrize(("properties", "camera"), [
    ('{"Model": "imx708", "PixelArraySize": (4608, 2592)}', "cm3"),
    ('{"Model": "imx708_noir"}', "cm3"),
    ('{"Model": "imx219"}', "cm2"),
    ('{"Model": "imx708_wide"}', guidance.WIDE),
    ('{"Model": "ov5647"}', None),  # a Camera Module 1: too narrow for the board, no start position
    ("{}", None),
])
def test_a_pi_camera_is_known_by_the_sensor_picamera2_reports(picamera2, properties, camera):
    source = picamera2(properties)
    assert source_camera(source) == camera
    requests = StillRequests()
    requests.serve(source, None)  # the camera's thread notes which camera it holds
    assert requests.camera == camera


def test_a_webcam_is_one_of_about_70_degrees_and_image_files_are_not_known(tmp_path):
    webcam = Webcam.__new__(Webcam)  # not opened: only its kind matters
    assert source_camera(webcam) == "webcam"
    assert source_camera(SimpleNamespace(read=lambda: None)) is None


@pytest.mark.parametrize(("name", "row"), [
    ("Pi Camera Module 3", "Raspberry Pi Camera Module 3"),
    ("Pi Camera Module 2", "Raspberry Pi Camera Module 2"),
    ("USB webcam", "a USB webcam"),
])
def test_the_start_positions_are_the_readme_s_table(name, row):
    line = next(line for line in README.splitlines() if line.startswith(f"| {row}"))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    summary = guidance.start_summary(name)
    low, high = summary.distance_cm
    distance = (f"{low}–{high} cm" if low != high else f"{low} cm") + "".join(
        f" ({cm} cm at {first}–{last}°)" for cm, (first, last) in summary.also)
    assert cells[1] == distance and cells[2] == f"{summary.angle_deg[0]}–{summary.angle_deg[1]}°"
    # Inside the limits the checks allow (and narrower: where to start, not how far one may go).
    assert guidance.DISTANCE_MM[0] / 10 <= min(cm for cm, _ in guidance.START_POSITIONS[name])
    assert high <= guidance.DISTANCE_MM[1] / 10 and summary.angle_deg[1] <= guidance.ELEVATION_DEG[1]


@pytest.fixture(scope="module")
def table():
    return make_table(203, "2018")


@pytest.fixture(scope="module")
def frame(table):
    picture, _ = render_scene(table, {1: ["red"], 2: ["green", "blue"]}, 1, "light")
    return picture


def _served(tmp_path, table, frame, camera):
    watch = SimpleNamespace(template=table.template, latest_frame=frame, stills=SimpleNamespace(camera=camera))
    app = create_app(tmp_path, testing=True, camera=watch)
    client = app.test_client()
    game = client.post("/api/games", json={"edition": "2018", "players": ["Ann", "Bob"], "dice": "manual",
                                           "setup": SETUP}).get_json()
    return app, client, game


@pytest.mark.parametrize("camera", ["cm3", None])
def test_the_findings_carry_where_to_start_this_camera(tmp_path, table, frame, camera):
    _, client, game = _served(tmp_path, table, frame, camera)
    found = client.get(f"/camera/placement?frame=json&game={game['game_id']}",
                       headers={"Authorization": f"Bearer {game['host_token']}"}).get_json()
    assert found["guidance"]["distance_mm"] == [650.0, 900.0]  # the limits: the "Allowed" column
    assert found["start"]["camera"] == camera
    cm3 = {"distance_cm": [85, 90], "angle_deg": [35, 45], "also": [{"cm": 80, "angle_deg": [35, 40]}]}
    assert found["start"]["positions"]["cm3"] == cm3
    assert set(found["start"]["positions"]) == ({"cm3"} if camera else {"cm3", "cm2", "webcam"})


def test_doctor_says_where_to_start_after_what_to_change(tmp_path, table, frame, monkeypatch):
    import vision.sources

    far = cv2.GaussianBlur(frame, (0, 0), 3)  # a picture doctor has advice about
    source = SimpleNamespace(read=lambda: far, close=lambda: None, sensor="imx219")
    monkeypatch.setattr(vision.sources, "open_source", lambda kind, target: source)
    settings = SimpleNamespace(camera="picamera2", camera_source="", camera_board="2018", camera_calibration=None)
    ok, words = placement_words(settings)
    assert not ok and words.endswith("; where to start with this camera (Pi Camera Module 2): 90 cm (85 cm at "
                                     "35–40°) away, looking down 35–45°, straight on (README)")
    source.sensor = None
    ok, words = placement_words(settings)
    assert "; where to start (README): Pi Camera Module 3: 85–90 cm (80 cm at 35–40°) away, looking down 35–45°; " \
        "Pi Camera Module 2: 90 cm" in words


EXPECTED = {
    ("en", "cm3"): ("Where to start with this camera (Camera Module 3)",
                    ["85–90 cm (80 cm at 35–40°) away, looking down 35–45°, straight on"]),
    ("fr", "cm3"): ("Où commencer avec cette caméra (Camera Module 3)",
                    ["85 à 90 cm (80 cm entre 35 et 40°), regard plongeant de 35 à 45°, bien en face"]),
    ("en", None): ("Where to start, per camera",
                   ["Camera Module 3: 85–90 cm (80 cm at 35–40°) away, looking down 35–45°, straight on",
                    "Camera Module 2: 90 cm (85 cm at 35–40°) away, looking down 35–45°, straight on",
                    "a USB webcam of about 70°: 75–90 cm away, looking down 35–45°, straight on"]),
}


def _shown(text: str) -> str:
    """As the page keeps a number on one line with its unit."""
    return re.sub(r"(\d) ", "\\1\u00a0", text)


@pytest.mark.parametrize(("lang", "camera"), list(EXPECTED))
def test_the_page_says_the_allowed_limits_and_where_to_start(tmp_path, browser, table, frame, lang, camera):
    from playwright.sync_api import expect

    app, _, game = _served(tmp_path, table, frame, camera)
    errors: list[str] = []
    with served(app) as port:
        for size, viewport in (("phone", {"width": 390, "height": 844}), ("screen", {"width": 1920, "height": 1080})):
            page = new_page(browser, errors, "host", lang, viewport=viewport, is_mobile=size == "phone")
            page.goto(f"http://127.0.0.1:{port}/camera/placement?game={game['game_id']}&token={game['host_token']}")
            numbers = page.locator("#placement-numbers")
            expect(numbers.locator("thead th").last).to_have_text("Allowed" if lang == "en" else "Admis")
            distance = numbers.locator("tbody tr").first
            expect(distance.locator("td").last).to_have_text(re.compile("65\u00a0?(–|à )90\u00a0cm"))
            title, lines = EXPECTED[lang, camera]
            expect(page.locator("#placement-start-title")).to_have_text(title)
            expect(page.locator("#placement-start-list li")).to_have_text([_shown(line) for line in lines])
            expect(page.locator("#placement-start p")).to_contain_text("9 cm")
            # Readable: the hint inside its card, no wider than the screen.
            box = page.locator("#placement-start").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            page.screenshot(path=str(SHOTS / f"placement-start-{lang}-{camera}-{size}.png"), full_page=True)
            page.context.close()
        assert errors == []
