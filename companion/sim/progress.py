"""Progress bars for long work: on a terminal only (a log file or a pipe gets no bar at all)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def bar(items: Iterable[T], total: int | None = None, unit: str = "it", desc: str | None = None,
        quiet: bool = False) -> Iterable[T]:
    """``items`` with a tqdm bar on standard error when it is a terminal; ``items`` unchanged otherwise
    (tqdm off a terminal would write each update as a new line)."""
    stream = sys.stderr
    if quiet or not (hasattr(stream, "isatty") and stream.isatty()):
        return items
    from tqdm import tqdm

    return tqdm(items, total=total, unit=unit, desc=desc, file=stream, leave=False, dynamic_ncols=True)
