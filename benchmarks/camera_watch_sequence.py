"""The companion's camera watch over a leg as a table plays it: how many frames until it reads a still board,
what its verdict says, and whether it calibrates itself.

Each table (vision.photo: photo-like scenes the reader was not tuned on, with the 2018 pyramid, the palm tree,
the 2014 shaker, cards...) starts uncalibrated (the default colours, as `[camera] mode = "files"` without a
calibration) and plays one random leg with the rules engine. The camera sees, a frame a second (each frame the
same scene with its own sensor noise and JPEG, ``--gain``: its exposure breathing, ``--shake``: the picture
shaking; ``--noise 0``: the very same picture, as one image file gives):
- ``start``: the starting board, still (5 frames), a hand over it (2 frames), still again (5 frames), an arm
  moving slowly over it (4 frames, a little further each frame), still again (4 frames); the game is at its
  start, so the page asks the camera to learn from it;
- ``after``: the leg's last die has been entered (the game is at the next leg's start, a lesson again), but for
  3 frames nobody has moved the camel yet, then a hand moves it (1 frame), then the new board, still (8 frames).
Per frame the page's questions are asked as ``GET /api/games/<id>/camera`` asks them (learn at a leg's start,
then the verdict). Printed per table and in total: frames until the first steady reading (at the start, after
the arm, after the move) and until the verdict says "matches", frames called steady although the picture was
moving (a hand, the arm, the first frame of a moved camel: must be 0), the camels wrong or unseen in the steady
readings against the truth (and, from the same still frames, in the latest frame's and the most confident
frame's readings), the verdicts worked out (each costs its judging), whether the camera learnt the table's
colours, and its words.
``--still`` measures the stillness check instead (vision.stable): how many compared pixels change between frames
of one still board and when one camel is moved a space on, at several levels, and what the check costs.
Run: .venv/bin/python benchmarks/camera_watch_sequence.py [--tables N] [--seed S] [--edition 2018|2014|both]
     [--noise SIGMA] [--gain SHARE] [--shake PX] [--agree N] [--verbose]
     .venv/bin/python benchmarks/camera_watch_sequence.py --still [--tables N] [--seed S] [--noise SIGMA]
     [--gain SHARE] [--shake PX] [--still-width PX] [--still-reach PX] [--still-blur SIGMA]
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
    """A camera that shows the scenes it is given, each with fresh sensor noise and a JPEG round trip, and (as a
    real camera on a table does) its exposure breathing by ``gain`` and the picture shaking by ``shake`` pixels."""

    def __init__(self, seed: int, sigma: float = 2.0, gain: float = 0.0, shake: float = 0.0) -> None:
        self.queue: list[np.ndarray] = []
        self.noise = np.random.default_rng(seed)
        self.sigma, self.gain, self.shake = sigma, gain, shake

    def show(self, image: np.ndarray, count: int) -> None:
        self.queue.extend([image] * count)

    def read(self) -> np.ndarray:
        if self.sigma <= 0 and self.gain <= 0 and self.shake <= 0:
            return self.queue.pop(0).copy()  # the same picture again, read afresh as from one image file
        image = self.queue.pop(0)
        if self.shake > 0:
            dx, dy = self.noise.normal(0.0, self.shake, 2)
            image = cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), (image.shape[1], image.shape[0]),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        image = image.astype(np.float32) * (1.0 + (self.noise.normal(0.0, self.gain) if self.gain > 0 else 0.0))
        noisy = np.clip(image + self.noise.normal(0.0, self.sigma, image.shape), 0, 255).astype(np.uint8)
        return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)

    def close(self) -> None:
        pass


def moving_arm(still: np.ndarray, hand: np.ndarray, frames: int, step: tuple[int, int] = (30, 12)) -> list[np.ndarray]:
    """An arm moving slowly over the still board: the hand scene's arm (where it differs from the still board)
    pasted on it, ``step`` pixels further each frame."""
    mask = (np.abs(hand.astype(np.int16) - still.astype(np.int16)).max(axis=2) > 40).astype(np.uint8)
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    pictures = []
    for k in range(frames):
        shift = np.float32([[1, 0, step[0] * k], [0, 1, step[1] * k]])
        size = (still.shape[1], still.shape[0])
        moved = cv2.warpAffine(mask, shift, size, flags=cv2.INTER_NEAREST).astype(bool)
        arm = cv2.warpAffine(hand, shift, size, flags=cv2.INTER_LINEAR)
        pictures.append(np.where(moved[:, :, None], arm, still))
    return pictures


def wrong_and_unseen(seen: dict[int, list[str]] | None, truth: dict[int, list[str]], camels: int) -> tuple[int, int]:
    """Camels a reading puts on another space than ``truth`` or out of order with the others it shows there (a
    camel left unseen under them does not make them wrong), and camels it does not show."""
    if seen is None:
        return 0, 0
    place = {camel: (space, level) for space, stack in truth.items() for level, camel in enumerate(stack)}
    wrong = shown = 0
    for space, stack in seen.items():
        shown += len(stack)
        levels = [place[camel][1] for camel in stack if camel in place and place[camel][0] == space]
        in_order = [1] * len(levels)  # the longest run of them in the truth's order stands right
        for i in range(len(levels)):
            for j in range(i):
                if levels[j] < levels[i]:
                    in_order[i] = max(in_order[i], in_order[j] + 1)
        wrong += len(stack) - max(in_order, default=0)
    return wrong, camels - shown


def play_table(seed: int, edition: str, sigma: float = 2.0, gain: float = 0.0, shake: float = 0.0,
               agree: int = 3) -> dict[str, Any] | None:
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
    watch = CameraWatch(lambda: None, table.template, profiles, agree=agree, board_bgr=BOARD_BGR)
    frames = Frames(seed, sigma, gain, shake)
    shown: list[tuple[int, dict[int, list[str]] | None]] = []  # per frame: which picture, and its board

    def show(image: np.ndarray, count: int, board: dict[int, list[str]] | None) -> None:
        frames.show(image, count)
        shown.extend([(id(image), board)] * count)

    new_learn = "leg" in inspect.signature(watch.learn).parameters  # the watch as it was before: learn(key, track)
    log: dict[str, list[tuple[str, str, str]]] = {"start": [], "after": []}
    step_seconds: list[float] = []
    verdict_seconds: list[float] = []
    judged = [0]
    real = camera_verdict.camera_verdict
    early = [0]
    errors: dict[str, list[int]] = {}
    steady_frames = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        judged[0] += 1
        return real(*args, **kwargs)

    def run(phase: str, game_start: Any, game_actions: list[dict[str, Any]], leg: int, count: int) -> None:
        board = {space: list(stack) for space, stack in board_after(game_start, game_actions).track.as_dict().items()}
        for _ in range(count):
            index = len(step_seconds)
            began = time.perf_counter()
            status = watch.step(frames)
            step_seconds.append(time.perf_counter() - began)
            if status.state == "reading":
                # Steady is right only when the last `agree` frames showed the very same picture.
                recent = shown[max(0, index + 1 - agree) : index + 1]
                truth = shown[index][1]
                if len(recent) < agree or len({picture for picture, _ in recent}) > 1 or truth is None:
                    early[0] += 1
                else:
                    steady_frames[0] += 1
                    still = getattr(watch._stable, "still_readings", ())
                    options = {"steady": status.track}
                    if still:
                        from vision.stable import consensus

                        options["consensus of half"] = consensus(list(still), 0.5).track
                        options["latest frame"] = still[-1].track
                        options["best frame"] = max(still, key=lambda reading: reading.confidence).track
                    for name, seen in options.items():
                        wrong, unseen = wrong_and_unseen(seen, truth, len(profiles))
                        errors.setdefault(name, [0, 0])
                        errors[name][0] += wrong
                        errors[name][1] += unseen
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
        still, hand = scene(track, False), scene(track, True)
        show(still, 5, track)
        show(hand, 2, None)
        show(still, 5, track)
        for arm in moving_arm(still, hand, 4):
            show(arm, 1, None)
        show(still, 4, track)
        run("start", start, [], 1, 20)
        show(scene(before, False), 3, before)
        show(scene(after, True), 1, None)
        show(scene(after, False), 8, after)
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
        "start: frames after the arm to reading": first("start", lambda row: row[0] == "reading", skip=16),
        "after: frames after the move to reading": first("after", lambda row: row[0] == "reading", skip=4),
        "after: frames after the move to matches": first("after", lambda row: row[1] == "matches", skip=4),
        "after: differs before the move": sum(row[1].startswith("differs") for row in log["after"][:3]),
        "hand frames answered differs": sum(row[1].startswith("differs") for row in log["start"][5:7]),
        "steady on a moving picture": early[0],
        "steady frames": steady_frames[0],
        "camels wrong / unseen on steady frames": {name: tuple(pair) for name, pair in errors.items()},
        "verdicts worked out": judged[0],
        "frame ms (mean)": round(1000 * float(np.mean(step_seconds))),
        "verdict call ms (mean)": round(1000 * float(np.mean(verdict_seconds))),
        "learnt": watch.learnt,
        "log": log,
    }


LEVELS = (8.0, 11.0, 14.0, 18.0, 24.0)


def measure_still(seed: int, edition: str, sigma: float, gain: float, shake: float, config: Any,
                  frames_per_table: int = 6) -> dict[str, Any]:
    """How many of the compared pixels change (at each of LEVELS) between frames of the same still board (sensor
    noise, exposure, shake) and when one camel is moved a space on (the top camel of each stack, in turn; the
    moved camel pasted into the still scene, so nothing else changes), and what the stillness check costs."""
    from vision.locate import BoardNotFound
    from vision.read import ReadConfig, observe
    from vision.stable import StillPicture, board_bounds, changed

    rng = random.Random(f"watch/{seed}/{edition}")
    leg = None
    while leg is None:
        leg = one_leg(edition, rng)
    track = {space: list(stack) for space, stack in leg[0].track.as_dict().items()}
    table = make_table(seed, edition)
    still, truth = render_scene(table, track, seed, "props", hand=False)
    camera = table.camera
    frames = Frames(seed, sigma, gain, shake)
    frames.show(still, 1)
    first = frames.read()
    try:
        location = observe(ReadConfig(), table.template, first).location
    except BoardNotFound:
        return {"table": f"{edition}/{seed}", "board not found": True}
    region = board_bounds(table.template, location, first.shape)
    picture = StillPicture(config)
    anchor = picture.reference(picture.thumbnail(first, region))

    def counts(frame: np.ndarray) -> list[int]:
        small = picture.thumbnail(frame, region)
        return [changed(anchor, small, level) for level in LEVELS]

    noise = []
    frames.show(still, frames_per_table)
    for _ in range(frames_per_table):
        noise.append(counts(frames.read()))

    def hull(where: dict[str, Any]) -> np.ndarray:
        x, y = where["at_mm"]
        low, high = where["level"] * 19.0 - 2, (where["level"] + 1) * 19.0 + 8
        box = np.array([(x + dx, y + dy, -z) for dx in (-20, 20) for dy in (-20, 20) for z in (low, high)])
        return cv2.convexHull(np.round(camera.project(box)).astype(np.int32))

    moved = {}
    for space, stack in track.items():
        camel = stack[-1]
        target = space % 16 + 1
        board = {s: [c for c in st if c != camel] for s, st in track.items()}
        board.setdefault(target, []).append(camel)
        after, after_truth = render_scene(table, board, seed, "props", hand=False)
        mask = np.zeros(still.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, hull(truth["camels"][camel]), 1)
        cv2.fillConvexPoly(mask, hull(after_truth["camels"][camel]), 1)
        frames.show(np.where(mask[:, :, None].astype(bool), after, still), 1)
        # A camel hidden (by the pyramid, the palm tree) both where it was and where it went: no picture shows it.
        visible = max(truth["camels"][camel]["visible"], after_truth["camels"][camel]["visible"])
        if visible >= 0.25:
            moved[camel] = counts(frames.read())
        else:
            frames.read()

    frames.show(still, 20)
    cost = []
    for _ in range(20):
        frame = frames.read()
        began = time.perf_counter()
        picture.feed(frame, board_bounds(table.template, location, frame.shape))
        cost.append(time.perf_counter() - began)
    return {"table": f"{edition}/{seed}", "frame": f"{first.shape[1]}x{first.shape[0]}",
            "region": f"{region[2] - region[0]}x{region[3] - region[1]}", "noise": noise, "moved": moved,
            "check ms": 1000 * float(np.median(cost))}


def still_report(args: argparse.Namespace, editions: tuple[str, ...]) -> None:
    from vision.stable import StillConfig

    config = StillConfig(**{name: value for name, value in (("width", args.still_width),
                                                             ("reach", args.still_reach),
                                                             ("blur_sigma", args.still_blur)) if value is not None})
    noise: list[list[int]] = []
    moved: list[tuple[str, list[int]]] = []
    cost = []
    for index in range(args.tables):
        result = measure_still(args.seed + index, editions[index % len(editions)], args.noise, args.gain, args.shake,
                               config)
        if result.get("board not found"):
            print(result)
            continue
        noise += result["noise"]
        moved += list(result["moved"].items())
        cost.append(result["check ms"])
        print({key: value for key, value in result.items() if key not in ("noise", "moved")},
              "noise max", [max(row[k] for row in result["noise"]) for k in range(len(LEVELS))],
              "moved min", [min(row[k] for row in result["moved"].values()) for k in range(len(LEVELS))], flush=True)
    print(f"\nchanged pixels (of about {config.width} x {config.width * 3 // 4} compared), per level {LEVELS}:")
    for k, level in enumerate(LEVELS):
        still_counts = sorted(row[k] for row in noise)
        moved_counts = sorted(row[k] for _, row in moved)
        print(f"  level {level:4.0f}: still frames max {still_counts[-1]:4d} (99th pct "
              f"{still_counts[int(0.99 * (len(still_counts) - 1))]:4d}, n={len(still_counts)}); "
              f"one camel moved min {moved_counts[0]:4d} (5th pct {moved_counts[len(moved_counts) // 20]:4d}, "
              f"n={len(moved_counts)}); missed at > {config.pixels} px: "
              f"{sum(count <= config.pixels for count in moved_counts)}, still frames refused: "
              f"{sum(count > config.pixels for count in still_counts)}")
    k = LEVELS.index(config.level) if config.level in LEVELS else None
    if k is not None:
        by_camel: dict[str, int] = {}
        for camel, row in moved:
            by_camel[camel] = min(by_camel.get(camel, 10**6), row[k])
        print(f"  at level {config.level:.0f}, fewest changed pixels per moved camel: {by_camel}")
    print(f"the stillness check: {np.median(cost):.2f} ms a frame (median over tables)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--edition", choices=("2018", "2014", "both"), default="both")
    parser.add_argument("--noise", type=float, default=2.0,
                        help="sensor noise (grey levels) of each frame; 0: the very same picture each frame")
    parser.add_argument("--gain", type=float, default=0.0,
                        help="the exposure's breathing from frame to frame (share of the brightness, one sigma)")
    parser.add_argument("--shake", type=float, default=0.0, help="the picture's shaking from frame to frame (px)")
    parser.add_argument("--agree", type=int, default=3, help="frames a board must stay still to be steady")
    parser.add_argument("--still", action="store_true",
                        help="measure the stillness check instead: changed pixels on still frames and when one "
                             "camel is moved, and its cost")
    parser.add_argument("--still-width", type=int, help="with --still: the compared width (StillConfig.width)")
    parser.add_argument("--still-reach", type=int, help="with --still: StillConfig.reach")
    parser.add_argument("--still-blur", type=float, help="with --still: StillConfig.blur_sigma")
    parser.add_argument("--verbose", action="store_true", help="print each frame's state, verdict and lesson")
    args = parser.parse_args()
    editions = ("2018", "2014") if args.edition == "both" else (args.edition,)
    if args.still:
        still_report(args, editions)
        return
    results = []
    for index in range(args.tables):
        edition = editions[index % len(editions)]
        result = play_table(args.seed + index, edition, args.noise, args.gain, args.shake, args.agree)
        results.append(result)
        print({key: value for key, value in result.items() if key != "log"}, flush=True)
        if args.verbose:
            for phase, rows in result["log"].items():
                for number, row in enumerate(rows, 1):
                    print(f"  {phase} {number:2d}: {row[0]:16s} {row[1][:70]:70s} {row[2][:80]}")
    learnt = sum(result["learnt"].startswith("calibrated") for result in results)
    reading = sum(result["start: reading frames"] for result in results)
    start_frames = len(results[0]["log"]["start"]) if results else 0
    frames = start_frames + (len(results[0]["log"]["after"]) if results else 0)
    print(f"\n{len(results)} tables: learnt on {learnt}; 'reading' on {reading} of {start_frames * len(results)} start "
          f"frames; verdicts worked out {sum(result['verdicts worked out'] for result in results)} "
          f"over {frames * len(results)} frames; a frame {np.mean([r['frame ms (mean)'] for r in results]):.0f} ms, "
          f"a verdict call {np.mean([r['verdict call ms (mean)'] for r in results]):.0f} ms (means)")

    def waits(key: str) -> str:
        found = [result[key] for result in results if result[key] is not None]
        return (f"{np.mean(found):.1f} frames on {len(found)} of {len(results)} tables" if found
                else f"never, on {len(results)} tables")

    print(f"steady: the first still board after {waits('start: first reading')}; again after the moving arm "
          f"{waits('start: frames after the arm to reading')}; after the moved camel "
          f"{waits('after: frames after the move to reading')}; first 'matches' at the start "
          f"{waits('start: first matches')}")
    print(f"steady on a moving picture (a hand, an arm, a camel just moved): "
          f"{sum(result['steady on a moving picture'] for result in results)} frames")
    totals: dict[str, list[int]] = {}
    for result in results:
        for name, (wrong, unseen) in result["camels wrong / unseen on steady frames"].items():
            totals.setdefault(name, [0, 0])
            totals[name][0] += wrong
            totals[name][1] += unseen
    steady = sum(result["steady frames"] for result in results)
    print(f"on {steady} steady frames, camels wrong / unseen: "
          + "; ".join(f"{name} {wrong} / {unseen}" for name, (wrong, unseen) in totals.items()))

if __name__ == "__main__":
    main()
