#!/usr/bin/env bash
# Install the Camel Up companion on Raspberry Pi OS (Bookworm, 64-bit) as a service.
#
#   sudo deploy/install.sh                       install or update (a second run changes nothing)
#   sudo deploy/install.sh --hotspot NAME PASS   also make the Pi its own Wi-Fi network for the table
#   deploy/install.sh --dry-run [...]            print every step without doing it
#   sudo deploy/install.sh --uninstall [--purge] remove what was added; --purge also deletes the games
set -euo pipefail

# CAMELUP_ROOT installs everything under another directory (the tests use it with stand-in system commands).
ROOT=${CAMELUP_ROOT:-}
PREFIX=$ROOT/opt/camelup
VENV=$PREFIX/venv
CONFIG_DIR=$ROOT/etc/camelup
DATA_DIR=$ROOT/var/lib/camelup
UNIT=$ROOT/etc/systemd/system/camelup.service
SERVICE_USER=camelup
HOTSPOT_CONNECTION=camelup-hotspot
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

dry_run=0
uninstall=0
purge=0
hotspot_name=""
hotspot_password=""

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --uninstall) uninstall=1 ;;
        --purge) purge=1 ;;
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

if [ -n "$hotspot_password" ] && [ ${#hotspot_password} -lt 8 ]; then
    echo "install.sh: a Wi-Fi password needs at least 8 characters" >&2
    exit 2
fi

changed=0
step() { echo "==> $*"; }
# run CMD...: do it, or only print it with --dry-run.
run() {
    changed=1
    if [ "$dry_run" = 1 ]; then
        echo "    would run: $*"
    else
        "$@"
    fi
}

if [ "$dry_run" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo), or with --dry-run to see the steps" >&2
    exit 1
fi

if [ "$uninstall" = 1 ]; then
    step "stop and disable the service"
    if systemctl list-unit-files camelup.service >/dev/null 2>&1 && [ -f "$UNIT" ]; then
        run systemctl disable --now camelup.service
    else
        echo "    ok: no service installed"
    fi
    step "remove $UNIT, $PREFIX and $CONFIG_DIR"
    run rm -f "$UNIT"
    run rm -rf "$PREFIX" "$CONFIG_DIR"
    run systemctl daemon-reload
    if command -v nmcli >/dev/null 2>&1 && nmcli -t -f NAME connection show 2>/dev/null | grep -qx "$HOTSPOT_CONNECTION"; then
        step "remove the Wi-Fi hotspot"
        run nmcli connection delete "$HOTSPOT_CONNECTION"
    fi
    if [ "$purge" = 1 ]; then
        step "delete the games in $DATA_DIR and the $SERVICE_USER user"
        run rm -rf "$DATA_DIR"
        if id "$SERVICE_USER" >/dev/null 2>&1; then run userdel "$SERVICE_USER"; fi
    else
        echo "    kept: the games in $DATA_DIR (add --purge to delete them)"
    fi
    exit 0
fi

step "check the system"
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    echo "    ${PRETTY_NAME:-unknown system}"
    [ "${VERSION_CODENAME:-}" = bookworm ] || echo "    note: made for Raspberry Pi OS Bookworm; continuing"
fi

step "system packages: python3-venv, python3-picamera2 (libcamera's own build), python3-lgpio (GPIO)"
missing=()
for package in python3-venv python3-picamera2 python3-lgpio; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "    ok: all installed"
else
    run apt-get update
    run apt-get install -y "${missing[@]}"
fi

step "the $SERVICE_USER user, in the gpio and video groups"
if id "$SERVICE_USER" >/dev/null 2>&1; then
    echo "    ok: exists"
else
    run useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in gpio video; do
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

step "the program in $PREFIX, its virtual environment with the system's picamera2 and lgpio"
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
if [ "$program_changed" = 1 ] || ! "$VENV/bin/python" -c "import companion, lgpio" >/dev/null 2>&1; then
    run "$VENV/bin/python" -m pip install --quiet --upgrade "${PREFIX}[pi]"
else
    echo "    ok: installed in $VENV"
fi

step "configuration in $CONFIG_DIR/config.toml, games in $DATA_DIR"
if [ ! -d "$CONFIG_DIR" ] || [ ! -d "$DATA_DIR" ]; then
    run mkdir -p "$CONFIG_DIR" "$DATA_DIR"
fi
if [ -f "$CONFIG_DIR/config.toml" ]; then
    echo "    ok: kept the existing configuration"
elif [ "$dry_run" = 1 ]; then
    echo "    would write: $CONFIG_DIR/config.toml"
else
    cat > "$CONFIG_DIR/config.toml" <<CONFIG
# The Camel Up companion's settings (see README.md). Restart after a change: sudo systemctl restart camelup
port = 8000
language = "auto"

[pyramid]
mode = "auto"
config = "$CONFIG_DIR/pyramid.toml"
CONFIG
    cp "$PREFIX/hardware/pyramid.example.toml" "$CONFIG_DIR/pyramid.toml"
    changed=1
fi
if [ "$(stat -c %U "$DATA_DIR" 2>/dev/null)" != "$SERVICE_USER" ]; then
    run chown -R "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
fi

if [ -n "$hotspot_name" ]; then
    step "Wi-Fi hotspot \"$hotspot_name\" (NetworkManager), so a table needs no router"
    if ! command -v nmcli >/dev/null 2>&1; then
        if [ "$dry_run" = 0 ]; then
            echo "install.sh: nmcli (NetworkManager) is needed for the hotspot" >&2
            exit 1
        fi
        echo "    note: nmcli (NetworkManager) is not on this machine; Raspberry Pi OS Bookworm has it"
    fi
    if command -v nmcli >/dev/null 2>&1 && nmcli -t -f NAME connection show 2>/dev/null | grep -qx "$HOTSPOT_CONNECTION"; then
        run nmcli connection modify "$HOTSPOT_CONNECTION" 802-11-wireless.ssid "$hotspot_name" wifi-sec.psk "$hotspot_password"
    else
        run nmcli connection add type wifi ifname wlan0 con-name "$HOTSPOT_CONNECTION" autoconnect yes \
            ssid "$hotspot_name" 802-11-wireless.mode ap 802-11-wireless.band bg ipv4.method shared \
            wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$hotspot_password"
    fi
    if ! nmcli -t -f NAME connection show --active 2>/dev/null | grep -qx "$HOTSPOT_CONNECTION"; then
        run nmcli connection up "$HOTSPOT_CONNECTION"
    fi
    if [ "$dry_run" = 1 ]; then
        echo "    would add to $CONFIG_DIR/config.toml: [hotspot] ssid and password"
    elif ! grep -q '^\[hotspot\]' "$CONFIG_DIR/config.toml"; then
        printf '\n[hotspot]\nssid = "%s"\npassword = "%s"\n' "$hotspot_name" "$hotspot_password" >> "$CONFIG_DIR/config.toml"
        changed=1
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

step "done: check it with  $VENV/bin/camelup doctor --config $CONFIG_DIR/config.toml"
