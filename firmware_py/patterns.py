"""What the RGB LED shows: each pattern is a list of (colour, seconds) steps, documented in hardware/README.md.

| pattern | looks like |
|---|---|
| a racing die | its colour for ``show_time``, then *value* dark blinks, then its colour stays on |
| grey die, white number | dim grey for ``show_time``, then *value* bright white flashes, then white stays on |
| grey die, black number | dim grey for ``show_time``, then *value* dark blinks, then dim grey stays on |
| ready | a dim white glow |
| leg over | slow amber blinking (1 s period) until the pyramid is refilled |
| error | fast red blinking (5 per second) |
| put dice back | the colour of each die to put back in turn, then a dark pause, until they are back |
| refused | three fast red blinks, then the ready glow: the game did not accept that draw, nothing fell |
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.config import LedConfig
from firmware_py.pyramid import Die

Colour = tuple[float, float, float]
OFF: Colour = (0.0, 0.0, 0.0)
WHITE: Colour = (1.0, 1.0, 1.0)
READY: Colour = (0.08, 0.08, 0.08)
AMBER: Colour = (1.0, 0.3, 0.0)
RED: Colour = (1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Pattern:
    name: str
    steps: tuple[tuple[Colour, float], ...]
    """(colour, seconds) in order; the first step is shown at once."""
    then: Colour | None = None
    """The colour left on after the steps; ``None`` repeats the steps until another pattern starts."""

    @property
    def first_colour(self) -> Colour:
        return self.steps[0][0]


def _blinks(value: int, on: Colour, off: Colour, led: LedConfig) -> tuple[tuple[Colour, float], ...]:
    return tuple(step for _ in range(value) for step in ((off, led.blink_off), (on, led.blink_on)))


def die_pattern(die: Die, value: int, crazy: str | None, led: LedConfig) -> Pattern:
    """The die's colour, then its value counted in blinks (white vs black numbers of the grey die differ)."""
    colour = die.led_colour
    if crazy == "white":
        steps = ((colour, led.show_time), *_blinks(value, WHITE, OFF, led))
        return Pattern(f"{die.name} {value} white", steps, then=WHITE)
    name = f"{die.name} {value}" + (f" {crazy}" if crazy else "")
    return Pattern(name, ((colour, led.show_time), *_blinks(value, colour, OFF, led)), then=colour)


READY_PATTERN = Pattern("ready", ((READY, 0.0),), then=READY)
LEG_OVER_PATTERN = Pattern("leg over", ((AMBER, 0.5), (OFF, 0.5)))
ERROR_PATTERN = Pattern("error", ((RED, 0.1), (OFF, 0.1)))
REFUSED_PATTERN = Pattern("refused", ((RED, 0.1), (OFF, 0.1)) * 3, then=READY)


def put_back_pattern(dice: tuple[Die, ...]) -> Pattern:
    """The rig and the game disagree: each die to put back shows its colour in turn, then a pause."""
    steps = tuple(step for die in dice for step in ((die.led_colour, 0.4), (OFF, 0.2)))
    return Pattern("put back " + " ".join(die.name for die in dice), (*steps, (OFF, 0.6)))
