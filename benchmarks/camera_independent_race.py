"""The companion's camera through whole races, with no calibration file, on tables it was never tuned on.

This is what the issue's "done when" asks of the camera at a table: the companion confirms or corrects each
board from the camera, and calibrates itself from the boards the game confirmed, so most tables never run
`vision calibrate`. Measured on the independent renderer (benchmarks/independent: a numpy ray caster that shares
no code, shapes or art with vision/), each table with its own board print, paint, lamp, camera pose and
table top, driven through the companion's own camera watch (companion.table.camera_watch.CameraWatch) as
`camelup serve` builds it without a `[camera] calibration`: the board's usual colours until it learns.

Per table, one race played by the rules engine with random draws until a camel would cross the finish, the
players laying (or moving) their desert/spectator tiles on ``--tiles`` of the turns (the tiles rendered where
the game has them, either side up):
- the starting board is shown; the page's questions are asked as `GET /api/games/<id>/camera` asks them (at a
  leg's start: learn from this board; then the verdict), a frame a second, 6 frames per board;
- after each draw (entered first, as players do, then the camel moved), with ``--slips``: the board a
  different entry of that draw would give (another value, or another die with the same value) is shown first,
  as if a hand had moved the camels wrongly; the verdict must say "differs" (else a miss, or "cannot tell"),
  unless that board is also the next leg's first roll moved before it is typed in (the leg's last die one value
  further), or the board before the draw (the other entry's camel sent back onto its own space by a tile):
  counted apart, where "pending" is the answer the companion gives on purpose, or the only one the picture allows;
  then the right board, which must be "matches" (else a false alarm, or "cannot tell"); a tile laid is an
  entry too, and the board with it must be "matches";
- with ``--between``, each draw is also shown as a table is between two entries for a few seconds every turn:
  half the draws moved before anyone types them in (dice rolled by hand: the board after the move, the game's
  log without the draw), half entered before anyone moves the camel (the board before the move, the log with
  it). Either must be "pending" (no alarm: a draw still to be typed in, or a camel still to be moved); "differs"
  there is an alarm the players did not deserve, "matches" a board confirmed that is not the game's. At a
  leg's start the board moved before the entry must not teach the camera either.
The camera stands still through a race (the default): each camel keeps its placement (offset, turn, its place on
the one below) from photo to photo until it moves, a moved unit is set down afresh at its new space (the camels it
carries keep their place on it), tiles and props keep their places, and the board is bumped now and then; the
hand over the board, the light, the exposure, the noise and the JPEG are each photo's own. With
``--reset-each-photo`` every camel, tile and prop is set down afresh in every photo, as the bench did before
(the figures measured before 2026-11-27's round were).
Printed per tier: tables that learnt their colours from the starting board (and from any board), legs whose
start taught the camera, the verdicts on matching boards (confirmed / cannot tell / false alarm), on
boards one entry off (caught / cannot tell / missed; caught boards whose "most likely" names the slip's
board), on boards between two entries (pending / cannot tell / differs / matches; how often the pending
draw it names is the one moved), and the watch's time per frame.

Run: .venv/bin/python benchmarks/camera_independent_race.py [--tables N] [--seed S] [--tier light|props|all]
     [--no-slips] [--between] [--tiles SHARE] [--reset-each-photo] [--keep DIR [--reuse-photos]] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.camera_independent import HIDDEN, calibration_board
from benchmarks.camera_verify import random_draw as draw
from benchmarks.independent.logs import draw_entries, entry_words, rival_entries
from benchmarks.independent.scene import TIERS as SCENE_TIERS
from benchmarks.independent.scene import Still, render
from benchmarks.independent.table import make_table
from companion.gamelog import action_from_json, make_log
from companion.rules import EDITIONS, PyramidTicket, apply, new_game
from companion.rules.errors import RuleError
from companion.table.camera_watch import CameraWatch
from vision.calibrate import reading_colours
from vision.plausible import starting_track
from vision.sources import ImageFiles

PLAYERS = ("Ann", "Bob")
FRAMES_PER_BOARD = 6
"""A frame a second: the board stays still this long after a move before the players look at the page."""
TIERS = ("light", "props")
TILE_TURNS = 0.15
"""The share of turns a player lays (or moves) their tile instead of taking a pyramid ticket."""


def on_track(state: Any) -> dict[int, list[str]] | None:
    """The board, or None when a camel has left spaces 1 to 16 (the race is over)."""
    track = {int(space): list(stack) for space, stack in state.track.as_dict().items()}
    return track if all(1 <= space <= 16 for space in track) and not state.game_over else None


def slip(
    state: Any, action: dict[str, Any], rng: random.Random
) -> tuple[dict[int, list[str]], str, dict[str, Any]] | None:
    """The board another entry of this draw gives (same die another value, or another die the same value), that
    entry in words, and the entry; None when none gives another board on spaces 1 to 16."""
    right = on_track(apply(state, action_from_json(action)))
    dice = list(dict.fromkeys([*state.dice_in_pyramid(), action["die"]]))
    rivals = rival_entries(draw_entries(state.edition, dice), (action["die"], action["value"], action.get("crazy")))
    rng.shuffle(rivals)
    for rival in rivals:
        die, value, crazy = rival
        entry = {**{key: v for key, v in action.items() if key != "crazy"}, "die": die, "value": value}
        if crazy:
            entry["crazy"] = crazy
        try:
            other = on_track(apply(state, action_from_json(entry)))
        except RuleError:
            continue
        if other is not None and other != right:
            return other, entry_words(rival), entry
    return None


def next_roll_board(state: Any, board: dict[int, list[str]]) -> bool:
    """Whether ``board`` is also what the next draw from ``state`` would give, moved before it is typed in: a
    slip of the leg's last draw (its die one value further) is the next leg's first roll of that die. The
    companion then says "pending" (the usual course of play), not "differs"."""
    for die, value, crazy in draw_entries(state.edition, state.dice_in_pyramid()):
        try:
            if on_track(apply(state, PyramidTicket(state.current_player, die, value, crazy))) == board:
                return True
        except RuleError:
            continue
    return False


def lay_tile(state: Any, rng: random.Random) -> dict[str, Any] | None:
    """The current player's desert/spectator tile laid (or moved) on a random space the rules allow, a random side
    up; None when no space does."""
    for space in rng.sample(range(2, 17), 15):
        action = {"player": state.current_player, "type": "spectator", "space": space,
                  "side": rng.choice(state.edition.tile_sides)}
        try:
            apply(state, action_from_json(action))
        except RuleError:
            continue
        return action
    return None


def race(
    index: int, seed: int, tier: str, folder: Path, slips: bool, tiles: float = TILE_TURNS, between: bool = False,
    reset: bool = False, reuse: bool = False,
) -> dict[str, Any]:
    """One table's race: its boards shown to the camera watch, and the watch's verdicts. ``reset``: every photo
    sets the camels, tiles and props down afresh (else the camera and everything that did not move stays put);
    ``reuse``: the photos already in ``folder`` are read again instead of rendered (the draws do not depend on the
    camera, so the same seed and options give the same photos)."""
    edition = "2018" if index % 2 == 0 else "2014"
    names = [stack[0] for stack in calibration_board(edition).values()]
    table = make_table(seed * 1000 + index, edition, names)
    rng = random.Random(f"race/{seed}/{index}/{tier}")
    colours = reading_colours(edition, None)  # `camelup serve` without a calibration file
    watch = CameraWatch(lambda: None, colours.template, dict(colours.profiles), board_bgr=colours.board_bgr,
                        calibration=colours)
    start = state = new_game(EDITIONS[edition], PLAYERS, starting_track(edition, rng))
    actions: list[dict[str, Any]] = []
    photos = [0]
    hidden: list[set[str]] = [set()]  # the camels the latest photo shows less than HIDDEN of
    frame_seconds: list[float] = []
    still = None if reset else Still(seed * 10_000 + index * 10 + SCENE_TIERS.index(tier))

    def show(track: dict[int, list[str]], kind: str) -> dict[str, Any] | None:
        """Photograph ``track``, step the watch a frame a second and ask the page's questions after each frame;
        the last verdict (what the players see once the board is still)."""
        photos[0] += 1
        path = folder / f"t{index}-{tier}-{photos[0]:03d}-{kind}.jpg"
        laid = {tile.space: tile.side == state.edition.plus_side for tile in state.tiles}
        seen = path.with_suffix(".hidden.json")  # the camels the photo hides, kept beside it
        if reuse and path.exists() and seen.exists():
            hidden[0] = set(json.loads(seen.read_text()))
        else:
            truth = render(table, tier, track, photos[0], str(path), tiles=laid, still=still)
            hidden[0] = {name for name, share in truth.visible.items() if share < HIDDEN}
            seen.write_text(json.dumps(sorted(hidden[0])))
        camera = ImageFiles(path)  # `[camera] mode = "files"`: the photo read afresh each frame
        verdict = None
        for _ in range(FRAMES_PER_BOARD):
            began = time.perf_counter()
            watch.step(camera)
            frame_seconds.append(time.perf_counter() - began)
            verdict = ask()
        return verdict

    def ask() -> dict[str, Any] | None:
        """What `GET /api/games/<id>/camera` asks: at a leg's start, learn from its board; then the verdict."""
        if len(state.dice_in_pyramid()) == len(state.edition.dice):
            watch.learn("race", state.leg, on_track(state) or {}, start, list(actions))
        else:
            watch.forget("race")
        return watch.verdict("race", start, list(actions))

    def keep_case(verdict: dict[str, Any] | None, expected: str) -> None:
        """Beside a photo the verdict got wrong or could not tell, the game's log and what the camera had learnt,
        to look at it again with `camelup vision read PHOTO --calibration CAL --expect LOG`."""
        if answer(verdict) == expected:
            return
        stem = folder / f"t{index}-{tier}-{photos[0]:03d}"
        setup = {int(space): list(stack) for space, stack in start.track.as_dict().items()}
        log = make_log(edition, PLAYERS, setup, [action_from_json(action) for action in actions])
        Path(f"{stem}.log.json").write_text(json.dumps(log.to_json()))
        if watch.calibration is not None:
            Path(f"{stem}.cal.json").write_text(json.dumps(watch.calibration.as_json()))

    def answer(verdict: dict[str, Any] | None) -> str:
        return "no verdict" if verdict is None else verdict["answer"].split(":")[0].split(" (")[0]

    def occluded(verdict: dict[str, Any] | None) -> bool:
        return hidden_doubt(verdict, hidden[0])

    def between_entries(track: dict[int, list[str]], case: str, draw: dict[str, Any]) -> None:
        """Show ``track`` between ``draw``'s two entries: ``case`` "pending" (moved, not typed in yet) or
        "unmoved" (typed in, not moved yet), which is also the verdict's key naming the draw it sees."""
        verdict = show(track, case)
        keep_case(verdict, "pending")
        boards.append({"case": case, "answer": answer(verdict), "said": (verdict or {}).get("answer"),
                       "named": _same_draw((verdict or {}).get(case), draw), "hidden_doubt": occluded(verdict)})

    boards: list[dict[str, Any]] = []
    learnt_at: list[int] = []  # legs whose start taught the camera
    calibration = watch.calibration
    ask()
    boards.append({"case": "start", "answer": answer(show(on_track(state) or {}, "start"))})
    if watch.calibration is not calibration:
        learnt_at.append(state.leg)
        calibration = watch.calibration
    while True:
        laid = lay_tile(state, rng) if tiles > 0 and rng.random() < tiles else None  # (--tiles 0: no draw spent)
        if laid is not None:  # the board changes by a tile: entered, then laid
            state, actions = apply(state, action_from_json(laid)), [*actions, laid]
            ask()
            verdict = show(on_track(state) or {}, "tile")
            keep_case(verdict, "matches")
            boards.append({"case": "right", "answer": answer(verdict), "said": (verdict or {}).get("answer"),
                           "photo": photos[0], "tiles": len(state.tiles), "hidden_doubt": occluded(verdict)})
            continue
        action = draw(state, rng)
        after = apply(state, action_from_json(action))
        if on_track(after) is None:
            break
        other = slip(state, action, rng) if slips else None
        # (A camel sent back onto its own space by a tile leaves the board as it was: nothing is between.)
        changes = between and on_track(after) != on_track(state)
        moved_first = changes and rng.random() < 0.5
        if moved_first:  # rolled by hand and moved: typed in a moment later
            between_entries(on_track(after) or {}, "pending", action)
        before = on_track(state) or {}
        state, actions = after, [*actions, action]
        ask()  # the entry reaches the page before the camel is moved
        if changes and not moved_first:  # entered (or drawn by the pyramid): the camel not moved yet
            between_entries(before, "unmoved", action)
        if other is not None:
            verdict = show(other[0], "slip")
            keep_case(verdict, "differs")
            # "Most likely" offers the entry that gives the board shown: the slip's, as a correction of this draw.
            named = _same_draw((verdict or {}).get("correction", {}).get("becomes") or None, other[2])
            boards.append({"case": "slip", "answer": answer(verdict), "entry": other[1], "named": named,
                           "photo": photos[0],
                           "most_likely": (verdict or {}).get("most_likely"),
                           "next_roll": state.current_player is not None and next_roll_board(state, other[0]),
                           "as_before": other[0] == before, "hidden_doubt": occluded(verdict)})
        verdict = show(on_track(state) or {}, "right")
        keep_case(verdict, "matches")
        boards.append({"case": "right", "answer": answer(verdict), "said": (verdict or {}).get("answer"),
                       "photo": photos[0], "tiles": len(state.tiles), "hidden_doubt": occluded(verdict)})
        if watch.calibration is not calibration:
            learnt_at.append(state.leg)
            calibration = watch.calibration
    return {
        "table": index,
        "edition": edition,
        "tier": tier,
        "legs": state.leg,
        "draws": sum(action["type"] == "pyramid" for action in actions),
        "tiles_laid": sum(action["type"] == "spectator" for action in actions),
        "learnt_from_start": bool(learnt_at) and learnt_at[0] == 1,
        "learnt_legs": learnt_at,
        "boards": boards,
        "frame_ms": 1000 * float(np.mean(frame_seconds)),
        "learnt_words": watch.learnt,
    }


def hidden_doubt(verdict: dict[str, Any] | None, hidden: set[str]) -> bool:
    """Whether ``verdict`` is a "cannot tell" whose camels in doubt the photo really hides (``hidden``: the
    pyramid, the palm tree, an arm or a stack in front shows less than ``HIDDEN`` of them): real occlusion, not the
    reader's weakness."""
    doubt = set((verdict or {}).get("unseen") or ())
    return bool(verdict) and verdict["answer"].startswith("cannot tell") and bool(doubt) and doubt <= hidden


def _same_draw(named: dict[str, Any] | None, action: dict[str, Any]) -> bool:
    """Whether a verdict's pending (or unmoved) draw is ``action``'s: the same die, value and grey colour."""
    return named is not None and all(named.get(key) == action.get(key) for key in ("die", "value", "crazy"))


def summarise(races: list[dict[str, Any]]) -> dict[str, Any]:
    boards = [board for one in races for board in one["boards"]]

    def count(case: str, keep: Any = None) -> dict[str, int]:
        pool = [board["answer"] for board in boards if board["case"] == case and (keep is None or keep(board))]
        return {"boards": len(pool), **{name: pool.count(name) for name in sorted(set(pool))}}

    return {
        "tables": len(races),
        "learnt_from_start": sum(one["learnt_from_start"] for one in races),
        "learnt_at_all": sum(bool(one["learnt_legs"]) for one in races),
        "legs": sum(one["legs"] for one in races),
        "legs_learnt": sum(len(one["learnt_legs"]) for one in races),
        "start": count("start"),
        "right": count("right"),
        "slip": count("slip", lambda board: not board.get("next_roll") and not board.get("as_before")),
        "slip_next_roll": count("slip", lambda board: board.get("next_roll")),
        "slip_as_before": count("slip", lambda board: board.get("as_before") and not board.get("next_roll")),
        "right_with_tiles": count("right", lambda board: board.get("tiles", 0) > 0),
        "slip_named": sum(board.get("named", False) for board in boards if board["case"] == "slip"),
        "pending": count("pending"),
        "unmoved": count("unmoved"),
        "between_named": sum(board.get("named", False) for board in boards if board["case"] in ("pending", "unmoved")),
        # (Slips counted as the "slip" line counts them: apart from the next roll's and the board before's.)
        "hidden_doubt": {case: sum(board.get("hidden_doubt", False) for board in boards if board["case"] == case
                                   and not board.get("next_roll") and not board.get("as_before"))
                         for case in ("right", "slip", "pending", "unmoved")},
        "frame_ms": float(np.mean([one["frame_ms"] for one in races])) if races else 0.0,
    }


def report(seed: int, figures: dict[str, dict[str, Any]]) -> str:
    lines = [f"independent renderer, seed {seed}: whole races, no calibration file (the board's usual colours "
             "until the camera learns)"]
    for tier, s in figures.items():
        right, slipped, hid = s["right"], s["slip"], s["hidden_doubt"]
        lines += [
            f"{tier}: {s['tables']} tables, {s['legs']} legs; learnt from the starting board at "
            f"{s['learnt_from_start']}/{s['tables']} tables (at all: {s['learnt_at_all']}), "
            f"{s['legs_learnt']} legs' starts taught it; frame {s['frame_ms']:.0f} ms",
            f"  starting board: {_words(s['start'])}",
            f"  boards that match the game: {_words(right)}; of them with a tile on the track: "
            f"{_words(s['right_with_tiles'])}",
            f"    'cannot tell' where every camel in doubt is hidden in the photo (the pyramid, the palm tree, an "
            f"arm, a stack in front): {hid['right']} of {right.get('cannot tell', 0)}; on boards one entry off: "
            f"{hid['slip']}; between two entries: {hid['pending'] + hid['unmoved']}",
            f"  boards one entry off: {_words(slipped)}; 'most likely' named the slip's board "
            f"{s['slip_named']}/{slipped.get('differs', 0)}",
            f"  boards one entry off that are also the next leg's first roll moved before it is typed in: "
            f"{_words(s['slip_next_roll'])}",
            f"  boards one entry off that are also the board before the draw (a camel sent back by a tile): "
            f"{_words(s['slip_as_before'])}",
        ]
        if s["pending"]["boards"] or s["unmoved"]["boards"]:
            said = s["pending"].get("pending", 0) + s["unmoved"].get("pending", 0)
            lines += [f"  moved before it is typed in: {_words(s['pending'])}",
                      f"  typed in before it is moved: {_words(s['unmoved'])}",
                      f"  'pending' named the very draw {s['between_named']}/{said}"]
    return "\n".join(lines)


def _words(counts: dict[str, int]) -> str:
    return f"{counts['boards']} boards: " + ", ".join(f"{k} {v}" for k, v in counts.items() if k != "boards")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh one (printed)")
    parser.add_argument("--tier", choices=("all", *TIERS), default="all")
    parser.add_argument("--no-slips", dest="slips", action="store_false",
                        help="show only the right boards (no board one entry off)")
    parser.add_argument("--between", action="store_true",
                        help="also show each draw between its two entries (moved before it is typed in, or typed in "
                             "before it is moved): the verdict must say 'pending'")
    parser.add_argument("--tiles", type=float, default=TILE_TURNS, metavar="SHARE",
                        help=f"the share of turns a player lays or moves their tile (default {TILE_TURNS}; 0: none)")
    parser.add_argument("--reset-each-photo", dest="reset", action="store_true",
                        help="set every camel, tile and prop down afresh in every photo (the bench before 2026-11-27; "
                             "default: the camera and what did not move stay put)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep the photos in this folder (and, beside a wrong or unsure verdict, the game's log "
                             "and the calibration the camera had learnt)")
    parser.add_argument("--reuse-photos", dest="reuse", action="store_true",
                        help="with --keep: read the photos a run with the same seed and options kept there again "
                             "instead of rendering them (to measure a change of the camera's code on the same photos)")
    parser.add_argument("--json", action="store_true", help="print the figures and every board's verdict as JSON")
    args = parser.parse_args()
    if args.tables < 1:
        parser.error("--tables must be at least 1")
    if args.reuse and args.keep is None:
        parser.error("--reuse-photos reads the photos kept by --keep DIR: give the folder")
    if not 0 <= args.tiles < 1:  # a tile every turn, no die would ever be drawn: the race would never end
        parser.error(f"--tiles is the share of turns a tile is laid: from 0 to below 1, not {args.tiles}")
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    tiers = list(TIERS) if args.tier == "all" else [args.tier]
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        races: dict[str, list[dict[str, Any]]] = {tier: [] for tier in tiers}
        for tier in tiers:
            for index in range(args.tables):
                races[tier].append(race(index, seed, tier, folder, args.slips, args.tiles, args.between, args.reset,
                                        args.reuse))
                if not args.json:
                    done = races[tier][-1]
                    print(f"{tier} table {index + 1}/{args.tables} ({done['edition']}): {done['draws']} draws, "
                          f"learnt at legs {done['learnt_legs']}", file=sys.stderr, flush=True)
    figures = {tier: summarise(found) for tier, found in races.items()}
    if args.json:
        print(json.dumps({"seed": seed, "tiers": figures, "races": races}, indent=1))
    else:
        print(report(seed, figures))


if __name__ == "__main__":
    main()
