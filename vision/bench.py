"""``camelup vision bench``: render N seeded scenes across the variations, read each, and measure.

Prints the share of scenes read fully right, the share of camels on a wrong space or stack position, how often
the board was not found, and the median time per 1280×720 frame (reading only, not rendering).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

from vision.board import load_template
from vision.locate import BoardNotFound
from vision.read import ReadConfig
from vision.reader import read_board
from vision.synth import camel_profiles, random_track, render_scene


def camel_places(track: dict[str, list[str]]) -> dict[str, tuple[str, int]]:
    return {camel: (space, level) for space, stack in track.items() for level, camel in enumerate(stack)}


def _place_in_order(track: dict[str, list[str]], camel: str) -> tuple[str, int] | None:
    return next(((space, stack.index(camel)) for space, stack in track.items() if camel in stack), None)


def _same_order(got: dict[str, list[str]], truth: dict[str, list[str]], camel: str) -> bool:
    """Whether ``camel`` is on its true space and in its true order among the camels seen there (a camel
    below it reported unseen shifts its level without making it wrong)."""
    place = _place_in_order(got, camel)
    if place is None or place[0] not in truth or camel not in truth[place[0]]:
        return False
    seen_here = got[place[0]]
    in_order = [other for other in truth[place[0]] if other in seen_here]
    return seen_here.index(camel) == in_order.index(camel)


def run_bench(
    scenes: int,
    seed: int,
    editions: tuple[str, ...] = ("2014", "2018"),
    progress: Callable[[range], Iterable[int]] | None = None,
) -> dict[str, Any]:
    """``progress`` may wrap the scenes' range (a progress bar: 500 scenes take a minute or two)."""
    config = ReadConfig()
    right = wrong_camels = unseen_camels = total_camels = not_found = 0
    times = []
    for index in progress(range(scenes)) if progress else range(scenes):
        edition = editions[index % len(editions)]
        template = load_template(edition)
        profiles = camel_profiles(edition)
        scene_seed = seed * 100_003 + index
        image, truth = render_scene(template, random_track(edition, random.Random(scene_seed)), scene_seed)
        started = time.perf_counter()
        try:
            reading = read_board(config, template, profiles, image)
        except BoardNotFound:
            not_found += 1
            total_camels += len(profiles)
            wrong_camels += len(profiles)
            continue
        finally:
            times.append((time.perf_counter() - started) * 1000)
        got = {str(space): stack for space, stack in reading.track.items()}
        expected = camel_places(truth["track"])
        seen = camel_places(got)
        total_camels += len(expected)
        # A camel reported unseen is not placed wrongly; the others count where they are said to stand.
        unseen_camels += sum(1 for camel in expected if camel not in seen)
        wrong_camels += sum(1 for camel in expected if camel in seen and not _same_order(got, truth["track"], camel))
        right += got == truth["track"]
    return {
        "scenes": scenes,
        "scene_accuracy": right / scenes,
        "camel_error": wrong_camels / max(total_camels, 1),
        "camels_unseen": unseen_camels / max(total_camels, 1),
        "board_not_found": not_found / scenes,
        "ms_per_frame": statistics.median(times) if times else None,
    }
