"""Frame sources: image files and folders, a missing webcam, and doctor's camera check."""

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.sources import CameraError, ImageFiles, open_source


def write_image(path, width=320, height=200, colour=(10, 200, 30)):
    frame = np.zeros((height, width, 3), np.uint8)
    frame[:] = colour
    assert cv2.imwrite(str(path), frame)
    return frame


def test_an_image_file_is_a_frame_source(tmp_path):
    written = write_image(tmp_path / "board.png")
    source = open_source("files", str(tmp_path / "board.png"))
    frame = source.read()
    assert frame.shape == (200, 320, 3) and np.array_equal(frame, written)
    info = source.info()
    assert (info.width, info.height) == (320, 200)


def test_a_folder_is_read_in_name_order_and_round_again(tmp_path):
    write_image(tmp_path / "b.png", colour=(0, 0, 255))
    write_image(tmp_path / "a.jpg", colour=(255, 0, 0))
    (tmp_path / "notes.txt").write_text("not an image")
    source = ImageFiles(tmp_path)
    firsts = [tuple(int(c) for c in source.read()[0, 0]) for _ in range(3)]
    assert firsts[0][0] > 200 and firsts[1][2] > 200 and firsts[2] == firsts[0]


@pytest.mark.parametrize(
    ("kind", "target", "words"),
    [
        ("files", "", "needs a file or folder"),
        ("files", "/no/such/place", "no such file or folder"),
        ("webcam", "/dev/no-such-camera", "cannot open camera"),
        ("laser", "", "unknown camera kind"),
    ],
)
def test_sources_that_cannot_give_frames_say_why(kind, target, words):
    with pytest.raises(CameraError, match=words):
        open_source(kind, target)


def test_an_unreadable_image_is_a_clear_error(tmp_path):
    (tmp_path / "broken.png").write_bytes(b"not really a png")
    with pytest.raises(CameraError, match="not an image"):
        ImageFiles(tmp_path / "broken.png").read()


def test_doctor_reads_a_frame_and_reports_its_size(tmp_path, capsys):
    write_image(tmp_path / "table.png", 1280, 720)
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{tmp_path / "table.png"}"\n')
    main(["doctor", "--simulate", "--config", str(config), "--data", str(tmp_path / "data")])
    assert "PASS  camera: files: a 1280×720 frame" in capsys.readouterr().out
    config.write_text('[camera]\nmode = "webcam"\nsource = "/dev/no-such-camera"\n')
    main(["doctor", "--simulate", "--config", str(config), "--data", str(tmp_path / "data")])
    out = capsys.readouterr().out
    assert "WARN  camera: cannot open camera" in out and "play is by hand" in out
    assert f"as source under [camera] in {config}" in out  # where to put it right
