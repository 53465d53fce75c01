"""What pip installs on the Pi, asked of PyPI without installing anything: with the system's numpy pinned the
way deploy/install.sh pins it, pip must choose an OpenCV built for that numpy and never bring a numpy of its
own (apt's picamera2 is built against Debian's: another numpy in front of it fails on import with "numpy.dtype
size changed"). PyPI is reachable from the development machine and from CI."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]

# (Raspberry Pi OS, its Python, its python3-numpy, the OpenCV series that runs on that numpy)
DISTRIBUTIONS = [
    ("bookworm", "3.11", "1.24.2", "4.11"),
    ("trixie", "3.13", "2.2.4", "4.12"),
]


def pi_requirements() -> list[str]:
    """The project's dependencies as install.sh asks for them, less lgpio: apt's python3-lgpio (0.2.2.0, which
    pip sees through --system-site-packages) provides it, and PyPI has no wheel of it for every Python."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]


def resolve(tmp_path: Path, python: str, numpy: str) -> dict:
    constraints = tmp_path / "constraints.txt"
    constraints.write_text(f"numpy=={numpy}\n")  # what install.sh writes, from the system's numpy
    report = tmp_path / "report.json"
    command = [
        # --target: nothing installed here is taken as already there (and older pips need it with --platform)
        sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--target", str(tmp_path / "target"),
        "--report", str(report),
        "--python-version", python, "--implementation", "cp", "--only-binary=:all:",
        "--platform", "manylinux_2_36_aarch64", "--platform", "manylinux2014_aarch64",
        "--constraint", str(constraints), *pi_requirements(),
    ]
    # Only PyPI, as on the Pi: no configuration of this machine's own pip.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")} | {"PIP_CONFIG_FILE": os.devnull}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)
    if result.returncode != 0:
        if "satisfies the requirement" in result.stderr or "ResolutionImpossible" in result.stderr:
            pytest.fail(f"pip cannot install the project beside numpy {numpy} on Python {python}: the OpenCV range "
                        f"in pyproject.toml has no build for it.\n{result.stderr}")
        pytest.fail(f"pip could not answer (is PyPI unreachable?):\n{result.stderr}")
    return {item["metadata"]["name"].lower(): item for item in json.loads(report.read_text())["install"]}


@pytest.mark.parametrize(("system", "python", "numpy", "opencv"), DISTRIBUTIONS, ids=[d[0] for d in DISTRIBUTIONS])
def test_pip_keeps_the_systems_numpy_and_picks_an_opencv_built_for_it(tmp_path, system, python, numpy, opencv):
    chosen = resolve(tmp_path, python, numpy)
    assert chosen["numpy"]["metadata"]["version"] == numpy, (
        f"on {system}, pip would put numpy {chosen['numpy']['metadata']['version']} in front of the system's "
        f"{numpy}: apt's picamera2 would fail to import")
    cv = chosen["opencv-python-headless"]
    assert Version(cv["metadata"]["version"]).release[:2] == Version(opencv).release[:2], cv["metadata"]["version"]
    assert cv["download_info"]["url"].endswith("aarch64.whl"), "a wheel for the Pi's 64-bit ARM, not a build"
    for name, item in chosen.items():  # nothing else brings a compiled module built for another numpy
        url = item["download_info"]["url"]
        assert url.endswith(("-none-any.whl", "aarch64.whl")), f"{name}: {url}"
