"""The placement assistant's page on the host's device: the page, the annotated live view and its findings."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from companion.table.web import create_app
from vision.photo import make_table, render_scene


def test_the_page_shows_the_annotated_view_and_the_advice(tmp_path):
    table = make_table(203, "2018")
    frame, _ = render_scene(table, {1: ["red"], 2: ["green", "blue"]}, 1, "light")
    watch = SimpleNamespace(template=table.template, latest_frame=frame)
    client = create_app(tmp_path, testing=True, camera=watch).test_client()
    page = client.get("/camera/placement")
    assert page.status_code == 200 and b"placement.js" in page.data
    found = client.get("/camera/placement?frame=json").get_json()
    assert found["state"] == "ok" and found["advice"] == [] and all(m["found"] for m in found["markers"].values())
    assert set(found["guidance"]) >= {"distance_mm", "elevation_deg", "azimuth_deg", "margin_px", "min_camel_px"}
    view = client.get("/camera/placement?frame=jpg")
    assert view.status_code == 200 and view.mimetype == "image/jpeg"
    picture = cv2.imdecode(np.frombuffer(view.data, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == frame.shape
    assert client.get("/camera/placement?frame=png").status_code == 400


def test_without_a_camera_the_page_says_so(tmp_path):
    client = create_app(tmp_path, testing=True).test_client()
    assert client.get("/camera/placement?frame=json").get_json()["state"] == "off"
    assert client.get("/camera/placement?frame=jpg").status_code == 404
    waiting = create_app(tmp_path, testing=True, camera=SimpleNamespace(template=None, latest_frame=None))
    assert waiting.test_client().get("/camera/placement?frame=json").get_json()["state"] == "waiting"


def test_doctor_says_what_to_change_about_the_camera(tmp_path, capsys):
    import dataclasses

    from companion.cli import main

    table = make_table(203, "2018")
    marker = np.array([*np.array(table.template.marker_corners(1)).mean(axis=0), 0.0])
    camera_at = table.camera.position
    crown = camera_at + (-200 - camera_at[2]) / (marker[2] - camera_at[2]) * (marker - camera_at)
    hidden = dataclasses.replace(table, palm=(float(crown[0]), float(crown[1])), pyramid=None)
    frame, _ = render_scene(hidden, {1: ["red"]}, 2, "props", hand=False)
    cv2.imwrite(str(tmp_path / "table.png"), frame)
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{tmp_path / "table.png"}"\nboard = "2018"\n')
    main(["doctor", "--simulate", "--config", str(config), "--data", str(tmp_path / "data")])
    out = capsys.readouterr().out
    assert "WARN  camera placement: marker 1 (top right) is hidden" in out and "/camera/placement" in out
