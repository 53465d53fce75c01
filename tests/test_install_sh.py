"""deploy/install.sh run for real against stand-in system commands (tests/fake_system.py) under a scratch root:
what it changes on a first run, that a second identical run changes nothing, the numpy that apt's picamera2
needs, the hotspot, and what --uninstall keeps."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "deploy" / "install.sh"
COMMANDS = ("dpkg-query", "apt-get", "getent", "useradd", "usermod", "userdel", "id", "chown", "stat", "systemctl",
            "python3", "nmcli", "ss", "ip", "raspi-config")


class FakePi:
    """A scratch root with stand-ins for the system's commands; ``state`` is the machine they pretend to be."""

    def __init__(self, tmp_path: Path) -> None:
        self.bin, self.state_dir, self.root = tmp_path / "bin", tmp_path / "state", tmp_path / "root"
        for folder in (self.bin, self.state_dir, self.root):
            folder.mkdir()
        fake = self.bin / "fake-system"
        fake.write_text(f"#!{sys.executable}\n" + (ROOT / "tests" / "fake_system.py").read_text())
        fake.chmod(0o755)
        for name in COMMANDS:
            (self.bin / name).symlink_to(fake)
        self.env = {**os.environ, "PATH": f"{self.bin}:{os.environ['PATH']}", "STATE": str(self.state_dir),
                    "CAMELUP_ROOT": str(self.root)}
        self.state = {"system_numpy": "1.24.2"}  # Bookworm's python3-numpy, which python3-picamera2 pulls in

    @property
    def config(self) -> Path:
        return self.root / "etc/camelup/config.toml"

    def install(self, *args: str, expect: int = 0) -> tuple[str, list[str]]:
        """Run install.sh; its output (and errors) and the calls that changed something (not the questions it
        asked)."""
        (self.state_dir / "state.json").write_text(json.dumps(self.state))
        (self.state_dir / "log").write_text("")
        result = subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, env=self.env,
                                stdin=subprocess.DEVNULL, check=False)
        assert result.returncode == expect, result.stdout + result.stderr
        self.state = json.loads((self.state_dir / "state.json").read_text())
        calls = [line for line in (self.state_dir / "log").read_text().splitlines()
                 if not line.startswith(("systemctl is-enabled", "systemctl is-active", "systemctl list-unit-files"))]
        return result.stdout + result.stderr, calls


@pytest.fixture
def pi(tmp_path):
    return FakePi(tmp_path)


def test_a_second_install_changes_nothing(pi):
    out, calls = pi.install()
    assert any(c.startswith("useradd") for c in calls) and any(c.startswith("venv") for c in calls)
    assert "systemctl enable camelup.service" in calls and "systemctl restart camelup.service" in calls
    assert (pi.root / "etc/systemd/system/camelup.service").exists()
    assert (pi.root / "opt/camelup/companion/rules/engine.py").exists()
    settings = tomllib.loads(pi.config.read_text())
    assert settings["data"] == f"{pi.root}/var/lib/camelup", "doctor finds the service's games through it"
    assert settings["pyramid"]["config"] == f"{pi.root}/etc/camelup/pyramid.toml"
    assert (pi.root / "etc/camelup/pyramid.toml").exists()
    assert "ok: numpy 1.24.2, OpenCV 4.11.0, picamera2" in out

    second_out, second_calls = pi.install()
    assert second_calls == [], second_out
    assert "ok: running, nothing changed" in second_out


def test_the_servo_boards_gpiod_comes_from_apt(pi):
    # Blinka (the PCA9685 driver's I²C on a Pi) imports gpiod and does not install it.
    pi.state["apt_missing"] = ["python3-lgpio", "python3-libgpiod"]
    _, calls = pi.install()
    assert "apt-get install -y python3-lgpio python3-libgpiod" in calls


def test_pip_keeps_the_systems_numpy_and_apts_lgpio(pi):
    pi.state["apt_lgpio"] = True
    _, calls = pi.install()
    pip = [c for c in calls if c.startswith("pip install")]
    assert len(pip) == 1 and "--constraint" in pip[0] and pip[0].endswith("opt/camelup"), "no lgpio from PyPI"
    constraints = (pi.root / "opt/camelup/constraints.txt").read_text()
    assert "numpy==1.24.2" in constraints.splitlines()
    assert "venv_numpy" not in pi.state, "a numpy from pip would hide Debian's"


def test_lgpio_comes_from_pypi_only_without_apts(pi):
    _, calls = pi.install()
    assert next(c for c in calls if c.startswith("pip install")).endswith("opt/camelup[pi]")


def test_an_earlier_install_with_numpy_2_in_the_venv_is_repaired(pi):
    pi.install()
    pi.state["venv_numpy"] = "2.3.1"  # what opencv-python-headless 4.12 pulled in before this fix
    out, calls = pi.install()
    assert "numpy 2.3.1 from pip hides the system's 1.24.2" in out
    uninstall = calls.index("pip uninstall --quiet --yes numpy")
    assert calls[uninstall + 1].startswith("pip install") and "--constraint" in calls[uninstall + 1]
    assert "venv_numpy" not in pi.state and "ok: numpy 1.24.2, OpenCV 4.11.0, picamera2" in out


def test_a_camera_that_cannot_load_is_a_clear_warning_not_a_failed_install(pi):
    pi.state["picamera2_error"] = "ValueError: numpy.dtype size changed, may indicate binary incompatibility."
    out, _ = pi.install()
    assert "WARNING: the Pi camera will not start: ValueError: numpy.dtype size changed" in out
    assert "The camera does not start" in out


def test_pip_finding_no_opencv_for_the_systems_numpy_stops_the_install_and_says_why(pi):
    pi.state.update(system_numpy="2.5.0", pip_fails=True)  # a numpy newer than any OpenCV in pyproject's range
    out, calls = pi.install(expect=1)
    assert "pip could not install the companion beside the system's numpy 2.5.0" in out
    assert not any(c.startswith("systemctl restart") for c in calls)
    assert not pi.config.exists()


def test_a_rig_on_a_pca9685_board_gets_the_i2c_bus_switched_on_once(pi):
    rig = pi.root / "etc/camelup/pyramid.toml"
    rig.parent.mkdir(parents=True, exist_ok=True)
    rig.write_text('pin_factory = "auto"\n')  # a rig without the servo board: nothing to switch on
    _, calls = pi.install()
    assert not any(c.startswith("raspi-config") for c in calls), "no servo board, nothing to switch on"
    rig.unlink()  # the installer copies the example rig, whose gates hang off a PCA9685
    out, calls = pi.install()
    assert "pca9685" in rig.read_text()
    assert "raspi-config nonint do_i2c 0" in calls and "switched on I²C" in out
    out, calls = pi.install()
    assert calls == [] and "ok: I²C is on" in out


def hotspot(config: Path) -> dict:
    return tomllib.loads(config.read_text())["hotspot"]


def test_the_hotspot_is_set_once_and_a_new_password_is_applied(pi):
    name, password = 'Camel "Table" \\ 1', 'sand"dunes\\42'
    out, calls = pi.install("--hotspot", name, password)
    assert hotspot(pi.config) == {"ssid": name, "password": password}, "quotes and backslashes survive TOML"
    assert pi.state["nm"] == {"exists": True, "ssid": name, "psk": password, "active": True}
    assert calls.index("nmcli connection up camelup-hotspot") > calls.index("systemctl restart camelup.service"), (
        "the Wi-Fi switches last, once everything else is done")

    out, calls = pi.install("--hotspot", name, password)
    assert calls == [], out  # no modify, no restart of the connection or of the service
    assert "ok: the hotspot has this name and password" in out

    out, calls = pi.install("--hotspot", name, "a-new-password")
    assert [c.split()[:3] for c in calls if c.startswith("nmcli")] == [
        ["nmcli", "connection", "modify"], ["nmcli", "connection", "up"]]
    assert pi.state["nm"]["psk"] == "a-new-password"
    assert hotspot(pi.config) == {"ssid": name, "password": "a-new-password"}, "the QR code shows the new one"
    assert "systemctl restart camelup.service" in calls, "the companion reads the new [hotspot]"
    settings = tomllib.loads(pi.config.read_text())
    assert settings["port"] == 8000 and settings["pyramid"]["mode"] == "auto", "the rest of the file is kept"
    assert pi.config.read_text().startswith("# The Camel Up companion's settings")


def test_a_broken_configuration_stops_the_hotspot_step_with_a_clear_message(pi):
    pi.install()
    pi.config.write_text('[hotspot]\nssid = "Camel "Table""\n')  # what the old installer wrote for a quote
    out, _ = pi.install("--hotspot", "CamelTable", "sand-dunes-42", expect=1)
    assert "config.toml: not valid TOML" in out
    assert "could not update" in out and "fix it and run this again" in out


def test_switching_the_wifi_warns_before_cutting_an_ssh_session_over_it(pi):
    pi.state.update(ssh_peer="192.168.1.7", route_dev="wlan0")
    out, calls = pi.install("--hotspot", "CamelTable", "sand-dunes-42")
    assert "WARNING: this SSH session comes in over Wi-Fi (wlan0)" in out
    assert 'join the Wi-Fi "CamelTable"' in out and "add --yes to go ahead" in out
    assert "nmcli connection up camelup-hotspot" not in calls and not pi.state["nm"].get("active")
    assert hotspot(pi.config)["ssid"] == "CamelTable", "everything else is done"

    out, calls = pi.install("--hotspot", "CamelTable", "sand-dunes-42", "--yes")
    assert "WARNING: this SSH session" in out and calls == ["nmcli connection up camelup-hotspot"]

    pi.state.update(route_dev="eth0", nm={})  # SSH over Ethernet: nothing to warn about
    out, calls = pi.install("--hotspot", "CamelTable", "sand-dunes-42")
    assert "WARNING" not in out and "nmcli connection up camelup-hotspot" in calls


def test_uninstall_keeps_the_calibrations_unless_purged(pi):
    pi.install()
    rig = pi.root / "etc/camelup/pyramid.toml"
    rig.write_text("# calibrated on this rig\n")
    camera = pi.root / "etc/camelup/camera.json"
    camera.write_text("{}")
    out, calls = pi.install("--uninstall")
    assert not (pi.root / "opt/camelup").exists() and not (pi.root / "etc/systemd/system/camelup.service").exists()
    assert rig.read_text() == "# calibrated on this rig\n" and camera.exists() and pi.config.exists()
    assert (pi.root / "var/lib/camelup").exists() and "add --purge to delete them too" in out
    assert "systemctl disable --now camelup.service" in calls

    _, calls = pi.install()  # installing again keeps the calibrated rig
    assert rig.read_text() == "# calibrated on this rig\n"
    pi.install("--uninstall", "--purge")
    assert not (pi.root / "etc/camelup").exists() and not (pi.root / "var/lib/camelup").exists()


def test_a_camera_calibration_inside_the_program_folder_is_moved_out_before_uninstall(pi):
    pi.install()
    inside = pi.root / "opt/camelup/camera.json"
    inside.write_text('{"kept": true}')
    with pi.config.open("a") as config:
        config.write(f'\n[camera]\nmode = "picamera2"\ncalibration = "{inside}"\n')
    pi.install("--uninstall")
    moved = pi.root / "etc/camelup/camera.json"
    assert moved.read_text() == '{"kept": true}'
    assert tomllib.loads(pi.config.read_text())["camera"]["calibration"] == str(moved)


def test_each_editions_camera_calibration_inside_the_program_folder_is_moved_out_too(pi):
    pi.install()
    inside = {edition: pi.root / f"opt/camelup/camera-{edition}.json" for edition in ("2014", "2018")}
    for edition, path in inside.items():
        path.write_text(f'{{"edition": "{edition}"}}')
    with pi.config.open("a") as config:
        config.write(f'\n[camera]\nmode = "picamera2"\ncalibration_2014 = "{inside["2014"]}"\n'
                     f'calibration_2018 = "{inside["2018"]}"\n')
    pi.install("--uninstall")
    camera = tomllib.loads(pi.config.read_text())["camera"]
    for edition in inside:
        moved = pi.root / f"etc/camelup/camera-{edition}.json"
        assert moved.read_text() == f'{{"edition": "{edition}"}}'
        assert camera[f"calibration_{edition}"] == str(moved)
