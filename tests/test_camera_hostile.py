"""The camera side on a hostile or flaky table: an odd frame is that frame's problem only (the camera keeps
reading), the placement page says what is wrong with a picture instead of failing, and files mode names a file
that is not a whole picture as ``vision read`` does."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

import companion.table.camera_game as camera_game
import companion.table.camera_watch as camera_watch_module
from companion.table.camera_watch import CameraWatch, wait_for
from companion.table.web import create_app
from vision.board import load_template
from vision.sources import CameraError, ImageFiles
from vision.synth import CAMEL_BGR, EDITION_CAMELS, SceneVariation, render_scene

CLEAN = SceneVariation(light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95),
                       hand_chance=0.0)
TRACK = {2: ["green"], 5: ["yellow"], 7: ["red"], 10: ["blue"], 12: ["purple"], 14: ["black"], 16: ["white"]}
STRIP = np.full((1, 4000, 3), 128, np.uint8)
"""A picture OpenCV's resizing asserts on inside the reader (the tester's ``cases/goodstrip/z.png``)."""


@pytest.fixture(scope="module")
def board():
    template = load_template("2018")
    image, _ = render_scene(template, TRACK, 3, CLEAN)
    return template, image


def profiles():
    return {camel: CAMEL_BGR[camel] for camel in EDITION_CAMELS["2018"]}


class Frames:
    """A camera that gives these frames in turn (then the last one again); an Exception in the list is raised."""

    def __init__(self, *frames) -> None:
        self.frames = list(frames)
        self.given = 0

    def read(self):
        item = self.frames[min(self.given, len(self.frames) - 1)]
        self.given += 1
        if isinstance(item, Exception):
            raise item
        return item

    def close(self) -> None:
        pass


def test_the_reader_itself_fails_on_a_4000x1_strip():
    """What the watch must survive: the reader raises OpenCV's assertion on it (not BoardNotFound)."""
    from vision.read import ReadConfig, observe

    with pytest.raises(cv2.error):
        observe(ReadConfig(), load_template("2018"), STRIP)


def test_one_odd_frame_is_no_news_and_the_next_frames_are_read(board):
    template, image = board
    watch = CameraWatch(lambda: None, template, profiles(), agree=2)
    source = Frames(image, image, STRIP, image, STRIP, STRIP, STRIP, image, image)
    assert watch.step(source).state == "unsettled"
    assert watch.step(source).state == "reading"
    assert watch.step(source).state == "reading" and watch.status.track == TRACK  # one odd frame: not news
    assert watch.step(source).state == "reading"
    watch.step(source), watch.step(source)
    odd = watch.step(source)  # the third in a row: the host is told what is wrong with the picture
    assert odd.state == "board not found"
    assert "4000×1 pixels" in odd.message and "OpenCV" not in odd.message and "resize" not in odd.message
    watch.step(source)
    assert watch.step(source).state == "reading" and watch.status.track == TRACK


def test_a_flaky_camera_that_drops_every_other_frame_keeps_its_verdict(board):
    """The tester's cases/mixed: a good photo and an unreadable one in turn made every page flicker."""
    template, image = board
    dropped = CameraError("the camera's picture b.jpg: the JPEG is cut short")
    watch = CameraWatch(lambda: None, template, profiles(), agree=2)
    source = Frames(*[image, dropped] * 6)
    states = [watch.step(source).state for _ in range(12)]
    assert states[0] == "unsettled" and set(states[2:]) == {"reading"}, states
    assert watch._steady is not None


def test_a_reader_failure_of_any_kind_is_that_frame_s_problem(board, monkeypatch):
    template, image = board
    real = camera_watch_module.observe
    calls = []

    def failing_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise cv2.error("OpenCV(4.12.0) /io/opencv/modules/imgproc/src/resize.cpp:4214: error: (-215)")
        return real(*args, **kwargs)

    monkeypatch.setattr(camera_watch_module, "observe", failing_once)
    watch = CameraWatch(lambda: None, template, profiles(), agree=2)
    source = Frames(image)
    failed = watch.step(source)
    assert failed.state == "board not found" and "1280×720 pixels" in failed.message
    assert "could not be read (error" in failed.message and "OpenCV" not in failed.message
    watch.step(source)
    assert watch.step(source).state == "reading"


def test_the_camera_thread_lives_through_odd_frames_and_a_driver_hiccup(board):
    template, image = board
    source = Frames(image, STRIP, RuntimeError("USB glitch"), image)
    watch = CameraWatch(lambda: source, template, profiles(), interval=0.01, agree=2).start()
    try:
        status = wait_for(watch, {"reading"}, timeout=20)
        assert status.state == "reading" and source.given >= 4, (status, source.given)
        assert watch._thread.is_alive()
    finally:
        watch.stop()


def test_a_driver_hiccup_is_said_without_its_raw_text_and_the_thread_goes_on(board):
    template, image = board
    seen: list[str] = []
    source = Frames(RuntimeError("VIDIOC_DQBUF: No such device /dev/video0"), image)
    watch = CameraWatch(lambda: source, template, profiles(), interval=0.01, agree=2)
    watch.step(source)
    seen.append(watch.status.message)
    assert watch.status.state == "unavailable" and "VIDIOC" not in seen[0] and "RuntimeError" in seen[0]
    assert watch.step(source).state == "unsettled"  # the next frame is read as usual


@pytest.mark.parametrize("frame", [STRIP, np.zeros((720, 1280), np.uint8), np.zeros((720, 1280, 3), np.uint16),
                                   np.zeros((0, 0, 3), np.uint8)])
def test_frames_no_reader_can_use_are_named_before_reading(board, frame):
    template, _ = board
    watch = CameraWatch(lambda: None, template, profiles())
    status = watch.step(Frames(frame))
    assert status.state == "board not found" and "the next picture is read as usual" in status.message


def _host(client) -> str:
    game = client.post("/api/games", json={"edition": "2018", "players": ["Ann", "Bob"], "dice": "manual"}).get_json()
    return f"game={game['game_id']}&token={game['host_token']}"


def test_the_placement_page_says_what_is_wrong_with_an_odd_picture_instead_of_failing(tmp_path, board):
    template, _ = board
    watch = SimpleNamespace(template=template, latest_frame=STRIP, status=None)
    client = create_app(tmp_path, testing=True, camera=watch).test_client()
    query = _host(client)
    found = client.get(f"/camera/placement?{query}&frame=json")
    assert found.status_code == 200, found.data
    assert found.get_json()["state"] == "unreadable" and "4000×1 pixels" in found.get_json()["message"]
    view = client.get(f"/camera/placement?{query}&frame=jpg")
    assert view.status_code == 409 and b"4000" in view.data


def test_the_placement_page_survives_the_assessment_failing(tmp_path, board, monkeypatch):
    import vision.placement

    template, image = board

    def broken(*args, **kwargs):
        raise cv2.error("OpenCV(4.12.0) error: (-215:Assertion failed)")

    monkeypatch.setattr(vision.placement, "assess_placement", broken)
    watch = SimpleNamespace(template=template, latest_frame=image.copy(), status=None)
    client = create_app(tmp_path, testing=True, camera=watch).test_client()
    found = client.get(f"/camera/placement?{_host(client)}&frame=json")
    assert found.status_code == 200 and found.get_json()["state"] == "unreadable"
    assert "OpenCV" not in found.get_json()["message"]


def test_the_placement_page_gives_the_camera_s_error_when_there_is_no_frame(tmp_path, board):
    template, _ = board
    status = SimpleNamespace(state="unavailable", message="cannot open camera 0: is it plugged in?")
    watch = SimpleNamespace(template=template, latest_frame=None, status=status)
    client = create_app(tmp_path, testing=True, camera=watch).test_client()
    found = client.get(f"/camera/placement?{_host(client)}&frame=json").get_json()
    assert found == {"state": "unavailable", "message": status.message}


def test_files_mode_names_a_file_that_is_not_a_whole_picture(tmp_path, board):
    _, image = board
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    (tmp_path / "a-cut.jpg").write_bytes(jpeg[: len(jpeg) // 2])
    (tmp_path / "b-empty.jpg").write_bytes(b"")
    (tmp_path / "c-text.png").write_text("not a picture")
    (tmp_path / "d-folder.jpg").mkdir()
    (tmp_path / "e-good.jpg").write_bytes(jpeg)
    source = ImageFiles(tmp_path)
    said = []
    for _ in range(4):
        with pytest.raises(CameraError) as error:
            source.read()
        said.append(str(error.value))
    assert "a-cut.jpg: the JPEG is cut short" in said[0]
    assert "b-empty.jpg: an empty file" in said[1]
    assert "c-text.png: not an image" in said[2]
    assert "d-folder.jpg: a folder" in said[3]
    assert not any(str(tmp_path) in words for words in said)  # the file's name only: the pages show it
    assert source.read().shape == image.shape



# Finding 1: stills never hold the companion's worker threads.

class Camera(Frames):
    """A camera that takes full-resolution stills (slowly, when told to), counting them."""

    def __init__(self, frame, still_seconds: float = 0.0) -> None:
        super().__init__(frame)
        self.stills = 0
        self.still_seconds = still_seconds

    def still(self):
        self.stills += 1
        time.sleep(self.still_seconds)
        return self.frames[0]


def _still_client(tmp_path, watch):
    client = create_app(tmp_path / "data", testing=True, camera=watch).test_client()
    return client, _host(client)


def test_a_still_is_refused_at_once_when_the_camera_never_started(tmp_path, board):
    template, _ = board

    def unplugged():
        raise CameraError("cannot open camera 0: is it plugged in, and is this user in the video group?")

    watch = CameraWatch(unplugged, template, profiles()).start()
    wait_for(watch, {"unavailable"})
    client, query = _still_client(tmp_path, watch)
    began = time.monotonic()
    answer = client.get(f"/camera/placement?frame=still&{query}")
    assert answer.status_code == 503 and answer.data.startswith(b"the camera is not running: cannot open camera 0")
    assert time.monotonic() - began < 1.0  # not the 15 s a request used to wait for a camera that never answers
    with pytest.raises(CameraError, match="not running"):
        watch.stills.request()


def test_a_still_is_refused_at_once_once_the_camera_thread_has_stopped(tmp_path, board):
    template, image = board
    watch = CameraWatch(lambda: Camera(image), template, profiles(), interval=0.01).start()
    wait_for(watch, {"unsettled", "reading"})
    watch.stop()
    client, query = _still_client(tmp_path, watch)
    began = time.monotonic()
    assert client.get(f"/camera/placement?frame=still&{query}").status_code == 503
    assert time.monotonic() - began < 1.0


def test_the_camera_thread_takes_a_still_at_once_not_at_its_next_frame(tmp_path, board):
    template, image = board
    camera = Camera(image)
    watch = CameraWatch(lambda: camera, template, profiles(), interval=30.0,
                        learnt_path=tmp_path / "data" / "camera-calibration.json").start()
    try:
        wait_for(watch, {"unsettled", "reading", "board not found"})
        client, query = _still_client(tmp_path, watch)
        began = time.monotonic()
        answer = client.get(f"/camera/placement?frame=still&{query}")
        assert answer.status_code == 200 and camera.stills == 1
        assert time.monotonic() - began < 5.0  # a frame every 30 s: the still did not wait for the next one
        assert answer.headers["X-Saved-As"] == "calibration-photo.jpg"  # the name only, never a server path
        assert str(tmp_path) not in str(dict(answer.headers))
        assert (tmp_path / "data" / "calibration-photo.jpg").exists()
    finally:
        watch.stop()


def test_one_still_at_a_time_a_second_request_is_told_not_queued(tmp_path, board):
    template, image = board
    camera = Camera(image, still_seconds=1.0)
    watch = CameraWatch(lambda: camera, template, profiles(), interval=30.0).start()
    try:
        wait_for(watch, {"unsettled", "reading", "board not found"})
        client, query = _still_client(tmp_path, watch)
        first: list = []
        taking = threading.Thread(target=lambda: first.append(client.get(f"/camera/placement?frame=still&{query}")))
        taking.start()
        deadline = time.monotonic() + 5
        while camera.stills == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        began = time.monotonic()
        second = create_app(tmp_path / "data", testing=True, camera=watch).test_client().get(
            f"/camera/placement?frame=still&{query}")
        assert second.status_code == 409 and second.data == b"a photo is being taken: try again in a moment"
        assert time.monotonic() - began < 0.5
        taking.join(timeout=10)
        assert first[0].status_code == 200 and camera.stills == 1  # the refused one took no still later
    finally:
        watch.stop()


def test_a_request_given_up_leaves_nothing_waiting_for_the_camera(board):
    from companion.table.placement_still import StillRequests

    _, image = board
    requests = StillRequests()
    for _ in range(20):
        with pytest.raises(CameraError, match="no picture within"):
            requests.request(timeout=0.01)  # nobody serves
    camera = Camera(image)
    requests.serve(camera, image)
    assert camera.stills == 0  # none of the twenty given up is taken later


def test_a_page_tapping_the_button_in_a_loop_gets_one_still_a_second(board):
    from companion.table.placement_still import STILL_GAP, StillBusy, StillRequests

    _, image = board
    requests = StillRequests()
    camera = Camera(image)
    stop = threading.Event()

    def camera_thread():
        while not stop.is_set():
            requests.serve(camera, image)
            requests.asked.wait(0.05)

    threading.Thread(target=camera_thread, daemon=True).start()
    try:
        assert requests.request(gap=STILL_GAP) is image
        with pytest.raises(StillBusy, match="a moment ago"):
            requests.request(gap=STILL_GAP)
        assert camera.stills == 1
    finally:
        stop.set()


# Findings 2, 4 and 5: one camera at the table; a throwaway game changes nothing of what it does for the game in play.

def _table(tmp_path, board):
    """A companion as serve makes it (both editions' boards), whose camera sees the real game's board; the real game
    (its page asks first) as (id, host headers, game json), and a maker of strangers' games."""
    from tests.test_camera_follows_edition import STARTS, Table, _client, _settings, _watch

    source = Table(tmp_path).show("2018")
    watch = _watch(_settings(tmp_path, camera_board="2018"))
    client = _client(tmp_path, watch)
    setup = {"track": {str(space): stack for space, stack in STARTS["2018"].items()}}

    def make(edition="2018", with_setup=True, track=None):
        body = {"edition": edition, "players": ["A", "B"], "dice": "manual"}
        if with_setup:
            body["setup"] = {"track": track} if track else setup
        game = client.post("/api/games", json=body).get_json()
        return game["game_id"], {"Authorization": f"Bearer {game['host_token']}"}, game

    return watch, client, source, make(), make


def _ask(client, game):
    return client.get(f"/api/games/{game[0]}/camera", headers=game[1]).get_json()


def _verdict(client, watch, source, game, frames=6):
    report = _ask(client, game)
    for _ in range(frames):
        if "verdict" in report:
            return report
        watch.step(source)
        report = _ask(client, game)
    return report


def test_a_throwaway_game_s_host_never_sees_the_room(tmp_path, board):
    watch, client, source, real, make = _table(tmp_path, board)
    watch.step(source)
    assert _ask(client, real)["state"] != "other game"  # the real game asked first: the camera checks it
    stranger = make(with_setup=False)
    query = f"game={stranger[0]}&token={stranger[2]['host_token']}"
    for kind in ("jpg", "json", "still"):
        refused = client.get(f"/camera/placement?{query}&frame={kind}")
        assert refused.status_code == 409 and refused.get_json()["code"] == "CameraOtherGame", kind
    page = client.get(f"/camera/placement?{query}")
    assert page.status_code == 409 and b"camera_view_other_game" in page.data
    assert not (tmp_path / "data" / "calibration-photo.jpg").exists()
    # The real game's host still sees it.
    mine = client.get(f"/camera/placement?game={real[0]}&token={real[2]['host_token']}&frame=json")
    assert mine.status_code == 200 and mine.get_json()["state"] in ("ok", "advice")


def test_the_lobby_read_is_no_switch_while_a_game_is_in_play(tmp_path, board):
    watch, client, source, real, _ = _table(tmp_path, board)
    report = _verdict(client, watch, source, real)
    assert report["verdict"]["matches"] is True, report
    for _ in range(3):  # a web page's <img src=".../api/camera/setup?edition=2014">, again and again
        refused = client.get("/api/camera/setup?edition=2014")
        assert refused.status_code == 409 and refused.get_json()["code"] == "CameraInUse"
        assert "2018 game in play" in refused.get_json()["error"]
        watch.step(source)
    assert not watch.switching() and watch.edition == "2018"
    assert _ask(client, real)["state"] == "reading"
    # The same edition's start is read for whoever asks (what is on the table), switching nothing.
    same = client.get("/api/camera/setup?edition=2018")
    assert same.status_code == 200 and same.get_json()["edition"] == "2018"


def test_a_throwaway_game_of_the_other_edition_does_not_switch_the_board(tmp_path, board):
    watch, client, source, real, make = _table(tmp_path, board)
    _verdict(client, watch, source, real)
    stranger = make("2014", with_setup=False)
    told = _ask(client, stranger)
    assert told == {"state": "other game", "message": camera_game.OTHER_GAME, "holder": told["holder"]}
    assert told["holder"]["edition"] == "2018"  # the game that holds it, named
    watch.step(source)
    assert watch.edition == "2018" and not watch.switching()
    assert "verdict" in _verdict(client, watch, source, real)
    refused = client.post(f"/api/games/{stranger[0]}/camera/correct", headers=stranger[1])
    assert refused.status_code == 409 and refused.get_json()["code"] == "CameraOtherGame"


def test_another_game_s_entries_never_restart_the_still_run_the_game_in_play_is_judged_on(tmp_path, board):
    watch, client, source, real, make = _table(tmp_path, board)
    assert "verdict" in _verdict(client, watch, source, real)
    stranger = make()
    for turn in range(6):  # churn.sh: a draw and an undo, its camera asked after each
        if turn % 2 == 0:
            answer = client.post(f"/api/games/{stranger[0]}/actions", headers=stranger[1],
                                 json={"type": "pyramid", "player": "A", "die": "red", "value": 1})
        else:
            answer = client.post(f"/api/games/{stranger[0]}/undo", headers=stranger[1])
        assert answer.status_code == 200, answer.get_json()
        assert _ask(client, stranger)["state"] == "other game"
        watch.step(source)
        report = _ask(client, real)
        assert report["state"] == "reading" and report["verdict"]["matches"] is True, (turn, report)


def test_a_throwaway_game_at_its_leg_start_does_not_take_the_lesson(tmp_path, board):
    watch, client, source, real, make = _table(tmp_path, board)
    _ask(client, real)
    assert watch._lesson is not None and watch._lesson.game == real[0]
    # The real start with red and green swapped (the tester's throwaway game), asked about every frame.
    stranger = make(track={"1": ["red"], "2": ["yellow", "green"], "3": ["blue", "purple"], "14": ["black"],
                           "16": ["white"]})
    for _ in range(6):
        assert _ask(client, stranger)["state"] == "other game"
        assert watch._lesson is None or watch._lesson.game == real[0]
        watch.step(source)
        _ask(client, real)
    # The real game's board taught the camera this table's colours meanwhile (the stranger's never replaced it).
    assert (tmp_path / "data" / "camera-calibration-2018.json").exists()
    assert "a board the game confirmed" in watch.learnt


def test_a_seat_s_correction_is_refused_before_any_side_effect(tmp_path, board):
    watch, client, _, real, make = _table(tmp_path, board)
    _ask(client, real)
    stranger = make("2014", with_setup=False)
    seat = {"Authorization": f"Bearer {stranger[2]['seats'][0]['token']}"}
    refused = client.post(f"/api/games/{stranger[0]}/camera/correct", headers=seat)
    assert refused.status_code == 403
    assert stranger[0] not in watch._asked and not watch.switching()


def test_a_game_left_for_a_while_lets_another_game_take_the_camera(tmp_path, board):
    from tests.test_camera_follows_edition import _leave

    _, client, _, real, make = _table(tmp_path, board)
    _ask(client, real)
    later = make()
    assert _ask(client, later)["state"] == "other game"
    _leave(client)  # nobody entered anything in the real game for 16 minutes
    stale = make()  # a new game (in play) takes it; the left game's pages no longer take it back
    assert _ask(client, stale)["state"] != "other game"
    assert _ask(client, real)["state"] == "other game"


def test_the_live_view_is_drawn_and_encoded_once_per_frame(tmp_path, board, monkeypatch):
    import companion.table.placement_view as view

    template, image = board
    drawn = []
    real = view.draw_findings
    monkeypatch.setattr(view, "draw_findings", lambda frame, report: drawn.append(frame) or real(frame, report))
    watch = SimpleNamespace(template=template, latest_frame=image.copy(), status=None)
    client = create_app(tmp_path, testing=True, camera=watch).test_client()
    query = _host(client)
    views = [client.get(f"/camera/placement?{query}&frame=jpg").data for _ in range(5)]
    assert len(drawn) == 1 and len(set(views)) == 1 and views[0][:2] == b"\xff\xd8"
    watch.latest_frame = image.copy()  # the camera's next frame
    client.get(f"/camera/placement?{query}&frame=jpg")
    assert len(drawn) == 2


@pytest.mark.parametrize("junk", ["%00%ff", "x" * 5000, "en;drop", "fr fr"])
def test_a_lang_that_is_no_language_code_is_refused_naming_it(tmp_path, board, junk):
    watch, client, _, real, _ = _table(tmp_path, board)
    answer = client.get(f"/api/games/{real[0]}/camera?lang={junk}", headers=real[1])
    assert answer.status_code == 400 and answer.get_json()["error"].startswith("lang must be a language code")
    assert len(answer.get_json()["error"]) < 200  # a long one is named by its start and length
    placement = client.get(f"/camera/placement?game={real[0]}&token={real[2]['host_token']}&frame=json&lang={junk}")
    assert placement.status_code == 400
    # A language code it has no words in: English, as before.
    assert client.get(f"/api/games/{real[0]}/camera?lang=de", headers=real[1]).status_code == 200
    assert watch.edition == "2018"
