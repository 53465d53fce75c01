"""`camelup doctor` on a described Raspberry Pi: the service's settings and games, groups, GPIO access, pins held by
the running service, the camera's libraries and buffers, and the installed unit. Nothing here needs a Pi: the
machine doctor looks at is a :class:`companion.doctor.Machine` built by each test."""

import dataclasses
import types
from pathlib import Path

import pytest

from companion.doctor import Machine, doctor_settings, report, run_checks
from companion.table.config import load_settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def pi(tmp_path):
    """A Pi as deploy/install.sh leaves it, seen by the user pi who is in every group it needs."""
    dev = tmp_path / "dev"
    (dev / "dma_heap").mkdir(parents=True)
    for node in ("gpiochip0", "gpiochip4", "dma_heap/linux,cma", "dma_heap/system", "video0"):
        (dev / node).write_text("")
    (tmp_path / "etc").mkdir()
    unit = tmp_path / "etc/camelup.service"
    unit.write_text((ROOT / "deploy/camelup.service").read_text())
    data = tmp_path / "var/lib/camelup"
    data.mkdir(parents=True)
    return Machine(
        dev=dev,
        user="pi",
        is_root=False,
        session_groups={"pi", "gpio", "video"},
        all_groups={"pi", "gpio", "video", "i2c", "camelup"},
        member_groups=lambda user: {"pi": {"pi", "gpio", "video"}, "camelup": {"camelup", "gpio", "video"}}.get(
            user, set()),
        service_active=lambda: False,
        service_config=tmp_path / "etc/config.toml",
        service_data=data,
        service_unit=unit,
        owner=lambda path: "camelup",
        can_open=lambda path: True,
        import_module=lambda name: types.SimpleNamespace(__version__={"numpy": "1.24.2", "cv2": "4.11.0"}.get(
            name, "0.3.31"), __file__=f"/usr/lib/python3/dist-packages/{name}/__init__.py"),
    )


def doctor(machine, camera="picamera2", pyramid="gpio", simulate=False):
    settings = dataclasses.replace(load_settings(None), camera=camera, pyramid=pyramid, data=machine.service_data)
    checks = [c for c in run_checks(settings, simulate, machine) if c.name not in ("port", "address for phones")]
    return {check.name: check for check in checks}, report(checks)[0]


def test_doctor_checks_the_services_configuration_and_games_by_default(pi):
    pi.service_config.write_text('port = 8000\n[pyramid]\nmode = "auto"\n')  # as written before install.sh set data
    settings, where = doctor_settings(None, machine=pi)
    assert settings.data == pi.service_data and where.detail.startswith(f"{pi.service_config} (the service's)")
    pi.service_config.write_text('data = "/srv/games"\n')
    assert doctor_settings(None, machine=pi)[0].data == Path("/srv/games")
    assert doctor_settings(None, data="elsewhere", machine=pi)[0].data == Path("elsewhere")
    pi.service_config.unlink()
    settings, where = doctor_settings(None, machine=pi)
    assert settings.data == Path("data") and "the defaults" in where.detail


def test_the_services_games_are_looked_at_not_written(pi):
    checks, _ = doctor(pi, camera="none", pyramid="none")
    assert checks["data directory"].ok and "owned by camelup" in checks["data directory"].detail
    assert list(pi.service_data.iterdir()) == [], "a file made by another user would lock the service out"
    pi.owner = lambda path: "root"
    checks, text = doctor(pi, camera="none", pyramid="none")
    assert not checks["data directory"].ok and f"sudo chown -R camelup:camelup {pi.service_data}" in text
    pi.service_data.rmdir()
    checks, _ = doctor(pi, camera="none", pyramid="none")
    assert not checks["data directory"].ok and not pi.service_data.exists(), "not made by root for the service"


def test_a_user_outside_the_gpio_group_is_told_to_join_it_not_to_install_lgpio(pi):
    pi.session_groups = {"pi", "video"}
    pi.member_groups = lambda user: {"pi"} if user == "pi" else {"camelup", "gpio", "video"}
    pi.can_open = lambda path: "gpiochip" not in path.name
    checks, text = doctor(pi, camera="none")
    assert not checks["group gpio"].ok and "sudo usermod -aG gpio pi" in checks["group gpio"].fix
    assert not checks["GPIO access"].ok and "cannot open" in checks["GPIO access"].detail
    assert "lgpio" not in text
    assert checks["groups of the camelup service"].ok


def test_a_group_added_since_the_last_login_asks_for_a_new_login(pi):
    pi.session_groups = {"pi", "gpio"}  # usermod -aG video pi ran after this login
    checks, _ = doctor(pi, camera="webcam", pyramid="none")
    assert not checks["group video"].ok and "log out and back in" in checks["group video"].fix


def test_the_service_user_missing_a_group_is_reported(pi):
    pi.member_groups = lambda user: {"pi", "gpio", "video"} if user == "pi" else {"camelup", "gpio"}
    checks, _ = doctor(pi, camera="picamera2", pyramid="none")
    assert not checks["groups of the camelup service"].ok
    assert "video" in checks["groups of the camelup service"].detail


def test_root_needs_no_groups(pi):
    pi.is_root, pi.session_groups = True, set()
    checks, _ = doctor(pi, camera="none", pyramid="gpio", simulate=True)
    assert "group gpio" not in checks and "groups" not in checks, "simulated pins need no group"
    checks, _ = doctor(pi, camera="picamera2", pyramid="none")
    assert checks["groups"].ok and "root" in checks["groups"].detail


def test_pins_held_by_the_running_service_are_not_claimed_again(pi):
    pi.service_active = lambda: True
    checks, _ = doctor(pi, camera="none")
    assert checks["pins"].ok and "held by the running camelup service" in checks["pins"].detail
    assert not any(name.startswith("pin ") for name in checks), "claiming them would fail with GPIO busy"
    assert checks["service"].ok


def test_the_camera_held_by_the_running_service_is_not_opened_again(pi):
    pi.service_active = lambda: True
    checks, _ = doctor(pi, camera="picamera2", pyramid="none")
    assert checks["camera"].ok and "in use by the running camelup service" in checks["camera"].detail


def test_the_camera_libraries_load_together_and_say_which_numpy(pi):
    checks, _ = doctor(pi, pyramid="none")
    detail = checks["camera libraries"].detail
    assert checks["camera libraries"].ok and "numpy 1.24.2 (/usr/lib/python3/dist-packages/numpy)" in detail
    assert "cv2 4.11.0" in detail and "picamera2" in detail


def test_picamera2_failing_beside_opencvs_numpy_is_explained(pi):
    def import_module(name):
        if name == "picamera2":
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C "
                             "header, got 88 from PyObject")
        return types.SimpleNamespace(__version__="2.3.1", __file__=f"/opt/camelup/venv/lib/{name}/__init__.py")

    pi.import_module = import_module
    checks, text = doctor(pi, pyramid="none")
    check = checks["camera libraries"]
    assert not check.ok and not check.needed, "play goes on by hand: a warning, not a failure"
    assert "numpy.dtype size changed" in check.detail and "sudo deploy/install.sh" in check.detail
    assert "WARN  camera libraries" in text and "The camera does not start" in text


def test_camera_buffers_refused_or_missing(pi):
    checks, _ = doctor(pi, pyramid="none")
    assert checks["camera buffers"].ok and "linux,cma, system" in checks["camera buffers"].detail
    pi.can_open = lambda path: path.parent.name != "dma_heap"
    checks, _ = doctor(pi, pyramid="none")
    assert not checks["camera buffers"].ok and "sudo usermod -aG video pi" in checks["camera buffers"].fix
    for heap in (pi.dev / "dma_heap").iterdir():
        heap.unlink()
    checks, _ = doctor(pi, pyramid="none")
    assert not checks["camera buffers"].ok and "libcamera needs it" in checks["camera buffers"].detail


def test_an_installed_unit_that_blocks_the_camera_buffers_is_reported(pi):
    checks, _ = doctor(pi, camera="none", pyramid="none")
    assert "service unit" not in checks and not checks["service"].ok and "not running" in checks["service"].detail
    old_unit = pi.service_unit.read_text().replace("DeviceAllow=char-dma_heap", "DeviceAllow=/dev/dma_heap")
    pi.service_unit.write_text(old_unit)
    checks, _ = doctor(pi, camera="none", pyramid="none")
    assert not checks["service unit"].ok and "sudo deploy/install.sh" in checks["service unit"].fix


def test_games_held_by_a_running_companion_are_in_use_not_broken(pi, tmp_path):
    # The companion opens its database exclusively: doctor, run beside it on the same data, must not tell the
    # host to move a healthy live database aside.
    import sqlite3

    data = tmp_path / "games"
    data.mkdir()
    running = sqlite3.connect(data / "games.sqlite3")
    running.execute("PRAGMA locking_mode=EXCLUSIVE")
    running.execute("CREATE TABLE held (x)")
    running.commit()
    try:
        settings = dataclasses.replace(load_settings(None), camera="none", pyramid="simulated", data=data)
        checks = {check.name: check for check in run_checks(settings, True, pi)}
        assert checks["data directory"].ok, checks["data directory"]
        assert "in use by a running companion" in checks["data directory"].detail
        assert "move the broken file aside" not in report(list(checks.values()))[0]
    finally:
        running.close()


def test_the_camera_line_names_what_it_reads_each_editions_board_with(pi):
    pi.service_active = lambda: True
    checks, _ = doctor(pi, camera="picamera2", pyramid="none")
    assert "reads the board of each game's edition (starts on 2018, or on the edition of a race still in play): " \
        "2014 with the camels' usual colours" in \
        checks["camera"].detail
    assert "; 2018 with the camels' usual colours" in checks["camera"].detail


def _files_doctor(machine, tmp_path, source: str):
    config = tmp_path / "table.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{source}"\n')
    settings = dataclasses.replace(load_settings(str(config)), pyramid="none", data=machine.service_data)
    checks = [c for c in run_checks(settings, False, machine, config=str(config))
              if c.name not in ("port", "address for phones", "service")]
    return config, {check.name: check for check in checks}, report(checks)


def test_a_missing_camera_source_names_the_file_and_the_setting_and_the_summary_says_so(pi, tmp_path):
    missing = tmp_path / "missing.png"
    config, checks, (text, status) = _files_doctor(pi, tmp_path, str(missing))
    camera = checks["camera"]
    assert not camera.ok and not camera.needed
    assert str(missing) in camera.fix and "source under [camera]" in camera.fix and str(config) in camera.fix
    assert "put the camera right first" in checks["camera placement"].fix
    # Play still works (exit 0), but the summary does not claim everything does.
    assert status == 0 and "Everything needed works" not in text
    assert text.splitlines()[-1] == ("Everything needed to play works; the camera and the camera placement do not "
                                     "(see WARN above).")


def test_a_greyscale_camera_is_a_warning_with_the_fix(pi, tmp_path):
    import cv2

    from vision.board import load_template
    from vision.synth import render_scene

    image, _ = render_scene(load_template("2018"), {1: ["red"], 3: ["blue"]}, 1)
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    _, checks, (text, status) = _files_doctor(pi, tmp_path, str(grey))
    camera = checks["camera"]
    assert not camera.ok and "no colour (greyscale)" in camera.detail and "colour" in camera.fix
    assert status == 0 and text.splitlines()[-1].startswith("Everything needed to play works; the camera ")
    colour = tmp_path / "colour.png"
    cv2.imwrite(str(colour), image)
    assert _files_doctor(pi, tmp_path, str(colour))[1]["camera"].ok
