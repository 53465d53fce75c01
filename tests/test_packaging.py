"""Files that are not Python must be declared as package data, or a regular install (the Raspberry Pi's,
by deploy/install.sh) would serve no pages."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_data_file_of_the_packages_is_declared():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    covered = set()
    for package, patterns in declared.items():
        base = ROOT / package.replace(".", "/")
        for pattern in patterns:
            covered |= {path for path in base.glob(pattern) if path.is_file()}
    data_files = {
        path
        for package in ("companion", "firmware_py", "vision")
        for path in (ROOT / package).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }
    assert data_files, "the packages ship pages and templates"
    assert data_files - covered == set(), "add these to [tool.setuptools.package-data] in pyproject.toml"
