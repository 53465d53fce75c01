"""A Pi camera that cannot start, whatever the reason, is a clear notice: for `open_source`, for the companion's
camera thread and for `doctor`, never a traceback or a thread that dies in silence.

Stand-in ``picamera2`` packages are put on the path; the numpy mismatch is the real one: simplejpeg 1.6.6 is
built against numpy 1.x, as apt's picamera2 and its simplejpeg are on Bookworm, and the real picamera2 imports
simplejpeg when it is imported (picamera2 issues #1088, #1211)."""

import sys

import numpy as np
import pytest

from companion.cli import main
from companion.table.camera_watch import CameraWatch, wait_for
from companion.table.web import create_app
from tests.fake_picamera2 import forget_fake_picamera2, install_fake_picamera2, picamera2_source
from vision.board import load_template
from vision.sources import CameraError, PiCamera, open_source

ABI_MISMATCH = sys.version_info[:2] == (3, 11) and int(np.__version__.split(".")[0]) >= 2


@pytest.fixture
def fake_picamera2(tmp_path, monkeypatch):
    """Install a stand-in ``picamera2`` package whose module body is the given code."""
    yield lambda body: install_fake_picamera2(tmp_path, monkeypatch, body)
    forget_fake_picamera2()


@pytest.mark.skipif(not ABI_MISMATCH, reason="needs numpy 2 and simplejpeg 1.6.6 (dev dependency, Python 3.11)")
def test_picamera2_built_for_another_numpy_is_explained(fake_picamera2):
    fake_picamera2("import simplejpeg  # as picamera2/encoders/jpeg_encoder.py does\nclass Picamera2: pass\n")
    with pytest.raises(CameraError) as raised:
        open_source("picamera2")
    message = str(raised.value)
    assert "numpy.dtype size changed" in message, "the real error, as the reader will search for it"
    assert f"numpy {np.__version__}" in message and "sudo deploy/install.sh" in message


def test_picamera2_missing_says_what_to_install(fake_picamera2, monkeypatch):
    fake_picamera2("import libcamera\n")  # apt's picamera2 needs the Pi's python3-libcamera
    monkeypatch.delitem(sys.modules, "libcamera", raising=False)
    with pytest.raises(CameraError, match="sudo apt install python3-picamera2"):
        PiCamera(settle_seconds=0)


@pytest.mark.parametrize(
    ("init", "metadata", "words"),
    [
        ('raise RuntimeError("Camera __init__ sequence did not complete.")', "return {}", "RuntimeError"),
        ("pass", 'raise TimeoutError("no frame within 1 s")', "TimeoutError"),
        ("pass", 'raise OSError(13, "Permission denied", "/dev/dma_heap/linux,cma")', "Permission denied"),
    ],
)
def test_a_camera_that_fails_while_starting_is_a_camera_error_and_is_closed(fake_picamera2, init, metadata, words):
    fake_picamera2(picamera2_source(attributes="closed = False", init=init, metadata=metadata,
                                    close="Picamera2.closed = True"))
    with pytest.raises(CameraError, match=words) as raised:
        open_source("picamera2")
    assert "does not start" in str(raised.value)
    import picamera2

    assert picamera2.Picamera2.closed == (init == "pass"), "a camera half started is released"


def test_the_camera_thread_turns_any_start_failure_into_a_notice_on_the_table(tmp_path):
    def broken():
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    watch = CameraWatch(broken, load_template("2018"), {}).start()
    status = wait_for(watch, {"unavailable"})
    assert status.state == "unavailable"
    assert "numpy.dtype size changed" in status.message and "play goes on by hand" in status.message
    client = create_app(tmp_path / "data", None, "http://t", testing=True, camera=watch).test_client()
    game = client.post("/api/games", json={"edition": "2018", "players": ["A", "B"], "dice": "manual"}).get_json()
    report = client.get(f"/api/games/{game['game_id']}/camera",
                        headers={"Authorization": f"Bearer {game['table_token']}"}).get_json()
    learnt = "not calibrated yet: waiting for a steady frame of the board the game confirmed"  # the game's start
    assert report["learnt_words"]["params"]["edition"] == "2018"  # the host's line says the edition it reads
    del report["learnt_words"]
    assert report == {"state": "unavailable", "message": status.message, "learnt": learnt, "edition": "2018"}
    watch.stop()


def test_a_pi_camera_that_cannot_load_reaches_the_table_as_a_notice(fake_picamera2, tmp_path):
    fake_picamera2('raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")\n')
    watch = CameraWatch(lambda: open_source("picamera2"), load_template("2018"), {}).start()
    status = wait_for(watch, {"unavailable"})
    assert status.state == "unavailable"
    assert "picamera2 cannot load" in status.message and "sudo deploy/install.sh" in status.message
    watch.stop()


def test_doctor_reports_a_camera_that_cannot_start_without_crashing(fake_picamera2, tmp_path, capsys):
    fake_picamera2('raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")\n')
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nmode = "picamera2"\n')
    main(["doctor", "--simulate", "--config", str(config), "--data", str(tmp_path / "data")])
    out = capsys.readouterr().out
    assert "numpy.dtype size changed" in out and "sudo deploy/install.sh" in out
    assert "Traceback" not in out
