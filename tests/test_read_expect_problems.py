"""``camelup vision read --expect``: the verdict keeps what is wrong with the picture itself."""

import json

import cv2
import numpy as np

from companion.cli import main
from tests.test_calibrate_known_board import EXPECTED, LOG
from vision.photo import make_table, render_scene


def test_a_too_dark_picture_is_said_with_and_without_expect(tmp_path, capsys):
    # With --expect the problems were dropped, and the host's page said "the camera agrees" on a frame too dark
    # to trust. The contract's fields stay as they are; the picture's problems come with them.
    table = make_table(1 * 10_007 + 4, "2018")
    image, _ = render_scene(table, EXPECTED, 7, "light")
    dark = tmp_path / "dark.png"
    assert cv2.imwrite(str(dark), (image.astype(np.float32) * 0.12).astype(np.uint8))
    log = tmp_path / "game.json"
    log.write_text(json.dumps(LOG))
    assert main(["vision", "read", str(dark)]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert any("too dark" in problem for problem in alone["problems"]), alone
    assert main(["vision", "read", str(dark), "--expect", str(log)]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert {"track", "unseen", "expected", "matches", "differences"} <= set(checked), checked
    assert checked["expected"] == {str(space): stack for space, stack in EXPECTED.items()}
    assert checked["problems"] == alone["problems"], checked


def test_the_companion_s_verdict_on_a_too_dark_frame_carries_the_problem():
    # The host's page said "the camera agrees" on a frame too dark to trust: the verdict the pages get says why
    # it is not to be trusted (the camera box shows it), and a well lit frame has no problem.
    from companion.rules import EDITION_2018, new_game
    from companion.table.camera_watch import CameraWatch
    from tests.test_camera_watch import Frames, profiles

    table = make_table(1 * 10_007 + 4, "2018")
    image, _ = render_scene(table, EXPECTED, 7, "light")
    # Dim, over a camera's black level (so the still picture is judged steady, as a real camera's is).
    dark = (image.astype(np.float32) * 0.2 + 12).astype(np.uint8)
    start = new_game(EDITION_2018, ["Ann", "Bob"], EXPECTED)
    for frame, too_dark in ((dark, True), (image, False)):
        watch = CameraWatch(lambda: None, table.template, profiles(), agree=2)
        assert watch.verdict("g", start, []) is None
        source = Frames(frame, frame, frame)
        for _ in range(3):
            watch.step(source)
        verdict = watch.verdict("g", start, [])
        assert verdict is not None and "problems" in verdict, verdict
        assert any("too dark" in problem for problem in verdict["problems"]) is too_dark, verdict["problems"]
