"""Files the testers' commands write, checked before the work that fills them, and the commands to
repeat a run."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def unwritable_file(path: str | Path) -> str | None:
    """Why ``path`` could not be written now, in words, or ``None`` when it can (nothing is created)."""
    target = Path(path)
    if target.is_dir():
        return f"{target} is a directory"
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.exists():
        return f"the directory {parent} does not exist"
    if not parent.is_dir():
        return f"{parent} is not a directory"
    if target.exists() and not os.access(target, os.W_OK):
        return f"{target} is not writable"
    if not target.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"the directory {parent} is not writable"
    return None


def usable_directory(path: str | Path) -> Path:
    """``path`` as a directory to write into, made if missing.

    Raises:
        ValueError: it is a file, or it cannot be made or written, in words.
    """
    directory = Path(path)
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"{directory} is a file, not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the directory {directory}: {error.strerror or error}") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ValueError(f"the directory {directory} is not writable")
    return directory


def write_json(path: str | Path, data: Any) -> None:
    """Write ``data`` as indented JSON through a temporary file, so a crash never leaves half a file."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(target)


def play_command(seed: int, edition: str, players: Sequence[str]) -> str:
    """The exact ``camelup play`` command that plays the same game again (same seed, edition and seats)."""
    return shlex.join(["camelup", "play", "--seed", str(seed), "--edition", edition, "--players", ",".join(players)])
