"""A real browser, in French, with a real camera (an image file the server re-reads, replaced state after state):
the host page, a player's page, the table screen and the placement page never show an English camera line,
whatever the camera sees: a frame too dark to trust (a verdict with the picture's problem), a black picture (the
lens cap), a blurred one, a sharp one with every marker covered, a good one, one that differs from the game by a
die entry, one with two camels swapped by hand, a greyscale one. The host reads why
the board is not found in French too (which markers are not seen). The host's calibration line (its
own words, from another part of the companion) is left out."""

from __future__ import annotations

import os
import re

import cv2
import numpy as np
import pytest

from tests.browser_kit import PHONE, SHOTS, new_page
from tests.test_browser_camera import CLEAN
from tests.test_calibrate_known_board import EXPECTED, LOG, OTHER
from tests.test_crash import request, start_with_camera
from tests.test_picture_black import dark_frame
from vision import synth
from vision.board import load_template
from vision.photo import make_table, render_scene
from vision.placement import assess_placement

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

ENGLISH = re.compile(r"\b(the|is|are|not|of|picture|board|markers?|camera|found|dark|blurred|waiting|light|lens|"
                     r"space|seen|checking|host|told|focus|exposure)\b(?! Module)", re.IGNORECASE)
"""Words of the camera's English lines that French never writes (« caméra », « plateau »: not these)."""
BOX_TEXT = """(box) => [...box.querySelectorAll('p, li, summary')]
  .filter((node) => !node.closest('.camera-learnt') && node.getClientRects().length)
  .map((node) => [node.textContent, Boolean(node.closest('[lang="en"]') || node.querySelector('[lang="en"]'))])"""


def clean(track: dict[int, list[str]]) -> np.ndarray:
    return synth.render_scene(load_template("2018"), track, 3, CLEAN)[0]


def scenes() -> dict[str, np.ndarray]:
    table = make_table(1 * 10_007 + 4, "2018")
    image, _ = render_scene(table, EXPECTED, 7, "light")
    covered = image.copy()
    for facts in assess_placement(table.template, image).markers.values():  # white card over every marker
        quad = np.array(facts["corners"])
        (x0, y0), (x1, y1) = quad.min(axis=0).astype(int) - 10, quad.max(axis=0).astype(int) + 10
        covered[max(y0, 0):y1, max(x0, 0):x1] = 235
    return {
        "dark": (image.astype(np.float32) * 0.2 + 12).astype(np.uint8),  # found, but too dark to trust
        "black": dark_frame(0.004, None, seed=5),
        "blurred": cv2.GaussianBlur(image, (0, 0), 8),
        "covered": covered,
        # Clean renders in the colours the camera starts with (no calibration at hand): the game's board, the board
        # a red 3 gives (Ann's purple 3 entered by mistake), and two camels swapped by hand.
        "good": clean(EXPECTED),
        "differs": clean(OTHER),
        "swapped": clean({**EXPECTED, 8: ["purple", "blue", "red"]}),
        "greyscale": cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
    }


def english_lines(lines: list[list]) -> list[str]:
    return [text for text, marked in lines if marked or ENGLISH.search(text)]


def test_no_english_camera_line_reaches_a_french_page(tmp_path, browser):
    pictures = scenes()
    port, server = start_with_camera(tmp_path, pictures["dark"])
    frame_file = tmp_path / "board.png"
    try:
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": LOG["players"],
                                                       "dice": "manual", "setup": LOG["setup"]})
        seats = {seat["player"]: seat["token"] for seat in game["seats"]}
        for action in LOG["actions"]:  # the board in the pictures: EXPECTED
            request(port, "POST", f"/api/games/{game['game_id']}/actions",
                    {k: v for k, v in action.items() if k != "player"}, seats[action["player"]])
        base = f"http://127.0.0.1:{port}"
        gid = game["game_id"]
        errors: list[str] = []
        pages = {
            "host": new_page(browser, errors, "host", "fr", **PHONE),
            "player": new_page(browser, errors, "player", "fr", **PHONE),
            "table": new_page(browser, errors, "table", "fr", viewport={"width": 1920, "height": 1080}),
            "placement": new_page(browser, errors, "placement", "fr", **PHONE),
        }
        wide = new_page(browser, errors, "placement 1920", "fr", viewport={"width": 1920, "height": 1080})
        wide.goto(f"{base}/camera/placement?game={gid}&token={game['host_token']}")
        seat = seats["Bob"]
        pages["host"].goto(f"{base}/host/{gid}#{game['host_token']}")
        pages["player"].goto(f"{base}/join/{seat}")
        pages["player"].wait_for_url(f"**/play/{gid}")
        pages["table"].goto(f"{base}/table/{gid}#{game['table_token']}")
        pages["placement"].goto(f"{base}/camera/placement?game={gid}&token={game['host_token']}")
        shown = {"dark": "[data-verdict]:not([data-verdict=''])", "good": "[data-verdict='matches']",
                 "differs": "[data-verdict='differs']", "swapped": "[data-verdict='differs']"}
        found: dict[str, list[str]] = {}
        for name, picture in pictures.items():
            partial = tmp_path / "next.png"
            cv2.imwrite(str(partial), picture)
            os.replace(partial, frame_file)  # the camera's next frame: the file it reads, replaced whole
            host = pages["host"].locator("#camera")
            if name in shown:
                expect(pages["host"].locator(f"#camera{shown[name]}")).to_have_count(1, timeout=30000)
            elif name == "greyscale":
                expect(host).to_have_attribute("data-state", "no colour", timeout=30000)
            else:
                expect(host).to_have_attribute("data-state", "board not found", timeout=30000)
            for who in ("player", "table"):
                expect(pages[who].locator("#camera")).to_have_attribute(
                    "data-state", host.get_attribute("data-state"), timeout=10000)
            if name == "dark":  # the host reads why not to trust it, in French
                expect(host.locator(".camera-detail")).to_contain_text("l'image est trop sombre")
            if name == "black":
                expect(host.locator(".camera-picture")).to_contain_text("l'image est noire")
            if name == "differs":  # the entry the camera would correct, in French words
                expect(host.locator(".camera-why")).to_contain_text("a été saisi violet 3 ; le plateau montre rouge 3",
                                                                    timeout=30000)
            if name == "swapped":
                expect(host.locator(".camera-why")).to_contain_text("intervertis sur la case 8", timeout=30000)
            if name in ("black", "blurred", "covered"):  # which markers are not seen, in French too
                expect(host.locator(".camera-reason")).to_contain_text("marqueurs 0 (en haut à gauche), 1 (en haut")
            placement = pages["placement"]
            placement.wait_for_timeout(2500)  # the placement page's next refresh
            for who, page in pages.items():
                if who == "placement":
                    lines = page.evaluate("""() => [...document.querySelectorAll(
                        '#placement-message, #placement-state, #placement-advice li, #placement-numbers td')]
                      .filter((node) => node.getClientRects().length)
                      .map((node) => [node.textContent, Boolean(node.closest('[lang="en"]'))])""")
                else:
                    lines = page.locator("#camera").evaluate(BOX_TEXT)
                assert lines or who == "placement", f"{who}, {name}: the camera box says nothing"
                english = english_lines(lines)
                if english:
                    found[f"{who}, {name}"] = english
                page.screenshot(path=str(SHOTS / f"camera-fr-{name}-{who}.png"))
            wide.reload()  # the placement page on a laptop, to look at
            wide.locator("#placement-advice li").first.wait_for(timeout=10000)
            wide.screenshot(path=str(SHOTS / f"camera-fr-{name}-placement-1920.png"))
        assert found == {}, found
        assert errors == []
    finally:
        server.terminate()
        server.wait()


def test_a_failed_calibration_photo_marks_the_server_s_english_on_a_french_page(tmp_path, browser):
    port, server = start_with_camera(tmp_path, clean(EXPECTED))
    try:
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": LOG["players"],
                                                       "dice": "manual", "setup": LOG["setup"]})
        errors: list[str] = []
        page = new_page(browser, errors, "placement", "fr", **PHONE)
        why = "the camera could not take a still (OSError: device busy)"
        page.route(re.compile(r"frame=still"), lambda route: route.fulfill(status=503, body=why,
                                                                            content_type="text/plain"))
        page.goto(f"http://127.0.0.1:{port}/camera/placement?game={game['game_id']}&token={game['host_token']}")
        page.locator("#placement-photo-take").click()
        said = page.locator("#placement-photo-said")
        expect(said).to_have_text(f"Pas de photo : {why}")
        expect(said.locator('[lang="en"]')).to_have_text(why)  # the French words around it are French
        assert errors == []
    finally:
        server.terminate()
        server.wait()


def test_a_camera_that_cannot_be_opened_is_explained_to_a_french_host(tmp_path, browser):
    from tests.test_crash import free_port, start_server

    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nmode = "webcam"\nsource = "/dev/video97"\nboard = "2018"\n')  # nothing there
    port = free_port()
    server = start_server(port, tmp_path / "data", extra=["--config", str(config)])
    try:
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": LOG["players"],
                                                       "dice": "manual", "setup": LOG["setup"]})
        errors: list[str] = []
        host = new_page(browser, errors, "host", "fr", **PHONE)
        host.goto(f"http://127.0.0.1:{port}/host/{game['game_id']}#{game['host_token']}")
        box = host.locator("#camera")
        expect(box).to_have_attribute("data-state", "unavailable", timeout=20000)
        expect(box.locator(".camera-reason")).to_have_text(
            "impossible d'ouvrir la caméra '/dev/video97' : est-elle branchée, et cet utilisateur est-il dans le "
            "groupe video ?")
        assert english_lines(box.evaluate(BOX_TEXT)) == []
        player = new_page(browser, errors, "Bob", "fr", **PHONE)  # the players: a plain sentence, no reason
        player.goto(f"http://127.0.0.1:{port}/join/{game['seats'][1]['token']}")
        expect(player.locator("#camera > p")).to_have_text(["Caméra indisponible : on joue à la main"], timeout=20000)
        assert errors == []
    finally:
        server.terminate()
        server.wait()
