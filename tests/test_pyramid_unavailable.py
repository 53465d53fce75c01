"""A Pi whose rig is missing or half built still serves the phones and the table screen: the companion draws the
dice itself and says, on the log, on the pyramid games' pages and on /healthz, what is missing and where the README
tells how to fix it. Stood in for a Pi as a builder would: ``running_on_raspberry_pi`` says yes, gpiozero's mock pins
stand in for lgpio, and the I²C bus is one where nothing answers at 0x40 (or a Blinka whose gpiod is missing)."""

import dataclasses
import json
import os
import re
import subprocess
import sys
import textwrap
import time
import types
import urllib.request
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import firmware_py.servos as servos
from companion.table.config import load_settings
from companion.table.rig_start import WIRING_STEP, UnavailablePyramid, make_pyramid
from companion.table.web import create_app
from firmware_py import hardware
from firmware_py.servos import SimulatedPca9685Bus
from tests.test_crash import free_port

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "hardware/pyramid.example.toml"
REAL_OPEN_I2C_BUS = servos.open_i2c_bus


class LgpioStandIn(MockFactory):
    """lgpio's factory on a Pi, played by mock pins."""

    def __init__(self) -> None:
        super().__init__(pin_class=MockPWMPin)


@pytest.fixture
def pi(monkeypatch):
    """A Raspberry Pi with lgpio and an I²C bus on which nothing answers at 0x40 (no PCA9685 wired yet)."""
    monkeypatch.setattr(hardware, "running_on_raspberry_pi", lambda: True)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", types.SimpleNamespace(LGPIOFactory=LgpioStandIn))
    real_open_gates = servos.open_gates
    # Mock pins would give simulated gates: on the Pi the rig opens the real board, on the bus below.
    monkeypatch.setattr(servos, "open_gates", lambda config, simulate, bus=None: real_open_gates(config, False, bus))
    monkeypatch.setattr(servos, "open_i2c_bus", lambda: SimulatedPca9685Bus(0x41))
    return monkeypatch


def settings(tmp_path, mode="auto"):
    return dataclasses.replace(load_settings(None), pyramid=mode, pyramid_config=str(EXAMPLE), data=tmp_path)


def test_no_servo_board_leaves_the_companion_running_and_says_what_to_wire(pi, tmp_path):
    source, name, problem = make_pyramid(settings(tmp_path), config="/etc/camelup/config.toml")
    assert isinstance(source, UnavailablePyramid) and name.startswith("unavailable")
    assert "no PCA9685 servo board answers on I²C at address 0x40" in problem.what
    assert f"hardware/README.md says in step {WIRING_STEP}" in problem.fix and "i2cdetect -y 1" in problem.fix

    client = create_app(tmp_path, source, testing=True).test_client()
    health = client.get("/healthz").get_json()
    assert health["ok"] and health["pyramid"]["state"] == "unavailable"
    assert "no PCA9685" in health["pyramid"]["problem"]
    created = client.post("/api/games", json={"edition": "2018", "players": ["Ann", "Bob"], "dice": "pyramid"})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    seat = {s["player"]: s["token"] for s in game["seats"]}
    drawn = client.post(f"/api/games/{game['game_id']}/actions", json={"type": "pyramid"},
                        headers={"Authorization": f"Bearer {seat['Ann']}"})
    assert drawn.status_code == 200, "the phones still draw: the companion rolls the die itself"
    table = client.get(f"/api/games/{game['game_id']}/state",
                       headers={"Authorization": f"Bearer {game['table_token']}"}).get_json()
    notice = table["pyramid"]["notice"]
    assert table["pyramid"]["state"] == "unavailable" and len(table["dice_out"]) == 1
    assert "electronic pyramid is not working: no PCA9685 servo board answers on I²C at address 0x40" in notice
    assert "(wire it: hardware/README.md, step 2, then restart the companion)" in notice
    assert 'Set mode = "simulated" under [pyramid] in /etc/camelup/config.toml' in notice


def test_a_working_servo_board_gives_the_rig(pi, tmp_path):
    pi.setattr(servos, "open_i2c_bus", lambda: SimulatedPca9685Bus(0x40))
    source, name, problem = make_pyramid(settings(tmp_path, "gpio"))
    try:
        assert problem is None and name == "gpio (lgpio pins)" and source.name == "gpio"
    finally:
        source.rig.close()


def test_lgpio_missing_names_the_package(tmp_path, monkeypatch):
    monkeypatch.setattr(hardware, "running_on_raspberry_pi", lambda: True)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", None)  # as in a venv made by make setup without the [pi] extra
    source, _, problem = make_pyramid(settings(tmp_path))
    assert isinstance(source, UnavailablePyramid)
    assert "lgpio" in problem.what
    # This test's venv (make setup's) does not see Debian's packages: apt would not help it.
    assert "make pi-extras" in problem.fix and "does not see apt's python3-lgpio" in problem.fix
    monkeypatch.setattr("companion.table.rig_start.sees_system_packages", lambda: True)  # the service's venv
    _, _, problem = make_pyramid(settings(tmp_path))
    assert "sudo apt install python3-lgpio (sudo deploy/install.sh installs it)" in problem.fix


def test_blinka_without_gpiod_is_not_blamed_on_the_wiring(pi, tmp_path, monkeypatch):
    # Blinka's Raspberry Pi pins import gpiod, which Blinka does not install: the real open_i2c_bus meets that.
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "board.py").write_text("import gpiod\n")
    (fake / "busio.py").write_text("")
    monkeypatch.syspath_prepend(str(fake))
    monkeypatch.delitem(sys.modules, "board", raising=False)
    monkeypatch.delitem(sys.modules, "busio", raising=False)
    monkeypatch.setitem(sys.modules, "gpiod", None)
    pi.setattr(servos, "open_i2c_bus", REAL_OPEN_I2C_BUS)
    source, _, problem = make_pyramid(settings(tmp_path))
    assert isinstance(source, UnavailablePyramid)
    assert "gpiod" in problem.what and "python3-libgpiod" in problem.fix
    assert "wiring" not in problem.sentence()


def test_a_wrong_rig_file_names_the_key(pi, tmp_path):
    rig = tmp_path / "rig.toml"
    rig.write_text("[led]\nred = 99\n")
    source, _, problem = make_pyramid(dataclasses.replace(settings(tmp_path), pyramid_config=str(rig)))
    assert isinstance(source, UnavailablePyramid) and "led.red" in problem.what and str(rig) in problem.fix


def test_the_wiring_step_named_is_the_one_that_wires_the_pca9685():
    text = (ROOT / "hardware/README.md").read_text()
    step = re.search(rf"^{WIRING_STEP}\. \*\*(.+?)\*\*", text, re.M)
    assert step and "PCA9685" in step.group(1), step


def test_serve_on_a_pi_without_the_servo_board_starts_and_logs_what_is_missing(tmp_path):
    """The installed service's case, end to end: ``camelup serve`` with install.sh's ``mode = "auto"``."""
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {port}\ndata = "{tmp_path / "data"}"\n'
                      f'[pyramid]\nmode = "auto"\nconfig = "{EXAMPLE}"\n')
    script = textwrap.dedent(f"""
        import sys, types
        from gpiozero.pins.mock import MockFactory, MockPWMPin
        import firmware_py.hardware as hardware, firmware_py.servos as servos
        hardware.running_on_raspberry_pi = lambda: True
        class LGPIOFactory(MockFactory):
            def __init__(self):
                super().__init__(pin_class=MockPWMPin)
        sys.modules["gpiozero.pins.lgpio"] = types.SimpleNamespace(LGPIOFactory=LGPIOFactory)
        real = servos.open_gates
        servos.open_gates = lambda config, simulate, bus=None: real(config, False, bus)
        servos.open_i2c_bus = lambda: servos.SimulatedPca9685Bus(0x41)
        from companion.cli import main
        sys.exit(main(["serve", "--config", {str(config)!r}]))
    """)
    server = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        health = None
        deadline = time.monotonic() + 60
        while health is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    health = json.loads(response.read())
            except OSError:
                time.sleep(0.2)
        assert server.poll() is None, f"serve stopped: {server.stdout.read()}"
        assert health and health["pyramid"]["state"] == "unavailable"
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert "WARNING: the electronic pyramid is not working: no PCA9685 servo board answers" in output
    assert "hardware/README.md says in step 2" in output and "(pyramid: unavailable" in output


def _notice_in(language, words):
    """The notice as the pages' pyramidNoticeText says it: ``*_key`` params are keys said first."""
    from companion.table.web.i18n import say

    params = dict(words["params"])
    params.update({name[:-4]: say(language, key, **words["params"])
                   for name, key in words["params"].items() if name.endswith("_key")})
    return say(language, words["key"], **params)


@pytest.mark.parametrize("config", ["/etc/camelup/config.toml", None])
def test_each_rig_notice_s_catalog_words_are_the_english_notice_and_french_in_french(tmp_path, config):
    from companion.table.rig_start import explain
    from firmware_py.config import ConfigError
    from firmware_py.hardware import FactoryError
    from firmware_py.servos import BusError

    errors = [ConfigError("servo.i2c_address: must be 0x40 to 0x7f"), FactoryError("no lgpio", module="lgpio"),
              BusError("nothing at 0x40", cause="device"), BusError("no gpiod", cause="module"),
              BusError("[Errno 13] Permission denied: '/dev/i2c-1'"), BusError("[Errno 2] No such file: '/dev/i2c-1'"),
              OSError("GPIO busy")]
    for error in errors:
        for pyramid_config in (str(EXAMPLE), None):
            problem = explain(error, dataclasses.replace(settings(tmp_path), pyramid_config=pyramid_config))
            status = UnavailablePyramid(problem, config).status()
            # The English catalog says exactly what the log, doctor and /healthz say.
            assert _notice_in("en", status["notice_words"]) == status["notice"], error
            french = _notice_in("fr", status["notice_words"])
            assert french.startswith("La pyramide électronique ne fonctionne pas : "), french
            assert "{" not in french and "is missing" not in french and "cannot" not in french, french


def test_the_french_table_screen_shows_the_rig_notice_in_french(pi, tmp_path, browser):
    from playwright.sync_api import expect

    from tests.browser_kit import new_page, served

    source, _, _ = make_pyramid(settings(tmp_path), config="/etc/camelup/config.toml")
    app = create_app(tmp_path / "data", source, "http://t", testing=True)
    with served(app) as port:
        client = app.test_client()
        created = {"edition": "2018", "players": ["Ann", "Bob"], "dice": "pyramid"}
        game = client.post("/api/games", json=created).get_json()
        errors: list[str] = []
        pages = {}
        for lang in ("fr", "en"):
            page = pages[lang] = new_page(browser, errors, "table", lang, viewport={"width": 1920, "height": 1080})
            page.goto(f"http://127.0.0.1:{port}/table/{game['game_id']}#{game['table_token']}")
        expect(pages["fr"].locator("#pyramid-notice")).to_have_text(
            "La pyramide électronique ne fonctionne pas : aucune carte servo PCA9685 ne répond sur l'I²C à l'adresse "
            "0x40 (câblez-la : hardware/README.md, étape 2, puis redémarrez le compagnon). En attendant, le compagnon "
            "tire les dés. Pas de pyramide à cette table ? Mettez mode = \"simulated\" sous [pyramid] dans "
            "/etc/camelup/config.toml.")
        expect(pages["en"].locator("#pyramid-notice")).to_have_text(source.notice)
        # /healthz is for machines (doctor reads it): its words stay the English sentence.
        assert "no PCA9685 servo board answers" in client.get("/healthz").get_json()["pyramid"]["problem"]
        assert errors == []
