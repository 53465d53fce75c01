"""The companion watching the board: stable readings compared with the game, and a camera that fails."""

import random

import cv2

from companion.camera_watch import CameraWatch, camera_report, wait_for
from companion.service import SimulatedPyramid
from companion.web import create_app
from vision.board import load_template
from vision.sources import CameraError, ImageFiles, open_source
from vision.synth import CAMEL_BGR, EDITION_CAMELS, SceneVariation, render_scene

CLEAN = SceneVariation(light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95),
                       hand_chance=0.0)
# One camel a space, rendered clean with seed 3: a scene the reader reads fully right (the first test checks it).
TRACK = {2: ["green"], 5: ["yellow"], 7: ["red"], 10: ["blue"], 12: ["purple"], 14: ["black"], 16: ["white"]}


def scene_file(tmp_path, seed=3):
    template = load_template("2018")
    image, _ = render_scene(template, TRACK, seed, CLEAN)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), image)
    return template, path


def profiles():
    return {camel: CAMEL_BGR[camel] for camel in EDITION_CAMELS["2018"]}


def test_stable_reading_matches_the_game_and_differences_are_in_words(tmp_path):
    template, path = scene_file(tmp_path)
    watch = CameraWatch(lambda: ImageFiles(path), template, profiles(), agree=2)
    source = ImageFiles(path)
    assert watch.step(source).state == "unsettled"
    status = watch.step(source)
    assert status.state == "reading" and status.track == TRACK
    same = camera_report(status, {space: tuple(stack) for space, stack in TRACK.items()})
    assert same["differences"] == [] and same["message"] == "the board matches the game"
    moved = {**{k: v for k, v in TRACK.items() if k != 7}, 8: ["red"]}
    differ = camera_report(status, {space: tuple(stack) for space, stack in moved.items()})
    assert differ["differences"] == ["red should be alone on 8; the camera sees it alone on 7"]


def test_a_camera_that_cannot_start_is_a_notice_not_a_crash(tmp_path):
    template = load_template("2018")
    watch = CameraWatch(lambda: open_source("webcam", "/dev/no-such-camera"), template, profiles()).start()
    status = wait_for(watch, {"unavailable"})
    assert status.state == "unavailable" and "play goes on by hand" in status.message
    watch.stop()

    def broken():
        raise CameraError("the ribbon cable is loose")

    assert wait_for(CameraWatch(broken, template, profiles()).start(), {"unavailable"}).state == "unavailable"


def test_the_table_screen_gets_the_camera_report(tmp_path):
    template, path = scene_file(tmp_path)
    watch = CameraWatch(lambda: ImageFiles(path), template, profiles(), interval=0.01, agree=2).start()
    wait_for(watch, {"reading"})
    app = create_app(tmp_path / "data", SimulatedPyramid(random.Random(1)), "http://t", testing=True, camera=watch)
    client = app.test_client()
    setup = {"track": {str(space): stack for space, stack in TRACK.items()}}
    game = client.post("/api/games", json={"edition": "2018", "players": ["A", "B"], "dice": "manual",
                                           "setup": setup}).get_json()
    report = client.get(f"/api/games/{game['game_id']}/camera",
                        headers={"Authorization": f"Bearer {game['table_token']}"}).get_json()
    assert report["state"] == "reading" and report["differences"] == []
    other = client.post("/api/games", json={"edition": "2014", "players": ["A", "B"], "dice": "manual"}).get_json()
    assert client.get(f"/api/games/{other['game_id']}/camera",
                      headers={"Authorization": f"Bearer {other['host_token']}"}).get_json()["state"] == "other board"
    watch.stop()
    without = create_app(tmp_path / "data2", None, "http://t", testing=True).test_client()
    plain = without.post("/api/games", json={"edition": "2018", "players": ["A", "B"]}).get_json()
    assert without.get(f"/api/games/{plain['game_id']}/camera",
                       headers={"Authorization": f"Bearer {plain['host_token']}"}).get_json()["state"] == "off"
