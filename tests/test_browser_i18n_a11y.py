"""Real browser: every page in every state of a race, in French, shows no English word of the English
catalog; axe-core finds no serious or critical accessibility violation on any page in either language;
controls are at least 44 px; turn changes and moves are announced through a live region."""

import re

import pytest
from babel.messages.pofile import read_po

from companion.table.web.i18n import TRANSLATIONS
from tests.browser_kit import PHONE, new_page, phone
from tests.test_crash import request

playwright_api = pytest.importorskip("playwright.sync_api")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
expect = playwright_api.expect

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
SETUP = {"track": {"13": ["blue"], "14": ["green", "yellow"], "15": ["red"], "16": ["purple"], "2": ["black"],
                   "3": ["white"]}}
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")

# What a page says: its visible text and the words given to assistive technology and in placeholders,
# leaving out what is marked as being in another language (the switch to English says "English").
PAGE_WORDS = """() => {
  const out = [document.body.innerText];
  document.querySelectorAll('[aria-label], [alt], [title], [placeholder]').forEach((node) => {
    if (node.closest('[lang]:not(html)')) return;
    for (const name of ['aria-label', 'alt', 'title', 'placeholder']) {
      if (node.getAttribute(name)) out.push(node.getAttribute(name));
    }
  });
  document.querySelectorAll('svg title').forEach((node) => out.push(node.textContent));
  document.querySelectorAll('[lang]:not(html)').forEach((node) => { out[0] = out[0].replace(node.innerText, ''); });
  return out.join('\\n');
}"""


def catalog_words(language):
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    words = set()
    for message in catalog:
        if message.id and message.string:
            words |= {word.lower() for word in WORD.findall(re.sub(r"\{\w+\}", " ", message.string))}
    return words


ENGLISH_ONLY = catalog_words("en") - catalog_words("fr") - {"english"}


def english_words(page):
    text = re.sub(r"https?://\S+", " ", page.evaluate(PAGE_WORDS))  # links carry random tokens, not words
    names = {name.lower() for name in PLAYERS}
    return sorted({word for word in WORD.findall(text) if word.lower() in ENGLISH_ONLY and word.lower() not in names})


def serious_violations(page):
    results = axe_module.Axe().run(page)
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")]


def small_controls(page):
    return page.evaluate("""() => [...document.querySelectorAll('button, select, input, a[href], [role=button]')]
      .filter((node) => node.offsetParent !== null && !node.closest('.sr-only'))
      .map((node) => ({ node: node.id || node.textContent.trim().slice(0, 30) || node.outerHTML.slice(0, 60),
                        box: (node.closest('label') || node).getBoundingClientRect() }))  // a label is the target
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ node, box }) => `${node} ${Math.round(box.width)}×${Math.round(box.height)}`)""")


def check_pages(pages, language, label, findings):
    for name, page in pages.items():
        if language == "fr":
            english = english_words(page)
            if english:
                findings.append(f"{label} {name} (fr): English words {english}")
        violations = serious_violations(page)
        if violations:
            findings.append(f"{label} {name} ({language}): axe {violations}")
        small = small_controls(page)
        if small:
            findings.append(f"{label} {name} ({language}): controls under 44 px {small}")


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_and_state_is_translated_and_accessible(server, browser, language):
    game = server.create(PLAYERS, SETUP, characters={"Ann": "Nefertiti"})
    gid = game["game_id"]
    errors, findings = [], []
    table = new_page(browser, errors, "table", language, viewport={"width": 1280, "height": 800})
    table.goto(server.table_url(game))
    host = new_page(browser, errors, "host", language, viewport={"width": 420, "height": 900})
    host.goto(server.host_url(game))
    ann = phone(browser, server, game, "Ann", errors, language)
    bob = phone(browser, server, game, "Bob", errors, language)
    lobby = new_page(browser, errors, "lobby", language, **PHONE)
    lobby.goto(f"{server.base}/")
    missing = new_page(browser, errors, "missing", language, **PHONE)
    missing.goto(f"{server.base}/play/no-such-game")
    pages = {"table": table, "host": host, "Ann": ann, "Bob": bob}
    expect(ann.locator("#turn")).to_have_class("turn mine")
    expect(lobby.locator("#games li").first).to_be_visible()
    # A new game the companion refuses (one player) is refused in the page's language.
    lobby.fill("textarea[name=players]", "Ann")
    lobby.click("button[type=submit]")
    expect(lobby.locator("#toast")).to_be_visible()
    check_pages({**pages, "lobby": lobby, "missing": missing}, language, "setup", findings)

    # Mid-leg: a ticket, a tile, a face-down card, a partnership, a move just made.
    server.act(game, "Ann", type="leg_bet", camel="blue")
    server.act(game, "Bob", type="spectator", space=6, side="cheer")
    server.act(game, "Cy", type="finish_bet", pile="winner", camel="purple")
    server.act(game, "Dee", type="partnership", **{"with": "Ann"})
    server.act(game, "Eve", type="pyramid", die="grey", value=1, crazy="white")
    expect(ann.locator("#instruction")).to_have_class("instruction move")
    expect(table.locator("#announce")).to_contain_text("Eve")  # the move is announced to screen readers
    check_pages(pages, language, "moved", findings)

    # An undo: every page says what to put back.
    request(server.port, "POST", f"/api/games/{gid}/undo", None, game["host_token"])
    expect(bob.locator("#instruction")).to_have_class("instruction undo")
    check_pages(pages, language, "undone", findings)

    # The end of the race: the reveal, then the result everywhere.
    server.act(game, "Eve", type="leg_bet", camel="red")
    server.act(game, "Fay", type="finish_bet", pile="loser", camel="green")
    server.act(game, "Ann", type="pyramid", die="purple", value=1)
    expect(table.locator("#reveal")).to_be_visible()
    check_pages({"table": table}, language, "reveal", findings)
    expect(table.locator("#winners")).to_be_visible(timeout=15000)
    picker = new_page(browser, errors, "picker", language, **PHONE)
    picker_url = table.locator("#join-qr").get_attribute("data-url")
    picker.goto(server.base + picker_url[picker_url.index("/pick/"):])
    expect(picker.locator(".seat-button")).to_have_count(len(PLAYERS))
    results = new_page(browser, errors, "results", language, **PHONE)
    results.goto(f"{server.base}/results/{gid}")
    expect(results.locator(".standings li")).to_have_count(len(PLAYERS))
    expect(ann.locator("#winners")).to_be_visible()
    coach = ann.context.new_page()  # Ann's phone opens the coach from her result (her seat's token)
    coach.on("pageerror", lambda error: errors.append(f"coach: {error}"))
    coach.goto(f"{server.base}/coach/{gid}")
    expect(coach.locator("#coach-players article")).to_have_count(len(PLAYERS), timeout=60000)
    coach.locator("#coach-players details").first.locator("summary").click()  # every decision, in a table
    check_pages({**pages, "picker": picker, "results": results, "coach": coach}, language, "race over", findings)
    assert errors == []
    assert findings == [], "\n".join(findings)
    for page in (*pages.values(), lobby, missing, picker, results):
        page.context.close()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_camera_placement_page_is_translated_accessible_and_the_hosts_only(browser, tmp_path, language):
    """A companion with a camera (a rendered photo of a table whose palm tree hides a marker): the host's page
    links to the placement assistant, which says what to change in the page's language; a player's device that
    opens the address gets a refusal in its language, never the view."""
    from tests.test_crash import start_with_camera
    from tests.test_placement_page import _palm_hiding_marker_1
    from vision.photo import make_table, render_scene

    table = make_table(203, "2018")
    frame, _ = render_scene(_palm_hiding_marker_1(table), {1: ["red"], 3: ["blue"]}, 2, "props", hand=False)
    port, process = start_with_camera(tmp_path, frame)
    try:
        from tests.browser_kit import Server

        server = Server(port)
        game = server.create(PLAYERS[:3], SETUP)
        errors, findings = [], []
        host = new_page(browser, errors, "host", language, **PHONE)
        host.goto(server.host_url(game))
        link = host.locator("#placement-link")
        expect(link).to_be_visible(timeout=15000)
        check_pages({"host": host}, language, "camera", findings)
        link.click()
        placement = host
        expect(placement.locator("#placement-advice li")).not_to_have_count(0, timeout=15000)
        expect(placement.locator("#placement-view")).to_have_js_property("naturalWidth", 1280, timeout=10000)
        expect(placement.locator("#placement-numbers tbody tr")).to_have_count(8)  # and sharpness, exposure
        hidden = "caché" if language == "fr" else "hidden"
        expect(placement.locator("#placement-advice")).to_contain_text(hidden)
        # A player's phone with the address but its own link's token: refused, in its language.
        player = new_page(browser, errors, "player", language, **PHONE)
        refused = player.goto(f"{server.base}/camera/placement?game={game['game_id']}&token={game['seat']['Ann']}")
        assert refused.status == 403
        expect(player.locator("h2")).to_have_text(
            "La vue de la caméra est réservée à l'hôte" if language == "fr" else "The camera's view is for the host")
        nobody = new_page(browser, errors, "nobody", language, **PHONE)
        assert nobody.goto(f"{server.base}/camera/placement").status == 401
        check_pages({"placement": placement, "refused": player, "no token": nobody}, language, "camera", findings)
        assert errors == []
        assert findings == [], "\n".join(findings)
        for page in (placement, player, nobody):
            page.context.close()
    finally:
        process.kill()
        process.wait()
