"""After a restart (``camelup serve`` stopped and started again: the Pi rebooted mid-evening) the camera reads the
edition of the race in play from its first frame, not the configured board until a page asks: the game played last
among those whose race is not over (from the store), else the configured board. A game created later still takes
the camera, as before the restart."""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import cv2

import vision.calibrate
from companion.cli import _make_camera, _serve_app
from companion.table.camera_edition import camera_setup
from companion.table.camera_watch import CameraWatch, wait_for
from companion.table.camera_words import text
from companion.table.config import load_settings
from companion.table.service import SimulatedPyramid
from companion.table.store import GameRow, Store
from tests.test_camera_follows_edition import CLEAN, STARTS
from vision.board import load_template
from vision.calibrate import Calibration, save_calibration
from vision.read import BOARD_BGR
from vision.sources import ImageFiles
from vision.synth import EDITION_CAMELS, camel_profiles, render_scene


class Evening:
    """One table, one data directory: ``serve`` started (and started again), the board on the table a picture
    file the files camera reads."""

    def __init__(self, folder: Path, board: str) -> None:
        self.picture = folder / "board.png"
        self.settings = dataclasses.replace(load_settings(None), camera="files", camera_source=str(self.picture),
                                            camera_board=board, data=folder / "data")
        self.apps: list = []

    def show(self, edition: str) -> ImageFiles:
        image, _ = render_scene(load_template(edition), STARTS[edition], 3, CLEAN)
        cv2.imwrite(str(self.picture), image)
        return ImageFiles(self.picture)

    def serve(self, first_frame: bool = False):
        """``camelup serve`` starts (again): its app and camera, as serve builds them. The camera's own thread is
        stopped (the test steps it frame by frame); with ``first_frame`` it reads its first frame by itself."""
        for app in self.apps:  # the previous run stops
            watch = app.extensions["camera"]
            if watch is not None:
                watch.stop()
        app = _serve_app(self.settings, SimulatedPyramid(random.Random(1)), None)
        self.apps.append(app)
        watch = app.extensions["camera"]
        assert watch is not None
        if first_frame:
            wait_for(watch, {"unsettled", "reading", "board not found", "unavailable"})
        watch.stop()
        return app.test_client(), watch


def _game(client, edition: str) -> tuple[str, dict[str, str]]:
    setup = {"track": {str(space): stack for space, stack in STARTS[edition].items()}}
    made = client.post("/api/games", json={"edition": edition, "players": ["A", "B"], "dice": "manual",
                                           "setup": setup}).get_json()
    return made["game_id"], {"Authorization": f"Bearer {made['host_token']}"}


def _bet(client, game: str, host: dict[str, str], camel: str) -> None:
    response = client.post(f"/api/games/{game}/actions", headers=host,
                           json={"type": "leg_bet", "player": "A", "camel": camel})
    assert response.status_code == 200, response.get_json()


def _finish(client, game: str, host: dict[str, str]) -> None:
    """The race played to its end with pyramid tickets."""
    for _ in range(60):
        state = client.get(f"/api/games/{game}/state", headers=host).get_json()
        if state["game_over"]:
            return
        die = state["legal"]["dice"][0]
        action = {"player": state["next_player"], "type": "pyramid", "die": die, "value": 3}
        if die == "grey":
            action["crazy"] = "black"
        response = client.post(f"/api/games/{game}/actions", headers=host, json=action)
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the race did not end")


def _report(client, game: str, host: dict[str, str]) -> dict:
    return client.get(f"/api/games/{game}/camera", headers=host).get_json()


def _reports_until_verdict(client, watch: CameraWatch, source, game, host, frames: int = 6) -> list[dict]:
    reports = [_report(client, game, host)]
    for _ in range(frames):
        if "verdict" in reports[-1]:
            break
        watch.step(source)
        reports.append(_report(client, game, host))
    return reports


def test_after_a_restart_the_camera_reads_the_2018_race_in_play_from_its_first_frame(tmp_path):
    evening = Evening(tmp_path, board="2014")  # the configured board, as most tables set it
    client, watch = evening.serve()
    assert watch.edition == "2014"
    game, host = _game(client, "2018")
    _bet(client, game, host, "red")

    evening.show("2018")  # the 2018 race stays on the table while the Pi reboots
    client, watch = evening.serve(first_frame=True)
    # Before any page asks: the 2018 board, its colours, and the host's line says so.
    assert watch.edition == "2018" and watch.template.edition == "2018" and not watch.switching()
    assert sorted(watch.profiles) == sorted(EDITION_CAMELS["2018"])
    assert text(watch.learnt_words).startswith("2018 edition: "), text(watch.learnt_words)
    assert client.get("/api/camera").get_json()["edition"] == "2018"
    # Its first frame was read as the 2018 board: no switch is waited for, and the game's verdict follows.
    reports = _reports_until_verdict(client, watch, ImageFiles(evening.picture), game, host)
    assert all(report["state"] not in ("switching", "other board") for report in reports), reports
    assert all(report.get("edition") == "2018" for report in reports), reports
    assert reports[-1]["verdict"]["matches"] is True, reports[-1]
    assert "camels look like" not in " ".join(reports[-1]["verdict"]["problems"])

    # A game created later waits while the race in play holds the camera (companion.table.camera_game), as before a
    # restart, and takes it once that race is over.
    newer, newer_host = _game(client, "2014")
    assert _report(client, newer, newer_host)["state"] == "other game"
    assert watch.edition == "2018" and not watch.switching()
    _finish(client, game, host)
    reports = _reports_until_verdict(client, watch, evening.show("2014"), newer, newer_host)
    assert reports[0]["state"] == "switching", reports[0]
    assert watch.edition == "2014" and reports[-1]["verdict"]["matches"] is True, reports[-1]


def test_an_older_race_still_open_does_not_take_the_camera_from_the_race_played_last(tmp_path):
    evening = Evening(tmp_path, board="2014")
    client, _ = evening.serve()
    older, older_host = _game(client, "2014")
    game, host = _game(client, "2018")
    _bet(client, game, host, "red")

    client, watch = evening.serve()
    assert watch.edition == "2018"
    # The 2014 race's page asks first after the restart (its phone was left open): the race played last holds the
    # camera again, which stays on 2018.
    report = _report(client, older, older_host)
    assert report["state"] == "other game", report
    assert not watch.switching() and watch.edition == "2018"
    assert "verdict" in _reports_until_verdict(client, watch, evening.show("2018"), game, host)[-1]


def test_a_finished_2018_race_and_a_2014_race_not_over_start_on_2014(tmp_path):
    evening = Evening(tmp_path, board="2018")  # set up for 2018: the race in play is what counts
    client, _ = evening.serve()
    open_race, open_host = _game(client, "2014")
    _bet(client, open_race, open_host, "blue")
    done, done_host = _game(client, "2018")
    _finish(client, done, done_host)  # played last, but over

    client, watch = evening.serve(first_frame=True)
    assert watch.edition == "2014" and sorted(watch.profiles) == sorted(EDITION_CAMELS["2014"])
    assert text(watch.learnt_words).startswith("2014 edition: ")
    reports = _reports_until_verdict(client, watch, evening.show("2014"), open_race, open_host)
    assert all(report["state"] not in ("switching", "other board") for report in reports), reports
    assert reports[-1]["verdict"]["matches"] is True, reports[-1]

    # Every race over: the configured board. An undo after the finish opens the 2018 race again: it is in play.
    _finish(client, open_race, open_host)
    assert evening.serve()[1].edition == "2018"
    evening.settings = dataclasses.replace(evening.settings, camera_board="2014")
    assert evening.serve()[1].edition == "2014"
    client, _ = evening.serve()
    assert client.post(f"/api/games/{done}/undo", headers=done_host).status_code == 200
    assert evening.serve()[1].edition == "2018"


def test_the_store_names_the_race_played_last_that_is_not_over(tmp_path):
    store = Store(tmp_path / "games.sqlite3", clock=itertools.count(100.0).__next__)
    assert store.in_play_last() is None  # no game yet

    def row(game_id: str, edition: str, created: float) -> GameRow:
        return GameRow(game_id, created, edition, ["A", "B"], {"track": {}}, "manual", "h", "t", {}, None)

    store.create_game(row("a", "2014", 1.0))
    store.create_game(row("b", "2018", 2.0))
    assert store.in_play_last() == ("b", "2018", 2.0)  # created last, nothing entered yet
    at = store.append("a", 1, "action", {}, "A").at  # an entry makes it the one played last
    assert store.in_play_last() == ("a", "2014", at)
    store.append("b", 1, "action", {}, "A", result={"winners": ["A"]})  # b's race ends: played last, but over
    assert store.in_play_last() == ("a", "2014", at)
    at = store.append("b", 2, "undo", {}, "A", result=None).at  # and is on again
    assert store.in_play_last() == ("b", "2018", at)
    store.append("a", 2, "action", {}, "A", result={"winners": ["B"]})
    store.append("b", 3, "action", {}, "A", result={"winners": ["A"]})
    assert store.in_play_last() is None  # every race over


def test_an_edition_the_camera_does_not_check_is_not_started_on(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    wrong = save_calibration(Calibration(load_template("2014"), camel_profiles("2014"), BOARD_BGR),
                             tmp_path / "table.json")
    # The 2018 setting names a 2014 calibration: 2018 games are not checked, so a 2018 race in play leaves the
    # camera on the configured board, which it checks.
    found = camera_setup("2014", None, {"2018": str(wrong)}, data, None, in_play="2018")
    assert found.first == "2014" and "2018" in found.unchecked
    # A 2014 race in play on a table set up for 2018: 2014.
    assert camera_setup("2018", None, {}, data, None, in_play="2014").first == "2014"
    assert camera_setup("2018", None, {}, data, None, in_play=None).first == "2018"


def test_at_start_up_each_configured_calibration_file_is_read_once(tmp_path, monkeypatch):
    cal14 = save_calibration(Calibration(load_template("2014"), camel_profiles("2014"), BOARD_BGR), tmp_path / "a.json")
    cal18 = save_calibration(Calibration(load_template("2018"), camel_profiles("2018"), BOARD_BGR), tmp_path / "b.json")
    read: list[str] = []
    load = vision.calibrate.load_calibration

    def counted(path):
        read.append(str(path))
        return load(path)

    monkeypatch.setattr(vision.calibrate, "load_calibration", counted)
    evening = Evening(tmp_path, board="2018")
    settings = dataclasses.replace(evening.settings, camera_calibration=str(cal14), camera_calibration_2018=str(cal18))
    watch = _make_camera(settings)
    assert watch is not None
    watch.stop()
    assert sorted(read) == sorted([str(cal14), str(cal18)])  # checked and used from one reading
    # What was read is what it reads with: the single file (2014: it starts on it), the 2018 file for 2018 games.
    assert watch.edition == "2014" and watch.calibration_file == str(cal14)
    watch.follow("a 2018 game", "2018", 1.0)
    watch.step(evening.show("2018"))
    assert watch.edition == "2018" and watch.calibration_file == str(cal18)
    assert watch.profiles == load(cal18).profiles and len(read) == 2
