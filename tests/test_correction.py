"""Taking the camera's board as right: the die entry that explains it is corrected, stored, and replayed."""

import json

from companion.gamelog import replay_actions
from companion.rules import EDITION_2018, PyramidTicket, apply, move_camel, new_game
from companion.table.board_hypotheses import board_hypotheses
from companion.table.camera_watch import CameraStatus, CameraWatch
from companion.table.correction import amendments_explaining
from companion.table.web import create_app
from vision.board import load_template
from vision.synth import camel_profiles

SETUP = {1: ("green", "red"), 3: ("yellow",), 4: ("blue", "purple"), 14: ("black",), 16: ("white",)}
PLAYERS = ["Ann", "Bob"]


def start():
    return new_game(EDITION_2018, PLAYERS, SETUP)


def draws(*entries):
    """Pyramid actions, players taking turns: ("red", 2) or ("grey", 1, "black")."""
    actions = []
    for index, (die, value, *crazy) in enumerate(entries):
        obj = {"player": PLAYERS[index % 2], "type": "pyramid", "die": die, "value": value}
        if crazy:
            obj["crazy"] = crazy[0]
        actions.append(obj)
    return actions


def board_after(actions):
    state = start()
    for obj in actions:
        state = apply(state, PyramidTicket(obj["player"], obj["die"], obj["value"], obj.get("crazy")))
    return {space: list(stack) for space, stack in state.track.as_dict().items()}


def test_the_one_value_that_gives_the_camera_s_board_is_found():
    entered = draws(("yellow", 1), ("blue", 2))
    seen = board_after(draws(("yellow", 1), ("blue", 3)))  # blue really showed 3
    (amendment,) = amendments_explaining(start(), entered, seen)
    assert amendment.index == 1 and amendment.becomes["value"] == 3
    assert amendment.describe() == "Bob's pyramid ticket: blue 2 → blue 3"


def test_the_wrong_die_and_the_grey_die_s_colour_are_found_too():
    entered = draws(("yellow", 1), ("grey", 2, "black"))
    (amendment,) = amendments_explaining(start(), entered, board_after(draws(("yellow", 1), ("grey", 2, "white"))))
    assert amendment.becomes == {"player": "Bob", "type": "pyramid", "die": "grey", "value": 2, "crazy": "white"}
    entered = draws(("green", 3))
    (amendment,) = amendments_explaining(start(), entered, board_after(draws(("yellow", 3))))
    assert amendment.becomes["die"] == "yellow"


def test_a_board_no_single_change_explains_gives_nothing():
    entered = draws(("yellow", 1), ("blue", 2))
    track, _ = move_camel(start().track, "white", 1, EDITION_2018)  # someone knocked white over
    seen = {space: list(stack) for space, stack in track.as_dict().items()}
    assert amendments_explaining(start(), entered, seen) == []
    assert amendments_explaining(start(), [], board_after([])) == []


def test_a_change_that_would_break_a_later_entry_is_not_offered():
    # The board blue 3 then blue 2 would give: the first entry changed to blue would explain it, but blue
    # cannot come out of the pyramid twice in a leg, so nothing is offered.
    entered = draws(("yellow", 1), ("blue", 2))
    track, _ = move_camel(start().track, "blue", 3, EDITION_2018)
    track, _ = move_camel(track, "blue", 2, EDITION_2018)
    seen = {space: list(stack) for space, stack in track.as_dict().items()}
    assert amendments_explaining(start(), entered, seen) == []


class StillCamera(CameraWatch):
    """A camera watch that is not started: its steady blind reading is set by the test (``track``, None while
    the board moves), and its verdict is what a camera seeing the board ``sees`` (``track`` unless given) answers
    when it tells the boards apart perfectly: "matches", the slip that gives it, or a board nobody foresaw."""

    def __init__(self, track, sees=None):
        super().__init__(lambda: None, load_template("2018"), camel_profiles("2018"))
        self.status = CameraStatus("reading", track=track) if track else CameraStatus("unsettled", message="moving")
        self.sees = sees if sees is not None else track

    def verdict(self, game, start, actions, language="en", dice="manual", edition=None):
        if self.status.track is None:
            return None
        board = {int(space): list(stack) for space, stack in self.sees.items() if stack}
        found = next((hypothesis for hypothesis in board_hypotheses(start, actions, dice) if hypothesis.track == board),
                     None)
        if found is not None and found.why == "the game's board":
            return {"answer": "matches", "matches": True, "unseen": [], "differences": []}
        why = found.why if found is not None else "the camera's own reading of the board"
        verdict = {"answer": f"differs: most likely {why}", "matches": False, "most_likely": why, "unseen": []}
        if found is not None and found.amendment is not None:
            amendment = found.amendment
            verdict["correction"] = {"index": amendment.index, "was": amendment.was, "becomes": amendment.becomes}
        return verdict


def host(game):
    return {"Authorization": f"Bearer {game['host_token']}"}


def new_app(tmp_path, camera):
    return create_app(tmp_path / "data", None, "http://t", testing=True, camera=camera).test_client()


def standing_actions(client, game):
    """The game's actions as stored (the log itself is only exported once the race is over)."""
    return client.application.extensions["camelup"].game(game["game_id"]).actions


def blue_entered_as_2(tmp_path):
    """A game where blue really showed 3 (as the camera sees) but was entered as 2: the client, the
    game and the board the camera sees."""
    seen = board_after(draws(("yellow", 1), ("blue", 3)))
    client = new_app(tmp_path, StillCamera(seen))
    setup = {"track": {str(space): list(stack) for space, stack in SETUP.items()}}
    game = client.post("/api/games", json={"edition": "2018", "players": PLAYERS, "dice": "manual",
                                           "setup": setup}).get_json()
    for obj in draws(("yellow", 1), ("blue", 2)):
        assert client.post(f"/api/games/{game['game_id']}/actions", json=obj, headers=host(game)).status_code == 200
    return client, game, seen


def test_the_host_corrects_the_game_from_the_camera_and_it_lasts(tmp_path):
    client, game, seen = blue_entered_as_2(tmp_path)
    url = f"/api/games/{game['game_id']}/camera"
    assert client.get(url, headers=host(game)).get_json()["differences"]
    french = client.get(f"{url}?lang=fr", headers=host(game)).get_json()
    assert french["message"] == "le plateau diffère de la partie"
    assert french["differences"][0] == (
        "jaune devrait être sur la case 6, sur violet ; la caméra le voit sur la case 7, sur violet"
    )
    seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    assert client.post(f"{url}/correct", headers=seat).status_code == 403
    response = client.post(f"{url}/correct", headers=host(game))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["correction"] == "Bob's pyramid ticket: blue 2 → blue 3"
    assert client.get(url, headers=host(game)).get_json()["differences"] == []
    actions = standing_actions(client, game)
    assert actions[1]["value"] == 3 and len(actions) == 2
    entries = client.application.extensions["camelup"].game(game["game_id"]).entries
    assert entries[-1].kind == "correct" and entries[-1].body["was"]["value"] == 2  # what it was, kept
    assert entries[-1].body["source"] == "camera" and entries[-1].by == "host"  # and who said so
    # A second time, nothing is left to explain: the board already matches.
    again_refused = client.post(f"{url}/correct", headers=host(game))
    assert again_refused.status_code == 409 and again_refused.get_json() == {
        "error": "the camera does not see a difference that one entry explains (matches)", "code": "NoCorrection"}
    # After a restart the correction stands (it is in the stored history, not only in memory).
    again = new_app(tmp_path, StillCamera(seen))
    state = again.get(f"/api/games/{game['game_id']}/state", headers=host(game)).get_json()
    assert {int(s): v for s, v in state["track"].items()} == seen


def test_no_steady_reading_or_no_explanation_is_a_clear_refusal(tmp_path):
    client = new_app(tmp_path, StillCamera(None))
    game = client.post("/api/games", json={"edition": "2018", "players": PLAYERS, "dice": "manual"}).get_json()
    response = client.post(f"/api/games/{game['game_id']}/camera/correct", headers=host(game))
    assert response.status_code == 409 and response.get_json() == {
        "error": "the board is not steady yet (moving): try again in a moment", "code": "CameraNotReady"}
    steady = new_app(tmp_path / "steady", StillCamera(board_after([])))
    other = steady.post("/api/games", json={"edition": "2014", "players": PLAYERS, "dice": "manual"}).get_json()
    response = steady.post(f"/api/games/{other['game_id']}/camera/correct", headers=host(other))
    # A watch with the 2018 board alone (serve gives it both editions: tests/test_camera_follows_edition.py).
    assert response.status_code == 409 and "reads the 2018 board only" in response.get_json()["error"]
    assert client.get("/api/camera/setup").status_code == 409


def test_the_starting_positions_can_be_read_from_the_camera(tmp_path):
    setup = {space: list(stack) for space, stack in SETUP.items()}
    client = new_app(tmp_path, StillCamera(setup))
    assert client.get("/api/camera").get_json()["edition"] == "2018"
    read = client.get("/api/camera/setup").get_json()
    assert read == {"edition": "2018", "setup": {"track": {str(s): v for s, v in setup.items()}}}
    game = client.post("/api/games", json={"edition": "2018", "players": PLAYERS, **read}).get_json()
    state = client.get(f"/api/games/{game['game_id']}/state", headers=host(game)).get_json()
    assert {int(s): v for s, v in state["track"].items()} == setup
    # A camel the camera does not see: no setup, and it says which.
    partial = new_app(tmp_path / "other", StillCamera({s: v for s, v in setup.items() if s != 16}))
    response = partial.get("/api/camera/setup")
    refused = response.get_json()
    assert response.status_code == 409 and "does not see white" in refused["error"]
    assert refused["code"] == "CameraIncomplete" and refused["unseen"] == ["white"]
    # What it did see comes with the refusal, for the host to complete (never as a setup a game starts from).
    assert refused["setup"] == {"track": {str(s): v for s, v in setup.items() if s != 16}}
    assert json.loads(create_app(tmp_path / "none", None, "http://t", testing=True).test_client()
                      .get("/api/camera").data)["state"] == "off"


def test_undo_after_a_correction_takes_back_the_last_action(tmp_path):
    client, game, _ = blue_entered_as_2(tmp_path)
    client.post(f"/api/games/{game['game_id']}/camera/correct", headers=host(game))
    client.post(f"/api/games/{game['game_id']}/undo", headers=host(game))
    assert standing_actions(client, game) == draws(("yellow", 1))


def test_without_a_camera_or_a_steady_reading_the_refusal_says_which(tmp_path):
    none = create_app(tmp_path / "none", None, "http://t", testing=True).test_client()
    response = none.get("/api/camera/setup")
    assert response.status_code == 409
    assert response.get_json() == {"error": "no camera is set up: the board cannot be read", "code": "NoCamera"}
    moving = new_app(tmp_path, StillCamera(None)).get("/api/camera/setup")  # the camera's own words, "moving"
    assert moving.status_code == 409 and moving.get_json() == {
        "error": "the camera has no steady reading of the board (moving)", "code": "CameraNotReady"}


def test_a_board_two_corrections_explain_is_refused_naming_both(tmp_path):
    # A cheer tile on 5: yellow 2 lands on it and steps to 6, yellow 3 goes straight to 6 — the same board.
    entered = [{"player": "Ann", "type": "spectator", "space": 5, "side": "cheer"},
               {"player": "Bob", "type": "pyramid", "die": "yellow", "value": 1}]
    seen_state = replay_actions(start(), [entered[0], {**entered[1], "value": 3}])
    seen = {space: list(stack) for space, stack in seen_state.track.as_dict().items()}
    client = new_app(tmp_path, StillCamera(seen))
    setup = {"track": {str(space): list(stack) for space, stack in SETUP.items()}}
    game = client.post("/api/games", json={"edition": "2018", "players": PLAYERS, "dice": "manual",
                                           "setup": setup}).get_json()
    for obj in entered:
        assert client.post(f"/api/games/{game['game_id']}/actions", json=obj, headers=host(game)).status_code == 200
    response = client.post(f"/api/games/{game['game_id']}/camera/correct", headers=host(game))
    assert response.status_code == 409 and response.get_json() == {
        "error": "the camera's board fits more than one correction (Bob's pyramid ticket: yellow 1 → yellow 2; or "
                 "Bob's pyramid ticket: yellow 1 → yellow 3): undo and enter the draws again",
        "code": "AmbiguousCorrection"}
    assert standing_actions(client, game) == entered  # nothing changed


def test_the_correction_is_the_verdict_s_even_where_the_blind_reading_misses_a_camel(tmp_path):
    # The blind reading does not see yellow (the pyramid hides it, or its colour is off), so the board it reads
    # is no board a die explains; the verdict, placing each camel where a board of the game puts it, names the
    # entry.
    seen = board_after(draws(("yellow", 1), ("blue", 3)))
    blind = {space: [camel for camel in stack if camel != "yellow"] for space, stack in seen.items()}
    client = new_app(tmp_path, StillCamera(blind, sees=seen))
    setup = {"track": {str(space): list(stack) for space, stack in SETUP.items()}}
    game = client.post("/api/games", json={"edition": "2018", "players": PLAYERS, "dice": "manual",
                                           "setup": setup}).get_json()
    for obj in draws(("yellow", 1), ("blue", 2)):
        client.post(f"/api/games/{game['game_id']}/actions", json=obj, headers=host(game))
    response = client.post(f"/api/games/{game['game_id']}/camera/correct", headers=host(game))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["correction"] == "Bob's pyramid ticket: blue 2 → blue 3"
    assert standing_actions(client, game)[1]["value"] == 3


def test_a_verdict_about_an_entry_that_changed_since_corrects_nothing(tmp_path):
    client, game, _ = blue_entered_as_2(tmp_path)
    camera = client.application.extensions["camera"]
    stale = {"answer": "differs: most likely Bob's pyramid ticket: blue 1 → blue 3", "matches": False,
             "correction": {"index": 1, "was": {**draws(("yellow", 1), ("blue", 1))[1]},
                            "becomes": {**draws(("yellow", 1), ("blue", 3))[1]}}}
    camera.verdict = lambda *args, **kwargs: stale
    response = client.post(f"/api/games/{game['game_id']}/camera/correct", headers=host(game))
    assert response.status_code == 409 and response.get_json()["code"] == "NoCorrection"
    assert "changed since the camera looked" in response.get_json()["error"]
    unexplained = {"answer": "cannot tell (space 7 not clear enough)", "matches": None}
    camera.verdict = lambda *args, **kwargs: unexplained
    response = client.post(f"/api/games/{game['game_id']}/camera/correct", headers=host(game))
    assert response.get_json() == {"error": "the camera does not see a difference that one entry explains "
                                            "(cannot tell (space 7 not clear enough))", "code": "NoCorrection"}
    assert standing_actions(client, game) == draws(("yellow", 1), ("blue", 2))


def test_a_grey_value_mis_entered_when_the_rules_choose_the_crazy_camel_is_one_correction_of_the_value():
    # White carries red and black carries no one: the grey die moves white whatever colour its number is, so
    # "grey 2 (white)" and "grey 2 (black)" end the same game. The value was wrong, not the colour: one
    # correction, of the value alone (a reviewer got "fits more than one correction" and a colour change).
    setup = {1: ("green",), 3: ("yellow",), 4: ("blue", "purple"), 14: ("white", "red"), 16: ("black",)}
    begin = new_game(EDITION_2018, PLAYERS, setup)
    entered = [{"player": "Ann", "type": "pyramid", "die": "grey", "value": 1, "crazy": "white"}]
    really = apply(begin, PyramidTicket("Ann", "grey", 2, "white"))
    assert really.track.as_dict() == apply(begin, PyramidTicket("Ann", "grey", 2, "black")).track.as_dict()
    seen = {space: list(stack) for space, stack in really.track.as_dict().items()}
    (amendment,) = amendments_explaining(begin, entered, seen)
    assert amendment.becomes == {**entered[0], "value": 2}
    named = next(hypothesis for hypothesis in board_hypotheses(begin, entered) if hypothesis.amendment)
    assert named.track == seen and named.why == "Ann's pyramid ticket: grey 1 (white number) → grey 2 (white number)"
