"""What the placement assistant shows (its page is :mod:`companion.table.web.placement`): the camera's latest
frame with the markers, the track and the hidden spaces drawn over it, and what to change in the host's language,
from :mod:`vision.placement`'s findings; and the same in words for ``camelup doctor``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.table.catalogs import say


def no_frame(watch: Any) -> tuple[str, str]:
    """Why there is no frame to look at: ``(state, message)``, ``"off"`` (no camera configured), ``"waiting"`` or
    ``"unavailable"`` (the camera's own words)."""
    status = getattr(watch, "status", None)
    state, message = "off", "no camera is configured"
    if watch is not None:
        state, message = "waiting", "no frame from the camera yet"
    if status is not None and status.state == "unavailable":  # why there is none: the camera's own words
        state, message = "unavailable", status.message
    return state, message


def assessed_frame(watch: Any, frame: Any) -> tuple[dict[str, Any] | None, str | None]:
    """The findings on ``frame`` (once per frame), or why it cannot be checked: ``(report, None)`` or
    ``(None, problem)``."""
    from companion.table.odd_frame import frame_problem, unreadable_words

    problem = frame_problem(frame)
    if problem is not None:
        return None, problem
    try:
        return _assessed(watch.template, frame), None
    except Exception as error:  # this frame only (an OpenCV assertion): said, and the next one is assessed
        return None, unreadable_words(frame, error, "checked")


def findings(watch: Any, frame: Any, report: dict[str, Any], language: str) -> dict[str, Any]:
    """The page's findings: the report, where to start this camera, and what to change in ``language``."""
    from vision.guidance import start_hint
    from vision.image_file import colourless

    found = changes(report, language)
    # Where to start this camera (the README's per-camera table) beside the limits the checks allow.
    report = {**report, "start": start_hint(getattr(getattr(watch, "stills", None), "camera", None))}
    if colourless(frame):  # well placed or not, a greyscale camera reads no camel: that first
        found = _colour_first(found, language)
        report = {**report, "ok": False, "colourless": True}
    return {"state": "ok" if report["ok"] else "advice", **report, **found}


_latest: dict[str, tuple[Any, Any, Any]] = {}
"""Per kind of work (``"findings"``, ``"view"``), the last frame it was done on, with its template and result: the
page asks for the findings and then the view of the same frame, and a flood of requests for the same frame costs
one assessment (a tenth of a second here, more on a Pi) and one JPEG."""


def _once_per_frame(kind: str, template: Any, frame: Any, make: Callable[[], Any]) -> Any:
    """``make()``'s result for this frame and template, worked out once (a None result is not kept)."""
    last = _latest.get(kind)
    if last is not None and last[0] is frame and last[1] is template:
        return last[2]
    result = make()
    if result is not None:
        _latest[kind] = (frame, template, result)
    return result


def annotated_view(template: Any, frame: Any, report: dict[str, Any]) -> bytes | None:
    """The frame with the findings drawn over it, as a JPEG (None when it cannot be encoded)."""

    def encoded() -> bytes | None:
        import cv2

        ok, data = cv2.imencode(".jpg", draw_findings(frame, report), [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None

    return _once_per_frame("view", template, frame, encoded)


def _assessed(template: Any, frame: Any) -> dict[str, Any]:
    from vision.placement import assess_placement

    return _once_per_frame("findings", template, frame, lambda: assess_placement(template, frame).as_json())


def changes(report: dict[str, Any], language: str) -> dict[str, Any]:
    """What to change, one sentence each in ``language`` (``"changes"``; ``"change_keys"``, their catalog keys;
    ``"changes_language"``: vision's English sentences are given instead, without keys, when the facts do not
    explain all of them)."""
    from companion.table.placement_advice import advice_items, consistent, in_language

    items = advice_items(report)
    if not consistent(report, items):
        return {"changes": list(report["advice"]), "changes_language": "en", "change_keys": None}

    def marker(number: int) -> str:
        return say(language, "placement.marker_name", marker=number, place=say(language, f"placement.place.{number}"))

    words = []
    for key, params in items:
        shown = in_language(params, language)
        if "marker" in shown:
            shown["marker"] = marker(shown["marker"])
        if "missing" in shown:
            shown["missing"] = ", ".join(marker(number) for number in shown["missing"])
        for name in ("spaces", "outside"):
            if name in shown:
                shown[name] = ", ".join(str(space) for space in shown[name])
        words.append(say(language, key, **shown))
    return {"changes": words, "changes_language": language, "change_keys": [key for key, _ in items]}


def _colour_first(found: dict[str, Any], language: str) -> dict[str, Any]:
    """What to change, with the camera's missing colour first (in the language the rest is said in)."""
    keys = found["change_keys"]
    said = say(found["changes_language"] if keys is None else language, "placement.no_colour")
    return {**found, "changes": [said, *found["changes"]],
            "change_keys": None if keys is None else ["placement.no_colour", *keys]}


GREEN, RED, WHITE, DARK = (60, 200, 60), (40, 40, 230), (255, 255, 255), (20, 20, 20)


def draw_findings(frame: Any, report: dict[str, Any]) -> Any:
    """The frame with the findings drawn over it, in no language (the page says them in the host's): each space
    outlined green where the camera sees it and shaded red where something hides it, its number, each marker
    green where found and crossed out in red where it should be."""
    import cv2
    import numpy as np

    out = frame.copy()
    scale = max(1.0, frame.shape[1] / 1280)
    thick = max(2, round(2 * scale))
    hidden = {str(space) for space in report["hidden_spaces"]}
    shade = out.copy()
    for space, facts in report["spaces"].items():
        if space in hidden:
            cv2.fillPoly(shade, [np.round(np.array(facts["outline"])).astype(np.int32)], RED)
    out = cv2.addWeighted(shade, 0.35, out, 0.65, 0)
    for space, facts in report["spaces"].items():
        outline = np.round(np.array(facts["outline"])).astype(np.int32)
        seen = space not in hidden
        cv2.polylines(out, [outline], True, GREEN if seen else RED, thick if seen else thick + 1, cv2.LINE_AA)
        size, _ = cv2.getTextSize(space, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, thick)
        x, y = outline.mean(axis=0) - np.array([size[0] / 2, -size[1] / 2])
        for colour, width in ((DARK, thick + 3), (WHITE, thick)):
            cv2.putText(out, space, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour, width, cv2.LINE_AA)
    for facts in report["markers"].values():
        quad = facts.get("corners") or facts.get("expected")
        if quad is None:
            continue
        points = np.round(np.array(quad)).astype(np.int32)
        cv2.polylines(out, [points], True, GREEN if facts["found"] else RED, thick + 2, cv2.LINE_AA)
        if not facts["found"]:
            cv2.line(out, tuple(points[0]), tuple(points[2]), RED, thick + 1, cv2.LINE_AA)
            cv2.line(out, tuple(points[1]), tuple(points[3]), RED, thick + 1, cv2.LINE_AA)
    return out


def placement_words(settings: Any) -> tuple[bool, str]:
    """For ``camelup doctor``: one frame from the configured camera, checked; (placed well, what to change)."""
    from companion.table.placement_still import source_camera
    from vision.board import TemplateError
    from vision.calibrate import CalibrationError, reading_colours
    from vision.focus import MAX_EDGE_PX
    from vision.guidance import shown_cm, shown_deg, start_words
    from vision.placement import assess_placement
    from vision.sources import CameraError, open_source

    try:
        template = reading_colours(settings.camera_board, settings.camera_calibration).template
        source = open_source(settings.camera, settings.camera_source)
        camera = source_camera(source)
        try:
            frame = source.read()
        finally:
            source.close()
    except (CameraError, TemplateError, CalibrationError) as error:
        return False, f"no frame to check ({error})"
    report = assess_placement(template, frame)
    if report.ok:
        pose = report.pose or {}
        camels = report.camel_px or {}
        picture = report.picture
        sharp = ("" if picture is None or picture.edge_px is None else
                 f"; sharp (marker edges {picture.edge_px:.1f} px, at most {MAX_EDGE_PX:.1f}) and well exposed "
                 f"(the markers' paper at {picture.white:.0f} of 255)")
        return True, (f"well placed: {shown_cm(pose.get('distance_mm', 0))} cm from the board's middle, "
                      f"{shown_deg(pose.get('elevation_deg', 0))}° down, the smallest camel "
                      f"{camels.get('smallest', 0):.1f} px tall (space {camels.get('space')}){sharp}")
    # The advice names the limits the checks allow; where to start this camera is narrower (the README's table).
    return False, "; ".join([*report.advice, start_words(camera)])
