"""What differs between the board the rules expect and the board the camera reads, in words a player
understands ("red should be on 9 on top of yellow; the camera sees it on 8 under yellow"), in English or
French like the pages. A stack whose camels stand on the right space in the wrong order is told as a whole
("on 5 the stack should be blue, purple, red (bottom first); the camera sees red, blue, purple"): camel by
camel, "yellow should be on 5 on top of red; the camera sees it on 5 on top of red" would read the same on
both sides when only its height differs.

Pure: it takes two tracks (space → camels, bottom first), as the engine and ``vision`` give them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

LANGUAGES = ("en", "fr")
PHRASES = {
    "en": {
        "alone": "alone on {space}",
        "under": "on {space} under {other}",
        "on_top": "on {space} on top of {other}",
        "differs": "{camel} should be {should}; the camera sees it {seen}",
        "unseen": "{camel} should be {should}; the camera does not see it",
        "stranger": "the camera sees a {camel} camel that is not in this game",
        "stack": "on {space} the stack should be {should} (bottom first); the camera sees {seen}",
        "matches": "the board matches the game",
        "differ": "the board differs from the game",
    },
    "fr": {
        "alone": "seul sur la case {space}",
        "under": "sur la case {space}, sous {other}",
        "on_top": "sur la case {space}, sur {other}",
        "differs": "{camel} devrait être {should} ; la caméra le voit {seen}",
        "unseen": "{camel} devrait être {should} ; la caméra ne le voit pas",
        "stranger": "la caméra voit un chameau {camel} qui n'est pas dans cette partie",
        "stack": "sur la case {space}, la pile devrait être {should} (de bas en haut) ; la caméra voit {seen}",
        "matches": "le plateau correspond à la partie",
        "differ": "le plateau diffère de la partie",
    },
}
CAMEL_NAMES = {
    "fr": {"blue": "bleu", "green": "vert", "orange": "orange", "yellow": "jaune", "white": "blanc",
           "red": "rouge", "purple": "violet", "black": "noir"},
}


def phrase(key: str, language: str = "en", **values: object) -> str:
    return PHRASES[language][key].format(**values)


def _name(camel: str, language: str) -> str:
    return CAMEL_NAMES.get(language, {}).get(camel, camel)


def _places(track: Mapping[int, Sequence[str]]) -> dict[str, tuple[int, int, tuple[str, ...]]]:
    return {camel: (space, level, tuple(stack)) for space, stack in track.items() for level, camel in enumerate(stack)}


def describe_place(space: int, level: int, stack: Sequence[str], language: str = "en") -> str:
    """Where a camel stands, as a player would say it."""
    if len(stack) == 1:
        return phrase("alone", language, space=space)
    if level == 0:
        return phrase("under", language, space=space, other=_name(stack[1], language))
    return phrase("on_top", language, space=space, other=_name(stack[level - 1], language))


def _stack_words(stack: Sequence[str], language: str) -> str:
    return ", ".join(_name(camel, language) for camel in stack)


def differences(
    expected: Mapping[int, Sequence[str]], seen: Mapping[int, Sequence[str]], language: str = "en"
) -> list[str]:
    """One sentence per camel whose place differs, in the expected track's order (nearest the finish first).
    A stack of the right camels in another order, and a camel whose only difference is its height (its
    neighbours' words the same), make one sentence for the whole stack where the first of them comes. No
    sentence reads the same on both sides."""
    want, got = _places(expected), _places(seen)
    sentences = []
    stacks_told: set[int] = set()
    order = sorted(want, key=lambda camel: (-want[camel][0], -want[camel][1]))
    for camel in order:
        space, level, stack = want[camel]
        should = describe_place(space, level, stack, language)
        name = _name(camel, language)
        if camel not in got:
            sentences.append(phrase("unseen", language, camel=name, should=should))
            continue
        seen_space, seen_level, seen_stack = got[camel]
        seen_as = describe_place(seen_space, seen_level, seen_stack, language)
        if (seen_space, seen_level, seen_as) == (space, level, should):
            continue
        reordered = seen_space == space and sorted(seen_stack) == sorted(stack)
        if seen_as != should and not reordered:
            sentences.append(phrase("differs", language, camel=name, should=should, seen=seen_as))
        elif space not in stacks_told:  # the same camels in another order, or only the height differs
            stacks_told.add(space)
            sentences.append(phrase("stack", language, space=space, should=_stack_words(stack, language),
                                    seen=_stack_words(seen_stack, language)))
    for camel in sorted(set(got) - set(want)):
        sentences.append(phrase("stranger", language, camel=_name(camel, language)))
    return sentences
