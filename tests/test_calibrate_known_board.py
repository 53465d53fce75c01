"""``camelup vision calibrate PHOTO --expect LOG``: a photo of another board than the log's teaches nothing."""

import json

import cv2

from companion.cli import main
from vision.photo import make_table, render_scene

# Ann's purple 3 takes purple, red and blue from space 5 to space 8.
LOG = {
    "format": "camelup-game-log/1",
    "edition": "2018",
    "players": ["Ann", "Bob"],
    "setup": {"track": {"5": ["green", "yellow", "purple", "red", "blue"], "6": ["black", "white"]}},
    "actions": [{"player": "Ann", "type": "pyramid", "die": "purple", "value": 3}],
}
EXPECTED = {5: ["green", "yellow"], 6: ["black", "white"], 8: ["purple", "red", "blue"]}
# The board a red 3 gives instead: purple stays on 5.
OTHER = {5: ["green", "yellow", "purple"], 6: ["black", "white"], 8: ["red", "blue"]}


def _photo(tmp_path, name, track):
    table = make_table(1 * 10_007 + 4, "2018")
    image, _ = render_scene(table, track, 7, "light")
    path = tmp_path / name
    assert cv2.imwrite(str(path), image)
    return path


def test_a_photo_contradicting_the_log_is_refused_and_writes_nothing(tmp_path, capsys):
    # Measured where the log puts them, purple was learnt as the sand of space 8's bottom place, and every
    # reading after would miss it: the verdict the companion's own lessons ask must refuse the photo first.
    log = tmp_path / "game.json"
    log.write_text(json.dumps(LOG))
    photo, out = _photo(tmp_path, "other.png", OTHER), tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(photo), "--expect", str(log), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert not out.exists()
    assert "another board than the log's" in err and "purple should be on 8" in err and "on 5" in err, err
    assert "Nothing written" in err
    # The photo of the log's own board still calibrates.
    photo = _photo(tmp_path, "same.png", EXPECTED)
    assert main(["vision", "calibrate", str(photo), "--expect", str(log), "--out", str(out)]) == 0, capsys.readouterr()
    assert out.exists()
