"""The placement assistant's page (``/camera/placement``): the camera's latest frame with the markers, the track
and the hidden spaces drawn over it, and what to change, from :mod:`vision.placement`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, jsonify


def placement_response(watch: Any, kind: str | None, page: Callable[..., str]) -> Any:
    """``kind``: None for the page, ``"jpg"`` for the annotated frame, ``"json"`` for the findings."""
    if kind is None:
        return page("placement.html")
    if kind not in ("jpg", "json"):
        return jsonify({"error": "frame must be jpg or json"}), 400
    frame = getattr(watch, "latest_frame", None) if watch is not None else None
    if frame is None:
        message = "no camera is configured" if watch is None else "no frame from the camera yet"
        if kind == "jpg":
            return Response(message, status=404, mimetype="text/plain")
        return jsonify({"state": "off" if watch is None else "waiting", "message": message})
    import cv2

    from vision.placement import assess_placement, draw_placement

    report = assess_placement(watch.template, frame)
    if kind == "json":
        return jsonify({"state": "ok" if report.ok else "advice", **report.as_json()})
    ok, data = cv2.imencode(".jpg", draw_placement(frame, report), [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        return Response("the frame could not be encoded", status=500, mimetype="text/plain")
    return Response(data.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def placement_words(settings: Any) -> tuple[bool, str]:
    """For ``camelup doctor``: one frame from the configured camera, checked; (placed well, what to change)."""
    from vision.board import TemplateError
    from vision.calibrate import CalibrationError, reading_colours
    from vision.placement import assess_placement
    from vision.sources import CameraError, open_source

    try:
        template = reading_colours(settings.camera_board, settings.camera_calibration).template
        source = open_source(settings.camera, settings.camera_source)
        try:
            frame = source.read()
        finally:
            source.close()
    except (CameraError, TemplateError, CalibrationError) as error:
        return False, f"no frame to check ({error})"
    report = assess_placement(template, frame)
    if report.ok:
        pose = report.pose or {}
        return True, (f"well placed: {pose.get('distance_mm', 0) / 10:.0f} cm from the board's middle, "
                      f"{pose.get('elevation_deg', 0):.0f}° down, camels {report.camel_px['smallest']:.0f} px tall")
    return False, "; ".join(report.advice)
