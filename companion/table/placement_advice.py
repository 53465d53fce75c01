"""What to change about the camera, as message-catalog keys and numbers, so the placement page says it in the
host's language.

:mod:`vision.placement` gives its findings as facts (markers found or why not, the camera's pose, the hidden
spaces and what hides them, the camels' size, the guidance's numbers) and its advice as English sentences. Each
piece of advice is rebuilt here from the facts, with the same limits. What hides a marker or the spaces (the
pyramid or the palm tree in the middle of the board, or something else) and the space to move the camera
towards are facts (``hidden_by``, ``towards``); a report without them (an older vision) falls back to its
sentence about that marker or those spaces.

A blurred or badly exposed picture (``picture``, :mod:`vision.focus`'s figures) is said first, and what it would
make wrong is held back as vision holds it back (vision also judges no space from a pose of fewer than three
markers: its report then has no hidden spaces).

Pure: a report's JSON in, ``(key, params)`` out; :func:`consistent` says whether they are as many as vision's
sentences (if not, the page shows vision's English rather than advice that might disagree with it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from vision.guidance import shown_cm, shown_deg, shown_margin_px

DISTANCE_TOLERANCE = 0.04
ANGLE_TOLERANCE_DEG = 2.0
"""vision.placement's margins for the pose measured from the markers alone (advice only beyond them)."""
WRONG_SIDE_DEG = 60.0
"""Farther round than this the camera is on another side of the board altogether."""
TOWARDS = {0: 13, 1: 9, 2: 9, 3: 13}
"""The space of the camera's side (9 to 13, the bottom row) below each marker's corner, clockwise from marker 0
by space 1: where to move the camera for a far marker hidden behind the middle of the board."""

Item = tuple[str, dict[str, Any]]


def picture_items(picture: Mapping[str, Any] | None) -> list[Item]:
    """What is wrong with the picture itself (blur, too dark, too noisy, overexposed), with its figures."""
    if not picture:
        return []
    limits = picture["limits"]
    items: list[Item] = small_frame_items(picture)
    if picture.get("blurred"):
        items.append(("placement.blurred", {"edge": f"{picture['edge_px']:.1f}", "limit": f"{limits['edge_px']:.1f}"}))
    if picture.get("too_dark"):
        items.append(("placement.too_dark", {"white": f"{picture['white']:.0f}", "limit": f"{limits['white']:.0f}"}))
    elif picture.get("too_noisy"):
        items.append(("placement.too_noisy", {"snr": f"{picture['snr']:.0f}", "limit": f"{limits['snr']:.0f}"}))
    if picture.get("overexposed"):
        items.append(("placement.overexposed", {"share": f"{100 * picture['clipped']:.0f}",
                                                "limit": f"{100 * limits['clipped']:.0f}"}))
    return items


def whole_items(whole: Mapping[str, Any] | None) -> list[Item]:
    """What is wrong with the whole picture when too few markers are found to measure it on (vision.focus's
    whole-picture figures): black (no light at all), too dark or overexposed, else blurred, as vision says it."""
    if not whole:
        return []
    limits = whole["limits"]
    small = small_frame_items(whole)  # said first, with what else is wrong
    if whole.get("black"):  # no light at all: a lens cap or a hand, not a dim room (more light would not help)
        return [*small, ("placement.whole_black", {})]
    if whole.get("too_dark"):
        return [*small, ("placement.whole_too_dark", {"bright": f"{whole['bright']:.0f}",
                                                      "limit": f"{limits['bright']:.0f}"})]
    if whole.get("overexposed"):
        return [*small, ("placement.whole_overexposed", {"share": f"{100 * whole['clipped']:.0f}",
                                                         "limit": f"{100 * limits['clipped']:.0f}"})]
    if whole.get("blurred") and whole["edge_px"] is None:  # no edge at all: no width to give
        return [*small, ("placement.whole_featureless", {})]
    if whole.get("blurred"):
        return [*small, ("placement.whole_blurred", {"edge": f"{whole['edge_px']:.1f}",
                                                     "limit": f"{limits['edge_px']:.1f}"})]
    return small


def small_frame_items(picture: Mapping[str, Any]) -> list[Item]:
    """A frame smaller than the guidance's (vision.focus's ``too_small``): the camera's place cannot be judged on
    it, so the rest of the advice is held back until the camera is set to a larger frame."""
    if not picture.get("too_small"):
        return []
    (width, height), (least_width, least_height) = picture["frame"], picture["limits"]["frame"]
    return [("placement.too_small", {"width": width, "height": height, "least_width": least_width,
                                     "least_height": least_height})]


def _sentence(advice: Sequence[str], start: str) -> str:
    return next((sentence for sentence in advice if sentence.startswith(start)), "")


def _hidden_marker(marker: int, facts: Mapping[str, Any], advice: Sequence[str]) -> Item:
    sentence = _sentence(advice, f"marker {marker} ")
    middle = facts.get("hidden_by", "middle" if "pyramid" in sentence else "other") == "middle"
    towards = facts.get("towards")
    if towards is None:
        found = re.search(r"towards space (\d+)", sentence)
        towards = int(found.group(1)) if found else TOWARDS[marker]
    if middle:
        return "placement.marker_hidden_middle", {"marker": marker, "space": towards}
    return "placement.marker_hidden", {"marker": marker}


def _off_picture(report: Mapping[str, Any], space: int) -> bool:
    """Whether part of the space's outline falls outside the picture."""
    width, height = report["size"]
    outline = report.get("spaces", {}).get(str(space), {}).get("outline", [])
    return any(not (0 <= x < width and 0 <= y < height) for x, y in outline)


def advice_items(report: Mapping[str, Any]) -> list[Item]:
    """The advice of one report (:meth:`vision.placement.Placement.as_json`), as ``(catalog key, params)``; a
    ``marker`` param is a marker's number (the page names its corner)."""
    guidance = report["guidance"]
    advice = report.get("advice", [])
    markers = {int(m): facts for m, facts in report["markers"].items()}
    missing = sorted(m for m, facts in markers.items() if not facts["found"])
    items = picture_items(report.get("picture")) + whole_items(report.get("whole_picture"))
    picture_ok = not items
    # Margins in the frame's pixels against a 1280×720 frame's limit: not judged on a smaller frame (as vision).
    small = bool((report.get("picture") or {}).get("too_small"))
    if report.get("pose") is None:
        return [*items, ("placement.too_few_markers", {"found": len(markers) - len(missing), "missing": missing})]
    for marker in missing:
        why = markers[marker].get("why")
        if why == "outside":
            items.append(("placement.marker_outside", {"marker": marker}))
        elif why == "edge" and not small:
            items.append(("placement.marker_near_edge", {"marker": marker, "margin": guidance["margin_px"]}))
        elif picture_ok:  # else blur or the exposure may be all that hides it
            items.append(_hidden_marker(marker, markers[marker], advice))
    for marker, facts in sorted(markers.items()):
        # Each limit on the figure shown (vision's too): a number and its verdict never disagree.
        if facts["found"] and not small and shown_margin_px(facts["edge_px"]) < guidance["margin_px"]:
            items.append(("placement.marker_edge_px", {"marker": marker, "edge": shown_margin_px(facts["edge_px"]),
                                                       "margin": guidance["margin_px"]}))
    if not picture_ok:
        return items
    pose = report["pose"]
    low, high = guidance["distance_mm"]
    cm = shown_cm(pose["distance_mm"])
    span = {"low": f"{low / 10:.0f}", "high": f"{high / 10:.0f}", "now": str(cm)}
    if cm < low / 10 * (1 - DISTANCE_TOLERANCE):
        items.append(("placement.too_near", span))
    elif cm > high / 10 * (1 + DISTANCE_TOLERANCE):
        items.append(("placement.too_far", span))
    low, high = guidance["elevation_deg"]
    elevation = shown_deg(pose["elevation_deg"])
    span = {"low": f"{low:.0f}", "high": f"{high:.0f}", "now": str(elevation)}
    if elevation < low - ANGLE_TOLERANCE_DEG:
        items.append(("placement.too_low", span))
    elif elevation > high + ANGLE_TOLERANCE_DEG:
        items.append(("placement.too_steep", span))
    azimuth = pose["azimuth_deg"]
    round_by = shown_deg(abs(azimuth))
    if round_by > WRONG_SIDE_DEG:
        items.append(("placement.wrong_side", {}))
    elif round_by > guidance["azimuth_deg"] + ANGLE_TOLERANCE_DEG:
        items.append(("placement.turned", {"angle": str(round_by), "corner": 9 if azimuth > 0 else 13,
                                           "limit": f"{guidance['azimuth_deg']:.0f}"}))
    hidden = list(report.get("hidden_spaces", []))
    outside = [space for space in hidden if _off_picture(report, space)]
    if outside:
        # Nothing hides these: the picture does not reach them (vision counts them among the hidden spaces).
        rest = [space for space in hidden if space not in outside]
        if rest:
            items.append(("placement.spaces_outside_and_hidden", {"outside": outside, "spaces": rest}))
        else:
            items.append((f"placement.space{'s' if len(hidden) > 1 else ''}_outside", {"spaces": hidden}))
    elif hidden:
        sentence = next((s for s in advice if "cannot be seen" in s), "")
        middle = report.get("hidden_by", "middle" if "pyramid" in sentence else "other") == "middle"
        key = f"placement.space{'s' if len(hidden) > 1 else ''}_hidden_{'middle' if middle else 'other'}"
        items.append((key, {"spaces": hidden}))
    camels = report.get("camel_px")
    if camels and camels["smallest"] < guidance["min_camel_px"]:
        items.append(("placement.camels_small", {"space": camels["space"], "px": f"{camels['smallest']:.1f}",
                                                 "least": f"{guidance['min_camel_px']:.0f}"}))
    return items


def consistent(report: Mapping[str, Any], items: Sequence[Item]) -> bool:
    """Whether the items say as many things as vision's advice (the same limits, read the same way)."""
    return len(items) == len(report.get("advice", []))


DECIMAL = re.compile(r"-?\d+\.\d+")


def in_language(params: Mapping[str, Any], language: str) -> dict[str, Any]:
    """``params`` with each decimal figure ("12.3", as the items give them) written as ``language`` writes it
    ("12,3" in French), with as many decimals (Babel's CLDR data, as the pages' ``Intl``)."""
    from decimal import Decimal

    from babel.numbers import format_decimal

    out = dict(params)
    for name, value in params.items():
        if isinstance(value, str) and DECIMAL.fullmatch(value):
            places = len(value.partition(".")[2])
            out[name] = format_decimal(Decimal(value), format=f"0.{'0' * places}", locale=language)
    return out
