"""The camels' real size at one table, kept with its calibration (``"camel_size"`` in the saved file): the
reader's model of a camel (:class:`vision.silhouette.FitConfig`: a body box of a share of the camel's length and
width, one ``step_mm`` higher per camel stacked) is drawn to it.

The game's camels are about 30 × 14 mm, and each camel on another stands 18 to 20 mm higher; sets and copies
differ by a millimetre or two. A calibration photo does not measure that well enough: fitting the reader's
model to the photo's camels over a grid of sizes is further off than the usual size itself
(``benchmarks/calibration_camel_size.py --tables 20 --reading 3``, 20 fresh rendered tables whose camels are
28-32 mm long and stack 18-20 mm apart: the length off by 1.39 mm in neutral light and 1.75 mm in a lamp's,
the usual 30 mm by 1.07; the stack step, fitted on boards with stacks as the calibration layout has none, off by
1.42 and 1.55 mm, the usual 19.5 mm by 0.75). Read with each table's true size instead, readings change little
(60 boards per light: fully right 55 → 56 and 48 → 50, camels on a wrong space 3 → 3 and 1 → 3, unseen 3 → 2 and
21 → 14). So a calibration records the usual size, and a builder whose camels differ measures one with a ruler
and enters it in the saved file, as the template's millimetres are.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from vision.silhouette import FitConfig

USUAL = FitConfig()
LIMITS: dict[str, tuple[float, float]] = {"length_mm": (20.0, 45.0), "width_mm": (8.0, 25.0),
                                          "step_mm": (12.0, 30.0)}
"""What a camel of Camel Up can measure (mm): anything outside is a typing slip in the file."""


@dataclass(frozen=True)
class CamelSize:
    length_mm: float = USUAL.length_mm
    width_mm: float = USUAL.width_mm
    step_mm: float = USUAL.step_mm
    """How much higher each camel of a stack stands than the one under it."""

    @property
    def usual(self) -> bool:
        """The game's usual size (what a calibration records unless corrected by hand)."""
        return self == CamelSize()

    def fit(self, base: FitConfig | None = None) -> FitConfig:
        """The reader's camel model (``base``, or the default one) drawn to this size."""
        return dataclasses.replace(base or FitConfig(), length_mm=self.length_mm, width_mm=self.width_mm,
                                   step_mm=self.step_mm)

    def as_json(self) -> dict[str, float]:
        return {"length_mm": round(self.length_mm, 1), "width_mm": round(self.width_mm, 1),
                "step_mm": round(self.step_mm, 1)}

    def describe(self, brief: bool = False) -> str:
        """In words, for the calibrate command (``brief``: for ``doctor``'s line)."""
        size = f"{self.length_mm:g} × {self.width_mm:g} mm, {self.step_mm:g} mm higher per camel stacked"
        if brief:
            return f"{size}, {'the game' if self.usual else 'this table'}'s"
        if self.usual:
            return (f"{size} (the game's usual: a photo does not measure it to a millimetre; if your camels "
                    "differ, measure one and give it as camel_size in the file)")
        return f"{size} (this table's, as given in the file)"


def parse_camel_size(value: Any, where: str) -> CamelSize:
    """The optional ``camel_size`` key of a saved calibration (absent in files from before it: the usual size).

    Raises:
        ValueError: not an object, an unknown key, or a size that is not a number within :data:`LIMITS` (named).
    """
    if value is None:
        return CamelSize()
    if not isinstance(value, dict):
        raise ValueError(f"{where}: must be an object with {', '.join(LIMITS)} (millimetres)")
    unknown = sorted(set(value) - set(LIMITS))
    if unknown:
        raise ValueError(f"{where}.{unknown[0]}: not a camel size (give {', '.join(LIMITS)}, in millimetres)")
    sizes = {}
    for key, (low, high) in LIMITS.items():
        if key not in value:
            continue
        number = value[key]
        if isinstance(number, bool) or not isinstance(number, int | float) or not low <= number <= high:
            raise ValueError(f"{where}.{key}: must be a number of millimetres, {low:g} to {high:g}")
        sizes[key] = float(number)
    return CamelSize(**sizes)
