"""The camera follows the edition of the game it checks (a group playing both editions recalibrates nothing): a
2014 game on a camera set up for 2018 is read with the 2014 board and the 2014 colours; what the camera learns is
kept per edition (the single learnt file of earlier versions still serves the edition it was learnt for); nothing
learnt for one edition reaches the other; with several games, it reads the edition of the game played last; and
the host's calibration line says which edition's colours it reads with, in French too."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import cv2
import pytest

from companion.cli import _make_camera
from companion.table.camera_edition import camera_editions
from companion.table.camera_game import OTHER_GAME
from companion.table.camera_watch import CameraWatch
from companion.table.camera_words import KEYS, text
from companion.table.config import load_settings
from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from companion.table.web.i18n import load_catalogs
from vision.board import load_template
from vision.calibrate import Calibration, CalibrationError, load_calibration, reading_colours, save_calibration
from vision.read import BOARD_BGR
from vision.sources import ImageFiles
from vision.synth import EDITION_CAMELS, SceneVariation, camel_profiles, render_scene

CLEAN = SceneVariation(light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95),
                       hand_chance=0.0)
STARTS = {
    "2014": {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]},
    "2018": {1: ["green"], 2: ["yellow", "red"], 3: ["blue", "purple"], 14: ["black"], 16: ["white"]},
}


class Table:
    """The board on the table: a picture file the camera reads, which can be swapped for the other edition's."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "board.png"
        self.pictures = {}
        for edition, start in STARTS.items():
            image, _ = render_scene(load_template(edition), start, 3, CLEAN)
            self.pictures[edition] = image

    def show(self, edition: str) -> ImageFiles:
        cv2.imwrite(str(self.path), self.pictures[edition])
        return ImageFiles(self.path)


def _calibration(folder: Path, edition: str, name: str) -> str:
    return str(save_calibration(Calibration(load_template(edition), camel_profiles(edition), BOARD_BGR),
                                folder / name))


def _settings(tmp_path: Path, **camera: str):
    return dataclasses.replace(load_settings(None), camera="files", camera_source=str(tmp_path / "board.png"),
                               data=tmp_path / "data", **camera)


def _watch(settings) -> CameraWatch:
    """The watch serve would make (not started: the test steps it frame by frame)."""
    watch = _make_camera(settings)
    assert watch is not None
    watch.stop()
    return watch


def _client(tmp_path, watch):
    return create_app(tmp_path / "data", SimulatedPyramid(random.Random(1)), "http://t", testing=True,
                      camera=watch).test_client()


def _game(client, edition: str) -> tuple[str, dict[str, str]]:
    setup = {"track": {str(space): stack for space, stack in STARTS[edition].items()}}
    made = client.post("/api/games", json={"edition": edition, "players": ["A", "B"], "dice": "manual",
                                           "setup": setup}).get_json()
    return made["game_id"], {"Authorization": f"Bearer {made['host_token']}"}


def _leave(client, minutes: int = 16) -> None:
    """The games so far are left for ``minutes`` (the store's clock moves on): none is in play any more, so another
    game may take the camera (companion/table/camera_game.py)."""
    store = client.application.extensions["camelup"].store
    clock = store._clock
    store._clock = lambda: clock() + minutes * 60


def _report(client, game: str, host: dict[str, str], lang: str = "en") -> dict:
    return client.get(f"/api/games/{game}/camera?lang={lang}", headers=host).get_json()


def _until_verdict(client, watch, source, game, host, frames: int = 6) -> dict:
    report = _report(client, game, host)
    for _ in range(frames):
        if "verdict" in report:
            break
        watch.step(source)
        report = _report(client, game, host)
    return report


def test_a_2014_game_on_a_camera_set_up_for_2018_is_read_with_the_2014_board_and_colours(tmp_path):
    table = Table(tmp_path)
    calibration = _calibration(tmp_path, "2018", "table-2018.json")
    watch = _watch(_settings(tmp_path, camera_board="2018", camera_calibration=calibration))
    assert watch.edition == "2018" and watch.calibration_file == calibration
    client = _client(tmp_path, watch)
    game, host = _game(client, "2014")
    first = _report(client, game, host)
    assert first["state"] == "switching" and "2014" in first["message"], first  # until its next frame
    report = _until_verdict(client, watch, table.show("2014"), game, host)
    assert watch.edition == "2014" and watch.template.edition == "2014"
    assert sorted(watch.profiles) == sorted(EDITION_CAMELS["2014"])  # the 2014 camels, not a 2018 calibration's
    assert watch.calibration_file is None
    assert report["verdict"]["matches"] is True, report
    assert report["edition"] == "2014"
    # The host's line says which edition's colours it reads with.
    assert report["learnt"].startswith("calibrated from a board the game confirmed") or \
        report["learnt"].startswith("not calibrated yet"), report["learnt"]
    assert text(report["learnt_words"]).startswith("2014 edition: ")


def test_what_the_camera_learns_is_kept_per_edition_and_never_crosses_over(tmp_path):
    table = Table(tmp_path)
    data = tmp_path / "data"
    watch = _watch(_settings(tmp_path, camera_board="2018"))
    client = _client(tmp_path, watch)
    old, old_host = _game(client, "2018")
    _until_verdict(client, watch, table.show("2018"), old, old_host)
    assert watch.edition == "2018"
    # A lesson of the 2014 game asked while the camera still reads the 2018 board is not taken from it.
    watch.learn("g14", 1, STARTS["2014"], edition="2014")
    watch.step(table.show("2018"))
    assert not (data / "camera-calibration-2014.json").exists()
    learnt_2018 = data / "camera-calibration-2018.json"
    assert load_calibration(learnt_2018).template.edition == "2018"
    before = learnt_2018.read_bytes()

    _leave(client)  # the 2018 game is left: a 2014 game takes the camera
    game, host = _game(client, "2014")
    report = _until_verdict(client, watch, table.show("2014"), game, host)
    assert report["verdict"]["matches"] is True, report
    for _ in range(3):
        _report(client, game, host)
        watch.step(table.show("2014"))
    learnt_2014 = load_calibration(data / "camera-calibration-2014.json")
    assert learnt_2014.template.edition == "2014" and sorted(learnt_2014.profiles) == sorted(EDITION_CAMELS["2014"])
    assert learnt_2018.read_bytes() == before  # no lesson from a 2014 board saved as 2018
    assert text(watch.learnt_words) == "2014 edition: calibrated from a board the game confirmed"

    # The 2018 game played again once the 2014 one is left: back to the 2018 colours it learnt, without the 2014 ones.
    _leave(client)
    client.post(f"/api/games/{old}/actions", headers=old_host,
                json={"type": "leg_bet", "player": "A", "camel": "red"})
    _until_verdict(client, watch, table.show("2018"), old, old_host)
    assert watch.edition == "2018" and sorted(watch.profiles) == sorted(EDITION_CAMELS["2018"])
    assert text(watch.learnt_words) == "2018 edition: calibrated from a board the game confirmed"


def test_the_single_learnt_file_of_earlier_versions_serves_the_edition_it_was_learnt_for(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    legacy = data / "camera-calibration.json"
    painted = {camel: (10.0, 20.0, 30.0 + 20 * index) for index, camel in enumerate(EDITION_CAMELS["2014"])}
    save_calibration(Calibration(load_template("2014"), painted, (100.0, 150.0, 200.0)), legacy)
    first, editions = camera_editions("2018", None, {}, data)
    assert first == "2018" and editions["2018"].source == "usual"  # never the 2014 colours for 2018
    assert editions["2018"].note is None  # nothing to warn about: it is the 2014 edition's
    assert editions["2014"].source == "learnt" and editions["2014"].learnt_from == legacy
    assert editions["2014"].colours.profiles == painted
    assert editions["2014"].learnt_path == data / "camera-calibration-2014.json"  # learnt from now on: there
    # Once the 2014 file exists, it is the one read.
    save_calibration(Calibration(load_template("2014"), camel_profiles("2014"), BOARD_BGR),
                     data / "camera-calibration-2014.json")
    assert camera_editions("2018", None, {}, data)[1]["2014"].colours.profiles == camel_profiles("2014")


def test_an_editions_file_learnt_from_the_other_editions_camels_is_not_used_and_said(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    wrong = data / "camera-calibration-2014.json"
    save_calibration(Calibration(load_template("2018"), camel_profiles("2018"), BOARD_BGR), wrong)
    found = camera_editions("2018", None, {}, data)[1]["2014"]
    assert found.source == "usual" and sorted(found.colours.profiles) == sorted(EDITION_CAMELS["2014"])
    assert f"({wrong}) is for the 2018 edition, and it reads the 2014 board: not used" in text(found.note)


def test_a_calibration_per_edition_and_the_single_one_for_its_own_edition(tmp_path):
    one = _calibration(tmp_path, "2014", "old-2014.json")
    other = _calibration(tmp_path, "2018", "new-2018.json")
    # The single calibration stays valid for the edition it was made for, and the camera starts on it.
    first, editions = camera_editions("2018", one, {"2018": other}, None)
    assert first == "2014"
    assert editions["2014"].calibration_file == one and editions["2018"].calibration_file == other
    assert editions["2018"].colours.template.edition == "2018"
    with pytest.raises(CalibrationError, match=r'calibration_2014 = ".*new-2018.json"\) is a calibration for the 2018'):
        camera_editions("2018", None, {"2014": other}, None)
    with pytest.raises(CalibrationError, match="both calibrations for the 2014 edition: keep one"):
        camera_editions("2018", one, {"2014": _calibration(tmp_path, "2014", "b.json")}, None)
    # Read from the configuration file.
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\ncalibration_2014 = "{one}"\ncalibration_2018 = "{other}"\n')
    settings = load_settings(str(config))
    assert (settings.camera_calibration_2014, settings.camera_calibration_2018) == (one, other)


def test_with_several_games_the_camera_reads_the_edition_of_the_game_it_checks(tmp_path):
    table = Table(tmp_path)
    watch = _watch(_settings(tmp_path, camera_board="2018"))
    client = _client(tmp_path, watch)
    older, older_host = _game(client, "2018")
    newer, newer_host = _game(client, "2014")
    assert _report(client, newer, newer_host)["state"] == "switching"  # the first to ask takes the camera
    waiting = _report(client, older, older_host)
    assert waiting == {"state": "other game", "message": OTHER_GAME, "holder": waiting["holder"]}
    assert waiting["holder"]["edition"] == "2014"  # the game that holds it, named
    refused = client.post(f"/api/games/{older}/camera/correct", headers=older_host)
    assert refused.status_code == 409 and refused.get_json()["code"] == "CameraOtherGame"
    _until_verdict(client, watch, table.show("2014"), newer, newer_host)
    assert watch.edition == "2014"
    # An entry in the older game does not take the camera from a game in play ...
    assert client.post(f"/api/games/{older}/actions", headers=older_host,
                       json={"type": "leg_bet", "player": "A", "camel": "red"}).status_code == 200
    assert _report(client, older, older_host)["state"] == "other game"
    watch.step(table.show("2014"))
    assert watch.edition == "2014"
    # ... but once that game is left, the older game's next question takes it, and the camera reads its board.
    _leave(client)
    assert client.post(f"/api/games/{older}/actions", headers=older_host,
                       json={"type": "leg_bet", "player": "B", "camel": "red"}).status_code == 200
    assert _report(client, older, older_host)["state"] == "switching"
    assert _report(client, newer, newer_host)["state"] == "other game"
    watch.step(table.show("2018"))
    assert watch.edition == "2018"


def test_the_lobby_reads_a_new_games_start_as_the_edition_chosen(tmp_path):
    table = Table(tmp_path)
    watch = _watch(_settings(tmp_path, camera_board="2018"))
    client = _client(tmp_path, watch)
    asked = client.get("/api/camera/setup?edition=2014")
    assert asked.status_code == 409 and asked.get_json()["code"] == "CameraNotReady"
    for _ in range(4):
        watch.step(table.show("2014"))
    answer = client.get("/api/camera/setup?edition=2014").get_json()
    assert answer["edition"] == "2014"
    assert {int(space): stack for space, stack in answer["setup"]["track"].items()} == STARTS["2014"]
    assert client.get("/api/camera/setup?edition=1999").status_code == 400


def test_the_hosts_calibration_line_is_in_the_catalogs_in_french_too(tmp_path):
    catalogs = load_catalogs()
    for key in KEYS:
        assert key in catalogs["en"] and key in catalogs["fr"], key
    watch = CameraWatch(lambda: ImageFiles(tmp_path / "none.png"), load_template("2014"), camel_profiles("2014"),
                        calibration_file="ma-table.json")
    watch.learn("game", 1, STARTS["2014"], edition="2014")
    french = text(watch.learnt_words, "fr")
    assert french == ("édition 2014 : étalonnée par ma-table.json ; pas encore sur un plateau de cette partie : elle "
                      "attend une image immobile du plateau confirmé par la partie"), french
    english = text(watch.learnt_words)
    assert english == f"2014 edition: {watch.learnt}"
    bare = CameraWatch(lambda: ImageFiles(tmp_path / "none.png"), load_template("2018"), camel_profiles("2018"))
    assert text(bare.learnt_words, "fr").startswith("édition 2018 : couleurs habituelles des chameaux")


def test_reading_colours_of_a_calibration_keep_their_edition(tmp_path):
    # The other edition's board is read with its own template: both put the markers in the same places.
    assert load_template("2014").markers == load_template("2018").markers
    assert reading_colours("2014").template.edition == "2014"


def test_a_game_of_the_wrong_edition_for_the_pieces_on_the_table_is_told_to_the_host(tmp_path):
    # The host chose 2018 for a game played with the 2014 box: the camera reads the 2018 board, and its verdict
    # says the camels look like the 2014 edition's (a clear orange camel on space 8).
    image, _ = render_scene(load_template("2014"), {8: ["orange"], 10: ["blue"], 12: ["green", "yellow"],
                                                    14: ["white"]}, 4, CLEAN)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), image)
    watch = CameraWatch(lambda: ImageFiles(path), load_template("2018"), camel_profiles("2018"), agree=1)
    client = _client(tmp_path, watch)
    game, host = _game(client, "2018")
    report = _until_verdict(client, watch, ImageFiles(path), game, host)
    problems = report["verdict"]["problems"]
    assert any(problem.startswith("the camels look like the 2014 edition's, not the 2018 one's") and
               "is the game's edition right?" in problem for problem in problems), problems


def test_a_lesson_of_the_other_edition_leaves_the_calibration_line_of_the_edition_read(tmp_path):
    # A 2014 game asked about while the camera reads 2018 (its calibration file): the 2018 line is not told to wait
    # for a 2014 board, before or after the camera comes back to 2018.
    table = Table(tmp_path)
    calibration = _calibration(tmp_path, "2018", "table-2018.json")
    watch = _watch(_settings(tmp_path, camera_board="2018", camera_calibration=calibration))
    watch.learn("g14", 1, STARTS["2014"], edition="2014")
    assert watch.learnt == f"calibrated from {calibration}", watch.learnt
    client = _client(tmp_path, watch)
    game, host = _game(client, "2014")
    _until_verdict(client, watch, table.show("2014"), game, host)
    assert text(watch.learnt_words).startswith("2014 edition: "), watch.learnt_words
    _leave(client)
    later, later_host = _game(client, "2018")
    _until_verdict(client, watch, table.show("2018"), later, later_host)
    assert watch.edition == "2018" and "2014" not in watch.learnt
