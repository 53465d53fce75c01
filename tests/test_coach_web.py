"""The coach page and its endpoint after a race, on the companion's web app."""

import random

import pytest

from companion.sim.simulate import plan, play_planned
from companion.table.service import SimulatedPyramid
from companion.table.web import create_app


@pytest.fixture
def client(tmp_path):
    return create_app(tmp_path / "data", SimulatedPyramid(random.Random(3)), "http://t", testing=True).test_client()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def test_the_coach_answers_after_the_race_and_not_before(client):
    log = play_planned("2014", 2, plan(1, ["greedy", "random"], False)[0], keep_log=True).log
    finished = client.post("/api/import", json=log).get_json()
    gid = finished["game_id"]
    seat = next(s["token"] for s in finished["seats"] if s["player"] == "random")
    report = client.get(f"/api/games/{gid}/coach", headers=bearer(seat))
    assert report.status_code == 200
    data = report.get_json()
    assert set(data["players"]) == {"greedy", "random"}
    assert len(data["decisions"]) == len(log["actions"])
    assert client.get(f"/api/games/{gid}/coach", headers=bearer(finished["table_token"])).get_json() == data
    assert client.get(f"/api/games/{gid}/coach").status_code == 401
    page = client.get(f"/coach/{gid}")
    assert page.status_code == 200 and b"/static/coach.js" in page.data
    assert client.get("/static/coach.js").status_code == 200
    assert client.get("/coach/nope").status_code == 404

    running = client.post("/api/import", json={**log, "actions": log["actions"][:5]}).get_json()
    early = client.get(f"/api/games/{running['game_id']}/coach", headers=bearer(running["host_token"]))
    assert early.status_code == 409 and "once the race is over" in early.get_json()["error"]
    assert early.get_json()["code"] == "CoachBeforeTheEnd"  # the pages word it in their language


def test_the_action_that_ends_the_race_starts_the_coach(client):
    import time

    from companion.table.web import coach as coach_web

    log = play_planned("2014", 3, plan(1, ["greedy", "random"], False)[0], keep_log=True).log
    game = client.post("/api/import", json={**log, "actions": log["actions"][:-1]}).get_json()
    last = dict(log["actions"][-1])
    token = next(s["token"] for s in game["seats"] if s["player"] == last.pop("player"))
    assert client.post(f"/api/games/{game['game_id']}/actions", json=last, headers=bearer(token)).status_code == 200
    key = (game["game_id"], len(log["actions"]))
    deadline = time.time() + 60
    while key not in coach_web._reports and time.time() < deadline:
        time.sleep(0.05)
    assert key in coach_web._reports  # made without anyone asking
    report = client.get(f"/api/games/{game['game_id']}/coach", headers=bearer(token)).get_json()
    assert report == coach_web._reports[key]


def test_every_choice_comes_as_data_for_the_page_to_word_it_in_its_language(client):
    """The page says each choice in its own language from ``choice`` (the coach's ``what`` is English)."""
    log = play_planned("2014", 2, plan(1, ["greedy", "random"], False)[0], keep_log=True).log
    finished = client.post("/api/import", json=log).get_json()
    data = client.get(f"/api/games/{finished['game_id']}/coach", headers=bearer(finished["host_token"])).get_json()
    needs = {"pyramid": set(), "leg_bet": {"camel", "value"}, "spectator": {"space", "side"},
             "partnership": {"partner"}, "finish_bet": {"camel", "pile"}}
    kinds = set()
    for decision in data["decisions"]:
        for option in (decision["done"], decision["best"]):
            choice = option["choice"]
            assert set(choice) == {"type"} | needs[choice["type"]], option
            kinds.add(choice["type"])
            if choice["type"] == "leg_bet":
                assert f"the top {choice['camel']} leg ticket ({choice['value']})" == option["what"]
    assert {"pyramid", "leg_bet"} <= kinds
    page = client.get(f"/coach/{finished['game_id']}").get_data(as_text=True)
    assert 'data-t="coach_intro"' in page and 'data-t-title="coach_title"' in page
