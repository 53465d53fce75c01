"""The photo renderer's z-buffer (vision.raster) against OpenCV's own arithmetic: a face covers the pixels
OpenCV fills for the same projected outline, the nearer face wins whatever the drawing order, and the camera
model projects like cv2.projectPoints."""

from __future__ import annotations

import cv2
import numpy as np

from vision.raster import Mesh, PinholeCamera, look_at, rasterize

MATRIX = np.array([[800.0, 0, 320], [0, 800.0, 240], [0, 0, 1]])


def _camera() -> tuple[np.ndarray, np.ndarray]:
    position = np.array([0.0, 600.0, -600.0])
    rotation = look_at(position, np.zeros(3))
    return rotation, -rotation @ position


def _square(centre_z: float, half: float, colour, obj: int) -> Mesh:
    mesh = Mesh()
    quad = np.array([(x, y, centre_z) for x, y in ((-half, -half), (half, -half), (half, half), (-half, half))])
    mesh.add(quad, np.array([(0, 1, 2), (0, 2, 3)]), colour, obj)
    return mesh


def test_a_face_covers_what_opencv_fills_for_its_outline():
    rotation, translation = _camera()
    mesh = _square(0.0, 100.0, (1, 1, 1), 1)
    raster = rasterize(MATRIX, rotation, translation, (640, 480), mesh)
    pixels, _ = cv2.projectPoints(mesh.vertices, cv2.Rodrigues(rotation)[0], translation, MATRIX, np.zeros(5))
    filled = np.zeros((480, 640), np.uint8)
    cv2.fillConvexPoly(filled, np.round(pixels.reshape(-1, 2) * 256).astype(np.int32), 1, cv2.LINE_8, 8)
    drawn = raster.face >= 0
    # Identical away from the outline (pixel-centre rules differ by at most a pixel along the edges).
    inner = cv2.erode(filled, np.ones((3, 3), np.uint8)).astype(bool)
    outer = cv2.dilate(filled, np.ones((3, 3), np.uint8)).astype(bool)
    assert drawn[inner].all() and not drawn[~outer].any()
    # The depth at the square's middle is the camera's distance to it.
    u, v = np.round(cv2.projectPoints(np.zeros((1, 3)), cv2.Rodrigues(rotation)[0], translation, MATRIX,
                                      np.zeros(5))[0].reshape(2)).astype(int)
    assert abs(1 / raster.inverse_depth[v, u] - np.linalg.norm([0, 600, -600])) < 2


def test_the_nearer_face_wins_whatever_order_they_are_drawn_in():
    rotation, translation = _camera()
    low, high = _square(0.0, 100.0, (1, 0, 0), 1), _square(-50.0, 40.0, (0, 1, 0), 2)  # z into the table: -50 is up
    for first, second in ((low, high), (high, low)):
        mesh = Mesh()
        mesh.extend(first)
        mesh.extend(second)
        raster = rasterize(MATRIX, rotation, translation, (640, 480), mesh)
        shown = np.where(raster.face >= 0, mesh.objects[np.maximum(raster.face, 0)], 0)
        u, v = np.round(cv2.projectPoints(np.array([[0.0, 0.0, -50.0]]), cv2.Rodrigues(rotation)[0], translation,
                                          MATRIX, np.zeros(5))[0].reshape(2)).astype(int)
        assert shown[v, u] == 2 and (shown == 1).sum() > (shown == 2).sum() > 100


def test_the_camera_projects_like_opencv_with_distortion():
    rotation, translation = _camera()
    camera = PinholeCamera(MATRIX, np.array([-0.2, 0.05, 0, 0, 0]), rotation, translation, (640, 480))
    points = np.array([[0.0, 0.0, 0.0], [200.0, -100.0, -30.0]])
    expected, _ = cv2.projectPoints(points, cv2.Rodrigues(rotation)[0], translation, MATRIX, camera.distortion)
    assert np.allclose(camera.project(points), expected.reshape(-1, 2))
    assert np.allclose(camera.position, [0, 600, -600])


def test_small_faces_drawn_in_batches_cover_the_same_as_opencv_and_keep_the_nearest():
    from vision.shapes import ellipsoid

    rotation, translation = _camera()
    points, faces = ellipsoid((0, 0, 0), (60, 40, 30), lon=24, lat=16)  # faces of a few pixels each
    mesh = Mesh()
    mesh.add(points, faces, (1, 1, 1), 1)
    raster = rasterize(MATRIX, rotation, translation, (640, 480), mesh)
    pixels, _ = cv2.projectPoints(points, cv2.Rodrigues(rotation)[0], translation, MATRIX, np.zeros(5))
    pixels = np.round(pixels.reshape(-1, 2) * 256).astype(np.int32)
    filled = np.zeros((480, 640), np.uint8)
    for face in faces:
        cv2.fillConvexPoly(filled, pixels[face], 1, cv2.LINE_8, 8)
    drawn = raster.face >= 0
    inner = cv2.erode(filled, np.ones((3, 3), np.uint8)).astype(bool)
    outer = cv2.dilate(filled, np.ones((3, 3), np.uint8)).astype(bool)
    assert drawn[inner].all() and not drawn[~outer].any()
    # Every pixel shows a face on the near side of the ellipsoid (facing the camera).
    camera_at = -rotation.T @ translation
    centres = points[faces].mean(axis=1)
    normals = mesh.normals()
    outward = np.sign(np.sum(normals * centres, axis=1))[:, None] * normals
    facing = np.sum(outward * (camera_at - centres), axis=1) > 0
    assert facing[raster.face[drawn]].mean() > 0.99
