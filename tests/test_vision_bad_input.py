"""`camelup vision read` and `calibrate` given what they cannot use: wrong arguments, files that are not
pictures, pictures cut short or without colour. Each is named, read's on standard output as JSON too; none
is a traceback."""

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.board import load_template
from vision.image_file import COLOURLESS, PhotoError, colourless, jpeg_cut_short, load_photo
from vision.synth import SceneVariation, random_track, render_scene


@pytest.fixture(scope="module")
def scene() -> np.ndarray:
    import random

    image, _ = render_scene(load_template("2018"), random_track("2018", random.Random(3)), 3,
                            SceneVariation(hand_chance=0.0))
    return image


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status (argparse's own exit too), standard output, standard error."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "the following arguments are required: IMAGE"),
        (["board.png", "--board", "2018", "--calibration", "camera.json"],
         "argument --calibration: not allowed with argument --board"),
        (["board.png", "--sharpen"], "unrecognized arguments: --sharpen"),
        (["board.png", "--board"], "argument --board: expected one argument"),
    ],
)
def test_read_with_wrong_arguments_says_so_in_json_too(argv, words, capsys):
    status, out, err = _run(["vision", "read", *argv], capsys)
    assert status == 2  # argparse's usage error, as the README says for input that cannot be used
    assert json.loads(out) == {"error": words}
    assert "usage: camelup vision read" in err and words in err


def test_other_commands_keep_argparses_errors_on_standard_error_only(capsys):
    for argv in (["vision", "calibrate", "--sharpen"], ["vision", "render", "--sharpen"], ["replay"]):
        status, out, err = _run(argv, capsys)
        assert (status, out) == (2, "") and "usage:" in err, argv


def test_read_help_is_still_help(capsys):
    status, out, _ = _run(["vision", "read", "--help"], capsys)
    assert status == 0 and out.startswith("usage: camelup vision read")


def _bad_files(tmp_path, image: np.ndarray) -> dict[str, tuple[str, str]]:
    """name → (path, what the message must say)."""
    jpeg = cv2.imencode(".jpg", image)[1]
    png = cv2.imencode(".png", image)[1]
    (tmp_path / "empty.jpg").write_bytes(b"")
    (tmp_path / "cut.jpg").write_bytes(jpeg.tobytes()[: len(jpeg) * 2 // 3])
    (tmp_path / "cut.png").write_bytes(png.tobytes()[: len(png) // 2])
    (tmp_path / "notes.jpg").write_text("not a picture")
    (tmp_path / "photos").mkdir()
    (tmp_path / "huge.png").write_bytes(_png_header(100_000, 100_000))
    return {
        "a folder": (str(tmp_path / "photos"), "a folder, not an image file"),
        "an empty file": (str(tmp_path / "empty.jpg"), "an empty file, not an image"),
        "a JPEG cut short": (str(tmp_path / "cut.jpg"), "the JPEG is cut short"),
        "a PNG cut short": (str(tmp_path / "cut.png"), "the PNG is cut short"),
        "text": (str(tmp_path / "notes.jpg"), "not an image OpenCV can read"),
        "no file": (str(tmp_path / "missing.jpg"), "no such image file"),
        "an empty name": ("", "no image file given"),
        "a picture beyond OpenCV's limit": (str(tmp_path / "huge.png"), "a picture too large to read"),
    }


def _png_header(width: int, height: int) -> bytes:
    """A PNG that says it is ``width`` × ``height`` (OpenCV refuses more than 2^30 pixels by an exception)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(100)))
            + chunk(b"IEND", b""))


def test_read_names_a_file_that_is_not_a_whole_picture(tmp_path, scene, capsys):
    for name, (path, words) in _bad_files(tmp_path, scene).items():
        status, out, err = _run(["vision", "read", path], capsys)
        assert status == 2, name
        assert words in json.loads(out)["error"] and words in err and "Traceback" not in err, name


def test_calibrate_names_a_file_that_is_not_a_whole_picture(tmp_path, scene, capsys):
    out_file = tmp_path / "camera.json"
    for name, (path, words) in _bad_files(tmp_path, scene).items():
        status, _, err = _run(["vision", "calibrate", path, "--board", "2018", "--out", str(out_file)], capsys)
        assert status == 2 and words in err, name
        assert not out_file.exists()


def test_a_calibration_or_board_file_that_is_binary_or_not_json_is_named(tmp_path, scene, capsys):
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), scene)
    binary = tmp_path / "camera.json"
    binary.write_bytes(photo.read_bytes()[:400])  # a picture saved under the calibration's name
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "camelup-camera-calibration/1",')
    for argv, words in (
        (["--calibration", str(binary)], "not a camera calibration (not text"),
        (["--board", str(binary)], "not a board template (not text"),
        (["--calibration", str(broken)], "not JSON"),
    ):
        status, out, err = _run(["vision", "read", str(photo), *argv], capsys)
        assert status == 2 and words in json.loads(out)["error"] and "Traceback" not in err, argv
    status, _, err = _run(["vision", "calibrate", str(photo), "--board", str(binary)], capsys)
    assert status == 2 and "not a board template (not text" in err


def _grey_files(tmp_path, image: np.ndarray) -> list[str]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    cv2.imwrite(str(tmp_path / "grey.png"), grey)  # one channel
    # A colour JPEG whose three channels are equal (a greyscale photo saved by a phone's editor): JPEG's
    # rounding leaves them a level or two apart.
    cv2.imwrite(str(tmp_path / "grey.jpg"), cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), [cv2.IMWRITE_JPEG_QUALITY, 60])
    noisy = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR).astype(np.int16)
    noisy += np.random.default_rng(1).integers(-2, 3, noisy.shape, dtype=np.int16)
    cv2.imwrite(str(tmp_path / "noisy.png"), np.clip(noisy, 0, 255).astype(np.uint8))
    return [str(tmp_path / name) for name in ("grey.png", "grey.jpg", "noisy.png")]


def test_a_greyscale_photo_is_named_not_read_as_a_calibration_problem(tmp_path, scene, capsys):
    for path in _grey_files(tmp_path, scene):
        status, out, err = _run(["vision", "read", path], capsys)
        assert status == 1, path
        assert json.loads(out) == {"error": COLOURLESS}
        assert "calibrate" not in out
        status, _, err = _run(["vision", "calibrate", path, "--board", "2018", "--out", str(tmp_path / "c.json")],
                              capsys)
        assert status == 1 and COLOURLESS in err, path
        assert not (tmp_path / "c.json").exists()


def test_a_dim_or_pale_colour_photo_is_not_taken_for_greyscale():
    from vision.photo import make_table, render_scene

    table = make_table(8, "2014")
    image, _ = render_scene(table, {1: ["white"], 2: ["yellow"]}, 1, "light")
    assert not colourless(image)
    dim = (image.astype(np.float32) * 0.15).astype(np.uint8)  # five stops under
    assert not colourless(dim)
    washed = cv2.addWeighted(image, 0.12, cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
                             0.88, 0)  # a camera whose colour is nearly all washed out still has some
    assert not colourless(washed)


def test_a_picture_of_nothing_is_not_called_greyscale(tmp_path, capsys):
    # The lens covered or the picture burnt out: the board is not found, colour is not what is missing.
    for name, value in (("black.png", 0), ("white.png", 255)):
        path = tmp_path / name
        cv2.imwrite(str(path), np.full((720, 1280, 3), value, np.uint8))
        status, out, _ = _run(["vision", "read", str(path)], capsys)
        assert status == 1 and json.loads(out)["error"].startswith("board not found"), name


def test_a_complete_jpeg_in_any_encoding_is_not_cut_short(scene):
    for flags in ([], [cv2.IMWRITE_JPEG_PROGRESSIVE, 1], [cv2.IMWRITE_JPEG_RST_INTERVAL, 2],
                  [cv2.IMWRITE_JPEG_OPTIMIZE, 1]):
        data = cv2.imencode(".jpg", scene, flags)[1].tobytes()
        assert not jpeg_cut_short(data), flags
        # What a phone appends after the picture (a motion photo's video) is not the picture.
        assert not jpeg_cut_short(data + b"\x00\x00\x00\x18ftypmp42\xff\xda\x00\x08")
        for cut in (3, 200, len(data) // 2, len(data) - 2):
            assert jpeg_cut_short(data[:cut]), (flags, cut)
    assert not jpeg_cut_short(cv2.imencode(".png", scene)[1].tobytes())


def test_a_picture_appended_to_still_loads(tmp_path, scene):
    path = tmp_path / "motion.jpg"
    path.write_bytes(cv2.imencode(".jpg", scene)[1].tobytes() + b"\x00\x00\x00\x18ftypmp42" + bytes(500))
    assert load_photo(str(path)).shape == scene.shape
    with pytest.raises(PhotoError, match="cut short"):
        path.write_bytes(path.read_bytes()[:5000])
        load_photo(str(path))


def test_a_png_cut_short_is_named_before_libpng_prints_its_own_error(tmp_path, scene, capfd):
    path = tmp_path / "cut.png"
    png = cv2.imencode(".png", scene)[1].tobytes()
    path.write_bytes(png[: len(png) // 2])
    with pytest.raises(PhotoError, match="the PNG is cut short"):
        load_photo(str(path))
    assert "libpng" not in capfd.readouterr().err  # the message is ours alone
