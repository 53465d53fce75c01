#!/usr/bin/env bash
# Install the Camel Up companion on Raspberry Pi OS (Bookworm or Trixie, 64-bit) as a service.
#
#   sudo deploy/install.sh                       install or update (a second run changes nothing)
#   sudo deploy/install.sh --hotspot NAME PASS   also make the Pi its own Wi-Fi network for the table
#   deploy/install.sh --dry-run [...]            print every step without doing it
#   sudo deploy/install.sh --uninstall [--purge] remove the program; --purge also deletes games and settings
#   --yes                                        switch the Wi-Fi even when that cuts this SSH session
set -euo pipefail

# CAMELUP_ROOT installs everything under another directory (the tests use it with stand-in system commands).
ROOT=${CAMELUP_ROOT:-}
PREFIX=$ROOT/opt/camelup
VENV=$PREFIX/venv
CONSTRAINTS=$PREFIX/constraints.txt
CONFIG_DIR=$ROOT/etc/camelup
CONFIG=$CONFIG_DIR/config.toml
DATA_DIR=$ROOT/var/lib/camelup
UNIT=$ROOT/etc/systemd/system/camelup.service
SERVICE_USER=camelup
HOTSPOT_CONNECTION=camelup-hotspot
WIFI_INTERFACE=wlan0
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CONFIG_TOOL=$SOURCE/deploy/config_toml.py

dry_run=0
uninstall=0
purge=0
assume_yes=0
hotspot_name=""
hotspot_password=""

usage() {
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --uninstall) uninstall=1 ;;
        --purge) purge=1 ;;
        --yes) assume_yes=1 ;;
        --hotspot)
            [ $# -ge 3 ] || { echo "install.sh: --hotspot needs a network name and a password" >&2; exit 2; }
            hotspot_name=$2
            hotspot_password=$3
            shift 2
            ;;
        -h|--help) usage 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage 2 ;;
    esac
    shift
done

if [ -n "$hotspot_name" ]; then
    if [ ${#hotspot_password} -lt 8 ] || [ ${#hotspot_password} -gt 63 ]; then
        echo "install.sh: a Wi-Fi password needs 8 to 63 characters" >&2
        exit 2
    fi
    if [ ${#hotspot_name} -gt 32 ]; then
        echo "install.sh: a Wi-Fi network name has at most 32 characters" >&2
        exit 2
    fi
fi

changed=0
step() { echo "==> $*"; }
# run CMD...: do it, or only print it with --dry-run.
run() {
    changed=1
    if [ "$dry_run" = 1 ]; then
        echo "    would run: $*"
    else
        echo "    running: $*"
        "$@"
    fi
}

# ssh_over_wifi: an SSH session into this machine arrives over the Wi-Fi interface (which the hotspot takes).
# sudo drops SSH_CONNECTION, so look at the open connections to port 22 instead.
ssh_over_wifi() {
    local peer
    command -v ss >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 || return 1
    while read -r peer; do
        peer=${peer%:*}
        peer=${peer#[}
        peer=${peer%]}
        peer=${peer#::ffff:}
        if ip -o route get "$peer" 2>/dev/null | grep -q " dev $WIFI_INTERFACE "; then
            return 0
        fi
    done < <(ss -Htn state established '( sport = :22 )' 2>/dev/null | awk '{print $NF}')
    return 1
}

# may_cut_wifi WHAT: true when WHAT (which takes the Wi-Fi away) may go ahead; warns first over Wi-Fi SSH.
may_cut_wifi() {
    ssh_over_wifi || return 0
    echo "    WARNING: this SSH session comes in over Wi-Fi ($WIFI_INTERFACE); $1 drops it."
    if [ -n "$hotspot_name" ]; then
        echo "    To come back: join the Wi-Fi \"$hotspot_name\" and run  ssh $(logname 2>/dev/null || echo pi)@10.42.0.1"
    fi
    if [ "$dry_run" = 1 ] || [ "$assume_yes" = 1 ]; then
        return 0
    fi
    if [ -t 0 ]; then
        local answer=""
        read -r -p "    Go ahead? [y/N] " answer || true
        case "$answer" in y|Y|yes|YES) return 0 ;; esac
    else
        echo "    (no terminal to ask: add --yes to go ahead)"
    fi
    return 1
}

if [ "$dry_run" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo), or with --dry-run to see the steps" >&2
    exit 1
fi

hotspot_exists() {
    command -v nmcli >/dev/null 2>&1 && nmcli -t -f NAME connection show 2>/dev/null | grep -qx "$HOTSPOT_CONNECTION"
}
hotspot_active() {
    command -v nmcli >/dev/null 2>&1 && nmcli -t -f NAME connection show --active 2>/dev/null | grep -qx "$HOTSPOT_CONNECTION"
}

if [ "$uninstall" = 1 ]; then
    step "stop and disable the service"
    if systemctl list-unit-files camelup.service >/dev/null 2>&1 && [ -f "$UNIT" ]; then
        run systemctl disable --now camelup.service
    else
        echo "    ok: no service installed"
    fi
    # A camera calibration kept inside the program's folder would go with it: move it to the settings (one per
    # edition too: calibration_2014, calibration_2018).
    for key in calibration calibration_2014 calibration_2018; do
        calibration=$(python3 "$CONFIG_TOOL" "$CONFIG" get "camera.$key" 2>/dev/null || true)
        if [ "$purge" = 0 ] && [ -n "$calibration" ] && [ -f "$calibration" ] && [ "${calibration#"$PREFIX"/}" != "$calibration" ]; then
            step "keep the camera calibration $calibration"
            run cp "$calibration" "$CONFIG_DIR/$(basename "$calibration")"
            run "$VENV/bin/python" "$CONFIG_TOOL" "$CONFIG" set "camera.$key=$CONFIG_DIR/$(basename "$calibration")"
        fi
    done
    step "remove $UNIT and $PREFIX"
    run rm -f "$UNIT"
    run rm -rf "$PREFIX"
    run systemctl daemon-reload
    if hotspot_exists; then
        step "remove the Wi-Fi hotspot"
        if ! hotspot_active || may_cut_wifi "removing the hotspot"; then
            run nmcli connection delete "$HOTSPOT_CONNECTION"
        else
            echo "    kept: the hotspot (remove it later: sudo nmcli connection delete $HOTSPOT_CONNECTION)"
        fi
    fi
    if [ "$purge" = 1 ]; then
        step "delete the games in $DATA_DIR, the settings in $CONFIG_DIR and the $SERVICE_USER user"
        run rm -rf "$DATA_DIR" "$CONFIG_DIR"
        if id "$SERVICE_USER" >/dev/null 2>&1; then run userdel "$SERVICE_USER"; fi
    else
        echo "    kept: the games in $DATA_DIR"
        echo "    kept: the settings in $CONFIG_DIR (config.toml, the rig's calibrated pyramid.toml, the camera calibration)"
        echo "    add --purge to delete them too"
    fi
    exit 0
fi

step "check the system"
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    echo "    ${PRETTY_NAME:-unknown system}"
    case "${VERSION_CODENAME:-}" in
        bookworm|trixie) ;;
        *) echo "    note: made for Raspberry Pi OS Bookworm or Trixie; continuing" ;;
    esac
fi

# python3-libgpiod: Adafruit's Blinka, under the PCA9685 servo board's driver, imports gpiod on a Pi and does not
# install it.
step "system packages: python3-venv, python3-picamera2 (libcamera's own build), python3-lgpio (GPIO), python3-libgpiod (the servo board's I²C)"
missing=()
for package in python3-venv python3-picamera2 python3-lgpio python3-libgpiod; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "    ok: all installed"
else
    run apt-get update
    run apt-get install -y "${missing[@]}"
fi

step "the $SERVICE_USER user, in the gpio, video and i2c groups"
if id "$SERVICE_USER" >/dev/null 2>&1; then
    echo "    ok: exists"
else
    run useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in gpio video i2c; do
    if getent group "$group" >/dev/null 2>&1; then
        if id -nG "$SERVICE_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            echo "    ok: in $group"
        else
            run usermod -aG "$group" "$SERVICE_USER"
        fi
    else
        echo "    note: no $group group on this system"
    fi
done

step "the program in $PREFIX, its virtual environment with the system's picamera2, numpy and lgpio"
program_changed=0
for item in companion firmware_py vision hardware pyproject.toml README.md; do
    if [ "$SOURCE" != "$PREFIX" ] && ! diff -rq --exclude=__pycache__ "$SOURCE/$item" "$PREFIX/$item" >/dev/null 2>&1; then
        program_changed=1
    fi
done
if [ "$program_changed" = 1 ]; then
    run mkdir -p "$PREFIX"
    run cp -r "$SOURCE/companion" "$SOURCE/firmware_py" "$SOURCE/vision" "$SOURCE/pyproject.toml" "$SOURCE/README.md" \
        "$SOURCE/hardware" "$PREFIX/"
else
    echo "    ok: $PREFIX is up to date"
fi
if [ -x "$VENV/bin/python" ]; then
    echo "    ok: $VENV exists"
else
    run python3 -m venv --system-site-packages "$VENV"
    program_changed=1
fi
# apt's picamera2 (and the simplejpeg it uses) are built against the system's numpy. A numpy from pip in front
# of it breaks picamera2 ("numpy.dtype size changed"), so pip keeps the system's numpy and picks the OpenCV
# built for it: 4.11 with Bookworm's numpy 1.24, 4.12 with Trixie's numpy 2.2 (see pyproject.toml).
system_numpy=$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
constraints="# written by deploy/install.sh: pip keeps the system's numpy, which apt's picamera2 is built against"
if [ -n "$system_numpy" ]; then
    constraints+=$'\n'"numpy==$system_numpy"
fi
if [ "$(cat "$CONSTRAINTS" 2>/dev/null)" != "$constraints" ]; then
    if [ "$dry_run" = 1 ]; then
        echo "    would write: $CONSTRAINTS, keeping the system's numpy ${system_numpy:-(there once python3-picamera2 is in)}"
    else
        mkdir -p "$PREFIX"
        printf '%s\n' "$constraints" > "$CONSTRAINTS"
    fi
    program_changed=1
fi
venv_numpy=$("$VENV/bin/python" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
if [ -n "$system_numpy" ] && [ -n "$venv_numpy" ] && [ "$venv_numpy" != "$system_numpy" ]; then
    echo "    numpy $venv_numpy from pip hides the system's $system_numpy (picamera2 would fail): removing it"
    run "$VENV/bin/python" -m pip uninstall --quiet --yes numpy
    program_changed=1
fi
# apt's python3-lgpio is the one to use; the [pi] extra (lgpio from PyPI, which has no wheel for every Python
# and cannot build without swig) only where it is missing.
extras="[pi]"
if "$VENV/bin/python" -c "import lgpio" >/dev/null 2>&1; then
    extras=""
fi
if [ "$program_changed" = 1 ] || ! "$VENV/bin/python" -c "import companion, lgpio" >/dev/null 2>&1; then
    if ! run "$VENV/bin/python" -m pip install --quiet --upgrade --constraint "$CONSTRAINTS" "${PREFIX}${extras}"; then
        echo "install.sh: pip could not install the companion beside the system's numpy ${system_numpy:-}" >&2
        echo "(apt's picamera2 needs that numpy; $CONSTRAINTS says so). pip's message above names what clashed." >&2
        exit 1
    fi
else
    echo "    ok: installed in $VENV"
fi

step "check that OpenCV and picamera2 load together (one numpy for both)"
if [ "$dry_run" = 1 ]; then
    echo "    would check: $VENV/bin/python -c 'import cv2, picamera2'"
elif loaded=$("$VENV/bin/python" -c 'import numpy, cv2; print(f"numpy {numpy.__version__}, OpenCV {cv2.__version__}"); import picamera2' 2>&1); then
    echo "    ok: ${loaded}, picamera2"
else
    echo "    WARNING: the Pi camera will not start: $(printf '%s\n' "$loaded" | tail -n 1)"
    echo "    The companion runs without it (play by hand). See 'camelup doctor' and the README (\"The camera does not start\")."
fi

step "configuration in $CONFIG, games in $DATA_DIR"
if [ ! -d "$CONFIG_DIR" ] || [ ! -d "$DATA_DIR" ]; then
    run mkdir -p "$CONFIG_DIR" "$DATA_DIR"
fi
if [ -f "$CONFIG" ]; then
    echo "    ok: kept the existing configuration"
elif [ "$dry_run" = 1 ]; then
    echo "    would write: $CONFIG"
else
    "$VENV/bin/python" "$CONFIG_TOOL" "$CONFIG" set port=8000 language=auto "data=$DATA_DIR" \
        pyramid.mode=auto "pyramid.config=$CONFIG_DIR/pyramid.toml" >/dev/null
    changed=1
fi
if [ ! -f "$CONFIG_DIR/pyramid.toml" ]; then
    run cp "$SOURCE/hardware/pyramid.example.toml" "$CONFIG_DIR/pyramid.toml"
fi
# A rig whose servos hang off a PCA9685 board needs the I²C bus, which Raspberry Pi OS ships switched off.
if grep -qs pca9685 "$CONFIG_DIR/pyramid.toml" && command -v raspi-config >/dev/null 2>&1; then
    if [ "$(raspi-config nonint get_i2c 2>/dev/null)" = 1 ]; then
        run raspi-config nonint do_i2c 0
        echo "    switched on I²C for the servo board (if 'camelup doctor' cannot see /dev/i2c-1: sudo reboot)"
    else
        echo "    ok: I²C is on for the servo board"
    fi
fi
if [ "$(stat -c %U "$DATA_DIR" 2>/dev/null)" != "$SERVICE_USER" ]; then
    run chown -R "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
fi

hotspot_up=0
if [ -n "$hotspot_name" ]; then
    step "Wi-Fi hotspot \"$hotspot_name\" (NetworkManager), so a table needs no router"
    if ! command -v nmcli >/dev/null 2>&1; then
        if [ "$dry_run" = 0 ]; then
            echo "install.sh: nmcli (NetworkManager) is needed for the hotspot" >&2
            exit 1
        fi
        echo "    note: nmcli (NetworkManager) is not on this machine; Raspberry Pi OS Bookworm has it"
    fi
    if hotspot_exists; then
        current=$(nmcli -e no -s -g 802-11-wireless.ssid,802-11-wireless-security.psk connection show \
            "$HOTSPOT_CONNECTION" 2>/dev/null || true)
        if [ "$current" = "$hotspot_name"$'\n'"$hotspot_password" ]; then
            echo "    ok: the hotspot has this name and password"
        else
            run nmcli connection modify "$HOTSPOT_CONNECTION" 802-11-wireless.ssid "$hotspot_name" \
                wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$hotspot_password"
            hotspot_up=1  # a changed connection takes effect when it is brought up again
        fi
    else
        run nmcli connection add type wifi ifname "$WIFI_INTERFACE" con-name "$HOTSPOT_CONNECTION" autoconnect yes \
            ssid "$hotspot_name" 802-11-wireless.mode ap 802-11-wireless.band bg ipv4.method shared \
            wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$hotspot_password"
    fi
    if ! hotspot_active; then
        hotspot_up=1
    fi
    # The table screen shows [hotspot] as a QR code: it must say the network's real name and password.
    if [ "$dry_run" = 1 ]; then
        echo "    would set in $CONFIG: [hotspot] ssid and password"
    elif ! written=$("$VENV/bin/python" "$CONFIG_TOOL" "$CONFIG" set "hotspot.ssid=$hotspot_name" \
            "hotspot.password=$hotspot_password"); then
        echo "install.sh: could not update $CONFIG (the message above says why); fix it and run this again" >&2
        exit 1
    elif [ "$written" = changed ]; then
        echo "    set [hotspot] in $CONFIG"
        changed=1
    else
        echo "    ok: [hotspot] in $CONFIG is up to date"
    fi
fi

step "the systemd service"
if [ -f "$UNIT" ] && cmp -s "$SOURCE/deploy/camelup.service" "$UNIT"; then
    echo "    ok: $UNIT is up to date"
else
    run install -D -m 0644 "$SOURCE/deploy/camelup.service" "$UNIT"
    run systemctl daemon-reload
fi
if ! systemctl is-enabled --quiet camelup.service 2>/dev/null; then
    run systemctl enable camelup.service
fi
if [ "$changed" = 1 ]; then
    run systemctl restart camelup.service
elif systemctl is-active --quiet camelup.service 2>/dev/null; then
    echo "    ok: running, nothing changed"
else
    run systemctl start camelup.service
fi

# Last, because it can take the Wi-Fi (and an SSH session over it) away: everything else is already done.
if [ "$hotspot_up" = 1 ]; then
    step "switch $WIFI_INTERFACE to the hotspot \"$hotspot_name\""
    if may_cut_wifi "switching $WIFI_INTERFACE to the hotspot"; then
        run nmcli connection up "$HOTSPOT_CONNECTION"
    else
        echo "    not switched yet: run  sudo nmcli connection up $HOTSPOT_CONNECTION  from the Pi's keyboard or"
        echo "    over Ethernet (or run this again with --yes)"
    fi
fi

step "done: check it with  $VENV/bin/camelup doctor"
