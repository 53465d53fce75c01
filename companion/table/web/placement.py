"""The placement assistant on the web (``/camera/placement``, the host's only): the page, the annotated frame, the
findings and the calibration photo as HTTP answers. What the camera sees and what to change is worked out in
:mod:`companion.table.placement_view`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Response, jsonify

from companion.table.placement_view import annotated_view, assessed_frame, findings, no_frame


def placement_response(watch: Any, kind: str | None, page: Callable[..., str], language: str = "en") -> Any:
    """``kind``: None for the page, ``"jpg"`` for the annotated frame, ``"json"`` for the findings, with what
    to change in ``language`` (``"changes"``), ``"still"`` for the calibration photo (a full-resolution still,
    saved beside the games too: :mod:`companion.table.placement_still`)."""
    if kind is None:
        return page("placement.html")
    if kind not in ("jpg", "json", "still"):
        return jsonify({"error": "frame must be jpg, json or still"}), 400
    if kind == "still":
        return _still(watch)
    frame = getattr(watch, "latest_frame", None) if watch is not None else None
    if frame is None:
        state, message = no_frame(watch)
        if kind == "jpg":
            return Response(message, status=404, mimetype="text/plain")
        return jsonify({"state": state, "message": message})
    report, problem = assessed_frame(watch, frame)
    if report is None:
        if kind == "jpg":
            return Response(problem, status=409, mimetype="text/plain")
        return jsonify({"state": "unreadable", "message": problem})
    if kind == "json":
        return jsonify(findings(watch, frame, report, language))
    data = annotated_view(watch.template, frame, report)
    if data is None:
        return Response("the frame could not be encoded", status=500, mimetype="text/plain")
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _still(watch: Any) -> Any:
    """The calibration photo: taken by the camera's thread, saved beside the games, sent as a download."""
    from companion.table.placement_still import STILL_GAP, StillBusy, save_photo
    from vision.sources import CameraError

    if watch is None:
        return Response("no camera is configured", status=404, mimetype="text/plain")
    running = getattr(watch, "running", None)
    if callable(running) and not running():  # refused at once: nothing would ever take it
        status = getattr(watch, "status", None)
        why = f": {status.message}" if status is not None and status.message else ""
        return Response(f"the camera is not running{why}", status=503, mimetype="text/plain")
    try:
        picture = watch.stills.request(gap=STILL_GAP)
        folder = watch.learnt_path.parent if getattr(watch, "learnt_path", None) is not None else None
        data, saved = save_photo(picture, folder)
    except StillBusy as error:  # one at a time: the second tap is told, not queued
        return Response(str(error), status=409, mimetype="text/plain")
    except CameraError as error:
        return Response(str(error), status=503, mimetype="text/plain")
    name = time.strftime("camelup-calibration-%Y%m%d-%H%M%S.jpg")
    headers = {"Cache-Control": "no-store", "Content-Disposition": f'attachment; filename="{name}"',
               "X-Picture-Size": f"{picture.shape[1]}x{picture.shape[0]}", "X-Board": str(watch.template.edition)}
    if saved is not None:  # its name in the companion's data folder: no server path to whoever asks
        headers["X-Saved-As"] = saved.name
    return Response(data, mimetype="image/jpeg", headers=headers)
