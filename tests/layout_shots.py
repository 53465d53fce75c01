"""Screenshots of the table screen (1920×1080 and 1280×720), the host page and a phone (390×844 and 360×640)
with 2 to 8 players of both editions and the camera box in each state, into build/screenshots/layout/.

    .venv/bin/python -m tests.layout_shots [--players 2,6,8] [--editions 2018] [--cameras off,differs]

Look at them: the checks in tests/test_browser_layout.py measure boxes, not whether the screen reads well."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tests.browser_kit import CHROMIUM, CHROMIUM_ARGS, PHONE, SHOTS, Server
from tests.layout_kit import CAMERA, MOMENTS, CameraStub, busy_game, load, settled
from tests.test_crash import free_port, start_server

TVS = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}
PHONES = {"390x844": (390, 844), "360x640": (360, 640)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4,5,6,7,8")
    parser.add_argument("--editions", default="2014,2018")
    parser.add_argument("--cameras", default=",".join(CAMERA))
    parser.add_argument("--phones", default="2,8", help="player counts shot on the host page and a phone")
    parser.add_argument("--moment", default="mid-leg", choices=MOMENTS)
    parser.add_argument("--lang", default="en", choices=["en", "fr"])
    args = parser.parse_args()
    counts = [int(n) for n in args.players.split(",") if n]
    phone_counts = [int(n) for n in args.phones.split(",") if n]
    editions = args.editions.split(",")
    cameras = args.cameras.split(",")
    out = SHOTS / "layout"
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        process = start_server(port, Path(data))
        server = Server(port)
        try:
            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                stub = CameraStub(CAMERA["off"])
                for edition in editions:
                    for count in sorted(set(counts) | set(phone_counts)):
                        game = busy_game(server, edition, count, args.moment)
                        pages = []
                        if count in counts:
                            pages += [(f"table-{size}", server.table_url(game), {"viewport": {"width": w, "height": h}})
                                      for size, (w, h) in TVS.items()]
                        if count in phone_counts:
                            for size, (w, h) in PHONES.items():
                                options = {**PHONE, "viewport": {"width": w, "height": h}}
                                pages.append((f"host-{size}", server.host_url(game), options))
                                pages.append((f"phone-{size}", f"{server.base}/play/{game['game_id']}", options))
                        for name, url, options in pages:
                            context = chromium.new_context(locale=args.lang, **options)
                            page = context.new_page()
                            page.add_init_script(f"localStorage.setItem('camelup:lang', '{args.lang}')")
                            stub.attach(page)
                            if name.startswith("phone"):  # the seat of the player whose turn it is
                                page.goto(server.join_url(game, game["next_player"]))
                                page.wait_for_url(f"**/play/{game['game_id']}")
                            for camera in cameras:
                                stub.report = CAMERA[camera]
                                load(page, url)
                                settled(page, count, camera)
                                shot = f"{name}-{edition}-{count}p-{camera}-{args.moment}-{args.lang}.png"
                                page.screenshot(path=out / shot)
                            context.close()
                        print(f"{edition}, {count} players: {len(pages) * len(cameras)} screenshots", flush=True)
                chromium.close()
        finally:
            process.kill()
            process.wait()
    print(f"in {out}")


if __name__ == "__main__":
    main()
