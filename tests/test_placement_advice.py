"""What to change about the camera, rebuilt from the facts of a placement report (the cases the rendered scenes
of test_placement_page.py do not reach), and worded from the catalogs."""

from __future__ import annotations

import copy

from companion.table.placement_advice import advice_items
from companion.table.placement_view import changes

GUIDANCE = {"distance_mm": [650.0, 900.0], "elevation_deg": [35.0, 60.0], "azimuth_deg": 25.0, "margin_px": 40,
            "min_camel_px": 15.0}
SQUARE = [[600, 300], [660, 300], [660, 360], [600, 360]]
REPORT = {
    "ok": True, "size": [1280, 720], "guidance": GUIDANCE, "advice": [], "hidden_spaces": [],
    "markers": {str(m): {"place": "", "found": True, "edge_px": 80.0} for m in range(4)},
    "pose": {"distance_mm": 780.0, "height_mm": 550.0, "elevation_deg": 45.0, "azimuth_deg": 3.0},
    "spaces": {str(s): {"visible": 1.0, "outline": SQUARE} for s in range(1, 17)},
    "camel_px": {"smallest": 21.0, "space": 3, "largest": 40.0},
}


def report(advice: list[str], **changed) -> dict:
    out = copy.deepcopy(REPORT)
    out.update(changed, advice=advice, ok=not advice)
    return out


def test_a_well_placed_camera_has_nothing_to_change():
    assert advice_items(REPORT) == []
    assert changes(REPORT, "fr") == {"changes": [], "changes_language": "fr", "change_keys": []}


def test_too_few_markers_names_the_missing_ones_in_the_language():
    markers = {**REPORT["markers"], "0": {"found": False}, "3": {"found": False}, "2": {"found": False}}
    found = report(["only 1 marker(s) found (missing: ...)"], markers=markers, pose=None, camel_px=None)
    assert advice_items(found) == [("placement.too_few_markers", {"found": 1, "missing": [0, 2, 3]})]
    assert changes(found, "fr")["changes"] == [
        "seulement 1 marqueur(s) sur 4 trouvé(s) (manquent : 0 (en haut à gauche), 2 (en bas à droite), 3 (en bas à "
        "gauche)) : tournez la caméra vers le plateau pour que les quatre marqueurs soient dans l'image, et vérifiez "
        "qu'ils sont collés bien à plat"]


def test_what_hides_a_marker_comes_from_vision_facts_or_else_its_sentence():
    hidden = {**REPORT["markers"], "1": {"found": False, "why": "hidden", "edge_px": 90.0}}
    by_sentence = report(["marker 1 (top right) is hidden, probably by the pyramid or the palm tree in the middle of "
                          "the board: raise the camera or move it towards space 9"], markers=hidden)
    assert advice_items(by_sentence) == [("placement.marker_hidden_middle", {"marker": 1, "space": 9})]
    other = report(["marker 1 (top right) is hidden or not recognised: take away what covers it"], markers=hidden)
    assert advice_items(other) == [("placement.marker_hidden", {"marker": 1})]
    # Facts win over the words once vision gives them.
    facts = {**hidden, "1": {**hidden["1"], "hidden_by": "middle", "towards": 10}}
    assert advice_items(report(["anything"], markers=facts)) == [
        ("placement.marker_hidden_middle", {"marker": 1, "space": 10})]
    # No sentence to read: the space below the marker's corner on the camera's side.
    assert advice_items(report(["marker 1 is somewhere"], markers={**hidden, "1": {**hidden["1"],
                                                                                  "hidden_by": "middle"}})) == [
        ("placement.marker_hidden_middle", {"marker": 1, "space": 9})]


def test_spaces_off_the_picture_are_said_to_be_outside_it_not_hidden():
    spaces = {**REPORT["spaces"], "10": {"visible": 0.0, "outline": [[600, 700], [660, 700], [660, 760], [600, 760]]},
              "11": {"visible": 0.1, "outline": [[-20, 600], [40, 600], [40, 660], [-20, 660]]}}
    off = report(["spaces 10, 11 cannot be seen (something on or over the board): ..."], spaces=spaces,
                 hidden_spaces=[10, 11])
    assert advice_items(off) == [("placement.spaces_outside", {"spaces": [10, 11]})]
    assert changes(off, "fr")["changes"] == [
        "les cases 10, 11 sont hors de l'image : reculez la caméra ou tournez-la vers elles"]
    both = report(["spaces 10, 11, 12 cannot be seen (something on or over the board): ..."],
                  spaces={**spaces, "12": {"visible": 0.0, "outline": SQUARE}}, hidden_spaces=[10, 11, 12])
    assert advice_items(both) == [("placement.spaces_outside_and_hidden", {"outside": [10, 11], "spaces": [12]})]
    assert changes(both, "en")["changes"] == ["the picture does not reach space(s) 10, 11, and space(s) 12 cannot be "
                                              "seen: move the camera back, raise it, or take away what is in the way"]
    inside = {**REPORT["spaces"], "10": {"visible": 0.0, "outline": SQUARE}}
    hidden = report(["space 10 cannot be seen (the pyramid or the palm tree in the middle): ..."], spaces=inside,
                    hidden_spaces=[10])
    assert advice_items(hidden) == [("placement.space_hidden_middle", {"spaces": [10]})]


def test_advice_the_facts_do_not_explain_is_shown_as_vision_words_it():
    """Vision says something the facts do not show (a new kind of advice): its English sentences are shown,
    marked as English, rather than advice that might disagree with it."""
    unknown = report(["the lens is dirty: wipe it"])
    assert changes(unknown, "fr") == {"changes": ["the lens is dirty: wipe it"], "changes_language": "en",
                                      "change_keys": None}


def test_each_limit_of_the_guidance_is_checked_in_both_directions():
    def keys(**pose) -> list[str]:
        return [key for key, _ in advice_items(report(["x"], pose={**REPORT["pose"], **pose}))]

    assert keys(distance_mm=600.0) == ["placement.too_near"]
    assert keys(distance_mm=630.0) == []  # within the pose's 4% margin of error
    assert keys(distance_mm=1000.0) == ["placement.too_far"]
    assert keys(elevation_deg=30.0) == ["placement.too_low"]
    assert keys(elevation_deg=65.0) == ["placement.too_steep"]
    assert keys(azimuth_deg=-30.0) == ["placement.turned"]
    assert keys(azimuth_deg=90.0) == ["placement.wrong_side"]
    edge = {**REPORT["markers"], "2": {"found": True, "edge_px": 12.6}}
    assert advice_items(report(["x"], markers=edge)) == [
        ("placement.marker_edge_px", {"marker": 2, "edge": 12, "margin": 40})]
    small = advice_items(report(["x"], camel_px={"smallest": 11.4, "space": 7, "largest": 30.0}))
    assert small == [("placement.camels_small", {"space": 7, "px": "11.4", "least": "15"})]
