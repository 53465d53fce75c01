"""Files that survive a power cut: written to a temporary file, flushed to the disk, then renamed over the
old one, so a reader finds either the whole old content or the whole new one, never a mix."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomically(path: str | Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) so that a crash at any moment leaves the old or the new file."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, target)
    # The rename itself lives in the directory: flush it too, or a power cut may bring the old name back.
    with contextlib.suppress(OSError):
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
