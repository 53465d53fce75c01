"""The testers' commands answer bad input with a sentence and exit 2, never a traceback."""

import os
import shlex
import subprocess
import sys

from companion.cli import main
from companion.gamelog import loads


def test_play_refuses_an_unwritable_log_before_playing(tmp_path, capsys):
    assert main(["play", "--seed", "1", "--log", str(tmp_path / "missing" / "x.json")]) == 2
    captured = capsys.readouterr()
    assert "does not exist" in captured.err and "Traceback" not in captured.err
    assert captured.out == ""  # no game was played first
    assert main(["play", "--seed", "1", "--log", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_the_replay_hint_is_the_command_that_plays_the_same_game(tmp_path, capsys):
    first = tmp_path / "first.json"
    assert main(["play", "--seed", "5", "--edition", "2014", "--players", "Ann,Bob Smith,Cy", "--quiet",
                 "--log", str(first)]) == 0
    hint = next(line for line in capsys.readouterr().out.splitlines() if "play it again with" in line)
    command = shlex.split(hint.split("with: ", 1)[1].rstrip(")"))
    assert command[:2] == ["camelup", "play"]
    again = tmp_path / "again.json"
    assert main([*command[1:], "--quiet", "--log", str(again)]) == 0
    assert loads(first.read_text()).to_json() == loads(again.read_text()).to_json()


def test_simulate_refuses_a_file_or_an_impossible_directory_for_logs(tmp_path, capsys):
    existing = tmp_path / "a-file"
    existing.write_text("x")
    base = ["simulate", "--games", "2", "--players", "greedy,random", "--quiet", "--logs"]
    assert main([*base, str(existing)]) == 2
    assert "is a file, not a directory" in capsys.readouterr().err
    assert main([*base, str(existing / "sub")]) == 2
    assert "cannot make the directory" in capsys.readouterr().err


def test_odds_on_a_file_that_is_not_text(tmp_path, capsys):
    binary = tmp_path / "photo.json"
    binary.write_bytes(bytes(range(256)))
    assert main(["odds", str(binary)]) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err


def test_a_closed_pipe_ends_play_without_a_traceback():
    # What `camelup play | head -1` does, made certain: the reader is gone before anything is written.
    read_end, write_end = os.pipe()
    os.close(read_end)
    process = subprocess.Popen([sys.executable, "-m", "companion.cli", "play", "--seed", "3"],
                               stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    _, error = process.communicate(timeout=120)
    assert process.returncode == 2
    assert "Traceback" not in error.decode() and "output was closed" in error.decode()


def test_simulate_draws_no_progress_bar_off_a_terminal(capsys):
    assert main(["simulate", "--games", "3", "--players", "greedy,random", "--seed", "1"]) == 0
    assert capsys.readouterr().err == ""
