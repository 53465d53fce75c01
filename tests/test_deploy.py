"""The Raspberry Pi appliance: the installer, the systemd unit, and camelup doctor."""

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.table.web import create_app

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "deploy" / "install.sh"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (make test installs it)")
def test_install_script_is_shellcheck_clean():
    result = subprocess.run(["shellcheck", "-S", "warning", str(INSTALL)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze on this machine")
def test_systemd_accepts_the_unit(tmp_path):
    # Everything as shipped, except that ExecStart names a program that exists here (verify checks that).
    unit = (ROOT / "deploy" / "camelup.service").read_text()
    assert "ExecStart=/opt/camelup/venv/bin/camelup serve" in unit
    here = shutil.which("camelup") or str(Path(sys.executable).parent / "camelup")
    (tmp_path / "camelup.service").write_text(unit.replace("/opt/camelup/venv/bin/camelup", here))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "camelup.service")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr
    for directive in (
        "Restart=on-failure",
        "After=network-online.target",
        "StateDirectory=camelup",
        "User=camelup",
        "--config /etc/camelup/config.toml",
        "DeviceAllow=char-gpiochip rw",
    ):
        assert directive in unit


# The character-device classes Raspberry Pi OS's kernel registers in /proc/devices for what the companion uses:
# GPIO (gpiolib), the camera (V4L2, the media controller, libcamera's DMA heaps) and I²C (the servo board).
PI_DEVICE_CLASSES = {"gpiochip", "video4linux", "media", "dma_heap", "i2c"}


def test_the_unit_lets_the_service_reach_the_camera_buffers_under_a_closed_device_policy():
    # systemd drops a DeviceAllow= that names a directory (such as /dev/dma_heap) without failing verify, and then
    # libcamera is refused /dev/dma_heap/*: only device classes and device nodes count.
    lines = (ROOT / "deploy" / "camelup.service").read_text().splitlines()
    assert "DevicePolicy=closed" in lines
    allowed = [line.removeprefix("DeviceAllow=").split() for line in lines if line.startswith("DeviceAllow=")]
    classes = {spec.removeprefix("char-") for spec, _ in allowed if spec.startswith("char-")}
    nodes = [spec for spec, _ in allowed if spec.startswith("/")]
    assert classes <= PI_DEVICE_CLASSES, classes - PI_DEVICE_CLASSES
    assert {"dma_heap", "video4linux", "media", "gpiochip", "i2c"} <= classes
    assert nodes == ["/dev/gpiomem"], "a path must be a device node, never a folder like /dev/dma_heap"
    assert all(access == "rw" for _, access in allowed)


def run_install(*args):
    return subprocess.run(
        ["bash", str(INSTALL), *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PATH": os.environ.get("PATH", "")},
    )


def test_dry_run_prints_every_step_and_changes_nothing():
    result = run_install("--dry-run", "--hotspot", "CamelTable", "sand-dunes-42")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    steps = [line for line in out.splitlines() if line.startswith("==> ")]
    assert [s.split(":")[0] for s in steps][:3] == [
        "==> check the system",
        "==> system packages",
        "==> the camelup user, in the gpio, video and i2c groups",
    ]
    for expected in (
        "python3-picamera2",
        "venv --system-site-packages",
        "[pi]",
        "--constraint /opt/camelup/constraints.txt",
        "import cv2, picamera2",
        "/etc/camelup/config.toml",
        "nmcli connection",
        "CamelTable",
        "/etc/systemd/system/camelup.service",
        "systemctl enable camelup.service",
    ):
        assert expected in out, expected
    assert not Path("/opt/camelup/venv").exists() or "ok: /opt/camelup/venv exists" in out


def test_uninstall_dry_run_keeps_the_games_unless_purged():
    kept = run_install("--dry-run", "--uninstall")
    assert kept.returncode == 0 and "kept: the games in /var/lib/camelup" in kept.stdout
    purged = run_install("--dry-run", "--uninstall", "--purge")
    assert "would run: rm -rf /var/lib/camelup" in purged.stdout


def test_bad_installer_options_are_refused():
    short = run_install("--dry-run", "--hotspot", "Table", "short")
    assert short.returncode == 2 and "8 to 63 characters" in short.stderr
    long_name = run_install("--dry-run", "--hotspot", "T" * 33, "sand-dunes-42")
    assert long_name.returncode == 2 and "at most 32 characters" in long_name.stderr
    unknown = run_install("--frobnicate")
    assert unknown.returncode == 2 and "unknown option --frobnicate" in unknown.stderr


def test_doctor_reports_the_simulated_hardware(tmp_path, capsys):
    assert main(["doctor", "--simulate", "--data", str(tmp_path / "data"), "--port", str(_free_port())]) == 0
    out = capsys.readouterr().out
    assert "PASS  GPIO pin factory: mock" in out
    assert "PASS  pin button.pin: GPIO17 usable" in out
    assert "PASS  data directory" in out and "Everything needed works." in out


def test_doctor_fails_with_a_fix_when_something_needed_is_broken(tmp_path, capsys):
    blocker = socket.socket()
    blocker.bind(("0.0.0.0", 0))
    blocker.listen()
    port = blocker.getsockname()[1]
    try:
        data = tmp_path / "data"
        data.write_text("not a directory")
        assert main(["doctor", "--simulate", "--data", str(data), "--port", str(port)]) == 1
    finally:
        blocker.close()
    out = capsys.readouterr().out
    assert "FAIL  data directory" in out and "FAIL  port" in out and "fix: choose another port" in out
    bad = tmp_path / "bad.toml"
    bad.write_text("prot = 8000\n")
    assert main(["doctor", "--config", str(bad)]) == 1
    assert "prot: unknown setting" in capsys.readouterr().out


def test_the_table_screen_gets_the_hotspot_as_a_wifi_qr_code(tmp_path):
    app = create_app(tmp_path, None, "http://192.168.4.1:8000", testing=True, hotspot=("Camel;Table", "sand:dunes"))
    client = app.test_client()
    game = client.post("/api/games", json={"edition": "2014", "players": ["A", "B"], "dice": "manual"}).get_json()
    info = client.get(f"/api/games/{game['game_id']}/table", headers={"Authorization": f"Bearer {game['table_token']}"})
    assert info.get_json()["wifi"]["qr"] == "WIFI:T:WPA;S:Camel\\;Table;P:sand\\:dunes;;"
    assert info.get_json()["address"] == "http://192.168.4.1:8000/"
    seat = game["seats"][0]["token"]
    assert (
        client.get(f"/api/games/{game['game_id']}/table", headers={"Authorization": f"Bearer {seat}"}).status_code
        == 403
    )


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
@pytest.mark.parametrize("model", ["Raspberry Pi 5 Model B Rev 1.0", "Generic x86 PC"])
def test_make_setup_on_a_pi_adds_the_rigs_modules_one_by_one_and_survives_a_failure(tmp_path, model):
    # A stand-in python: pip's installs are logged, lgpio fails as it does where PyPI has no wheel for this Python.
    (tmp_path / "model").write_bytes(model.encode() + b"\0")  # as /proc/device-tree/model, NUL-terminated
    python = tmp_path / "bin/python"
    python.parent.mkdir()
    python.write_text(f'#!/bin/sh\nif [ "$1" = "-m" ]; then echo "$*" >> {tmp_path}/pip.log\n'
                      f'  case "$*" in *lgpio*) exit 1;; esac; exit 0; fi\nexec {sys.executable} "$@"\n')
    python.chmod(0o755)
    result = subprocess.run(["make", "--no-print-directory", "pi-extras", f"PI_MODEL={tmp_path / 'model'}",
                             f"BIN={python.parent}"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    pip = (tmp_path / "pip.log").read_text().splitlines() if (tmp_path / "pip.log").exists() else []
    if model.startswith("Raspberry Pi"):
        assert [line.split()[-1] for line in pip] == ["lgpio>=0.2", "gpiod>=2.1"], "gpiod even when lgpio fails"
        assert "could not install lgpio>=0.2" in result.stdout and "The companion still starts" in result.stdout
    else:
        assert pip == [] and result.stdout == ""
