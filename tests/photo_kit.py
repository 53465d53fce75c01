"""Tables of the project's photo renderer (:mod:`vision.photo`) calibrated as a builder would calibrate them, for
the reader's tests."""

from vision.calibrate import Calibration, calibrate
from vision.photo import Table, render_calibration
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS


def calibrated(table: Table, tier: str = "clean") -> Calibration:
    """``table`` calibrated from its calibration photo taken in ``tier``'s light (the reader's colours for it)."""
    photo, _ = render_calibration(table, seed=0, tier=tier)
    return calibrate(ReadConfig(), table.template, list(EDITION_CAMELS[table.edition]), photo)
