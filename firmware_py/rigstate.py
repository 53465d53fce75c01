"""What the rig remembers across power cuts: the leg, the dice out (in the tray), a release under way, the dice
that must be put back, and the sequence number. Saved with :func:`firmware_py.durable.write_atomically`
before every move, so after a restart the rig knows which gate to open again and which dice to ask for."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.durable import write_atomically
from firmware_py.pyramid import Draw

FORMAT = 1


@dataclass
class RigRecord:
    edition: str
    leg: int = 1
    sequence: int = 0
    out: list[Draw] = field(default_factory=list)
    """This leg's draws whose dice are released (or being released) into the tray."""
    releasing: str | None = None
    """A die whose gate was told to open and whose gate was not yet seen closed again."""
    put_back: list[str] = field(default_factory=list)
    """Dice lying in the tray that the pyramid must hold again (an undo, or the game disagrees)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "edition": self.edition,
            "leg": self.leg,
            "sequence": self.sequence,
            "out": [
                {"die": d.die, "value": d.value, "crazy": d.crazy, "sequence": d.sequence} for d in self.out
            ],
            "releasing": self.releasing,
            "put_back": list(self.put_back),
        }


class StateError(ValueError):
    """The state file cannot be used; the message says why (the rig then starts from a full pyramid)."""


def parse_record(data: Any, dice: list[str]) -> RigRecord:
    """A record from its JSON form, checked against the pyramid's ``dice``."""
    try:
        if data["format"] != FORMAT:
            raise StateError(f"unknown format {data['format']!r}")
        out = [
            Draw(int(data["leg"]), int(d["sequence"]), str(d["die"]), int(d["value"]), d["crazy"], 0.0)
            for d in data["out"]
        ]
        record = RigRecord(
            str(data["edition"]), int(data["leg"]), int(data["sequence"]), out,
            data["releasing"], [str(d) for d in data["put_back"]],
        )
    except (KeyError, TypeError, ValueError) as error:
        raise StateError(f"damaged ({error})") from None
    named = [d.die for d in record.out] + record.put_back + ([record.releasing] if record.releasing else [])
    strangers = sorted(set(named) - set(dice))
    if strangers:
        raise StateError(f"names dice this pyramid does not have: {', '.join(strangers)}")
    return record


class StateFile:
    """The rig's record on disk (JSON)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def load(self, edition: str, dice: list[str]) -> RigRecord | None:
        """The saved record, or ``None`` when there is none yet.

        Raises:
            StateError: the file is unreadable, damaged, or for the other edition.
        """
        try:
            text = self.path.read_text(encoding="utf-8")  # pragma: no mutate (json.dumps writes ASCII only)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StateError(f"{self.path}: cannot read it ({error.strerror})") from None
        try:
            record = parse_record(json.loads(text), dice)
        except (json.JSONDecodeError, StateError) as error:
            raise StateError(f"{self.path}: {error}") from None
        if record.edition != edition:
            raise StateError(f"{self.path}: saved for the {record.edition} dice, not the {edition} ones")
        return record

    def save(self, record: RigRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps(record.as_json(), indent=1))


class MemoryState:
    """A record kept in memory (simulations without a file; the twin's power cuts keep it as a disk would)."""

    def __init__(self) -> None:
        self.saved: dict[str, Any] | None = None
        self.saves = 0

    def load(self, edition: str, dice: list[str]) -> RigRecord | None:
        return None if self.saved is None else parse_record(self.saved, dice)

    def save(self, record: RigRecord) -> None:
        self.saved = json.loads(json.dumps(record.as_json()))
        self.saves += 1


def names_in_words(names: list[str]) -> str:
    """``blue``, ``blue and red``, ``blue, red and green``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
