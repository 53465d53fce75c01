"""Mutation testing of the modules that guard secrets, money and durability (``make mutation``).

Runs mutmut (configured in pyproject.toml's ``[tool.mutmut]``) on the named modules, then prints each
module's score (killed / mutants tested) and every surviving mutant with its diff. A survivor is a change to
the code that no test noticed: read it, then write the test that fails on it.

    .venv/bin/python scripts/mutation.py                         # every guarded module (slow: an hour or more)
    .venv/bin/python scripts/mutation.py companion/table/store.py      # one changed module
    .venv/bin/python scripts/mutation.py --report                # the last run's figures again, no run
    .venv/bin/python scripts/mutation.py --survivors companion/table/store.py   # after new tests: rerun only
                                                                 # that module's last survivors (minutes, not an hour)

    .venv/bin/python scripts/mutation.py --quick 0.3 --pending companion/gamelog.py  # on a busy machine: only
                                          # tests under 0.3 s per mutant, only mutants with no verdict yet

The score is killed / all mutants, as mutmut's own figure: a mutant that no test runs counts against it.
With ``--quick`` the slow tests (whole simulated games, property tests) are left out of each mutant's run, so
the score is a lower bound: a survivor may still be caught by a slow test (run it without ``--quick`` to see).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUARDED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]["only_mutate"]
"""Secrets, money and durability: each of these modules should stay at 90% or more."""
KILLED = {1, 3, 36, 24, -24, 152, 255, 37}  # a failing test, a crash, or a timeout all count as caught
SURVIVED = {0}
NO_TEST = {33}  # no test runs the mutated function: as bad as a survivor


STATS = ROOT / "mutants" / "mutmut-stats.json"


FULL_STATS = ROOT / "mutants" / "mutmut-stats.full.json"


@contextlib.contextmanager
def quick_tests(cap: float | None) -> Iterator[None]:
    """While mutmut runs, each function is tested only by its tests quicker than ``cap`` seconds (by mutmut's
    own timings; the three quickest if none is). Afterwards every test is put back (also after a run that was
    stopped: the full list waits in ``FULL_STATS`` until then)."""
    if FULL_STATS.exists():  # a quick run was stopped before it could put the slow tests back
        _put_back(json.loads(FULL_STATS.read_text()))
    if cap is None or not STATS.exists():
        if cap is not None:
            print("--quick needs one full run first (it learns which tests are slow): running in full")
        yield
        return
    full = json.loads(STATS.read_text())
    FULL_STATS.write_text(json.dumps(full))
    durations = full["duration_by_test"]
    quick = {**full, "tests_by_mangled_function_name": {
        function: [t for t in tests if durations.get(t, 0.0) < cap] or sorted(tests, key=durations.get)[:3]
        for function, tests in full["tests_by_mangled_function_name"].items()}}
    STATS.write_text(json.dumps(quick))
    try:
        yield
    finally:
        _put_back(full)


def _put_back(full: dict) -> None:
    if not STATS.exists():  # mutmut will collect the map again in full
        FULL_STATS.unlink(missing_ok=True)
        return
    after = json.loads(STATS.read_text())
    mapping = after["tests_by_mangled_function_name"]
    for function, tests in full["tests_by_mangled_function_name"].items():
        mapping[function] = sorted(set(mapping.get(function, [])) | set(tests))
    STATS.write_text(json.dumps(after))
    FULL_STATS.unlink(missing_ok=True)


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
        if module not in wanted:
            continue
        outcome = "killed" if code in KILLED else "survived" if code in SURVIVED else \
            "no test" if code in NO_TEST else "not run"
        scores.setdefault(module, Counter())[outcome] += 1
        if outcome in ("survived", "no test"):
            survivors.append(mutant)
    if not scores:
        print("no mutation results for these modules: run without --report first", file=sys.stderr)
        return 2
    print(f"{'module':34} {'killed':>7} {'survived':>9} {'no test':>8} {'score':>7} {'not run':>8}  sample ±95%")
    below = []
    for module, count in sorted(scores.items()):
        tested = count["killed"] + count["survived"] + count["no test"]
        score = count["killed"] / tested if tested else 1.0
        below += [module] if score < 0.9 else []
        print(f"{module:34} {count['killed']:7} {count['survived']:9} {count['no test']:8} {score:7.1%} "
              f"{count['not run']:8}  {_margin(score, tested, tested + count['not run'])}")
    for mutant in survivors:
        print(f"\n--- not caught: {mutant}")
        shown = subprocess.run([sys.executable, "-m", "mutmut", "show", mutant], cwd=ROOT,
                               capture_output=True, text=True)
        print(shown.stdout.strip() or shown.stderr.strip())
    if below:
        print(f"\nunder 90%: {', '.join(below)}")
    return 0


def _margin(score: float, tested: int, total: int) -> str:
    """How far a sampled score may be from the whole module's (rough: normal approximation, finite population)."""
    if tested == total or tested < 2:
        return "" if tested == total else "?"
    spread = max(score * (1 - score), 1 / tested) / tested * (total - tested) / (total - 1)  # as if 1 miss
    return f"±{1.96 * spread ** 0.5:.1%}"


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped run still puts the slow tests back
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="files or globs (default: every guarded module)")
    parser.add_argument("--report", action="store_true", help="print the last run's figures without running")
    parser.add_argument("--survivors", action="store_true",
                        help="rerun only the mutants the last run left alive (after writing tests for them)")
    parser.add_argument("--pending", action="store_true", help="run only the mutants with no verdict yet")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="run at most N mutants per module, picked at random (seeded): a quick estimate")
    parser.add_argument("--quick", type=float, metavar="SECONDS",
                        help="leave out tests slower than this from each mutant's run (the score is then a floor)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    patterns = args.modules or GUARDED
    if not args.report:
        names = [pattern.removesuffix(".py").replace("/", ".") + ".*" for pattern in patterns]
        if args.survivors or args.pending or args.sample:
            wanted = wanted_modules(patterns)
            chosen = [(mutant, code) for mutant, code in sorted(results().items()) if module_of(mutant) in wanted]
            if args.survivors or args.pending:  # either or both
                alive = SURVIVED | NO_TEST
                chosen = [(m, code) for m, code in chosen
                          if (args.survivors and code in alive) or (args.pending and code is None)]
            names = [m for m, _ in chosen]
            if args.sample:
                by_module: dict[str, list[str]] = {}
                for mutant in names:
                    by_module.setdefault(module_of(mutant), []).append(mutant)
                pick = random.Random(16)
                names = sorted(m for group in by_module.values()
                               for m in pick.sample(group, min(args.sample, len(group))))
            if not names:
                print("no mutants to run for these modules (run once without --survivors/--pending first)")
                return report(patterns)
        command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.workers), *names]
        print("running:", " ".join(command[1:6]), "..." if len(command) > 6 else "", flush=True)
        with quick_tests(args.quick):
            subprocess.run(command, cwd=ROOT, check=False)
    return report(patterns)


if __name__ == "__main__":
    raise SystemExit(main())
