"""Mutation testing of the modules that guard secrets, money and durability (``make mutation``).

Runs mutmut (configured in pyproject.toml's ``[tool.mutmut]``) on the named modules, then prints each
module's score (killed / mutants tested) and every surviving mutant with its diff. A survivor is a change to
the code that no test noticed: read it, then write the test that fails on it.

    .venv/bin/python scripts/mutation.py                         # every guarded module (slow: an hour or more)
    .venv/bin/python scripts/mutation.py companion/table/store.py      # one changed module
    .venv/bin/python scripts/mutation.py --report                # the last run's figures again, no run
    .venv/bin/python scripts/mutation.py --survivors companion/table/store.py   # after new tests: rerun only
                                                                 # that module's last survivors (minutes, not an hour)

The score is killed / all mutants, as mutmut's own figure: a mutant that no test runs counts against it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUARDED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]["only_mutate"]
"""Secrets, money and durability: each of these modules should stay at 90% or more."""
KILLED = {1, 3, 36, 24, -24, 152, 255, 37}  # a failing test, a crash, or a timeout all count as caught
SURVIVED = {0}
NO_TEST = {33}  # no test runs the mutated function: as bad as a survivor


def results() -> dict[str, int | None]:
    found: dict[str, int | None] = {}
    for meta in (ROOT / "mutants").rglob("*.py.meta"):
        found.update(json.loads(meta.read_text())["exit_code_by_key"])
    return found


def wanted_modules(patterns: list[str]) -> set[str]:
    return {str(p.relative_to(ROOT)) for pattern in patterns for p in ROOT.glob(pattern)}


def module_of(mutant: str) -> str:
    """``companion.table.store.x_Store_append__mutmut_3`` -> ``companion/table/store.py``."""
    parts = mutant.split("__mutmut_")[0].split(".")
    for end in range(len(parts), 0, -1):
        path = Path(*parts[:end]).with_suffix(".py")
        if (ROOT / path).exists():
            return str(path)
    return mutant


def report(patterns: list[str]) -> int:
    wanted = wanted_modules(patterns)
    scores: dict[str, Counter[str]] = {}
    survivors: list[str] = []
    for mutant, code in sorted(results().items()):
        module = module_of(mutant)
        if module not in wanted or code is None:
            continue
        outcome = "killed" if code in KILLED else "survived" if code in SURVIVED else \
            "no test" if code in NO_TEST else "skipped"
        scores.setdefault(module, Counter())[outcome] += 1
        if outcome in ("survived", "no test"):
            survivors.append(mutant)
    if not scores:
        print("no mutation results for these modules: run without --report first", file=sys.stderr)
        return 2
    print(f"{'module':34} {'killed':>7} {'survived':>9} {'no test':>8} {'score':>7}")
    below = []
    for module, count in sorted(scores.items()):
        tested = count["killed"] + count["survived"] + count["no test"]
        score = count["killed"] / tested if tested else 1.0
        below += [module] if score < 0.9 else []
        print(f"{module:34} {count['killed']:7} {count['survived']:9} {count['no test']:8} {score:7.1%}")
    for mutant in survivors:
        print(f"\n--- not caught: {mutant}")
        shown = subprocess.run([sys.executable, "-m", "mutmut", "show", mutant], cwd=ROOT,
                               capture_output=True, text=True)
        print(shown.stdout.strip() or shown.stderr.strip())
    if below:
        print(f"\nunder 90%: {', '.join(below)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="files or globs (default: every guarded module)")
    parser.add_argument("--report", action="store_true", help="print the last run's figures without running")
    parser.add_argument("--survivors", action="store_true",
                        help="rerun only the mutants the last run left alive (after writing tests for them)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    patterns = args.modules or GUARDED
    if not args.report:
        names = [pattern.removesuffix(".py").replace("/", ".") + ".*" for pattern in patterns]
        if args.survivors:
            wanted = wanted_modules(patterns)
            names = [mutant for mutant, code in sorted(results().items())
                     if module_of(mutant) in wanted and (code in SURVIVED or code in NO_TEST)]
            if not names:
                print("no survivors to rerun for these modules")
                return report(patterns)
        command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.workers), *names]
        print("running:", " ".join(command[1:]), flush=True)
        subprocess.run(command, cwd=ROOT, check=False)
    return report(patterns)


if __name__ == "__main__":
    raise SystemExit(main())
