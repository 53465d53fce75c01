"""What is wrong with a picture the camera judged (a verdict's ``problems``: vision's English sentences) in the
page's language, through the message catalogs.

vision says each problem as a sentence with its figures (:mod:`vision.focus`, :mod:`vision.read`); each known
sentence is matched here and said again from its catalog key with the same figures (written as the language
writes them). A sentence not known here stays in English, and the report says so (``problems_languages``), so
the page marks it as English rather than pass it off as the page's words.

Pure: sentences in, sentences out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from companion.table.catalogs import say
from companion.table.placement_advice import in_language

NUMBER = r"(\d+(?:\.\d+)?)"
SENTENCES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = (
    (re.compile(rf"^the picture is blurred \(the markers' edges are {NUMBER} px wide, the reader needs at most "
                rf"{NUMBER}\)"), "placement.blurred", ("edge", "limit")),
    (re.compile(rf"^the picture is too dark \(the markers' white paper is at {NUMBER} of 255, the reader needs at "
                rf"least {NUMBER}\)"), "placement.too_dark", ("white", "limit")),
    (re.compile(rf"^the picture is too noisy \(the markers' contrast is {NUMBER} times the noise, the reader needs "
                rf"at least {NUMBER}\)"), "placement.too_noisy", ("snr", "limit")),
    (re.compile(rf"^the picture is overexposed \({NUMBER}% of the board is pure white, at most {NUMBER}% may be\)"),
     "placement.overexposed", ("share", "limit")),
    (re.compile(r"^the frame is (\d+)×(\d+): set the camera to (\d+)×(\d+) or more"), "placement.too_small",
     ("width", "height", "least_width", "least_height")),
    (re.compile(r"^space (\d+) is outside the picture$"), "placement.space_outside", ("spaces",)),
    (re.compile(rf"^low confidence \({NUMBER}\): the camels' colours do not fit this picture; calibrate the camera "
                r"\(camelup vision calibrate\) in the table's light$"),
     "camera_problem.low_confidence", ("confidence",)),
)


def said(sentence: str, language: str) -> str | None:
    """One of vision's sentences in ``language`` (None: not a sentence known here)."""
    for pattern, key, names in SENTENCES:
        found = pattern.match(sentence)
        if found:
            params: dict[str, Any] = dict(zip(names, found.groups(), strict=True))
            return say(language, key, **in_language(params, language))
    return None


def problems_in(problems: Sequence[str], language: str) -> tuple[list[str], list[str]]:
    """A verdict's ``problems`` in ``language``, and the language each one is in: ``language`` where the
    sentence is known here, else vision's own English sentence."""
    found = [None if language == "en" else said(problem, language) for problem in problems]
    return ([text if text is not None else problem for text, problem in zip(found, problems, strict=True)],
            [language if text is not None else "en" for text in found])


NOT_SEEN = re.compile(r"^board not found: (?:.*; )?markers? ((?:\d \([a-z ]+\)(?:, )?)+) not seen")
DISAGREE = re.compile(r", and markers ([\d, ]+), seen, do not agree on where the board is")
MOVED = re.compile(r"; markers? ([\d, ]+) seen (\d+) px from where (?:they were|it was): has the camera moved\? "
                   r"Bring all four markers into view where it stands now")


def not_found_said(message: str, language: str) -> str | None:
    """Why the board is not found (``vision.locate.BoardNotFound``'s words, as the camera watch says them: which
    markers are not seen, whether those seen disagree, whether the camera moved) in ``language``; None when the
    message is not one known here."""
    found = NOT_SEEN.match(message)
    if found is None:
        return None
    missing = [int(marker) for marker in re.findall(r"(\d) \(", found.group(1))]
    names = ", ".join(say(language, "placement.marker_name", marker=marker,
                          place=say(language, f"placement.place.{marker}")) for marker in missing)
    words = say(language, "camera_not_found.markers" if len(missing) > 1 else "camera_not_found.marker",
                markers=names)
    disagree = DISAGREE.search(message)
    if disagree:
        words += say(language, "camera_not_found.disagree", seen=disagree.group(1))
    moved = MOVED.search(message)
    if moved:
        many = "," in moved.group(1)
        words += say(language, "camera_not_found.moved_many" if many else "camera_not_found.moved_one",
                     seen=moved.group(1), px=moved.group(2))
    if ("do not agree" in message) != bool(disagree) or ("has the camera moved" in message) != bool(moved):
        return None  # a part not known here: not half of it in the page's language
    return words


UNAVAILABLE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^cannot open camera (.+): is it plugged in, and is this user in the video group\?: play goes on by "
                r"hand$"), "camera_unavailable.cannot_open"),
    (re.compile(r"^camera (.+) gave no frame: play goes on by hand$"), "camera_unavailable.no_frame"),
)


def unavailable_said(message: str, language: str) -> str | None:
    """Why the camera is unavailable (``vision.sources.CameraError``'s words for a camera that cannot be opened
    or gives no frame, as the camera watch says them) in ``language``; None for any other message (a library's
    own error, a file's path: technical words for the host's English detail)."""
    for pattern, key in UNAVAILABLE:
        found = pattern.match(message)
        if found:
            return say(language, key, device=found.group(1))
    return None
