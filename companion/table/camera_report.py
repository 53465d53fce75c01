"""What the camera tells the pages: the watch's latest news (:class:`CameraStatus`, set by
:class:`companion.table.camera_watch.CameraWatch`) and the report a game's page gets from it, the board it sees
set against the game's, with the game's verdict in the page's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CameraStatus:
    state: str
    """``"starting"``, ``"reading"`` (a stable reading exists), ``"unsettled"``, ``"board not found"``,
    ``"no colour"`` (a greyscale picture: the camels differ only in colour) or ``"unavailable"``."""
    track: dict[int, list[str]] | None = None
    message: str = ""
    unseen: tuple[str, ...] = ()
    """The camels the steady reading does not see (hidden, or too unlike their colours)."""
    whole: dict[str, Any] | None = None
    """With "board not found": the whole picture's figures (``vision.focus.WholePicture.as_json``) when they say it
    is too blurred, too dark or overexposed for any marker (the message says so first, as ``vision read`` does)."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "message": self.message}
        if self.whole is not None:
            out["whole_picture"] = self.whole
        return out


def camera_report(
    status: CameraStatus, game_track: dict[int, tuple[str, ...]], language: str = "en",
    verdict: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The camera's news for the pages: its state, and how the board it sees differs from the game (in
    ``language``, ``"en"`` or ``"fr"``). With the game's ``verdict``
    (:meth:`companion.table.camera_watch.CameraWatch.verdict`), the message says the verdict: the blind reading's
    differences are not the camera's word on the game."""
    from companion.table.board_check import differences, phrase

    report = status.as_json()
    if status.whole is not None:  # what is wrong with the picture, in the page's language
        from companion.table.catalogs import say
        from companion.table.placement_advice import in_language, whole_items

        report["picture_problem"] = "; ".join(say(language, key, **in_language(params, language))
                                              for key, params in whole_items(status.whole))
    if status.track is not None:
        found = differences({space: list(stack) for space, stack in game_track.items()}, status.track, language)
        report["differences"] = found
        report["message"] = phrase("differ" if found else "matches", language)
    if verdict is not None:
        report["message"] = verdict_message(str(verdict.get("answer", "")), language)
        report["verdict"] = verdict
    return report


VERDICT_WORDS = {
    "en": {"matches": "the board matches the game", "differs": "the board differs from the game",
           "cannot tell": "the camera cannot tell whether the board matches the game{why}",
           "pending": "no difference: {why}"},
    "fr": {"matches": "le plateau correspond à la partie", "differs": "le plateau diffère de la partie",
           "cannot tell": "la caméra ne peut pas dire si le plateau correspond à la partie",
           "pending": "pas de différence : un tirage reste à déplacer ou à saisir"},
}
"""The report's message for each kind of verdict (the verdict's ``answer`` is in English words for machines)."""


def verdict_message(answer: str, language: str = "en") -> str:
    """A verdict's ``answer`` as the report's message, in ``language``: "matches", "differs: …",
    "cannot tell (…)", "pending: …"."""
    words = VERDICT_WORDS.get(language, VERDICT_WORDS["en"])
    for kind in ("matches", "differs", "cannot tell", "pending"):
        if answer.startswith(kind):
            rest = answer[len(kind):].strip(" :")
            why = f" ({rest.strip('()')})" if kind == "cannot tell" and rest else rest
            return words[kind].format(why=why or "")
    return answer
