"""Stand-ins for the system commands deploy/install.sh runs, for tests: one script linked under every command's
name, keeping the machine's state in JSON in $STATE and logging every call that would change something.

The state a test can set before a run (``state.json``): ``system_numpy`` (Debian's numpy, "" for none),
``venv_numpy`` (a numpy pip put into the venv, hiding the system's), ``picamera2_error`` (what importing
picamera2 prints when it fails), ``apt_lgpio`` (python3-lgpio is installed), ``apt_missing`` (Debian packages
not installed), ``pip_fails``, ``ssh_peer`` and
``route_dev`` (an SSH session and the interface it comes in on), and the NetworkManager connection (``nm``).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import sys
from pathlib import Path

STATE = Path(os.environ["STATE"])


def load() -> dict:
    path = STATE / "state.json"
    return json.loads(path.read_text()) if path.exists() else {}


def save(state: dict) -> None:
    (STATE / "state.json").write_text(json.dumps(state))


def log(line: str) -> None:
    with open(STATE / "log", "a") as out:
        out.write(line + "\n")


def real_python(args: list[str]) -> None:
    os.execv(sys.executable, [sys.executable, *args])


def venv_python(args: list[str], state: dict) -> int:
    if args[:2] == ["-m", "pip"]:
        log("pip " + " ".join(args[2:]))
        if args[2] == "uninstall":
            state.pop("venv_numpy", None)
        else:
            if state.get("pip_fails"):
                print("ERROR: ResolutionImpossible", file=sys.stderr)
                return 1
            state["pip"] = True
            constraints = Path(args[args.index("--constraint") + 1]).read_text()
            pinned = re.search(r"^numpy==(\S+)$", constraints, re.M)
            if not pinned and not state.get("system_numpy"):
                state["venv_numpy"] = "2.2.6"  # no numpy on the system: pip brings its own
            elif pinned and pinned.group(1) != state.get("system_numpy"):
                state["venv_numpy"] = pinned.group(1)
        save(state)
        return 0
    if args[0] == "-c":
        code = args[1]
        numpy = state.get("venv_numpy") or state.get("system_numpy")
        if "picamera2" in code:
            if not state.get("pip"):
                return 1
            if state.get("picamera2_error"):
                print(state["picamera2_error"], file=sys.stderr)
                return 1
            print(f"numpy {numpy}, OpenCV 4.11.0")
            return 0
        if "numpy.__version__" in code:
            if not numpy:
                return 1
            print(numpy)
            return 0
        if code == "import lgpio":
            return 0 if state.get("apt_lgpio") else 1
        return 0 if state.get("pip") else 1  # import companion, lgpio
    real_python(args)
    return 0


def python3(args: list[str], state: dict) -> int:
    if args[:2] == ["-m", "venv"]:
        log("venv " + " ".join(args))
        venv = Path(args[-1])
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to(Path(__file__).with_name("fake-system"))
        return 0
    if args[0] == "-c":
        if state.get("system_numpy"):
            print(state["system_numpy"])
            return 0
        return 1
    real_python(args)
    return 0


def nmcli(args: list[str], state: dict) -> int:
    nm = state.setdefault("nm", {})
    words = [a for a in args if a not in ("-t", "-s")]
    if words[:2] == ["-e", "no"]:
        words = words[2:]
    if words[:2] == ["-f", "NAME"]:
        if nm.get("exists") and ("--active" not in words or nm.get("active")):
            print("camelup-hotspot")
        return 0
    if words[0] == "-g":
        if not nm.get("exists"):
            return 10
        print(nm["ssid"])
        print(nm["psk"])
        return 0
    log("nmcli " + " ".join(args))
    action = words[1]
    if action in ("add", "modify"):
        settings = dict(itertools.pairwise(words))
        nm["ssid"] = settings.get("ssid", settings.get("802-11-wireless.ssid", nm.get("ssid")))
        nm["psk"] = settings.get("wifi-sec.psk", nm.get("psk"))
        nm["exists"] = True
    elif action == "up":
        nm["active"] = True
    elif action == "delete":
        nm.clear()
    save(state)
    return 0


def main() -> int:
    name = Path(sys.argv[0]).name
    args = sys.argv[1:]
    state = load()
    if "/venv/bin/" in sys.argv[0]:
        return venv_python(args, state)
    if name == "python3":
        return python3(args, state)
    if name == "nmcli":
        return nmcli(args, state)
    if name == "dpkg-query":
        if args[-1] in state.get("apt_missing", []):  # Debian packages not installed yet
            return 1
        print("install ok installed")
        return 0
    if name == "getent":
        return 0
    if name == "id":
        if args == ["-u"]:
            print(0)
            return 0
        if args[0] == "-nG":
            print(" ".join(state.get("groups", [])))
        return 0 if state.get("user") else 1
    if name == "raspi-config" and args[:2] == ["nonint", "get_i2c"]:
        print(0 if state.get("i2c") else 1)
        return 0
    if name == "stat":
        print("camelup" if state.get("owned") else "root")
        return 0
    if name == "ss":
        if state.get("ssh_peer"):
            print(f"0 0 192.168.1.20:22 {state['ssh_peer']}:50432")
        return 0
    if name == "ip":
        print(f"{args[-1]} dev {state.get('route_dev', 'eth0')} src 192.168.1.20 uid 0 ")
        return 0
    if name == "systemctl":
        log("systemctl " + " ".join(args))
        if args[0] == "is-enabled":
            return 0 if state.get("enabled") else 1
        if args[0] == "is-active":
            return 0 if state.get("active") else 1
        if args[0] == "list-unit-files":
            return 0 if state.get("enabled") else 1
        changes = {"enable": {"enabled": True}, "restart": {"active": True}, "start": {"active": True}}
        state.update(changes.get(args[0], {}))
        if args[0] == "disable":
            state.update(enabled=False, active=False)
        save(state)
        return 0
    log(f"{name} {' '.join(args)}")
    if name == "useradd":
        state["user"] = True
    elif name == "usermod":
        state.setdefault("groups", []).append(args[1])
    elif name == "chown":
        state["owned"] = True
    elif name == "raspi-config" and args[:2] == ["nonint", "do_i2c"]:
        state["i2c"] = args[2] == "0"
    elif name == "userdel":
        state["user"] = False
    save(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
