"""Bots from anywhere: a built-in name, ``module:Class``, ``path/to/bot.py[:Class]``, or another program
that speaks the ``camelup-bot/1`` protocol (``exec:COMMAND``, or the path of an executable file).

A Python bot is any class with ``choose(view, legal, rng)`` returning a legal action or
:data:`companion.sim.bots.DRAW` (see :class:`companion.sim.bots.Bot`), built without arguments.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import random
import selectors
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from companion.rules import GameState, LegalActions
from companion.sim.contract import Bot, Choice
from companion.sim.protocol import parse_answer, request

FORMS = "a built-in bot (random, greedy, strong, expert), module:Class, path/to/bot.py[:Class], exec:COMMAND"
_files: dict[str, ModuleType] = {}


def _module_from_file(path: Path) -> ModuleType:
    key = str(path.resolve())
    if key not in _files:
        spec = importlib.util.spec_from_file_location(f"camelup_bot_{len(_files)}", path)
        if spec is None or spec.loader is None:
            raise ValueError(f"{path} cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as error:  # the bot's file is not ours: say what broke, without a traceback
            raise ValueError(f"loading {path} failed: {type(error).__name__}: {error}") from None
        _files[key] = module
    return _files[key]


def _bot_class(module: ModuleType, class_name: str | None, where: str) -> type:
    if class_name is not None:
        found = getattr(module, class_name, None)
        if not inspect.isclass(found):
            raise ValueError(f"{where} has no class {class_name!r}")
        return found
    candidates = [
        value for value in vars(module).values()
        if inspect.isclass(value) and value.__module__ == module.__name__ and callable(getattr(value, "choose", None))
    ]
    if len(candidates) != 1:
        names = ", ".join(sorted(c.__name__ for c in candidates)) or "none"
        raise ValueError(f"{where} must define exactly one class with a choose method (found: {names}); "
                         f"name it as {where}:Class")
    return candidates[0]


def _instantiate(cls: type, where: str) -> Bot:
    if not callable(getattr(cls, "choose", None)):
        raise ValueError(f"{where}: {cls.__name__} has no choose(view, legal, rng) method")
    try:
        return cls()
    except Exception as error:
        raise ValueError(f"{where}: building {cls.__name__}() failed: {type(error).__name__}: {error}") from None


def bot_factory(spec: str) -> Callable[[], Bot]:
    """A function that builds a new bot for ``spec`` (not a built-in name); the spec is checked now.

    Raises:
        ValueError: the spec names nothing loadable, in words.
    """
    if spec.startswith("exec:"):
        command = shlex.split(spec[len("exec:"):])
        if not command:
            raise ValueError("exec: needs a command, e.g. exec:'python3 my_bot.py'")
        return lambda: SubprocessBot(command, name=spec)
    path_part, _, class_name = spec.partition(":") if not _is_windows_drive(spec) else (spec, "", "")
    path = Path(path_part)
    if path_part.endswith(".py") or path.exists():
        if not path.is_file():
            raise ValueError(f"no bot file {path_part}")
        if path.suffix != ".py":
            if not os.access(path, os.X_OK):
                raise ValueError(f"{path_part} is neither a .py file nor an executable program")
            return lambda: SubprocessBot([str(path.resolve())], name=spec)
        cls = _bot_class(_module_from_file(path), class_name or None, path_part)
        _instantiate(cls, spec)
        return lambda: cls()
    if class_name:
        try:
            module = importlib.import_module(path_part)
        except ImportError as error:
            raise ValueError(f"cannot import {path_part!r}: {error}") from None
        except Exception as error:
            raise ValueError(f"importing {path_part} failed: {type(error).__name__}: {error}") from None
        cls = _bot_class(module, class_name, path_part)
        _instantiate(cls, spec)
        return lambda: cls()
    raise ValueError(f"unknown bot {spec!r} (known: {FORMS})")


def _is_windows_drive(spec: str) -> bool:
    return len(spec) > 2 and spec[1] == ":" and spec[2] in "\\/"


class SubprocessBot:
    """A bot in another program: started on its first decision, one JSON line in and one out per decision
    (:mod:`companion.sim.protocol`). A crash or a timeout stops the program; the next decision starts it
    again. What it writes to standard error is kept, and its last line is quoted when it crashes."""

    def __init__(self, command: list[str], name: str | None = None) -> None:
        self.command = command
        self.name = name or shlex.join(command)
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 — lives as long as the bot; close() closes it
        self._buffer = b""
        self._started = False

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            self._buffer = b""
            try:
                self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                 stderr=self._stderr, bufsize=0)
            except OSError as error:
                raise RuntimeError(f"cannot start {self.name}: {error.strerror or error}") from None
        return self._process

    def choose(self, view: GameState, legal: LegalActions, rng: object) -> Choice:
        return self.choose_within(view, legal, rng, 3600.0)

    startup_seconds = 10.0
    """Extra time for the bot's first decision, which starts the program (an interpreter or a JVM takes a
    while). A program started again after a fault has no extra time."""

    def choose_within(self, view: GameState, legal: LegalActions, rng: object, timeout: float) -> Choice:
        starting = not self._started
        self._started = True
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            seed = rng.randrange(2**32) if isinstance(rng, random.Random) else 0
            process.stdin.write((request(view, legal, seed) + "\n").encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise RuntimeError(f"the bot exited{self._last_error()}") from None
        line = self._read_line(process, timeout + (self.startup_seconds if starting else 0.0))
        return parse_answer(line.decode("utf-8", "replace"), legal)

    def _read_line(self, process: subprocess.Popen[bytes], timeout: float) -> bytes:
        assert process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            deadline = time.monotonic() + timeout
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._stop()
                    raise TimeoutError(f"no answer within {timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    process.wait()
                    raise RuntimeError(f"the bot exited with status {process.returncode}{self._last_error()}")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _last_error(self) -> str:
        self._stderr.seek(0)
        lines = [line for line in self._stderr.read().decode("utf-8", "replace").splitlines() if line.strip()]
        return f": {lines[-1].strip()[:200]}" if lines else ""

    def _stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None

    def close(self) -> None:
        """End the program: its standard input is closed (a polite end), then it is stopped."""
        process = self._process
        if process is not None and process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.close()
                process.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()
        self._stderr.close()
