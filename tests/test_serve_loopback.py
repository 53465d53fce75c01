"""A companion bound to a loopback address: what it prints and lists is the address that answers, and it says
phones cannot join (the table's network address would not answer them)."""

import subprocess
import sys

from companion.table.web import create_app
from companion.table.web.net import loopback
from tests.test_crash import free_port, request


def test_loopback_addresses_are_told_apart():
    assert all(loopback(host) for host in ("127.0.0.1", "127.0.1.1", "::1", "[::1]", "localhost"))
    assert not any(loopback(host) for host in ("0.0.0.0", "::", "192.168.4.1", "", None, "pi.local"))


def test_serve_on_127_0_0_1_prints_and_lists_that_address_and_says_phones_cannot_join(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(tmp_path), "--simulate"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        banner = [server.stdout.readline() for _ in range(3)]
        assert banner[0].startswith(f"Camel Up companion on http://127.0.0.1:{port}  "), banner
        assert "phones cannot join" in banner[1] and 'host = "0.0.0.0"' in banner[1], banner
        assert banner[2].startswith(f"Open http://127.0.0.1:{port}/ in a browser on this computer"), banner
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"]})
        _, found = request(port, "GET", f"/api/games/{game['game_id']}/credentials", None, game["host_token"])
        assert found["local_only"] is True
        assert all(seat["join_url"].startswith(f"http://127.0.0.1:{port}/join/") for seat in found["seats"])
    finally:
        server.terminate()
        server.wait()


def test_bound_to_every_interface_the_links_are_for_phones(tmp_path):
    client = create_app(tmp_path, None, None, testing=True, bind_host="0.0.0.0").test_client()
    game = client.post("/api/games", json={"edition": "2018", "players": ["A", "B"]}).get_json()
    found = client.get(f"/api/games/{game['game_id']}/credentials",
                       headers={"Authorization": f"Bearer {game['host_token']}"}).get_json()
    assert "local_only" not in found
