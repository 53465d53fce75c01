"""Dependencies point inward (the guide's standard, and where companion/ is heading): read from the code's own
imports, those at the top of a module and those inside functions alike.

- the table's words and the camera's reports are no web thing: outside ``companion/table/web/`` nothing in
  ``companion/table/`` imports the web layer or Flask (the web uses them, not the other way round);
- ``vision/`` and ``firmware_py/`` stand alone: they import nothing from ``companion``;
- the pure rules import nothing of the companion but themselves;
- no import cycles anywhere in ``companion/`` (the testers' tools, the table service, the doctor and the rest).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (``from a.b import c`` counts as ``a.b`` and ``a.b.c``)."""
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import, from this package up
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def _sources(folder: str) -> dict[str, Path]:
    return {_module(path): path for path in sorted((ROOT / folder).rglob("*.py"))}


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(f"{package}.")


def test_nothing_in_the_table_outside_the_web_imports_the_web_layer_or_flask():
    offending = sorted(
        f"{module} imports {name}"
        for module, path in _sources("companion/table").items() if not _within(module, "companion.table.web")
        for name in _imports(path) if _within(name, "companion.table.web") or _within(name, "flask")
    )
    assert offending == []


def test_vision_and_the_pyramid_firmware_import_nothing_from_the_companion():
    offending = sorted(f"{module} imports {name}" for folder in ("vision", "firmware_py")
                       for module, path in _sources(folder).items()
                       for name in _imports(path) if _within(name, "companion"))
    assert offending == []


def test_the_rules_import_nothing_of_the_companion_but_themselves():
    offending = sorted(f"{module} imports {name}" for module, path in _sources("companion/rules").items()
                       for name in _imports(path)
                       if _within(name, "companion") and not _within(name, "companion.rules"))
    assert offending == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (module -> the modules it imports), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for name in sorted(graph[module]):
            if state.get(name) == 1:
                return [*path[path.index(name):], name]
            if name not in state:
                found = walk(name)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state:
            found = walk(module)
            if found:
                return found
    return []


def _graph(folder: str) -> dict[str, set[str]]:
    sources = _sources(folder)
    # An import of a package's face (its __init__) is no edge: a face only hands names on.
    return {module: {name for name in _imports(path) if name in sources and name != module
                     and sources[name].name != "__init__.py"}
            for module, path in sources.items()}


def test_no_import_cycles_in_the_companion():
    assert _cycle(_graph("companion")) == []


def test_a_cycle_is_found_where_there_is_one():
    """The check above can fail: a loop of three modules, and one module alone, are told apart."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
