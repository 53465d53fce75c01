"""The companion's camera watch over a leg as a table plays it: how many frames until it reads a still board,
what its verdict says, and whether it calibrates itself.

Each table (vision.photo: photo-like scenes the reader was not tuned on, with the 2018 pyramid, the palm tree,
the 2014 shaker, cards...) starts uncalibrated (the default colours, as `[camera] mode = "files"` without a
calibration) and plays one random leg with the rules engine. The camera sees, a frame a second (each frame the
same scene with its own sensor noise and JPEG; ``--noise 0``: the very same picture, as one image file gives):
- ``start``: the starting board, still (5 frames), a hand passing over it (2 frames), still again (5 frames);
  the game is at its start, so the page asks the camera to learn from it;
- ``after``: the leg's last die has been entered (the game is at the next leg's start, a lesson again), but for
  3 frames nobody has moved the camel yet, then a hand moves it (1 frame), then the new board, still (8 frames).
Per frame the page's questions are asked as ``GET /api/games/<id>/camera`` asks them (learn at a leg's start,
then the verdict). Printed per table and in total: frames until the first steady reading and until the verdict
says "matches" (after the camel is moved, in ``after``), the verdicts worked out (each costs its judging), whether
the camera learnt the table's colours, and its words.
Run: .venv/bin/python benchmarks/camera_watch_sequence.py [--tables N] [--seed S] [--edition 2018|2014|both]
     [--noise SIGMA] [--verbose]
"""

from __future__ import annotations

import argparse
import inspect
import random
import time
from typing import Any

import cv2
import numpy as np
from camera_verify import random_draw

import companion.table.camera_verdict as camera_verdict
from companion.gamelog import action_from_json
from companion.rules import EDITIONS, apply, new_game
from companion.table.camera_watch import CameraWatch
from vision.photo import make_table, render_scene
from vision.plausible import starting_track
from vision.read import BOARD_BGR
from vision.synth import camel_profiles

PLAYERS = ("Ann", "Bob")


def one_leg(edition: str, rng: random.Random) -> tuple[Any, list[dict[str, Any]]] | None:
    """A game's start and the draws of its first leg (None when a camel leaves spaces 1 to 16)."""
    state = start = new_game(EDITIONS[edition], PLAYERS, starting_track(edition, rng))
    actions: list[dict[str, Any]] = []
    while True:
        action = random_draw(state, rng)
        state = apply(state, action_from_json(action))
        actions.append(action)
        if state.game_over or any(not 1 <= space <= 16 for space in state.track.as_dict()):
            return None
        if len(state.dice_in_pyramid()) == len(state.edition.dice):
            return start, actions


def board_after(start: Any, actions: list[dict[str, Any]]) -> Any:
    state = start
    for action in actions:
        state = apply(state, action_from_json(action))
    return state


class Frames:
    """A camera that shows the scenes it is given, each with fresh sensor noise and a JPEG round trip."""

    def __init__(self, seed: int, sigma: float = 2.0) -> None:
        self.queue: list[np.ndarray] = []
        self.noise = np.random.default_rng(seed)
        self.sigma = sigma

    def show(self, image: np.ndarray, count: int) -> None:
        self.queue.extend([image] * count)

    def read(self) -> np.ndarray:
        if self.sigma <= 0:
            return self.queue.pop(0).copy()  # the same picture again, read afresh as from one image file
        image = self.queue.pop(0).astype(np.float32)
        noisy = np.clip(image + self.noise.normal(0.0, self.sigma, image.shape), 0, 255).astype(np.uint8)
        return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)

    def close(self) -> None:
        pass


def play_table(seed: int, edition: str, sigma: float = 2.0) -> dict[str, Any] | None:
    rng = random.Random(f"watch/{seed}/{edition}")
    leg = None
    while leg is None:
        leg = one_leg(edition, rng)
    start, actions = leg
    table = make_table(seed, edition)
    track = {space: list(stack) for space, stack in start.track.as_dict().items()}
    before = {space: list(stack) for space, stack in board_after(start, actions[:-1]).track.as_dict().items()}
    after_state = board_after(start, actions)
    after = {space: list(stack) for space, stack in after_state.track.as_dict().items()}

    def scene(board: dict[int, list[str]], hand: bool) -> np.ndarray:
        return render_scene(table, board, seed, "props", hand=hand)[0]

    profiles = camel_profiles(edition)
    watch = CameraWatch(lambda: None, table.template, profiles, agree=3, board_bgr=BOARD_BGR)
    frames = Frames(seed, sigma)
    new_learn = "leg" in inspect.signature(watch.learn).parameters  # the watch as it was before: learn(key, track)
    log: dict[str, list[tuple[str, str, str]]] = {"start": [], "after": []}
    step_seconds: list[float] = []
    verdict_seconds: list[float] = []
    judged = [0]
    real = camera_verdict.camera_verdict

    def counted(*args: Any, **kwargs: Any) -> Any:
        judged[0] += 1
        return real(*args, **kwargs)

    def run(phase: str, game_start: Any, game_actions: list[dict[str, Any]], leg: int, count: int) -> None:
        board = {space: list(stack) for space, stack in board_after(game_start, game_actions).track.as_dict().items()}
        for _ in range(count):
            began = time.perf_counter()
            status = watch.step(frames)
            step_seconds.append(time.perf_counter() - began)
            # What GET /api/games/<id>/camera asks: learn at a leg's start, then the verdict.
            if new_learn:
                watch.learn("game", leg, board, game_start, game_actions)
                began = time.perf_counter()
                verdict = watch.verdict("game", game_start, game_actions)
            else:
                watch.learn(("game", leg), board)
                began = time.perf_counter()
                verdict = watch.verdict(("game", len(game_actions)), game_start, game_actions)
            verdict_seconds.append(time.perf_counter() - began)
            answer = verdict["answer"] if verdict else "-"
            log[phase].append((status.state, answer, watch.learnt))

    camera_verdict.camera_verdict = counted
    try:
        frames.show(scene(track, False), 5)
        frames.show(scene(track, True), 2)
        frames.show(scene(track, False), 5)
        run("start", start, [], 1, 12)
        frames.show(scene(before, False), 3)
        frames.show(scene(after, True), 1)
        frames.show(scene(after, False), 8)
        run("after", start, actions, 2, 12)
    finally:
        camera_verdict.camera_verdict = real

    def first(phase: str, test: Any, skip: int = 0) -> int | None:
        return next((index + 1 - skip for index, row in enumerate(log[phase]) if index >= skip and test(row)), None)

    return {
        "table": f"{edition}/{seed}",
        "start: first reading": first("start", lambda row: row[0] == "reading"),
        "start: reading frames": sum(row[0] == "reading" for row in log["start"]),
        "start: first matches": first("start", lambda row: row[1] == "matches"),
        "after: frames after the move to matches": first("after", lambda row: row[1] == "matches", skip=4),
        "after: differs before the move": sum(row[1].startswith("differs") for row in log["after"][:3]),
        "hand frames answered differs": sum(row[1].startswith("differs") for row in log["start"][5:7]),
        "verdicts worked out": judged[0],
        "frame ms (mean)": round(1000 * float(np.mean(step_seconds))),
        "verdict call ms (mean)": round(1000 * float(np.mean(verdict_seconds))),
        "learnt": watch.learnt,
        "log": log,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--edition", choices=("2018", "2014", "both"), default="both")
    parser.add_argument("--noise", type=float, default=2.0,
                        help="sensor noise (grey levels) of each frame; 0: the very same picture each frame")
    parser.add_argument("--verbose", action="store_true", help="print each frame's state, verdict and lesson")
    args = parser.parse_args()
    editions = ("2018", "2014") if args.edition == "both" else (args.edition,)
    results = []
    for index in range(args.tables):
        edition = editions[index % len(editions)]
        result = play_table(args.seed + index, edition, args.noise)
        results.append(result)
        print({key: value for key, value in result.items() if key != "log"}, flush=True)
        if args.verbose:
            for phase, rows in result["log"].items():
                for number, row in enumerate(rows, 1):
                    print(f"  {phase} {number:2d}: {row[0]:16s} {row[1][:70]:70s} {row[2][:80]}")
    learnt = sum(result["learnt"].startswith("calibrated") for result in results)
    reading = sum(result["start: reading frames"] for result in results)
    print(f"\n{len(results)} tables: learnt on {learnt}; 'reading' on {reading} of {12 * len(results)} start frames; "
          f"verdicts worked out {sum(result['verdicts worked out'] for result in results)} "
          f"over {24 * len(results)} frames; a frame {np.mean([r['frame ms (mean)'] for r in results]):.0f} ms, "
          f"a verdict call {np.mean([r['verdict call ms (mean)'] for r in results]):.0f} ms (means)")


if __name__ == "__main__":
    main()
