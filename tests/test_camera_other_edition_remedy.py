"""A game of the other edition than the camera's board: the pages say what to change (the config key and value),
not only that the camera is set up for the other edition."""

from __future__ import annotations

import random
import tomllib

import pytest

from companion.table.camera_watch import CameraWatch
from companion.table.config import load_settings
from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from vision.board import load_template
from vision.sources import ImageFiles
from vision.synth import CAMEL_BGR, EDITION_CAMELS


@pytest.mark.parametrize(("camera", "game"), [("2018", "2014"), ("2014", "2018")])
def test_the_other_editions_game_is_told_which_setting_to_change(tmp_path, camera, game):
    watch = CameraWatch(lambda: ImageFiles(tmp_path / "none.png"), load_template(camera),
                        {c: CAMEL_BGR[c] for c in EDITION_CAMELS[camera]})
    app = create_app(tmp_path / "data", SimulatedPyramid(random.Random(1)), "http://t", testing=True, camera=watch)
    client = app.test_client()
    made = client.post("/api/games", json={"edition": game, "players": ["A", "B"], "dice": "manual"}).get_json()
    host = {"Authorization": f"Bearer {made['host_token']}"}
    report = client.get(f"/api/games/{made['game_id']}/camera", headers=host).get_json()
    assert report["state"] == "other board"
    message = report["message"]
    assert f"it reads the {camera} board" in message and f"this {game} game" in message
    assert f'set board = "{game}" under [camera]' in message and "restart" in message
    # The setting it names is the one the companion reads: that file, with that line, sets the camera's board.
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nmode = "files"\nboard = "{game}"\n', encoding="utf-8")
    assert tomllib.loads(config.read_text(encoding="utf-8"))["camera"]["board"] == game
    assert load_settings(str(config)).camera_board == game
    refused = client.post(f"/api/games/{made['game_id']}/camera/correct", headers=host)
    assert refused.status_code == 409
    assert f'set board = "{game}" under [camera]' in refused.get_json()["error"]
