"""What differs between the board the rules expect and the board the camera reads, in words a player
understands ("red should be on 9 on top of yellow; the camera sees it on 8 under yellow").

Pure: it takes two tracks (space → camels, bottom first), as the engine and ``vision`` give them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def _places(track: Mapping[int, Sequence[str]]) -> dict[str, tuple[int, int, tuple[str, ...]]]:
    return {camel: (space, level, tuple(stack)) for space, stack in track.items() for level, camel in enumerate(stack)}


def describe_place(space: int, level: int, stack: Sequence[str]) -> str:
    """Where a camel stands, as a player would say it."""
    if len(stack) == 1:
        return f"alone on {space}"
    if level == 0:
        return f"on {space} under {stack[1]}"
    return f"on {space} on top of {stack[level - 1]}"


def differences(expected: Mapping[int, Sequence[str]], seen: Mapping[int, Sequence[str]]) -> list[str]:
    """One sentence per camel whose place differs, in the expected track's order (nearest the finish first)."""
    want, got = _places(expected), _places(seen)
    sentences = []
    order = sorted(want, key=lambda camel: (-want[camel][0], -want[camel][1]))
    for camel in order:
        space, level, stack = want[camel]
        should = describe_place(space, level, stack)
        if camel not in got:
            sentences.append(f"{camel} should be {should}; the camera does not see it")
            continue
        seen_space, seen_level, seen_stack = got[camel]
        seen_as = describe_place(seen_space, seen_level, seen_stack)
        if (seen_space, seen_level, seen_as) != (space, level, should):
            sentences.append(f"{camel} should be {should}; the camera sees it {seen_as}")
    for camel in sorted(set(got) - set(want)):
        sentences.append(f"the camera sees a {camel} camel that is not in this game")
    return sentences
