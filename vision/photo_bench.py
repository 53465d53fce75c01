"""The camera bench on photo-like scenes (:mod:`vision.photo`), per tier and per stack level.

Each table is set up and calibrated as the README says (one calibration photo; when it is refused, the
table is read with the default colours and the refusal is counted), then photographed with random plausible
boards, each read as the companion reads the camera that stands where it was calibrated (markers looked for
where the calibration photo had them; two covered by a hand leave the board where it was when those seen have
not moved). For each tier it reports: scenes read fully right; camels placed wrongly (on the wrong space, or out of
order in their stack); camels not seen, split into those truly hidden (less than :data:`OCCLUDED_BELOW` of the
camel in view) and those in view; "board not found", split the same way for the markers; the reader's median
time per frame (wall clock, and the process's CPU time, which other work on the machine does not inflate); and
the same per stack level (0 = bottom).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

from vision.locate import BoardLocation, BoardNotFound, locate_board
from vision.photo import FRAME_SIZE, TIERS, Table, make_table, render_calibration, render_scene
from vision.plausible import random_board
from vision.read import BOARD_BGR, ReadConfig, observe
from vision.reader import read_board
from vision.synth import EDITION_CAMELS, camel_profiles

OCCLUDED_BELOW = 0.2
"""A camel with less than this share of its pixels in view is truly hidden: not seeing it is no fault."""
MARKER_HIDDEN_BELOW = 0.9
SCENES_PER_TABLE = 5


class _Colours:
    """What the reader reads one table with: its calibration, or the defaults when calibration refused."""

    def __init__(self, table: Table, config: ReadConfig, tier: str) -> None:
        from vision.calibrate import CalibrationError, calibrate

        self.template = table.template
        image, _ = render_calibration(table, seed=0, tier=tier)
        self.location: BoardLocation | None = None
        try:
            self.location = locate_board(config.locate, table.template, image)
            calibration = calibrate(config, table.template, list(EDITION_CAMELS[table.edition]), image)
            self.profiles, self.board_bgr, self.accepted = calibration.profiles, calibration.board_bgr, True
        except (CalibrationError, BoardNotFound):
            self.profiles, self.board_bgr, self.accepted = camel_profiles(table.edition), BOARD_BGR, False

    def read(self, config: ReadConfig, image) -> dict[str, list[str]]:
        """A scene read as the companion reads a frame of the camera standing where it was calibrated: the
        markers are looked for where the calibration photo had them (see :func:`vision.locate.locate_board`)."""
        observation = observe(config, self.template, image, near=self.location)
        reading = read_board(config, self.template, self.profiles, image, self.board_bgr, observation)
        return {str(space): list(stack) for space, stack in reading.track.items()}


def _new_counts() -> dict[str, Any]:
    return {"scenes": 0, "right": 0, "camels": 0, "wrong": 0, "unseen_occluded": 0, "unseen_in_view": 0,
            "occluded": 0, "not_found": 0, "not_found_markers_hidden": 0, "times": [], "cpu_times": [],
            "levels": {}, "tables": 0, "calibrated": 0}


def score_scene(counts: dict[str, Any], truth: dict[str, Any], got: dict[str, list[str]] | None) -> None:
    """Add one scene's reading (``None``: board not found) to ``counts``."""
    counts["scenes"] += 1
    if got is None:
        counts["not_found"] += 1
        if any(m["visible"] < MARKER_HIDDEN_BELOW for m in truth["markers"].values()):
            counts["not_found_markers_hidden"] += 1
    else:
        counts["right"] += got == truth["track"]
    where = {camel: space for space, stack in (got or {}).items() for camel in stack}
    for camel, facts in truth["camels"].items():
        level = counts["levels"].setdefault(str(min(facts["level"], 3)), {"camels": 0, "wrong": 0, "unseen": 0})
        level["camels"] += 1
        counts["camels"] += 1
        hidden = facts["visible"] < OCCLUDED_BELOW
        counts["occluded"] += hidden
        if got is None:
            continue
        if camel not in where:
            level["unseen"] += 1
            counts["unseen_occluded" if hidden else "unseen_in_view"] += 1
            continue
        space = str(facts["space"])
        stack = got[where[camel]]
        in_order = [c for c in truth["track"][space] if c in stack]
        if where[camel] != space or stack.index(camel) != in_order.index(camel):
            level["wrong"] += 1
            counts["wrong"] += 1


def summary(counts: dict[str, Any]) -> dict[str, Any]:
    scenes, camels = max(counts["scenes"], 1), max(counts["camels"], 1)
    return {
        "scenes": counts["scenes"],
        "scene_accuracy": counts["right"] / scenes,
        "camel_error": counts["wrong"] / camels,
        "camels_unseen": (counts["unseen_occluded"] + counts["unseen_in_view"]) / camels,
        "unseen_occluded": counts["unseen_occluded"] / camels,
        "unseen_in_view": counts["unseen_in_view"] / camels,
        "camels_occluded": counts["occluded"] / camels,
        "board_not_found": counts["not_found"] / scenes,
        "board_not_found_markers_hidden": counts["not_found_markers_hidden"] / scenes,
        "ms_per_frame": statistics.median(counts["times"]) if counts["times"] else None,
        "cpu_ms_per_frame": statistics.median(counts["cpu_times"]) if counts["cpu_times"] else None,
        "calibration_accepted": counts["calibrated"] / max(counts["tables"], 1),
        "by_level": {
            level: {"camels": c["camels"], "wrong": c["wrong"] / max(c["camels"], 1),
                    "unseen": c["unseen"] / max(c["camels"], 1)}
            for level, c in sorted(counts["levels"].items())
        },
    }


def _light(tier: str) -> str:
    return "clean" if tier == "clean" else "light"


def run_photo_bench(
    scenes: int,
    seed: int,
    tiers: tuple[str, ...] = TIERS,
    editions: tuple[str, ...] = ("2014", "2018"),
    progress: Callable[[range], Iterable[int]] | None = None,
    size: tuple[int, int] = FRAME_SIZE,
) -> dict[str, Any]:
    """``scenes`` per tier, on tables of both editions (a few scenes per table), pictures of ``size``. The
    result has the overall figures at the top (the same keys as :func:`vision.bench.run_bench`) and per tier
    under "tiers"."""
    config = ReadConfig()
    per_tier = {tier: _new_counts() for tier in tiers}
    total = _new_counts()
    tables: dict[int, tuple[Table, dict[str, _Colours]]] = {}
    jobs = [(tier, index) for index in range(scenes) for tier in tiers]
    for job in progress(range(len(jobs))) if progress else range(len(jobs)):
        tier, index = jobs[job]
        table_index = index // SCENES_PER_TABLE
        if table_index not in tables:
            tables.clear()
            edition = editions[table_index % len(editions)]
            table = make_table(seed * 10_007 + table_index, edition, size=size)
            # Calibrated once in the table's own light, and once in the clean tier's neutral light.
            calibrations = {kind: _Colours(table, config, kind) for kind in {_light(t) for t in tiers}}
            tables[table_index] = (table, calibrations)
            for tier_name in tiers:
                for counts in (per_tier[tier_name], total):
                    counts["tables"] += 1
                    counts["calibrated"] += calibrations[_light(tier_name)].accepted
        table, calibrations = tables[table_index]
        colours = calibrations[_light(tier)]
        scene_seed = seed * 100_003 + index
        track = random_board(table.edition, random.Random(scene_seed))
        image, truth = render_scene(table, track, scene_seed, tier)
        started, cpu_started = time.perf_counter(), time.process_time()
        try:
            got = colours.read(config, image)
        except BoardNotFound:
            got = None
        elapsed = (time.perf_counter() - started) * 1000
        cpu = (time.process_time() - cpu_started) * 1000
        for counts in (per_tier[tier], total):
            counts["times"].append(elapsed)
            counts["cpu_times"].append(cpu)
            score_scene(counts, truth, got)
    result = {"renderer": "photo", **summary(total), "tiers": {tier: summary(c) for tier, c in per_tier.items()}}
    return result


def describe(result: dict[str, Any]) -> list[str]:
    """The bench's figures in words, one line per tier and per stack level."""
    lines = []
    for tier, r in result["tiers"].items():
        lines.append(
            f"{tier:>6}: {r['scenes']} scenes, {100 * r['scene_accuracy']:.1f}% fully right, "
            f"{100 * r['camel_error']:.2f}% of camels wrong, {100 * r['camels_unseen']:.2f}% unseen "
            f"({100 * r['unseen_occluded']:.2f}% truly hidden, {100 * r['unseen_in_view']:.2f}% in view), "
            f"board not found {100 * r['board_not_found']:.1f}% "
            f"({100 * r['board_not_found_markers_hidden']:.1f}% with a marker hidden), "
            f"{r['ms_per_frame']:.1f} ms per frame ({r['cpu_ms_per_frame']:.1f} ms of CPU, all threads)"
        )
        levels = ", ".join(
            f"level {level}{'+' if level == '3' else ''}: {100 * c['wrong']:.1f}% wrong {100 * c['unseen']:.1f}% unseen"
            for level, c in r["by_level"].items()
        )
        lines.append(f"        {levels}")
    lines.append(f"calibration accepted at the first photo on {100 * result['calibration_accepted']:.0f}% of tables")
    return lines
