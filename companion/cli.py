"""The ``camelup`` command."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from companion import __version__
from companion.gamelog import LogError, loads, summary

if TYPE_CHECKING:
    import numpy as np
    from flask import Flask

    from companion.rules import GameState
    from companion.sim.simulate import GameResult
    from companion.table.camera_watch import CameraWatch
    from companion.table.config import Settings
    from companion.table.service import DiceSource
    from vision.board import BoardTemplate


def _replay(args: argparse.Namespace) -> int:
    """One JSON line per log; exit 0 all replayed, 1 a log was refused, 2 a file unreadable or not JSON."""
    status = 0
    for name in args.files:
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8-sig") as handle:  # a BOM from a Windows editor is fine
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            message = f"cannot read {name}: {reason}"
            print(json.dumps({"error": message, "action": 0}))
            print(f"camelup replay: {message}", file=sys.stderr)
            status = 2
            continue
        try:
            log = loads(text)
            state = log.replay()
        except json.JSONDecodeError as error:
            message = f"{name} is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
            print(json.dumps({"error": message, "action": 0}))
            print(f"camelup replay: {message}", file=sys.stderr)
            status = 2
            continue
        except LogError as error:
            print(json.dumps(error.as_json()))
            status = max(status, 1)
            continue
        print(json.dumps(summary(state)))
    return status


def _play(args: argparse.Namespace) -> int:
    from companion.rules import PyramidTicket
    from companion.sim.bots import RandomBot
    from companion.sim.narrate import (
        describe_action,
        describe_leg_scoring,
        describe_movement,
        describe_race_scoring,
    )
    from companion.sim.play import play_game

    names = [name.strip() for name in args.players.split(",") if name.strip()]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    if args.log:
        from companion.sim.files import unwritable_file

        problem = unwritable_file(args.log)
        if problem:  # said before the game is played, not after
            print(f"camelup play: cannot write the log: {problem}", file=sys.stderr)
            return 2
    out = sys.stdout

    def narrate(before: GameState, action: object, after: GameState) -> None:
        if args.quiet:
            return
        print(f"[leg {before.leg}] {describe_action(action)}", file=out)  # type: ignore[arg-type]
        if isinstance(action, PyramidTicket) and after.last_movement is not None:
            print(f"          {describe_movement(after.last_movement, after.track)}", file=out)
        if len(after.leg_scorings) > len(before.leg_scorings):
            print("\n".join(describe_leg_scoring(after.leg_scorings[-1])), file=out)

    try:
        played = play_game(args.edition, [(name, RandomBot()) for name in names], rng, on_action=narrate)
    except ValueError as error:
        print(f"camelup play: {error}", file=sys.stderr)
        return 2
    final = played.state
    if args.quiet:
        print("\n".join(describe_leg_scoring(final.leg_scorings[-1])))
    assert final.race_scoring is not None
    print("\n".join(describe_race_scoring(final.race_scoring)))
    from companion.sim.files import play_command

    print(f"(seed {seed}; play it again with: {play_command(seed, args.edition, names)})")
    if args.log:
        from companion.sim.files import write_json

        try:
            write_json(args.log, played.log.to_json())
        except OSError as error:
            print(f"camelup play: cannot write {args.log}: {error.strerror or error}", file=sys.stderr)
            return 2
        print(f"game log written to {args.log}")
    return 0


def _load_state(name: str) -> GameState:
    text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8-sig")
    return loads(text).replay()


def _odds(args: argparse.Namespace) -> int:
    from companion.odds import odds_report, odds_table

    if args.rollouts < 0:
        print("camelup odds: --rollouts must be 0 or more", file=sys.stderr)
        return 2
    try:
        state = _load_state(args.file)
    except OSError as error:
        print(f"camelup odds: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"camelup odds: {args.file} is not JSON: {error.msg} at line {error.lineno}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as error:
        print(f"camelup odds: {args.file} is not UTF-8 text (byte {error.start}): is it a game log?", file=sys.stderr)
        return 2
    except LogError as error:
        print(f"camelup odds: {args.file}: action {error.action}: {error.message}", file=sys.stderr)
        return 1
    if args.player is not None and args.player not in state.players:
        print(f"camelup odds: no player named {args.player!r} (players: {', '.join(state.players)})", file=sys.stderr)
        return 2
    def progress(spots: list[tuple[int, str]]) -> Iterable[tuple[int, str]]:
        """A progress bar on standard error, shown on a terminal only."""
        from companion.sim.progress import bar

        return bar(spots, len(spots), unit="spot", desc="tile spots")

    report = odds_report(state, args.rollouts, args.seed, args.player, tiles=not args.no_tiles, progress=progress)
    print(json.dumps(report) if args.json else odds_table(report))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.sim.simulate import run_tournament

    bots = [name.strip() for name in args.players.split(",") if name.strip()]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)

    def progress(results: Iterable[GameResult], total: int) -> Iterable[GameResult]:
        """A progress bar on standard error (hidden with --quiet or off a terminal)."""
        from companion.sim.progress import bar

        return bar(results, total, unit="game", quiet=args.quiet)

    try:
        tournament = run_tournament(
            args.games, args.edition, bots, seed, args.workers, args.paired,
            Path(args.logs) if args.logs else None, progress, args.timeout,
        )
    except ValueError as error:
        print(f"camelup simulate: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"camelup simulate: cannot write the game logs: {error.strerror or error} ({error.filename})",
              file=sys.stderr)
        return 2
    print(json.dumps(tournament.as_json()) if args.json else tournament.table())
    if args.logs:
        print(f"game logs written to {args.logs}/", file=sys.stderr)
    return 0


def _league(args: argparse.Namespace) -> int:
    from companion.sim.cli import run_league_command

    return run_league_command(args)


def _analyse(args: argparse.Namespace) -> int:
    from companion.sim.cli import run_analyse_command

    return run_analyse_command(args)


def _make_pyramid(settings: Settings, simulate: bool, config: str | None = None) -> tuple[DiceSource | None, str]:
    """The dice source the settings ask for: the GPIO rig on a Pi, a simulated pyramid elsewhere. A rig that
    cannot start does not stop the companion: it draws the dice itself, and the log says what is missing."""
    from companion.table.rig_start import make_pyramid

    source, name, problem = make_pyramid(settings, simulate, config)
    if problem is not None:
        print(f"camelup serve: WARNING: the electronic pyramid is not working: {problem.sentence()}. The companion "
              "runs and draws the dice itself until then (the pyramid games' pages say so too); 'camelup doctor' "
              "checks the rig.", file=sys.stderr, flush=True)
    return source, name


def _make_camera(settings: Settings, in_play: tuple[str, str, float] | None = None) -> CameraWatch | None:
    """The camera watch the settings ask for; a camera that cannot start shows as a notice, not an error."""
    return _camera_and_reasons(settings, in_play)[0]


def _camera_and_reasons(
    settings: Settings, in_play: tuple[str, str, float] | None = None
) -> tuple[CameraWatch | None, dict[str, str]]:
    """The camera watch the settings ask for, and per edition why its games are not checked (a calibration setting
    that cannot be used: the pages say so to the host; ``"all"``: why the camera is off). ``in_play``: the game
    played last whose race is not over (``Store.in_play_last``): the camera starts on its edition, as if its page
    had asked (a restart mid-evening does not read a 2018 race as the configured 2014 board until a page asks)."""
    if settings.camera == "none":
        return None, {}
    from companion.table.camera_edition import camera_setup
    from companion.table.camera_watch import CameraWatch
    from companion.table.camera_words import text
    from vision.board import TemplateError
    from vision.calibrate import CalibrationError
    from vision.sources import open_source

    try:
        # Per edition: its calibration file, else what the camera learnt for it at this table, else the usual colours.
        found = camera_setup(settings.camera_board, settings.camera_calibration,
                             {"2014": settings.camera_calibration_2014, "2018": settings.camera_calibration_2018},
                             Path(settings.data), settings.config_file, in_play[1] if in_play else None)
    except (TemplateError, CalibrationError) as error:
        print(f"camelup serve: camera: {error}; the camera is off", file=sys.stderr)
        return None, {"all": f"{error}; the camera is off"}
    for edition, why in sorted(found.unchecked.items()):
        checked = ", ".join(found.editions) or "none"
        print(f"camelup serve: camera: {why}; {edition} games are not checked (checked: {checked})", file=sys.stderr)
    if found.first is None:
        return None, {"all": "; ".join(found.unchecked.values()) + "; the camera is off", **found.unchecked}
    for colours in found.editions.values():
        if colours.note:
            print(f"camelup serve: camera: {text(colours.note)}", file=sys.stderr)
    editions = dict(found.editions)
    start = editions.pop(found.first)
    # The source is opened on the watch's own thread: a camera that is slow to start holds nothing up.
    source = functools.partial(open_source, settings.camera, settings.camera_source)
    colours = start.colours
    watch = CameraWatch(
        source, colours.template, colours.profiles, board_bgr=colours.board_bgr, learnt_path=start.learnt_path,
        calibration=colours, learnt_before=start.source == "learnt", note=start.note,
        calibration_file=start.calibration_file, config_file=settings.config_file, editions=editions,
    )
    if in_play is not None:
        watch.follow(*in_play)  # as its page would: a page of an older game does not take the camera away from it
    return watch.start(), dict(found.unchecked)


def _serve_app(settings: Settings, pyramid: DiceSource | None, hotspot: tuple[str, str] | None) -> Flask:
    """The app ``serve`` runs, with its camera, which starts on the edition of the game in play (from the store)."""
    from companion.table.web import create_app

    app = create_app(settings.data, pyramid, settings.public_url, settings.language, hotspot=hotspot,
                     bind_host=settings.host)
    store = app.extensions["camelup"].store
    in_play = store.in_play_last(skip=store.camera_released())  # a game whose host let the camera go: not it
    camera, unchecked = _camera_and_reasons(settings, in_play)
    if camera is not None and in_play is not None and camera.reads(in_play[1]):
        from companion.table.camera_game import camera_game_of

        # The race in play holds the camera again, as before the restart: an older game's page asking first
        # does not take it (companion.table.camera_game's rule).
        app.extensions["camera_game"] = camera_game_of(store, in_play[0], store.now())
    app.extensions["camera"] = camera
    app.extensions["camera_unchecked"] = unchecked  # why the camera checks no games of an edition (or none at all)
    return app


def _serve(args: argparse.Namespace) -> int:
    from companion.table.config import SettingsError, load_settings
    from companion.table.web.net import loopback, table_address
    from companion.table.web.server import listening_socket, serve

    try:
        settings = load_settings(args.config, host=args.host, port=args.port, data=args.data)
    except SettingsError as error:
        print(f"camelup serve: {error}", file=sys.stderr)
        return 2
    pyramid, pyramid_name = _make_pyramid(settings, args.simulate, args.config)
    hotspot = (settings.hotspot_ssid, settings.hotspot_password) if settings.hotspot_ssid else None
    app = _serve_app(settings, pyramid, hotspot)
    try:
        # An event loop holds every connection (live pages cost no thread): see companion/table/web/server.py.
        sock = listening_socket(settings.host, settings.port)
    except OSError as error:
        print(f"camelup serve: cannot listen on {settings.host}:{settings.port} ({error.strerror})", file=sys.stderr)
        return 2
    local_only = not settings.public_url and loopback(settings.host)
    # Bound to a loopback address, the table's address would not answer: say the one that does.
    here = f"[{settings.host}]" if ":" in settings.host else settings.host
    address = settings.public_url or (f"http://{here}:{settings.port}" if local_only
                                      else f"http://{table_address() or 'localhost'}:{settings.port}")
    print(f"Camel Up companion on {address}  (pyramid: {pyramid_name}; games in {settings.data}/)", flush=True)
    if local_only:
        print(f"Listening on {settings.host} only: phones cannot join. To let them, set host = \"0.0.0.0\" in the "
              "configuration (or --host 0.0.0.0).", flush=True)
    problem = app.extensions["camelup"].store.problem
    if problem:  # loud: on the journal, on /healthz and on every page; actions are refused with 503
        print(f"camelup serve: WARNING: games cannot be saved ({problem}); every action will be refused until "
              "this is fixed", flush=True)
    where = "in a browser on this computer" if local_only else "on the host's phone or tablet"
    print(f"Open {address}/ {where} to start a game. Ctrl-C stops.", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        serve(app, sock)
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from companion.doctor import doctor_settings, report, run_checks
    from companion.table.config import SettingsError

    try:
        settings, configuration = doctor_settings(args.config, port=args.port, data=args.data)
    except SettingsError as error:
        print(f"FAIL  configuration: {error}")
        return 1
    text, status = report([configuration, *run_checks(settings, args.simulate, config=args.config)])
    print(text)
    return status


def _vision_markers(args: argparse.Namespace) -> int:
    from vision.markers import write_marker_sheet

    try:
        path = write_marker_sheet(args.out, args.size_mm)
    except (ValueError, OSError) as error:
        print(f"camelup vision markers: {error}", file=sys.stderr)
        return 2
    print(f"marker sheet written to {path}: print it on A4 at 100% and check that each square is {args.size_mm:g} mm")
    return 0


def _board(args: argparse.Namespace, command: str) -> tuple[BoardTemplate, str] | None:
    """The board template ``--board`` names, and the edition whose camels it carries; None after saying why."""
    from vision.board import TemplateError, load_template
    from vision.synth import camel_edition

    try:
        template = load_template(args.board)
    except TemplateError as error:
        print(f"camelup vision {command}: {error}", file=sys.stderr)
        return None
    return template, camel_edition(template)


def _vision_render(args: argparse.Namespace) -> int:
    import random as random_module

    import cv2

    from vision.synth import random_track, render_scene

    board = _board(args, "render")
    if board is None:
        return 2
    template, edition = board
    if args.renderer == "photo":
        from vision.photo import make_table, render_calibration
        from vision.photo import render_scene as render_photo
        from vision.plausible import random_board

        try:
            table = make_table(args.seed, edition, template)
        except RuntimeError as error:  # a custom board too big to frame from where the README puts the camera
            print(f"camelup vision render: {error}", file=sys.stderr)
            return 2
        if args.calibration_layout:
            image, truth = render_calibration(table, args.seed, args.tier)
        else:
            image, truth = render_photo(table, random_board(edition, random_module.Random(args.seed)), args.seed,
                                        args.tier)
    elif args.calibration_layout:
        from vision.calibrate import calibration_layout
        from vision.synth import EDITION_CAMELS, SceneVariation

        track = calibration_layout(list(EDITION_CAMELS[edition]))
        image, truth = render_scene(template, track, args.seed, SceneVariation(hand_chance=0.0))
    else:
        track = random_track(edition, random_module.Random(args.seed))
        image, truth = render_scene(template, track, args.seed)
    out = Path(args.out)
    if not cv2.imwrite(str(out), image):
        print(f"camelup vision render: cannot write {out} (use .png or .jpg)", file=sys.stderr)
        return 2
    out.with_suffix(".json").write_text(json.dumps(truth, indent=1) + "\n")
    print(f"scene written to {out}, its truth to {out.with_suffix('.json')}")
    return 0


def _vision_read(args: argparse.Namespace) -> int:
    """One JSON object; exit 1 when the board is not found, 2 for input that cannot be used."""
    from companion.table.camera_read import BadInput, load_expectation, read_picture
    from vision.board import TemplateError
    from vision.calibrate import CalibrationError, reading_colours
    from vision.image_file import COLOURLESS, PhotoError, colourless, load_photo
    from vision.locate import BoardNotFound

    def refuse(message: str) -> int:
        print(json.dumps({"error": message}))
        print(f"camelup vision read: {message}", file=sys.stderr)
        return 2

    try:
        expectation = load_expectation(args.expect) if args.expect else None
        board = args.board or (expectation.edition if expectation else "2018")
        colours = reading_colours(board, args.calibration)
        if args.calibration and expectation and colours.template.edition != expectation.edition:
            # A calibration of the other edition's camels would read the board silently wrong.
            from companion.table.camera_edition import calibration_for_other_edition

            raise BadInput(calibration_for_other_edition(args.calibration, colours.template.edition,
                                                         expectation.edition, f"the game of {args.expect}"))
        if expectation and colours.template.edition != expectation.edition:
            raise BadInput(f"{args.expect} is a {expectation.edition} game, the board is the "
                           f"{colours.template.edition} one")
        image = load_photo(args.image)
    except (BadInput, TemplateError, CalibrationError, PhotoError) as error:
        return refuse(str(error))
    if colourless(image):  # the picture is readable, but not for this: like a board not found, exit 1
        print(json.dumps({"error": COLOURLESS}))
        print(f"camelup vision read: {args.image}: {COLOURLESS}", file=sys.stderr)
        return 1
    try:
        # A photo from the camera still standing where it was calibrated: the board is where it was then.
        near = colours.location((image.shape[1], image.shape[0]))
        result = read_picture(image, colours.template, colours.profiles, colours.board_bgr, expectation, near=near,
                              fit=colours.fit())
    except BoardNotFound as error:
        from vision.focus import not_found_words  # a picture too blurred or dark for any marker says so first

        print(json.dumps({"error": not_found_words(image, str(error)), "missing_markers": error.missing}))
        return 1
    print(json.dumps(result))
    return 0


def _vision_capture(args: argparse.Namespace) -> int:
    """The calibration photo from the configured camera (or where to get it while the service holds it)."""
    from companion.doctor import doctor_settings
    from companion.doctor_machine import service_is_active
    from companion.table.config import SettingsError
    from companion.table.placement_still import capture

    try:
        settings, _ = doctor_settings(args.config)
    except SettingsError as error:
        print(f"camelup vision capture: {error}", file=sys.stderr)
        return 2
    status, said = capture(settings, Path(args.out), service_is_active())
    print(said if status == 0 else f"camelup vision capture: {said}", file=sys.stdout if status == 0 else sys.stderr)
    return status


def _image(path: str, command: str) -> np.ndarray | None:
    from vision.image_file import PhotoError, load_photo

    try:
        return load_photo(path)
    except PhotoError as error:
        print(f"camelup vision {command}: {error}", file=sys.stderr)
        return None


def _vision_calibrate(args: argparse.Namespace) -> int:
    from companion.table.camera_read import BadInput, load_expectation
    from vision.calibrate import CalibrationError, calibrate_from_board, calibration_layout, save_calibration
    from vision.locate import BoardNotFound
    from vision.read import ReadConfig
    from vision.synth import EDITION_CAMELS

    known = None
    if args.expect:
        try:
            expectation = load_expectation(args.expect)
        except BadInput as error:
            print(f"camelup vision calibrate: {error}", file=sys.stderr)
            return 2
        args.board = args.board or expectation.edition
        known = expectation.board()
    args.board = args.board or "2018"
    board = _board(args, "calibrate")
    if board is None:
        return 2
    template, edition = board
    camels = list(EDITION_CAMELS[edition])
    if args.expect and edition != expectation.edition:
        print(f"camelup vision calibrate: {args.expect} is a {expectation.edition} game, the board is the "
              f"{args.board} one", file=sys.stderr)
        return 2
    if args.image is None:
        places = ", ".join(f"{camel} on {space}" for space, (camel,) in calibration_layout(camels).items())
        print(f"Put one camel on each of these spaces, nothing else on the board: {places}.")
        print(f"Take a photo from the camera's place, then: camelup vision calibrate PHOTO --board {args.board}")
        return 0
    image = _image(args.image, "calibrate")
    if image is None:
        return 2
    if known is not None:  # learn only from the board the log says: a photo of another board changes nothing
        refused = _known_board_refused(image, args.board, expectation)
        if refused:
            print(f"camelup vision calibrate: {args.image}: {refused}\nNothing written: put the camels as the log "
                  f"says (or give the log that matches the photo) and calibrate again.", file=sys.stderr)
            return 1
    try:
        track = known if known is not None else calibration_layout(camels)
        calibration = calibrate_from_board(ReadConfig(), template, camels, image, track, layout=known is None,
                                           camel_size=_kept_camel_size(args.out))
    except (BoardNotFound, CalibrationError) as error:
        print(f"camelup vision calibrate: {error}", file=sys.stderr)
        return 1
    try:
        path = save_calibration(calibration, args.out)
    except OSError as error:
        print(f"camelup vision calibrate: cannot write {args.out} ({error.strerror})", file=sys.stderr)
        return 2
    print(f"calibration written to {path}: the {len(camels)} camels and the board as this camera sees them.")
    print(f"camel size: {calibration.camel_size.describe()}.")
    for warning in calibration.warnings:
        print(f"note: {warning}.")
    print(f"Use it with: camelup vision read IMAGE --calibration {path}, or [camera] calibration in the settings.")
    return 0


def _known_board_refused(image: np.ndarray, board: str, expectation: Any) -> str:
    """Why the photo cannot teach the board of the log ("" when it shows it or cannot tell), checked with the
    colours a reading without calibration uses (as the companion's first lesson does)."""
    from companion.table.camera_read import known_board_contradiction
    from vision.calibrate import reading_colours
    from vision.locate import BoardNotFound

    try:
        return known_board_contradiction(image, reading_colours(board), expectation)
    except BoardNotFound:
        return ""  # calibrating says what it cannot find, in its own words


def _kept_camel_size(path: str) -> Any:
    """The camels' size a calibration file being replaced gives (perhaps entered by hand): calibrating again
    keeps it. None when there is no such file."""
    from vision.calibrate import CalibrationError, load_calibration

    if not Path(path).is_file():
        return None
    try:
        return load_calibration(path).camel_size
    except CalibrationError:
        return None


def _vision_bench(args: argparse.Namespace) -> int:
    if args.scenes < 1:
        print("camelup vision bench: --scenes must be at least 1", file=sys.stderr)
        return 2
    def bar(scenes: range) -> Iterable[int]:
        from tqdm import tqdm

        return tqdm(scenes, desc="scenes", unit="scene", file=sys.stderr, disable=None, leave=False)

    if args.renderer == "photo":
        from vision.photo import TIERS
        from vision.photo_bench import describe, run_photo_bench

        tiers = TIERS if args.tier == "all" else (args.tier,)
        try:
            width, height = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            print(f"camelup vision bench: --size {args.size}: write it as WIDTHxHEIGHT, e.g. 4608x2592",
                  file=sys.stderr)
            return 2
        if not (320 <= width <= 8000 and abs(width / height - 16 / 9) < 0.02):
            print(f"camelup vision bench: --size {args.size}: a 16:9 picture 320 to 8000 pixels wide", file=sys.stderr)
            return 2
        result = run_photo_bench(args.scenes, args.seed, tiers, progress=bar, size=(width, height))
        print(json.dumps(result) if args.json else "\n".join(describe(result)))
        return 0
    from vision.bench import run_bench

    result = run_bench(args.scenes, args.seed, progress=bar)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['scenes']} scenes: {100 * result['scene_accuracy']:.1f}% read fully right, "
              f"{100 * result['camel_error']:.2f}% of camels wrong, board not found in "
              f"{100 * result['board_not_found']:.1f}%, {result['ms_per_frame']:.1f} ms per frame (median)")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse's parser; with ``json_errors`` (a command whose standard output is one JSON object) a usage error
    also prints ``{"error": ...}`` there, so a script reading it is told too (usage on standard error, exit 2)."""

    def __init__(self, *args: Any, json_errors: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.json_errors = json_errors

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        known, extras = super().parse_known_args(args, namespace)
        if self.json_errors and extras:  # said here, not by the top-level parser, so that it is JSON too
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return known, extras

    def error(self, message: str) -> NoReturn:
        if self.json_errors:
            print(json.dumps({"error": message}), flush=True)
        super().error(message)


SERVE_CAMERA_HELP = """\
The camera (off unless configured) is set in the configuration's [camera] section:
  [camera]
  mode = "picamera2"        # none | picamera2 | webcam | files
  source = ""               # webcam: device index or path; files: an image or a folder
  board = "2018"            # the edition (or a board template) it starts on with no race in play
  calibration = ""          # a file from 'camelup vision calibrate' (optional), for its own edition
  calibration_2014 = ""     # both editions at one table: a file per edition (optional)
  calibration_2018 = ""
No camera at hand? mode = "files" reads image files instead: source = "board.jpg" (replace the file
to change what the camera sees) or a folder (its images in name order, round again). Make test
pictures with 'camelup vision render'; 'camelup doctor --config FILE' checks the camera.
The camera reads the edition of the game played last (after a restart: the latest race not over),
with that edition's calibration file, else what it learnt for that edition at this table, else the
usual colours (it then calibrates itself from the next board a game of that edition confirms); the
markers serve both editions."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="camelup",
        description="Camel Up table companion: rules engine, game logs, odds, simulations, the web companion, "
        "the dice pyramid and the camera.",
    )
    parser.add_argument("--version", action="version", version=f"camelup {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    replay = commands.add_parser(
        "replay",
        help="replay game logs and print each final state as a JSON line",
        description="Replay each game log ('-' reads standard input) and print one JSON object per log. "
        "Exit status: 0 all replayed, 1 a log broke a rule or the format, 2 a file unreadable or not JSON.",
    )
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.set_defaults(run=_replay)

    play = commands.add_parser(
        "play",
        help="play a whole simulated game in the terminal with random bots",
        description="Play a whole game with random bots and random dice, printing every action, each leg's "
        "scoring and the end of the race.",
    )
    play.add_argument("--edition", choices=("2014", "2018"), default="2018")
    play.add_argument("--players", default="Ann,Bob,Cy,Dee", help="comma-separated names in seating order")
    play.add_argument("--seed", type=int, help="seed for the dice and the bots (default: random)")
    play.add_argument("--log", metavar="FILE", help="write the game log to FILE")
    play.add_argument("--quiet", action="store_true", help="print only the last leg's and the race's scoring")
    play.set_defaults(run=_play)

    serve = commands.add_parser(
        "serve",
        help="serve the table companion: phones, host page, table screen",
        description="Serve the companion (uvicorn: one event loop for every live page). Off a Raspberry Pi the "
        "pyramid is simulated.",
        epilog=SERVE_CAMERA_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface)")
    serve.add_argument("--port", type=int, help="port (default 8000)")
    serve.add_argument("--data", help="directory for the games database (default ./data)")
    serve.add_argument("--config", metavar="FILE", help="companion configuration (TOML): the pyramid, the camera "
                       "([camera], see below), the port, the data directory")
    serve.add_argument("--simulate", action="store_true", help="simulated pyramid, whatever the configuration")
    serve.set_defaults(run=_serve)

    doctor = commands.add_parser(
        "doctor",
        help="check this machine: Python, packages, GPIO and pins, camera, data directory, port, address",
        description="Check everything the companion needs, with a fix for each problem. Exit status 1 when "
        "something needed is broken.",
    )
    doctor.add_argument("--config", metavar="FILE", help="companion configuration (default: the service's, "
                        "/etc/camelup/config.toml, when installed)")
    doctor.add_argument("--port", type=int)
    doctor.add_argument("--data", help="games directory (default: the configuration's, or the service's)")
    doctor.add_argument("--simulate", action="store_true", help="check with simulated GPIO pins")
    doctor.set_defaults(run=_doctor)

    vision = commands.add_parser("vision", help="the camera that reads the board: markers, scenes, reading, bench")
    vision_commands = vision.add_subparsers(
        dest="vision_command", metavar="SUBCOMMAND", required=True, parser_class=_Parser
    )
    markers = vision_commands.add_parser(
        "markers", help="write the printable sheet of the four ArUco markers that locate the board"
    )
    markers.add_argument("--out", default="camelup-markers.png", help="PNG file to write (A4 at 300 dpi)")
    markers.add_argument("--size-mm", type=float, default=70.0, help="side of each marker's black square")
    markers.set_defaults(run=_vision_markers)
    render = vision_commands.add_parser("render", help="render a synthetic scene of the board, with its truth")
    render.add_argument("--board", default="2018", help="edition (2014, 2018) or a board template file")
    render.add_argument("--seed", type=int, default=1)
    render.add_argument("--out", default="scene.png", help="image to write; the truth goes beside it as .json")
    render.add_argument(
        "--calibration-layout", action="store_true", help="the camels placed for a calibration photo instead"
    )
    render.add_argument("--renderer", choices=("photo", "synth"), default="synth",
                        help="synth: the reader's own simple scenes; photo: a photo-like 3D scene on a random table "
                        "(--seed picks the table and the board), as the bench uses")
    render.add_argument("--tier", choices=("clean", "light", "props"), default="light",
                        help="photo scenes: clean; light (lamp, camera errors, noise); props (pyramid, palm tree, "
                        "cards, sometimes a hand)")
    render.set_defaults(run=_vision_render)
    calibrate = vision_commands.add_parser(
        "calibrate",
        help="measure this table's camel and board colours from a photo (without PHOTO: how to take it)",
    )
    calibrate.add_argument("image", metavar="PHOTO", nargs="?")
    calibrate.add_argument(
        "--board", help="edition (2014, 2018) or a board template file (default: the log's edition, else 2018)"
    )
    calibrate.add_argument(
        "--expect", metavar="LOG", help="a game log: the photo shows the board it leads to (any known board; a "
        "photo the game's verdict says shows another board is refused, nothing written)"
    )
    calibrate.add_argument("--out", default="camera-calibration.json", help="calibration file to write")
    calibrate.set_defaults(run=_vision_calibrate)
    capture = vision_commands.add_parser(
        "capture", help="take the calibration photo with the configured camera (full resolution where it can)"
    )
    capture.add_argument("out", metavar="OUT", help="image file to write (.jpg or .png)")
    capture.add_argument("--config", metavar="FILE", help="companion configuration (default: the service's, "
                         "/etc/camelup/config.toml, when installed)")
    capture.set_defaults(run=_vision_capture)
    read = vision_commands.add_parser(
        "read", help="read the camels' places from a photo of the board (JSON)", json_errors=True
    )
    read.add_argument("image", metavar="IMAGE")
    read_board = read.add_mutually_exclusive_group()
    read_board.add_argument(
        "--board", help="edition (2014, 2018) or a board template file (default: the log's edition, else 2018)"
    )
    read_board.add_argument("--calibration", help="a file from 'camelup vision calibrate' (its board and colours)")
    read.add_argument(
        "--expect", metavar="LOG", help="a game log: verify that the picture shows the board it leads to"
    )
    read.set_defaults(run=_vision_read)
    bench = vision_commands.add_parser("bench", help="read seeded synthetic scenes and measure accuracy and speed")
    bench.add_argument("--scenes", type=int, default=100)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--renderer", choices=("photo", "synth"), default="photo",
                       help="photo: the independent photo-like scenes (per tier); synth: the reader's own scenes")
    bench.add_argument("--size", default="1280x720",
                       help="photo scenes' size (16:9), e.g. 4608x2592 for a Camera Module 3's full-resolution still")
    bench.add_argument("--tier", choices=("all", "clean", "light", "props"), default="all",
                       help="photo scenes' difficulty: clean; light (lamp, camera errors, noise); props (pyramid, "
                       "palm tree, cards, hands); all: each (--scenes per tier)")
    bench.set_defaults(run=_vision_bench)

    odds = commands.add_parser(
        "odds",
        help="exact leg odds, race odds and expected values for the state after a game log",
        description="Odds for the state after the log's actions: exact leg odds (every remaining draw), the "
        "expected value of each top leg ticket, a pyramid ticket and each tile spot, race odds by seeded Monte "
        "Carlo, and the value of the finish cards of the player to move (or --player).",
    )
    odds.add_argument("file", metavar="FILE", help="a game log ('-' reads standard input)")
    odds.add_argument("--json", action="store_true", help="print JSON instead of a table")
    odds.add_argument("--rollouts", type=int, default=10_000, help="race rollouts (0 skips the race odds)")
    odds.add_argument("--seed", type=int, help="seed for the race rollouts")
    odds.add_argument("--player", help="whose finish cards and tile to value (default: the player to move)")
    odds.add_argument("--no-tiles", action="store_true", help="skip the tile spots (one enumeration each)")
    odds.set_defaults(run=_odds)

    simulate = commands.add_parser(
        "simulate",
        help="play a tournament of bots with no hardware and print win rates",
        description="Play whole games between bots: random, greedy, strong, expert, module:Class, "
        "path/to/bot.py[:Class], exec:COMMAND (a program speaking camelup-bot/1). Seats rotate between games; "
        "the same seed gives the same games whatever --workers is.",
    )
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--edition", choices=("2014", "2018"), default="2018")
    simulate.add_argument("--players", default="greedy,random,strong", help="comma-separated bots, one per seat")
    simulate.add_argument("--seed", type=int, help="tournament seed (default: random)")
    simulate.add_argument("--workers", type=int, default=1, help="processes to play games in parallel")
    simulate.add_argument("--paired", action="store_true", help="play every deal of the dice in every seating")
    simulate.add_argument("--logs", metavar="DIR", help="write every game as a replayable game log")
    simulate.add_argument("--json", action="store_true", help="print JSON instead of a table")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.add_argument("--timeout", type=float, default=5.0,
                          help="seconds a bot may take for one decision (then it plays a pyramid ticket, counted)")
    simulate.set_defaults(run=_simulate)

    from companion.sim.cli import add_sim_parsers

    add_sim_parsers(commands, league=_league, analyse=_analyse)

    from firmware_py.cli import add_pyramid_parser

    add_pyramid_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "pyramid":
            from firmware_py.cli import run_pyramid_command

            return run_pyramid_command(args)
        status = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not in Python's own flush at exit
        return status
    except BrokenPipeError:
        # The reader went away (`camelup play | head -1`): stop quietly, and keep Python from failing again
        # while flushing standard output at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print("camelup: the output was closed before everything was written", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
