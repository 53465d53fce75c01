"""``camelup serve --help`` says where the camera is set, and how to stand image files in for it."""

import re

import pytest

from companion.cli import main
from companion.table.config import load_settings


def test_serve_help_says_where_the_camera_is_set(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "[camera]" in text and 'mode = "files"' in text and "camelup vision render" in text
    # The section as the help shows it is a configuration the companion accepts, with image files for a camera.
    section = text[text.index("  [camera]"):text.index("No camera at hand?")]
    config = tmp_path / "companion.toml"
    config.write_text(re.sub(r'mode = "picamera2"', 'mode = "files"', section.replace("\n  ", "\n").strip()) + "\n")
    settings = load_settings(str(config))
    assert settings.camera == "files" and settings.camera_board == "2018"
