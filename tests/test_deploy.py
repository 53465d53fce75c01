"""The Raspberry Pi appliance: the installer, the systemd unit, and camelup doctor."""

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.web import create_app

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
        "==> the camelup user, in the gpio and video groups",
    ]
    for expected in (
        "python3-picamera2",
        "venv --system-site-packages",
        "[pi]",
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
    assert short.returncode == 2 and "at least 8 characters" in short.stderr
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


STUBS = {
    # Stand-ins for the system commands install.sh uses, keeping their state in $STATE and logging each call.
    "dpkg-query": 'echo "install ok installed"',
    "apt-get": 'echo "apt-get $*" >> "$STATE/log"',
    "getent": "exit 0",
    "useradd": 'echo "useradd $*" >> "$STATE/log"; touch "$STATE/user"',
    "usermod": 'echo "usermod $*" >> "$STATE/log"; echo "$2" >> "$STATE/groups"',
    "id": 'case "$1" in -u) echo 0;; -nG) cat "$STATE/groups" 2>/dev/null | tr "\\n" " ";; '
          '*) [ -f "$STATE/user" ];; esac',
    "chown": 'echo "chown $*" >> "$STATE/log"; touch "$STATE/owned"',
    "stat": '[ -f "$STATE/owned" ] && echo camelup || echo root',
    "systemctl": 'echo "systemctl $*" >> "$STATE/log"; case "$1" in '
                 'is-enabled) [ -f "$STATE/enabled" ];; is-active) [ -f "$STATE/active" ];; '
                 'enable) touch "$STATE/enabled";; restart|start) touch "$STATE/active";; esac',
    "python3": 'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$4/bin"; '
               'printf "#!/bin/sh\\nif [ \\"\\$1\\" = -c ]; then [ -f \\"$STATE/pip\\" ]; '
               'else echo pip \\"\\$*\\" >> \\"$STATE/log\\"; touch \\"$STATE/pip\\"; fi\\n" > "$4/bin/python"; '
               'chmod +x "$4/bin/python"; echo "venv $*" >> "$STATE/log"; fi',
}


def test_a_second_install_changes_nothing(tmp_path):
    bin_dir, state, root = tmp_path / "bin", tmp_path / "state", tmp_path / "root"
    for folder in (bin_dir, state, root):
        folder.mkdir()
    for name, body in STUBS.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "STATE": str(state), "CAMELUP_ROOT": str(root)}

    def install():
        (state / "log").write_text("")
        result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, env=env, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout, (state / "log").read_text()

    _, first_calls = install()
    assert "useradd" in first_calls and "venv" in first_calls and "pip" in first_calls
    assert "systemctl enable camelup.service" in first_calls and "systemctl restart camelup.service" in first_calls
    assert (root / "etc/camelup/config.toml").exists() and (root / "etc/systemd/system/camelup.service").exists()
    assert (root / "opt/camelup/companion/rules/engine.py").exists()

    second_out, second_calls = install()
    changing = [line for line in second_calls.splitlines()
                if not line.startswith(("systemctl is-enabled", "systemctl is-active"))]
    assert changing == [], second_out
    assert "ok: running, nothing changed" in second_out
