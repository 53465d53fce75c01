"""What differs between the board the rules expect and the board the camera reads, in words a player
understands ("red should be on 9 on top of yellow; the camera sees it on 8 under yellow"), in English or
French like the pages.

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


def differences(
    expected: Mapping[int, Sequence[str]], seen: Mapping[int, Sequence[str]], language: str = "en"
) -> list[str]:
    """One sentence per camel whose place differs, in the expected track's order (nearest the finish first)."""
    want, got = _places(expected), _places(seen)
    sentences = []
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
        if (seen_space, seen_level, seen_as) != (space, level, should):
            sentences.append(phrase("differs", language, camel=name, should=should, seen=seen_as))
    for camel in sorted(set(got) - set(want)):
        sentences.append(phrase("stranger", language, camel=_name(camel, language)))
    return sentences
