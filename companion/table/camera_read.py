"""``camelup vision read``: one picture of the board to one JSON object, optionally checked against a game log.

Without a log: the camels' places as read (``"track"``) and the camels it could not place (``"unseen"``).
With ``--expect LOG``: the board the log leads to (``"expected"``) is verified against the picture together
with the boards a slip would give (:mod:`companion.table.board_hypotheses`), and ``"matches"`` says whether it is
the game's board (``null`` when a camel cannot be seen and the rest agree).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


class BadInput(ValueError):
    """Input the command cannot use; the message names it."""


@dataclass(frozen=True)
class Expectation:
    edition: str
    start: Any
    actions: list[Any]

    def board(self) -> dict[int, list[str]]:
        """The board the log leads to (space → camels, bottom first)."""
        from companion.gamelog import replay_actions

        state = replay_actions(self.start, self.actions)
        return {space: list(stack) for space, stack in state.track.as_dict().items()}


def load_expectation(path: str) -> Expectation:
    """A game log, replayed.

    Raises:
        BadInput: not readable, not JSON, not a game log, or an action the rules refuse (named).
    """
    from companion.gamelog import LogError, loads

    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise BadInput(f"{path}: the game log cannot be read ({reason})") from None
    try:
        log = loads(text)
        log.replay()
    except json.JSONDecodeError as error:
        raise BadInput(f"{path}: the game log is not JSON ({error.msg} at line {error.lineno})") from None
    except LogError as error:
        where = f"action {error.action}" if error.action else "header"
        raise BadInput(f"{path}: not a usable game log ({where}: {error})") from None
    return Expectation(log.edition, log.start(), list(log.actions))


def picture_problems(problems: Any) -> list[str]:
    """A reading's problems that are about the picture itself (too dark, blurred, a frame too small, a space
    outside it, ...): the camels not seen are in ``"unseen"`` already."""
    return [p for p in problems if "is not seen" not in p and "sighting" not in p]


def read_picture(
    image: np.ndarray,
    template: Any,
    profiles: dict[str, tuple[float, float, float]],
    board_bgr: tuple[float, float, float],
    expectation: Expectation | None = None,
    verify: Any = None,
    near: Any = None,
    fit: Any = None,
) -> dict[str, Any]:
    """The command's JSON object (``verify``: a ``vision.verify.VerifyConfig`` other than the default;
    ``near``: where the board was in an earlier picture of the same camera, see
    :func:`vision.locate.locate_board`; ``fit``: the camel model of a calibration, ``Calibration.fit()``).

    Raises:
        vision.locate.BoardNotFound: the markers are not all seen.
    """
    from vision.read import ReadConfig, observe
    from vision.reader import read_with_scorer

    config = ReadConfig()
    observation = observe(config, template, image, near=near)
    reading, scorer = read_with_scorer(config, template, profiles, image, board_bgr, observation, verify=verify,
                                       fit=fit)
    camels = list(profiles)
    track, unseen = reading.track, reading.unseen
    problems = picture_problems(reading.problems)
    other = other_edition_problem(scorer, track, camels, board_bgr)
    if other:
        problems.append(other)
    if expectation is None:
        return {
            "track": {str(space): stack for space, stack in sorted(track.items())},
            "unseen": list(unseen),
            "confidence": round(reading.confidence, 3),
            "problems": problems,
        }
    from companion.table.board_hypotheses import board_hypotheses
    from companion.table.camera_verdict import camera_verdict

    hypotheses = board_hypotheses(expectation.start, expectation.actions)
    # A verdict on a picture too dark or blurred to trust says so, whatever it answers.
    return {**camera_verdict(scorer, hypotheses, track, unseen, camels).as_json(), "problems": problems}


def other_edition_problem(scorer: Any, track: Any, camels: list[str], board_bgr: Any) -> str:
    """The problem to list when the camels read look like the other edition's (:mod:`vision.edition_check`), with
    what to give ``vision read`` instead; ``""`` when they do not."""
    from vision.edition_check import other_edition_seen

    seen = other_edition_seen(scorer, track, camels, board_bgr)
    if seen is None:
        return ""
    return (f"{seen.sentence()}: this reading is not to be trusted; read it with --board {seen.edition}, or with a "
            f"calibration made for the {seen.edition} camels (camelup vision calibrate PHOTO --board {seen.edition})")


def known_board_contradiction(image: np.ndarray, colours: Any, expectation: Expectation) -> str:
    """Why a photo cannot teach the camera the board ``expectation`` leads to: the verdict (as the companion's
    own lessons ask it, :mod:`companion.table.camera_watch`) says the picture shows another board. ``""`` when
    it matches or cannot tell (a camel hidden: the calibration leaves it out itself). ``colours``: what to read
    with (``vision.calibration_file.reading_colours``).

    Raises:
        vision.locate.BoardNotFound: the markers are not all seen.
    """
    verdict = read_picture(image, colours.template, colours.profiles, colours.board_bgr, expectation,
                           fit=colours.fit())
    if verdict["matches"] is not False:
        return ""
    likely = verdict.get("most_likely")
    return (f"the photo shows another board than the log's{f' (most likely {likely})' if likely else ''}:\n"
            + "\n".join(f"  - {difference}" for difference in verdict["differences"]))
