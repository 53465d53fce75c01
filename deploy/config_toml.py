"""Write the companion's /etc/camelup/config.toml for deploy/install.sh, with tomli-w (so a `"` or `\\` in a
Wi-Fi name or password is quoted correctly), and only when a value really changes.

    config_toml.py FILE set KEY=VALUE ...     set text values (KEY like hotspot.ssid); create FILE if missing
    config_toml.py FILE get KEY               print a value (nothing when it is not set)

Prints "changed" or "unchanged" after `set`. The comment lines at the top of the file are kept; a value that
already reads the same is left alone, so a second identical run changes nothing.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

HEADER = "# The Camel Up companion's settings (see README.md). Restart after a change: sudo systemctl restart camelup\n"


def _header(text: str) -> str:
    lines = []
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        lines.append(line)
    return "".join(lines) or HEADER


def _typed(key: str, value: str) -> Any:
    # The few settings that are numbers; everything else the installer writes is text.
    return int(value) if key == "port" else value


def set_values(path: Path, assignments: list[str]) -> bool:
    """Set each ``key=value`` (dotted keys name a table); True when the file changed."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    data = tomllib.loads(text)
    before = tomllib.loads(text)
    for assignment in assignments:
        key, separator, value = assignment.partition("=")
        if not separator or not key:
            raise SystemExit(f"config_toml.py: expected KEY=VALUE, got {assignment!r}")
        *tables, name = key.split(".")
        table = data
        for part in tables:
            table = table.setdefault(part, {})
        table[name] = _typed(key, value)
    if data == before and path.exists():
        return False
    import tomli_w  # only here: `get` runs with the system's Python, which may not have it

    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".new")
    partial.write_text(_header(text) + tomli_w.dumps(data), encoding="utf-8")
    partial.replace(path)  # never a half-written configuration, even on a power cut
    return True


def get_value(path: Path, key: str) -> str:
    if not path.exists():
        return ""
    value: Any = tomllib.loads(path.read_text(encoding="utf-8"))
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return ""
        value = value[part]
    return str(value)


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1] not in ("set", "get"):
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(argv[0])
    try:
        if argv[1] == "get":
            print(get_value(path, argv[2]))
        else:
            print("changed" if set_values(path, argv[2:]) else "unchanged")
    except tomllib.TOMLDecodeError as error:
        print(f"config_toml.py: {path}: not valid TOML ({error})", file=sys.stderr)
        return 1
    except (OSError, IndexError) as error:
        print(f"config_toml.py: {path}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
