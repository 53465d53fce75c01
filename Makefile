# The README's two commands: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-bookworm lint setup pi-extras tools bench mutation clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@$(MAKE) --no-print-directory pi-extras
	@touch $(STAMP)

# On a Raspberry Pi, the rig's own modules too: the [pi] extra (lgpio for the pins, gpiod for the servo board's
# I²C), one by one. Best effort: without them the companion still starts, the pyramid marked unavailable.
PI_MODEL ?= /proc/device-tree/model
PI_EXTRA = $(BIN)/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["pi"])'
pi-extras:
	@if grep -qas "Raspberry Pi" $(PI_MODEL); then \
		for requirement in $$($(PI_EXTRA)); do \
			$(BIN)/python -m pip install --quiet "$$requirement" || { \
				echo "make setup: could not install $$requirement into $(VENV) (pip said why above)."; \
				echo "  The companion still starts; the dice pyramid's rig needs it. Where PyPI has no wheel for"; \
				echo "  this Python, pip builds it: sudo apt install swig liblgpio-dev libgpiod-dev python3-dev, then"; \
				echo "  make pi-extras. Or install the service (sudo deploy/install.sh), which uses Debian's packages."; }; \
		done; \
	fi

run: setup
	$(BIN)/camelup serve

lint: setup
	$(BIN)/ruff check .

# Test tools from Debian: Chromium for the real-browser test (Playwright never downloads a browser of its
# own), shellcheck for deploy/install.sh, iptables to cut a simulated phone off the network (in a network
# namespace of the test's own); systemd-analyze comes with systemd; openscad renders the pyramid's printable
# parts (about 55 MB without its recommends); povray renders benchmarks/povray's photos of a table (the camera
# measured on a second independent renderer).
TOOLS := chromium fonts-noto-color-emoji shellcheck iptables
tools:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v shellcheck >/dev/null 2>&1 \
			|| ! command -v iptables >/dev/null 2>&1; then \
		if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
			echo "installing $(TOOLS) for the tests"; \
			apt-get update -q && apt-get install -y -q $(TOOLS); \
		else \
			echo "chromium or shellcheck is missing and cannot be installed here: those tests will be skipped"; \
		fi; \
	fi
	@# openscad renders the pyramid's printed parts, povray the second independent camera renderer's scenes.
	@for tool in openscad povray; do \
		command -v $$tool >/dev/null 2>&1 && continue; \
		if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
			echo "installing $$tool for the tests"; \
			apt-get install -y -q --no-install-recommends $$tool || \
				{ apt-get update -q && apt-get install -y -q --no-install-recommends $$tool; }; \
		else \
			echo "$$tool is missing and cannot be installed here: the tests that need it will be skipped or fail"; \
		fi; \
	done

test: lint tools
	$(BIN)/python -m pytest -q
	@$(MAKE) --no-print-directory test-bookworm

# A Pi on Bookworm runs the camera with the system's numpy 1.24 and OpenCV 4.11 (deploy/install.sh keeps apt's
# numpy for picamera2); this machine's venv has numpy 2. The camera's and calibration's tests run again on those
# two, in a venv of their own (a numpy 2 function once slipped into the reader: every frame would have failed on
# the Pi), and so do the companion's other numpy users: the odds, the rules' batches, the placement page.
# Left out: the tests that need the browser or the dev extras (Playwright, gymnasium) and the camera start test
# written for numpy 2.
BOOKWORM_VENV := .venv-bookworm
BOOKWORM_STAMP := $(BOOKWORM_VENV)/.installed
BOOKWORM_PINS := numpy==1.24.4 opencv-python-headless==4.11.0.86
BOOKWORM_TESTS = $(filter-out tests/test_camera_box_picture.py tests/test_camera_start.py \
	tests/test_placement_start.py tests/test_placement_whole_rows.py, $(wildcard tests/test_vision*.py tests/test_calib*.py tests/test_camera*.py tests/test_odds*.py \
	tests/test_batch.py tests/test_placement*.py tests/test_picture_black.py tests/test_small_frame.py))

$(BOOKWORM_STAMP): pyproject.toml
	$(PYTHON) -m venv $(BOOKWORM_VENV)
	printf '%s\n' $(BOOKWORM_PINS) > $(BOOKWORM_VENV)/pins.txt
	$(BOOKWORM_VENV)/bin/python -m pip install --quiet -c $(BOOKWORM_VENV)/pins.txt -e . \
		'pytest>=8' 'hypothesis>=6.100' 'pytest-timeout>=2.3'
	@touch $(BOOKWORM_STAMP)

test-bookworm: $(BOOKWORM_STAMP)
	$(BOOKWORM_VENV)/bin/python -c 'import numpy, cv2; print("numpy", numpy.__version__, "OpenCV", cv2.__version__)'
	$(BOOKWORM_VENV)/bin/python -m pytest -q -p no:cacheprovider $(BOOKWORM_TESTS)

bench: setup
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Mutation testing of the modules that guard secrets, money and durability (slow; not part of `make test`).
# `make mutation MODULES=companion/table/store.py` runs one changed module;
# `MUTATION_FLAGS="--quick 0.3 --survivors"` reruns only its survivors with the quick tests (see the README).
mutation: setup
	$(BIN)/python scripts/mutation.py $(MUTATION_FLAGS) $(MODULES)

clean:
	rm -rf $(VENV) $(BOOKWORM_VENV) .pytest_cache .ruff_cache .hypothesis mutants
