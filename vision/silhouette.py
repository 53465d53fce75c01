"""Scoring whole boards by the camels' silhouettes: render each hypothesis (a track) as the camera would see
it, and ask how well each camel's colour fills the place the hypothesis gives it.

A camel is modelled by its body (a box over its legs: a share of its length, width and height, see
:class:`FitConfig`), set on its space along the track and, when stacked, one ``step_mm`` higher per level.
The picture is turned into per-pixel **evidence** for each camel colour, between -1 and 1: how much nearer
(after dividing by the light on that space) a pixel's colour is to that camel's than to the board's or any
other camel's. A camel's score is the evidence of its colour summed over the pixels its body covers and can
be seen (not hidden by a camel stacked on it, nor by a stack nearer the camera), divided by all the pixels
its body would cover in plain view: mostly 0.2 to 0.7 for a camel in full view where it stands (median 0.56
in neutral light, 0.37 in a lamp's), near 0 for one hidden, negative where it is not (what is unlike the camel
inside its box counts half: the box is rougher than a camel). A board's cost is minus the sum of its camels'
scores, so costs are in "camels of evidence", and two boards whose costs differ by less than half a camel's
worth are not told apart (``VerifyConfig.decisive_margin``). A bottom camel also loses what the ground around
its feet fails to look like the board: a flat patch of its colour (a tile, a card) is not a camel. And each
camel's colour is on one piece only: what the window shows of it all around a camel, beyond the camel's own
reach, is something else (a pyramid's face, a palm frond, the table behind a far space), and a camel there
loses a share of its score (``FitConfig.clutter_free``).

Each space is scored in its own window of the picture (the space and the air above it up to a tall stack), and
each stack at the offset on its space (within ``offset_mm`` of the middle) where its camels fit best: players
never set them down exactly in the middle. A stack's cost depends only on its camels and on the stacks in front
of it, which are cached, so hypotheses that differ in a few spaces cost a few stacks each; each window's masks
(a body box, the ground at the feet, the floor) and what a set of stacks in front hides are drawn once too.

The modules under it: :mod:`vision.silhouette_evidence` turns the picture into evidence,
:mod:`vision.silhouette_geometry` draws where a stack's camels fall in each space's window; this one scores.

This is the same interface as :class:`vision.verify.BoardScorer` (``spaces``, ``behind``, ``stack_cost``,
``track_cost``, ``space_costs``, ``judge``, ``camel_samples``), so :func:`vision.verify.refine` and the
companion's verdicts use either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.board import BoardTemplate
from vision.read import BOARD_BGR, Observation, board_rims, light_at
from vision.silhouette_evidence import (
    BOARD_SHADING,
    bits_set,
    box_sums,
    camel_evidence,
    camel_shadings,
    column_medians,
    even_share,
    fast_median,
    glare_distances,
    like_other_tone,
    ray_distances,
    whitened_apart,
)
from vision.silhouette_geometry import Fronts, SilhouetteGeometry, Window
from vision.verify import Verdict, VerifyConfig, judge_costs

__all__ = ["FitConfig", "SilhouetteScorer", "Track", "first_track", "ray_distances"]

Track = Mapping[int, Sequence[str]]


SEAM_KERNEL = np.ones((3, 3), np.uint8)
"""Opens the seams a pixel or two wide between touching pieces of a colour (see
``SilhouetteScorer._tone_apart``)."""

TABLE_PIXELS = 50
"""A window shows the table beside the board when this many of its pixels lie beyond the track (their median is
the table's colour there, a rival of every camel's beyond the track)."""

BORDER_BAND_PX = (2, 5)
"""From how far to how far beyond the track's outline (pixels of the picture as read, at most
``ReadConfig.read_width`` wide: a full-resolution still's board region is brought down to it first; square
neighbourhoods, so up to 7 pixels along a diagonal) the board's printed border is looked at (see
:func:`_border_colour`): while calibrating, and when reading where a band of a camel's colour lies beyond the track
(``SilhouetteScorer._like_band``); clear of a line printed along the track's edge, within the narrowest border a
1280×720 frame shows."""


@dataclass(frozen=True)
class FitConfig:
    length_mm: float = 30.0
    """The game's camels are about 30 × 14 × 22 mm (a calibration may measure them)."""
    width_mm: float = 14.0
    step_mm: float = 19.5
    """How much higher each camel of a stack stands (on the back of the one below: 18 to 20 mm)."""
    body: tuple[float, float, float, float] = (0.62, 0.7, 0.42, 0.9)
    """The body box: shares of the length and width, and from/to which share of ``step_mm`` above the camel's
    feet. Legs below, head and tail out front and back are left out: they cover too few pixels to count."""
    offset_mm: float = 9.0
    """How far from the middle of its space a stack may be set down."""
    offset_steps: int = 5
    """Offsets tried along each direction (an odd number keeps the middle)."""
    max_level: int = 5
    """The windows reach this many camels high."""
    evidence_scale: float = 0.05
    """A colour this much nearer one camel than anything else (a share of full white) is full evidence."""
    unlike_weight: float = 0.5
    """How much a pixel of the body box that is unlike the camel counts against it (one that is like it: 1)."""
    board_shading: tuple[float, float] = BOARD_SHADING
    camel_shading: tuple[float, float] = (0.4, 1.6)
    dark_reach: float = 30.0
    """However dark a camel's paint, it may look this bright (the mean of its channels, of 255, in the light its
    colour was measured in): what light adds on top of a paint (its sheen, the lamp's reflection, the lens's flare,
    the sensor's black level) is about the same amount on any paint, and on black it is most of what is seen. A
    colour whose ``camel_shading`` does not reach that far is allowed up to it (only black is that dark). On the
    independent renderer's dev seed 103 (light tier), lone black camels in plain view scored 0.07 at the median where
    they stood (each other colour 0.54 to 0.97) and 5 of 11 were unseen; on its table 2, the pixels of the three
    unseen there were 2.1 to 2.6 times as bright as the calibrated black (their median; 3.6 times at the 90th
    percentile). With 30: black's median 0.30, and the light tier's fully right scenes 39 -> 45 of 50 there, 38 -> 39
    and 36 -> 36 on dev seeds 97 and 99."""
    ground_mm: tuple[float, float] = (3.0, 12.0)
    """The ground around a camel's feet: from this far beyond its footprint to this far. Where a camel stands,
    the board shows there; a flat patch of its colour (a tile, a card) is that colour there too."""
    floor_share: float = 0.85
    """The floor of a space whose look is asked: this share of its outline, about its middle."""
    ground_penalty: float = 1.0
    """What a bottom camel loses when the ground around it does not look like the board (a mean board-likeness
    of -1: the full amount)."""
    offsets_tried: int = 3
    """A stack is fitted at the offsets where its camels, each alone at its level, fit best: this many."""
    unknown_margin: float = 0.1
    """A camel whose colour is not known (calibrating) is whatever is this far from the board's colour."""
    own_mm: float = 8.0
    """How far a camel's own pieces (head, tail, a chunkier piece than the usual) may reach beyond its
    footprint and above its height: its colour there is its own."""
    clutter_free: float = 2.0
    """Each camel's colour is on one piece only: what the window shows of it outside the camel's own reach
    is something else of its colour (a pyramid's face, a frond, a card). Up to this many bodies' worth of it
    (a misfit edge, noise) costs nothing…"""
    clutter_penalty: float = 0.5
    """…and each body's worth beyond it costs this much, up to ``clutter_cap``."""
    clutter_cap: float = 1.0
    clutter_mm: float = 15.0
    """How far beyond a camel's own reach its colour is looked for."""
    strong_evidence: float = 0.5
    """A pixel whose evidence for a camel is at least this is surely of its colour."""
    table_share: float = 0.4
    """Where more than this share of a window's pixels beyond the track (the board's border, the table) is surely
    of a camel's colour, that colour tells nothing there: a blue tablecloth is no blue camel, nor clutter around
    it (the far row's stacks stand against it). On tuning seeds 100-101, 0.35 to 0.55 read alike; 0.2 misread."""
    table_distance: float = 0.06
    """Where the table beyond the track is of a camel's colour (``table_share``), only its pixels this near the
    table's own colour (a share of full white, under a board's range of shading) tell nothing for or against that
    camel: a camel standing against it, brighter or darker than the table, still counts (a white camel on top of
    a far stack against a grey table, which reads as white in shadow: it was unseen)."""
    covered_distance: float = 0.06
    """A space whose floor (where its stack leaves it in view) is mostly this far from the board's colour is
    covered: a tile (no camel stands on one), a card, a hand, the pyramid. Its camels cannot be seen: what the
    picture shows there counts neither for nor against them. On tuning seeds 100-101 half the floor of a bare
    space is within 0.036 of it (all spaces), of a tile's face beyond 0.058 (all tiles)."""
    glare: float = 0.1
    """A bare space under a lamp may show the lamp's reflection: its colour whitened by up to this much grey (a
    share of full white) on top of the board's range of shading. Only a floor as even as a bare space's
    (``even_share``) is judged so, and only its own board's colour: a tile's pale face is whitened like the board,
    but its disc and printing are not even. On the independent renderer's dev seeds 97, 99 and 600 (light), the
    bare spaces under a lamp taken for covered were 0.53 to 1.0 unlike the board and 0 to 0.38 with up to 0.1 of
    grey; the tiles 0.53 to 0.95 and 0.09 to 0.49, so the tiles need the evenness."""
    even_share: float = 0.75
    """A floor is even when this share of its pixels is within ``even_distance`` of its median colour, lit
    anywhere within ``even_shading``. On dev seeds 97, 99 and 600 (light): bare spaces 0.94 to 1.0, 0.81 to 0.86
    with a camel standing on them; tiles under the lamp 0.18 to 0.67."""
    even_distance: float = 0.04
    even_shading: tuple[float, float] = (0.8, 1.25)
    hot_glare: float = 0.35
    """A lamp's hot spot on a glossy board whitens a space past ``glare`` and the camera clips its brightest channels:
    a floor even (``even_share``), at the sensor's limit (``SENSOR_LIMIT``) over ``hot_clipped_share`` of it, whose
    median is the board's colour whitened by up to this much grey (:func:`whitened_apart`, within ``hot_apart``) is
    bare board there, its median a second colour of the board in that window. On the independent renderer's dev
    seeds 97, 99 and 103 (light), three such spaces with camels on them were taken for covered and their 5 camels
    unseen: their medians 0.000 to 0.023 off the board whitened (by up to 0.29 of grey), 43% to 78% of their floors
    at the limit. Only one is even enough to pass: the other two hold a stack of two (0.70 and 0.74 even)."""
    hot_clipped_share: float = 0.25
    hot_apart: float = 0.03
    """On those seeds a pale yellow sleeve over a space, even and at the camera's limit too, was 0.082 off the board
    whitened. A tile in a hot spot was 0.024 off, as near as the spots: only its disc and printing tell it (0.58
    even)."""
    covered_cost: float = 0.35
    """What each camel on a covered space costs when a board is judged: the boards that agree on it pay it
    alike, and one that moves a camel seen in plain view (however faintly) onto it pays it on top of what it
    loses where the camel was seen."""
    patch_bodies: float = 4.0
    """A patch of one camel's colour on the track is no camel when it is larger than this many body boxes (of a
    camel standing there) and reaches further across or up than a camel's own pieces can (see
    ``SilhouetteScorer._forget_large_patches``). Tuned on seeds 100-101 and the independent renderer's seed 600:
    2 to 4 read alike; by area alone (without the reach), 4 took a box-shaped 40 mm camel for a patch, and 6
    left the palm tree's fronds misread as the green camel."""
    overhang_bodies: float = 2.5
    """A patch of one camel's colour on the track that goes on beyond the track into one piece reaching further
    than a camel's pieces can is no camel when it is larger than this many body boxes (see
    ``SilhouetteScorer._overhanging``): a palm frond's tip over a space. A camel's own patch is smaller: on the
    independent renderer's dev seed 600, 529 camels in view, median 0.94 body boxes, 99% below 2.0 (the few
    larger had run into something of their colour on the track). A frond's tip over space 5 beside the green camel
    hidden under it on 4 was 3.7 (seed 97, props), under ``patch_bodies``, and was read as green."""
    print_bodies: float = 1.2
    """A patch of one camel's colour on the track larger than this many body boxes is no camel when it also lies
    flatter than a camel stands (``print_across``, ``print_up``; see ``SilhouetteScorer._lying_flat``): a tile's
    printed disc of its colour. On the independent renderer's dev seeds 97, 99 and 103 (light and props), 663 lone
    camels in plain view: their patches 0.95 body boxes at the median, 1.78 at the 99th percentile."""
    print_across: float = 0.7
    """…wider than this share of the reach across of a camel facing along the track on its space (those 663 camels'
    patches: 0.37 at the median, 0.67 at the 99th percentile; five wider ones had merged with something else of their
    colour and were larger still)…"""
    print_up: float = 0.6
    """…and lower than this share of its reach up (those camels: 0.47 at the median). Of the 40 places where those
    sets' blind readings put a camel on a space where none stood, 7 were such patches (tiles' discs, 1.2 to 4.1 body
    boxes, 0.71 to 1.19 of the reach across, 0.30 to 0.59 of the reach up); no lone camel's patch was."""
    top_over_side: float = 1.35
    """Such a patch is a camel's lit top above its shaded side (see ``SilhouetteScorer._top_above_side``), not a print,
    when its columns' top thirds are this many times as bright as their bottom thirds (pooled): a print lies flat and
    is lit alike all over. The box camels of :mod:`vision.synth` (their top and side both of their colour, as
    flat and wide as a print): 1.44 to 1.82 where the whole block shows (20 clean scenes of seven lone camels; 0.98 to
    1.25 where a next space's window shows only part of a block, and no camel stands there). The 136 flat patches on
    dev seeds 97, 99 and 103 (light and props; a disc once in each window that shows it) with no camel of their colour
    on that space or the next: 0.60 to 1.28 but for five (1.40 to 1.88, none read as a camel there); the 8 that
    main's blind readings took for a camel, 0.99 to 1.01. The 27 by a camel of their colour (that renderer's camels
    are shaped, not boxes: a band, or a camel run into a disc): 0.68 to 1.09 but for one (1.38)."""
    tall_bodies: float = 1.25
    """A patch of one camel's colour on the track larger than this many body boxes is no camel when its whole piece
    in the window (beyond the track too) stands taller than a camel's pieces can reach up, and no wider (see
    ``SilhouetteScorer._standing_tall``): the palm tree's trunk standing by a space. The trunk's patch on the track
    was 1.5 to 2.1 body boxes (dev seed 93, props, table 2), a camel's own 0.94 at the median (dev seed 600); on
    the dev sets 93, 95, 97, 99, 102 and 103, 1.0 and 1.25 left 98 props camels wrong of 1712, 1.5 left 100."""
    band_bodies: float = 1.0
    """Beyond the track, a band of one camel's colour larger than this many body boxes and reaching further than
    a camel's pieces can (see ``SilhouetteScorer._forget_bands``) is no camel: the board's printed border, a
    stripe of the cloth. Chosen on the independent renderer's seed 600 (its board has a brown border, a dark
    yellow to the camera) and its verify sets 601-602: 0.5 and 1 read alike; 2 and 4 (the track's patches')
    left more of the border as the yellow camel's evidence and clutter (light tier fully right 37 against 38 of
    50); seeds 100-101 read 3 scenes more fully right."""
    band_distance: float | None = 0.06
    """Of such a band, only its pixels this near its own colour or the printed border's (a share of full white, under
    a board's range of shading; see ``SilhouetteScorer._like_band``) are forgotten: a camel of a colour near the
    band's standing against it (its body reaching over the border behind it) is still a colour apart from it, and
    stays its camel's evidence. None: the whole band. On the independent renderer's dev seed 99 (clean, table 4,
    scene 4: red on top of purple on 3, against an orange-brown border that is surely red to the evidence), the
    windows where the band is the border alone had 99% of its pixels within 0.047 of it; the window of the red
    camel, 300 of its band's 635 pixels beyond 0.06 (red was unseen, now read). Dev seeds 97, 99 and 103 reread
    (fully right of 150 scenes a tier; camels wrong): clean 145 -> 146 (0 -> 0), light 123 -> 126 (7 -> 6), props
    90 -> 91 (28 -> 27)."""
    blind_covered_cost: float = 1.0
    """What each camel on a covered space costs while the board is read blind: a camel is not put where it
    cannot be seen (the white camel onto a tile's white disc) while it fits anywhere in view."""
    occluder_distance: float = 0.2
    """A pixel this far (a share of full white, shading aside) from the board's colour and from every camel's is
    something else over the board (an arm's sleeve, a phone, a toy): it tells nothing for or against any camel.
    On the independent renderer's dev seed 600, 0.2 took the props tier's camels placed wrongly from 9 to 6 of
    300; 0.1 to 0.15 (either distance) left camels in a lamp's light unseen (light tier fully right 78% to
    54-74%)."""
    tone_apart: bool = True
    """A camel's piece is kept out of a patch of its colour made with the board's other tone (see
    ``SilhouetteScorer._tone_apart``). Not while calibrating: a camel looked for by its paint's usual colour, far
    from its own, kept the sand beside it and was learnt as the sand."""
    hidden_share: float = 0.8
    """A camel whose body box shows at least this share of such pixels is hidden behind it: it costs what a camel
    on a covered space costs, and is not seen there (else a camel seen nowhere is put where nothing can
    disprove it, behind the occluder). What shows of a camel less hidden counts. On dev seed 600 props, 0.8 left 5
    camels wrong of 300 (0.5: 6), 37 unseen in view (0.5: 38); on dev race seed 7002 (props) 0.5 turned 5 of the
    race's verdicts into "cannot tell", 0.8 three."""


SENSOR_LIMIT = 250
"""A pixel's channel this bright (of 255) is at the camera's limit: the light there may have been brighter."""

UNDER_ROWS = 2
"""The rows above a patch where a camel standing on the one whose patch it is shows (see
``SilhouetteScorer._under_a_camel``), and the rows below it that say whether it lies on the board
(``SilhouetteScorer._on_the_board``)."""

Pieces = tuple[np.ndarray, list[tuple[int, int, int, tuple[int, int, int, int]]], np.ndarray, np.ndarray]
"""What :meth:`SilhouetteScorer._whole_pieces` finds: the patches' labels, each (patch, piece, area, its bounding box:
x, y, width, height), the pieces' labels and their extents."""


class SilhouetteScorer(SilhouetteGeometry):
    """Scores tracks against one picture (see the module's description); where each camel falls in the
    picture is :class:`vision.silhouette_geometry.SilhouetteGeometry`'s."""

    def __init__(
        self,
        observation: Observation,
        profiles: Mapping[str, Sequence[float] | None],
        template: BoardTemplate,
        verify: VerifyConfig | None = None,
        fit: FitConfig | None = None,
        board_bgr: Sequence[float] = BOARD_BGR,
    ) -> None:
        super().__init__(template, observation.pose, fit or FitConfig(), list(profiles))
        self.verify = verify or VerifyConfig()
        self._index = {name: i for i, name in enumerate(self.names)}
        self.observation = observation
        pose, image = observation.pose, observation.image
        camera_at = observation.camera_at
        board_reference = np.array(board_bgr, np.float32)
        # The rims judged with the board's hue known: a sleeve over a space's rim and its tone's beside it is not it.
        rims = board_rims(observation, self.template, board_reference)
        known = [np.array(profiles[name], np.float32) if profiles[name] is not None else None for name in self.names]
        spaces = sorted(self.template.spaces)
        border = (_border_colour(image, _border_band(self._on_track((0, 0), image.shape[:2])))
                  if None in profiles.values() else None)
        self._printed: list[np.ndarray | None] = [border] if border is not None else []
        """The board's printed border's colour (:func:`_border_colour`), once a band asks for it (see
        :meth:`_like_band`): mostly no window has one."""
        self._lights: dict[int, np.ndarray] = {}
        """Per space, the light on it (what its window's pixels were divided by)."""
        cuts = []
        self._occluded: dict[int, np.ndarray] = {}
        """Per space, the window's pixels unlike the board and every camel (``FitConfig.occluder_distance``), where
        it has any."""
        self._other_tones: dict[int, np.ndarray] = {}
        """Per space, the board's other tone as the spaces on either side show it, in this space's light (see
        :meth:`_tone_apart`)."""
        self._colours = known
        """Each camel's colour (in ``names``' order; ``None`` while it is being calibrated)."""
        # The colours are fixed: the shadings each may be seen in are worked out once, not for every window.
        have = [label for label, profile in enumerate(known) if profile is not None]
        shadings = camel_shadings(self.fit, np.array([known[label] for label in have], np.float32).reshape(-1, 3))
        self._shadings = {label: (shadings[0], shadings[1][row : row + 1]) for row, label in enumerate(have)}
        """Per camel of a known colour, the shadings it may be seen in (:func:`camel_shadings`' row for it)."""
        for space in spaces:
            if space not in rims:
                continue
            light = np.maximum(light_at(self.template, rims, space) / board_reference, 0.05)
            middle = np.array(self.template.space_centre(space), float)
            window = self._cut(image, pose, space, middle)
            if window is None:
                continue
            (x0, y0), pixels = window
            # Divided by the light a whole row at a time (the light repeated along it): the same quotients, without
            # numpy's slow loop over three channels at a time.
            height, width = pixels.shape[:2]
            corrected = pixels.reshape(height, width * 3).astype(np.float32)
            corrected /= np.tile(light, width)
            beyond = ~self._on_track((x0, y0), pixels.shape[:2]).ravel()
            cuts.append((space, light, middle, (x0, y0), pixels, corrected.reshape(-1, 3), beyond))
            self._lights[space] = light
        found = []
        for space, light, middle, (x0, y0), pixels, corrected, beyond in cuts:
            board = rims[space] / light
            # Camels face along the track, towards the next space (crazy ones the other way: the same box).
            ahead = np.array(self.template.space_centre(spaces[(spaces.index(space) + 1) % len(spaces)]))
            heading = (ahead - middle) / max(float(np.linalg.norm(ahead - middle)), 1e-9)
            # The table beside the board (or its border) where the window shows it: mostly what is there.
            # (np.compress: the same rows as corrected[beyond], three times faster.)
            table = (column_medians(np.compress(beyond, corrected, axis=0)).astype(np.float32), beyond) if (
                np.count_nonzero(beyond) >= TABLE_PIXELS) else None
            if table is not None and border is not None:
                # While calibrating, the board's printed border is no camel of a colour not known yet either.
                table = (np.array([table[0], border / light], np.float32), beyond)
            planes, boardlike, board_distance, surely, occluded = camel_evidence(self.fit, corrected, board, known,
                                                                                   table, shadings=shadings)
            index = spaces.index(space)
            beside = [rims[other] for other in (spaces[index - 1], spaces[(index + 1) % len(spaces)]) if other in rims]
            if beside:
                self._other_tones[space] = column_medians(np.array(beside)).astype(np.float32) / light
            tone = column_medians(np.array([rims[other] for other in (spaces[index - 2], space,
                                                                spaces[(index + 2) % len(spaces)]) if other in rims]))
            start = space == spaces[0] and space in observation.prints
            others = np.array([tone, observation.prints[space]] if start else [tone], np.float32) / light
            window = self._windows[space] = Window(
                space, (x0, y0), np.ascontiguousarray(planes.T).reshape(*pixels.shape[:2], -1),
                corrected.reshape(pixels.shape), boardlike.reshape(pixels.shape[:2]),
                board_distance.reshape(pixels.shape[:2]), others, middle, heading,
                float(np.linalg.norm(camera_at[:2] - middle)), planes,
            )
            found.append((window, board, table, corrected, beyond, surely, occluded))
        self._bounds: dict[tuple[Any, ...], np.ndarray] = {}
        self._reaches: dict[tuple[int, ...], bool] = {}
        # The same pose as the last picture's: its shapes, taken over before any is drawn for this one (the floors,
        # bodies and reaches the checks below ask for are then drawn once for a still camera, not once a frame).
        self._border_band: dict[str, np.ndarray] = {}
        """The picture's pixels (flat) where the board's printed border is looked at (see :meth:`_like_band`): from
        the pose alone, kept for a still camera's next frames."""
        self._share_shapes(image.shape[:2], ("_bounds", "_reaches", "_border_band"))
        for window, board, table, corrected, beyond, surely, occluded in found:
            space, pixels = window.space, window.corrected
            floor = self._even_unlike_floor(window)
            glared = floor is not None and self._bare_in_glare(floor, board)
            hot = None if glared or floor is None else self._in_hot_spot(space, floor, board)
            if glared or hot is not None:
                # The board here may be whitened by the lamp's reflection anywhere in the window: judged so.
                planes, boardlike, board_distance, surely, occluded = camel_evidence(
                    self.fit, corrected, board, known, table, glare=self.fit.glare, shadings=shadings, hot=hot)
                window.evidence = np.ascontiguousarray(planes.T).reshape(*pixels.shape[:2], -1)
                window.boardlike = boardlike.reshape(pixels.shape[:2])
                window.board_distance = board_distance.reshape(pixels.shape[:2])
                window.planes = planes
            if occluded.any():
                self._occluded[space] = occluded.reshape(pixels.shape[:2])
            if surely is not None:
                self._windows[space].clutter = (beyond.reshape(pixels.shape[:2]), np.ascontiguousarray(surely.T))
        # A camel whose colour is not known yet (calibrating) is anything unlike the board: no clutter is its.
        self._known_colour = [profile is not None for profile in known]
        for window in self._windows.values():
            self._table_colours(window)
            self._forget_large_patches(window)
            self._forget_bands(window)
        self.spaces = sorted(self._windows)
        self._stack_cache: dict[tuple[Any, ...], tuple[float, int]] = {}
        self._lone: dict[tuple[int, float], np.ndarray] = {}
        self._lone_parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self._doubt_shift: dict[tuple[int, int], np.ndarray] = {}
        self.covered_cost = self.fit.covered_cost
        """What each camel on a covered space costs (see :meth:`reading_blind`)."""
        self._behind = {space: self._spaces_behind(space) for space in self.spaces}
        # Which spaces can hide part of each space's window (in self.spaces' order, as _in_front asks them).
        self._fronts = {space: [front for front in self.spaces if space in self._behind[front]]
                        for space in self.spaces}

    def _even_unlike_floor(self, window: Window) -> np.ndarray | None:
        """The space's floor's pixels (light-corrected) when they are mostly unlike the board's colour
        (``covered_distance``) yet even (``FitConfig.even_share``: no tile's disc, edge or printing, no card or arm):
        what the lamp's reflection (:meth:`_bare_in_glare`) or its hot spot (:meth:`_in_hot_spot`) may explain;
        else ``None`` (most spaces: mostly like the board already, nothing to explain)."""
        floor = self._floor_mask(window)
        shown = np.count_nonzero(floor)
        fit = self.fit
        if not shown or 2 * np.count_nonzero(window.board_distance[floor] > fit.covered_distance) <= shown:
            return None
        pixels = window.corrected[floor]
        if even_share(pixels, fit.even_shading, fit.even_distance) < fit.even_share:
            return None
        return pixels

    def _bare_in_glare(self, floor: np.ndarray, board: np.ndarray) -> bool:
        """Whether a space's floor (:meth:`_even_unlike_floor`'s pixels) is a bare space whitened by the lamp's
        reflection (``FitConfig.glare``): mostly like the board with that reflection. Judged against the board alone,
        such a space was taken for covered (dev seed 99, light, table 6, scene 0: the purple camel alone on it was
        unseen) and the ground around a camel's feet there for no board (table 2, scene 4: the red camel was read on
        a tile)."""
        fit = self.fit
        whitened = glare_distances(floor, board, fit.board_shading, fit.glare)
        return 2 * np.count_nonzero(whitened > fit.covered_distance) <= len(floor)

    def _in_hot_spot(self, space: int, floor: np.ndarray, board: np.ndarray) -> np.ndarray | None:
        """The board's colour as a lamp's hot spot shows it on ``space`` (the median of its floor,
        :meth:`_even_unlike_floor`'s pixels), when that floor is such a spot (see ``FitConfig.hot_glare``); else
        ``None``. Judged against the board's own colour alone, the space was taken for covered and the camel on it
        unseen (dev seed 103, light, table 9, scene 2; its scene 4's spot holds a stack of two and is still too uneven
        to pass)."""
        fit = self.fit
        # The camera's limit, light-corrected as the pixels are.
        limit = (SENSOR_LIMIT / self._lights[space]).astype(np.float32)
        if np.count_nonzero((floor >= limit).any(axis=1)) < fit.hot_clipped_share * len(floor):
            return None  # no lamp's spot at the camera's limit
        median = column_medians(floor).astype(np.float32)
        if whitened_apart(median, board, limit, fit.board_shading, fit.hot_glare) > fit.hot_apart:
            return None  # a sleeve, a card: not the board whitened
        return median

    # Scoring.

    def _table_colours(self, window: Window) -> None:
        """A tablecloth (or a card, a phone) in a camel's colour beside the board, behind the far row's stacks:
        where most of the window's pixels beyond the track are surely of a known camel's colour (``table_share``)
        and the track's part of it has no more of that colour than a camel or two, that colour's pixels beyond the
        track that look like the table (``table_distance``) tell nothing, neither for that camel nor against it.
        (A palm tree's fronds over the track spread their colour over both parts: they stay evidence, and clutter
        around a camel fitted onto them.)"""
        if window.clutter is None:
            return  # too little of the window lies beyond the track
        beyond2d, surely = window.clutter
        beyond = beyond2d.ravel()
        off = cv2.reduce(surely.view(np.uint8), 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0]  # numpy's is 5x slower
        shares = [label for label in np.flatnonzero(off > self.fit.table_share * np.count_nonzero(beyond))
                  if self._known_colour[label]]  # a colour not known yet is anything unlike the board
        if not shares:
            return  # mostly: no camel's colour covers the table
        camel = self._box_area(window, len(self._offsets) // 2, 0)
        like_table: np.ndarray | None = None
        for label in shares:
            if np.count_nonzero(window.planes[label, ~beyond] >= self.fit.strong_evidence) <= 2 * camel:
                if like_table is None:
                    like_table = self._like_table(window)
                window.planes[label, beyond] = np.where(like_table, 0.0, window.planes[label, beyond])
                window.evidence[..., label][beyond2d] = window.planes[label, beyond]
                surely[like_table, label] = False

    def _like_table(self, window: Window) -> np.ndarray:
        """Which of the window's pixels beyond the track look like the table there (within ``table_distance`` of
        its colour, under a board's range of shading): a camel standing against it, brighter or darker than any
        of it, does not."""
        assert window.clutter is not None
        pixels = np.compress(window.clutter[0].ravel(), window.corrected.reshape(-1, 3), axis=0)
        table = column_medians(pixels).astype(np.float32)
        return ray_distances(pixels, table[None, :], self.fit.board_shading)[:, 0] < self.fit.table_distance

    def _forget_large_patches(self, window: Window) -> None:
        """Each camel's colour is on one piece only, and no piece is larger than a camel: a patch of a camel's
        colour on the track (pixels surely of it, touching) larger than ``patch_bodies`` body boxes and reaching
        further across or up than a camel's own pieces can (its reach, ``own_mm`` beyond its size) is something
        else (a palm tree's fronds or trunk, a card, a phone), and its pixels tell nothing for or against that
        camel; a camel standing against it is not seen there (unseen, not guessed). The board's border and the
        table beyond the track are left to :meth:`_table_colours` and :meth:`_forget_bands`, whose bands are found
        apart from the track's pixels: a camel on the track against a border of its colour stays one piece. A patch
        on the track larger than the limit that goes on beyond the track is judged with what lies beyond
        (:meth:`_overhanging`: a frond's tip over a space)."""
        middle = len(self._offsets) // 2
        body = self._box_area(window, middle, 0)
        limit = self.fit.patch_bodies * body
        beyond = window.clutter[0] if window.clutter is not None else None
        # A patch that goes on beyond the track is judged at a smaller size (what a camel's own patch is at most).
        overhang_limit = min(limit, self.fit.overhang_bodies * body) if beyond is not None else limit
        # Every colour's pixels at once, from the evidence's rows (a camel's evidence is one row; the evidence as the
        # window has it takes every camel's value of a pixel together): each row is changed only for its own camel.
        strongs = window.planes >= self.fit.strong_evidence
        # As every colour was before any patch of one is forgotten: a camel standing on a band is judged alike
        # whichever of the two colours is looked at first. (A copy: ``strongs`` changes below.)
        surely = strongs.reshape(len(self.names), *window.boardlike.shape).copy()
        if beyond is not None:
            strongs = strongs & ~beyond.ravel()
        tall_limit = min(overhang_limit, self.fit.tall_bodies * body)
        print_limit = self.fit.print_bodies * body
        smallest = min(tall_limit, print_limit)
        many = np.count_nonzero(strongs, axis=1) > smallest
        for label in range(len(self.names)):
            if not self._known_colour[label] or not many[label]:
                continue  # mostly: too little of the colour for any patch to be large
            strong = strongs[label].reshape(window.boardlike.shape)
            patches = self._wider_than_a_camel(window, strong.view(np.uint8), limit)
            # Each patch's piece of the whole window, found once for the rules that judge it, down to the smallest
            # patch any of them judges.
            found = self._whole_pieces(window, strong, label, smallest)
            if found is not None:
                for rule in (self._overhanging(window, found, beyond, overhang_limit) if beyond is not None else None,
                             self._standing_tall(window, found, tall_limit),
                             self._lying_flat(window, found, label, print_limit, surely)):
                    if rule is not None:
                        patches = rule if patches is None else patches | rule
            if patches is not None:
                patches = self._tone_apart(window, label, strong, patches, limit)
                window.evidence[..., label][patches] = 0.0
                window.planes[label, patches.ravel()] = 0.0

    def _tone_apart(
        self, window: Window, label: int, strong: np.ndarray, patches: np.ndarray, limit: float
    ) -> np.ndarray:
        """``patches`` (of a camel's colour, ``strong``) less the pieces no wider than a camel left once the pixels
        that look like the board's other tone (:func:`like_other_tone`) and the seams a pixel or two wide (where the
        tone meets the space's own colour, their blend) are left out: under a lamp the next space's darker tone
        looked like the yellow camel, and the patch it made with the yellow camel standing against it was forgotten
        whole (unseen). The rest of a patch is still forgotten: no camel is read on the next space's floor. Only with
        ``FitConfig.tone_apart``."""
        tone = self._other_tones.get(window.space)
        colour = self._colours[label]
        if tone is None or colour is None or not self.fit.tone_apart:
            return patches
        toned = like_other_tone(self.fit, window.corrected, window.board_distance, colour, tone, self._shadings[label])
        if not np.any(toned & patches):
            return patches
        return self._pieces_apart(window, strong & ~toned, patches, limit)

    def _pieces_apart(self, window: Window, colour: np.ndarray, region: np.ndarray, limit: float) -> np.ndarray:
        """``region`` (a mask of what is to be forgotten of a camel's colour, ``colour``) less the pieces of that
        colour in it, opened by ``SEAM_KERNEL``, that reach no further than a camel's pieces can: a camel joined to
        something wider of its colour by a seam a pixel or two wide (the blend of two colours at an edge) is no
        part of it."""
        solid = cv2.morphologyEx((colour & region).view(np.uint8), cv2.MORPH_OPEN, SEAM_KERNEL)
        wide = self._wider_than_a_camel(window, solid, limit)
        apart = solid.view(bool)
        if wide is not None:
            apart &= ~wide
        return region & ~apart

    def _overhanging(self, window: Window, found: Pieces, beyond: np.ndarray, limit: float) -> np.ndarray | None:
        """The patches of a camel's colour on the track (``found``: see :meth:`_whole_pieces`) larger than ``limit``
        that go on beyond the track into one piece reaching further than a camel's pieces can: the tip of a palm frond
        hanging over a space from beside the board, within a camel's reach on the track alone (as a mask; None if
        none). A camel against a border of its colour stays: its part on the track is no larger than a camel."""
        labels, patches, pieces, extents = found
        reach = self._widest_reach(window)
        chosen = np.zeros(labels.max() + 1, bool)
        for patch, piece, area, _ in patches:
            if area <= limit or not np.any(beyond[pieces == piece]):
                continue  # all on the track: :meth:`_wider_than_a_camel` judges it
            chosen[patch] = bool(extents[piece, cv2.CC_STAT_WIDTH] > reach[0]
                                 or extents[piece, cv2.CC_STAT_HEIGHT] > reach[1])
        return chosen[labels] if chosen.any() else None

    def _standing_tall(self, window: Window, found: Pieces, limit: float) -> np.ndarray | None:
        """The patches of a camel's colour on the track (``found``: see :meth:`_whole_pieces`) larger than ``limit``
        whose whole piece in the window (beyond the track too) stands taller than a camel's pieces can reach up, and
        no wider (as a mask; None if none): the palm tree's trunk, standing by a space up into its fronds. A camel
        against the board's border of its colour stays (:meth:`_overhanging` judges it): where the border turns a
        corner its band is tall, but wide too."""
        labels, patches, _, extents = found
        across, up = self._widest_reach(window)
        chosen = np.zeros(labels.max() + 1, bool)
        for patch, piece, area, _ in patches:
            if area <= limit:
                continue
            # Standing up: a band of the board's border turning a corner behind a camel is wide as well as tall.
            height_of, width_of = extents[piece, cv2.CC_STAT_HEIGHT], extents[piece, cv2.CC_STAT_WIDTH]
            chosen[patch] = bool(height_of > up and width_of <= across)
        return chosen[labels] if chosen.any() else None

    def _lying_flat(
        self, window: Window, found: Pieces, label: int, limit: float, surely: np.ndarray
    ) -> np.ndarray | None:
        """The patches of a camel's colour on the track (``found``: see :meth:`_whole_pieces`) larger than ``limit``
        that lie flatter than a camel stands: wider than ``FitConfig.print_across`` of the reach across of a camel
        facing along the track there, and lower than ``FitConfig.print_up`` of its reach up (as a mask; None if
        none). A print lying on the board (a tile's disc) is foreshortened to the camera; a camel as wide stands up
        as tall. The tile's face around it may pass for the board, so the space is not covered either. A camel under
        another shows as low and wide a band (the one on it hides its top): a patch with another camel's colour
        along its top edge (:meth:`_under_a_camel`, ``surely``: camels × the window's pixels surely of each colour)
        stays, and so does a box camel's top and side (:meth:`_top_above_side`)."""
        labels, patches, _, _ = found
        across, up = self._facing_reach(window)
        chosen = np.zeros(labels.max() + 1, bool)
        for patch, _, area, (x, y, width, height) in patches:
            box = (x, y, width, height)
            chosen[patch] = bool(area > limit and width > self.fit.print_across * across
                                 and height < self.fit.print_up * up
                                 and self._on_the_board(window, box)
                                 and not self._under_a_camel(surely, label, box)
                                 and not self._top_above_side(window, labels[y : y + height, x : x + width] == patch,
                                                              box))
        return chosen[labels] if chosen.any() else None

    def _top_above_side(self, window: Window, inside: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        """Whether a patch (``inside``: its pixels in ``box``, x, y, width, height in the window) is a camel's lit
        top above its shaded side: the mean brightness of its columns' top thirds at least ``FitConfig.top_over_side``
        times that of their bottom thirds (all the columns' pixels pooled). A box camel's top and side are both of
        its colour, and its patch lies on the board as flat and wide as a print; but a print is lit alike all over."""
        x, y, width, height = box
        brightness = window.corrected[y : y + height, x : x + width].sum(axis=2)
        counts = np.count_nonzero(inside, axis=0)
        third = np.maximum(counts // 3, 1)
        rank = np.cumsum(inside, axis=0)  # 1 at each column's top pixel of the patch, counts at its bottom one
        tall = inside & (counts >= 3)  # a column of a pixel or two has no top apart from its bottom
        top, bottom = tall & (rank <= third), tall & (rank > counts - third)
        if not bottom.any():
            return False
        return bool(brightness[top].mean() >= self.fit.top_over_side * brightness[bottom].mean())

    @staticmethod
    def _under_a_camel(surely: np.ndarray, label: int, box: tuple[int, int, int, int]) -> bool:
        """Whether another camel's colour (``surely``: camels × the window's pixels surely of each) runs along the top
        edge of a patch of camel ``label``'s colour (``box``: x, y, width, height in the window), touching it, over half
        its width at least: a camel standing on the one whose band it is. (Only the rows touching it: a tile's border
        in a camel's colour runs a few pixels beyond its disc.) The other colour is taken as it was before any of its
        patches was forgotten, whatever order the colours are judged in: a frond or a card over a print keeps it too
        (on the dev sets no reading changed)."""
        x, y, width, _ = box
        band = surely[:, max(y - UNDER_ROWS, 0) : y + 1, x : x + width]
        others = np.delete(band, label, axis=0)
        return 2 * np.count_nonzero(others.any(axis=(0, 1))) >= width

    def _on_the_board(self, window: Window, box: tuple[int, int, int, int]) -> bool:
        """Whether the rows just below a patch (``box``: x, y, width, height in the window) look like the board over
        half their pixels at least: a print lies on the board or on a tile's face, which passes for it; a camel's
        top seen alone has the camel's own side below it. (A box camel's side is of its colour too, in its patch, and
        the board lies below the whole block: :meth:`_top_above_side` tells it from a print.)"""
        x, y, width, height = box
        below = window.boardlike[y + height : y + height + UNDER_ROWS, x : x + width]
        return below.size > 0 and 2 * np.count_nonzero(below > 0) >= below.size

    def _whole_pieces(self, window: Window, strong: np.ndarray, label: int, limit: float) -> Pieces | None:
        """The patches of a camel's colour on the track (``strong``) larger than ``limit``, each with the piece of the
        whole window it belongs to (beyond the track too): the patches' labels, each (patch, piece, its area, its
        bounding box), the pieces' labels and their extents (OpenCV's stats); None when no patch is that
        large."""
        _, labels, stats, _ = cv2.connectedComponentsWithStats(strong.view(np.uint8), connectivity=8)
        large = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] > limit) + 1
        if not len(large):
            return None
        whole = (window.evidence[..., label] >= self.fit.strong_evidence).view(np.uint8)
        _, pieces, extents, _ = cv2.connectedComponentsWithStats(whole, connectivity=8)
        patches = []
        for patch in large:
            x, y, width, height = stats[patch, :4]
            ys, xs = np.nonzero(labels[y : y + height, x : x + width] == patch)
            piece = int(pieces[y + ys[0], x + xs[0]])  # the piece of the whole window it belongs to
            patches.append((int(patch), piece, int(stats[patch, cv2.CC_STAT_AREA]), (int(x), int(y), int(width),
                                                                                      int(height))))
        return labels, patches, pieces, extents

    def _forget_bands(self, window: Window) -> None:
        """Beyond the track, a band of a camel's colour (pixels surely of it, touching) larger than ``band_bodies``
        body boxes and reaching further across or up than a camel's pieces can (the board's printed border, a
        stripe of the cloth) is no camel: its pixels tell nothing for or against that camel, nor count as its
        clutter. Only the band's pixels near its own colour are forgotten (``band_distance``): a camel on a far
        stack whose body reaches over a band of about its colour, touching it, is a colour apart and stays seen; a
        camel in the middle of a space beside a brown border stays read, and no yellow camel is read on top of a
        stack whose upper box reaches over the border. While calibrating, a
        colour not known yet is anything unlike the board: a red border behind the far row is no camel either, and
        a far camel's colour is measured from its own pixels, not the border's."""
        if window.clutter is None:
            return
        beyond, surely = window.clutter
        limit = self.fit.band_bodies * self._box_area(window, len(self._offsets) // 2, 0)
        # Beyond the track, the pixels surely of a colour are ``surely``'s (the table no rival; the evidence's
        # pixels at least that strong are among them).
        if np.count_nonzero(surely) <= limit:
            return  # mostly: too little of any colour beyond the track for a band
        counts = cv2.reduce(surely.view(np.uint8), 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0]  # numpy's is 5x slower
        unknown: list[np.ndarray | None] = []  # a colour not known yet (calibrating) is anything unlike the board
        for label in np.flatnonzero(counts > limit):
            if unknown and not self._known_colour[label]:
                band = unknown[0]  # the same pixels as the other colours not known yet
            else:
                colour = np.zeros(beyond.shape, np.uint8)
                colour[beyond] = surely[:, label]
                band = self._wider_than_a_camel(window, colour, limit)
                if not self._known_colour[label]:
                    unknown.append(band)
            if band is not None and self._known_colour[label] and self.fit.band_distance is not None:
                band = self._like_band(window, band)
            if band is not None:
                window.evidence[..., label][band] = 0.0
                window.planes[label, band.ravel()] = 0.0
                surely[band[beyond], label] = False

    def _like_band(self, window: Window, band: np.ndarray) -> np.ndarray:
        """Which pixels of ``band`` (a mask of the window) look like the band itself (within ``band_distance`` of
        its colour, under a board's range of shading): a camel of that colour standing against it does not."""
        pixels = window.corrected[band]
        colours = [column_medians(pixels).astype(np.float32)]
        if not self._printed:
            image = self.observation.image
            at = self._border_band.get("pixels")
            if at is None:
                at = self._border_band["pixels"] = _border_band(self._on_track((0, 0), image.shape[:2]))
            self._printed.append(_border_colour(image, at))
        if self._printed[0] is not None:
            # The border's own colour too: where a camel is much of the band, the band's median is partly the camel's.
            colours.append((self._printed[0] / self._lights[window.space]).astype(np.float32))
        distances = ray_distances(pixels, np.array(colours, np.float32), self.fit.board_shading).min(axis=1)
        near = distances < self.fit.band_distance
        like = np.zeros_like(band)
        like[band] = near
        return like

    def _wider_than_a_camel(self, window: Window, colour: np.ndarray, limit: float) -> np.ndarray | None:
        """Where ``colour`` (a uint8 mask of the window) has touching parts of more than ``limit`` pixels that
        reach further across or up than a camel's pieces can (:meth:`_widest_reach`), as a mask; None if nowhere."""
        _, labels, stats, _ = cv2.connectedComponentsWithStats(colour, connectivity=8)
        large = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] > limit) + 1  # (0: the pixels not of the colour)
        if not len(large):
            return None
        reach = self._widest_reach(window)
        large = large[(stats[large, cv2.CC_STAT_WIDTH] > reach[0]) | (stats[large, cv2.CC_STAT_HEIGHT] > reach[1])]
        if not len(large):
            return None
        chosen = np.zeros(len(stats), bool)
        chosen[large] = True
        return chosen[labels]

    def _widest_reach(self, window: Window) -> tuple[int, int]:
        """How far across and up (pixels) the pieces of a camel standing on the window's space can reach at most:
        its reach (``own_mm`` beyond its size) turned any way (camels at a corner of the track, or set down
        crooked), at any offset."""
        if window.widest is None:
            window.widest = self._work_out_widest_reach(window)
        return window.widest

    def _work_out_widest_reach(self, window: Window, turned: bool = True) -> tuple[int, int]:
        fit = self.fit
        half = max(fit.length_mm, fit.width_mm) / 2 + fit.own_mm
        halves = (half, half) if turned else (fit.length_mm / 2 + fit.own_mm, fit.width_mm / 2 + fit.own_mm)
        boxes = self._boxes(window, *halves, np.array([[0.0, fit.step_mm + fit.own_mm]]))[:, 0] / 4
        extents = boxes.max(axis=1) - boxes.min(axis=1)  # offsets × (across, up)
        return int(np.ceil(extents[:, 0].max())), int(np.ceil(extents[:, 1].max()))

    def _facing_reach(self, window: Window) -> tuple[int, int]:
        """How far across and up (pixels) the pieces of a camel standing on the window's space facing along the track
        reach (its reach, ``own_mm`` beyond its size), at any offset."""
        if window.facing is None:
            window.facing = self._work_out_widest_reach(window, turned=False)
        return window.facing

    def lone(self, space: int) -> np.ndarray:
        """Each camel's score alone on ``space`` (nothing hiding it): offsets × levels × camels."""
        scores = self._lone.get((space, self.covered_cost))
        if scores is None:
            # What does not depend on what a covered camel costs is worked out once per space (a reading asks
            # it at both costs: blind, then judging the covered spaces).
            parts = self._lone_parts.get(space)
            if parts is None:
                parts = self._lone_parts[space] = _lone_parts(self, space)
            sums, covered, doubts, hidden = parts
            scores = sums.copy()
            scores[covered] = -self.covered_cost
            scores[~covered, 0] -= doubts[~covered, None]
            scores[hidden] = -self.covered_cost  # behind an occluder (offsets × levels, every camel)
            self._lone[(space, self.covered_cost)] = scores
        return scores

    def _stack_doubt_shift(self, window: Window, space: int, count: int) -> np.ndarray:
        """Per offset, a lone camel's ground doubt less a stack of ``count``'s (in plain view; 0 where covered)."""
        key = (space, count)
        shift = self._doubt_shift.get(key)
        if shift is None:
            _, covered, lone_doubts, _ = self._lone_parts[space]
            # In float32, as each offset's lone doubt (float32) less a Python float gave one at a time.
            doubts = self._plain_doubts(window, count).astype(np.float32)
            shift = np.where(covered, np.float32(0.0), lone_doubts - doubts).astype(np.float32)
            self._doubt_shift[key] = shift
        return shift

    def behind(self, space: int) -> list[int]:
        return self._behind.get(space, [])

    def _in_front(self, space: int, track: Track | None, count: int) -> Fronts:
        """The stacks of ``track`` that can hide part of what a stack of ``count`` on ``space`` is scored on, with
        the offset each stands at and its height: their shapes, not which camels they are (the boards that differ
        only in those cost alike there). A stack whose reach falls wholly beside that is left out: it hides none of
        it, and the stack costs what it costs with nothing there."""
        if not track:
            return ()
        found = []
        for front in self._fronts.get(space, ()):
            stack = tuple(track.get(front, ()))
            if stack:
                _, offset = self._stack(front, stack, track)
                key = (front, offset, len(stack), space, count)
                reaches = self._reaches.get(key)
                if reaches is None:
                    reaches = self._reaches[key] = _overlap(self._reach_bounds(front, offset, len(stack)),
                                                            self._scored_bounds(space, count))
                if reaches:
                    found.append((front, offset, len(stack)))
        return tuple(found)

    def _scored_bounds(self, space: int, count: int) -> np.ndarray:
        """The bounding rectangle (x0, y0, x1, y1, pixels of the picture, a little to spare) of every pixel a stack
        of ``count`` on ``space`` is scored on, at any offset: its body boxes, the ground around its feet and the
        space's floor (what a stack in front can hide of it)."""
        key = (space, count)
        bounds = self._bounds.get(key)
        if bounds is None:
            window = self._windows[space]
            points = np.concatenate([self._corners(window)[:, :count].reshape(-1, 2),
                                     *(self._ground(window, offset)[1] for offset in range(len(self._offsets))),
                                     self._floor(window)])
            bounds = self._bounds[key] = _bounds(points, window.origin)
        return bounds

    def _reach_bounds(self, space: int, offset: int, count: int) -> np.ndarray:
        """The bounding rectangle (as :meth:`_scored_bounds`) of the reach of a stack of ``count`` at ``offset`` on
        ``space``: what it hides of the spaces behind (its body boxes, or its reach, lie within)."""
        key = (space, offset, count, "reach")
        bounds = self._bounds.get(key)
        if bounds is None:
            window = self._windows[space]
            if window.reach is None:
                window.reach = self._reach_corners(window)
            bounds = self._bounds[key] = _bounds(window.reach[0, offset, :count].reshape(-1, 2), window.origin)
        return bounds

    def _stack(self, space: int, stack: tuple[str, ...], track: Track | None) -> tuple[float, int]:
        """The stack's cost on ``space`` at its best offset, and that offset."""
        if not stack:
            return 0.0, 0  # (what stands in front of an empty space does not matter)
        in_front = self._in_front(space, track, len(stack))
        key = (space, stack, in_front, self.covered_cost)
        cached = self._stack_cache.get(key)
        if cached is not None:
            return cached
        window = self._windows[space]
        if any(camel not in self._index for camel in stack):
            result = (float("inf"), 0)
        else:
            visible = self._visible(window, in_front)
            labels = [self._index[camel] for camel in stack]
            # The offsets where the stack's camels, each alone at its level, fit best.
            lone = self.lone(space)
            alone = sum(lone[:, level, label] for level, label in enumerate(labels[: lone.shape[1]]))
            if len(labels) > 1:
                # A lone camel's ground is not a stack's: the camels above hide more of it, and what is left
                # may be the true stack's camels beside it (a black camel under a white one, fitted too far
                # forward). Ranked with the stack's own ground doubt, not a lone camel's.
                alone = alone + self._stack_doubt_shift(window, space, len(labels))
            tried = np.argsort(-alone, kind="stable")[: self.fit.offsets_tried]
            best = min(((-self._score(window, labels, int(offset), visible, in_front), int(offset))
                        for offset in tried),
                       key=lambda item: item[0])
            result = (float(best[0]), int(best[1]))
        self._stack_cache[key] = result
        return result

    def _camel_scores(
        self, window: Window, labels: list[int], offset: int, visible: np.ndarray | None, in_front: Fronts = ()
    ) -> list[float]:
        if self._covered(window, offset, len(labels), in_front):
            return [0.0] * len(labels)
        shown, areas = self._shown(window, offset, len(labels), visible)
        hidden = self._behind_occluder(window, shown, areas)
        return [0.0 if behind else float(window.planes[label][pixels].sum()) / area
                for pixels, label, area, behind in zip(shown, labels, areas, hidden, strict=True)]

    def _behind_occluder(self, window: Window, shown: list[np.ndarray], areas: list[float]) -> list[bool]:
        """Which camels (their ``shown`` pixels, of a body of ``areas``) are hidden behind something that is neither
        board nor camel (``FitConfig.hidden_share``)."""
        occluded = self._occluded.get(window.space)
        if occluded is None:
            return [False] * len(shown)
        flat = occluded.ravel()
        return [np.count_nonzero(flat[pixels]) >= self.fit.hidden_share * area
                for pixels, area in zip(shown, areas, strict=True)]

    def _score(
        self, window: Window, labels: list[int], offset: int, visible: np.ndarray | None, in_front: Fronts = ()
    ) -> float:
        """A stack's camels' scores at ``offset``, less the ground's doubt (pixels not ``visible`` left out)
        and the clutter of each camel's colour around it. On a covered space only ``covered_cost`` counts."""
        if self._covered(window, offset, len(labels), in_front):
            return -self.covered_cost * len(labels)
        shown, areas = self._shown(window, offset, len(labels), visible)
        hidden = self._behind_occluder(window, shown, areas)
        if all(hidden):
            return -self.covered_cost * len(labels)  # as on a covered space: the ground is hidden too
        # A camel hidden behind an occluder costs what a covered camel costs; the others count as in view.
        total = 0.0
        for level, (pixels, label, area, behind) in enumerate(zip(shown, labels, areas, hidden, strict=True)):
            total += -self.covered_cost if behind else (float(window.planes[label][pixels].sum()) / area
                                                        - self._clutter(window, label, offset, level))
        return total - self._ground_doubt(window, offset, len(labels), visible)

    def _clutter(self, window: Window, label: int, offset: int, level: int) -> float:
        """What a camel at ``level`` loses for its colour showing in its window beyond its own reach (see
        ``FitConfig.clutter_free``), in bodies' worth of pixels."""
        fit = self.fit
        if not self._known_colour[label] or not fit.clutter_penalty:
            return 0.0
        costs = window.strays.get((offset, level))
        if costs is None:
            # Every camel's at once (the same arithmetic, in doubles): the stacks tried there ask for several.
            bodies = self._strays(window, offset, level).astype(np.float64) / self._box_area(window, offset, level)
            costs = window.strays[(offset, level)] = np.minimum(
                fit.clutter_cap, np.maximum(0.0, bodies - fit.clutter_free) * fit.clutter_penalty)
        return float(costs[label])

    def _strays(self, window: Window, offset: int, level: int) -> np.ndarray:
        """Per camel: the pixels surely of its colour (``FitConfig.strong_evidence``) around a camel at
        ``offset`` and ``level`` (its reach, ``own_mm`` beyond its size, and ``clutter_mm`` more) but outside
        its reach: each camel's colour is on one piece only."""
        if window.stray_bounds is None:
            window.stray_bounds = self._stray_bounds(window)
        (x0s, y0s, x1s, y1s), empty, counts, largest = window.stray_bounds
        if empty[offset, level]:
            return np.zeros(len(self.names))
        bounding = counts[offset, level]
        if largest[offset, level] <= self.fit.clutter_free * self._box_area(window, offset, level):
            return bounding  # mostly: too few around to cost anything (the band is inside these bounds)
        x0, y0, x1, y1 = (bound[offset, level] for bound in (x0s, y0s, x1s, y1s))
        inner, outer = window.reach[0, offset, level], window.reach[1, offset, level]
        shift = np.array([x0, y0]) * 4
        canvas = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(canvas, cv2.convexHull(outer - shift).reshape(-1, 2), 1, cv2.LINE_8, 2)
        cv2.fillConvexPoly(canvas, cv2.convexHull(inner - shift).reshape(-1, 2), 0, cv2.LINE_8, 2)
        pixels = np.count_nonzero(canvas)  # (numpy's: OpenCV's costs ~10 µs a call, see _covered)
        if not pixels:
            return np.zeros(len(self.names))
        means = [cv2.mean(part[y0:y1, x0:x1], canvas)[: part.shape[2]] for part in window.strong]
        return np.concatenate(means)[: len(self.names)] * pixels

    def _stray_bounds(self, window: Window) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray, np.ndarray]:
        """For :meth:`_strays`, at every offset × level at once: the bounding rectangle of the reach and
        ``clutter_mm`` beyond (x0, y0, x1, y1, pixels of the window), whether it is empty, how many pixels in it are
        surely each camel's (offsets × levels × camels), and the most of any camel's."""
        if window.strong_sums is None:
            # OpenCV's integral image and masked mean take up to four channels at a time, far faster than numpy.
            window.strong = self._strong_parts(window)
            window.strong_sums = [cv2.integral(part) for part in window.strong]
        if window.stray_rects is None:
            window.stray_rects = self._stray_rectangles(window)
        (x0, y0, x1, y1), empty, corners = window.stray_rects
        parts = []
        for sums in window.strong_sums:
            flat = sums.reshape(-1, sums.shape[2])
            a, b, c, d = (flat.take(corner, axis=0) for corner in corners)
            parts.append(a - b - c + d)
        counts = np.concatenate(parts, axis=-1)[..., : len(self.names)]
        return (x0, y0, x1, y1), empty, counts, counts.max(axis=-1)

    def _stray_rectangles(self, window: Window) -> tuple[tuple[np.ndarray, ...], np.ndarray, list[np.ndarray]]:
        """:meth:`_stray_bounds`' rectangles (x0, y0, x1, y1), whether each is empty, and their corners' flat indices
        in an integral image of the window: from the pose alone, kept with the window's shapes."""
        height, width = window.boardlike.shape
        if window.reach is None:
            window.reach = self._reach_corners(window)
        outer = window.reach[1]  # offsets × levels × 8 corners × 2
        x0, y0 = np.moveaxis(np.maximum(outer.min(axis=2) // 4, 0), -1, 0)
        x1, y1 = np.moveaxis(np.minimum(outer.max(axis=2) // 4 + 1, [width, height]), -1, 0)
        empty = (x1 <= x0) | (y1 <= y0)
        # (An empty rectangle's corners may lie beyond the window: any in it stand in, its counts are not used.)
        cx0, cy0 = np.minimum(x0, width), np.minimum(y0, height)
        # Each corner's sums gathered by its flat index (take: 4x faster than indexing by rows and columns).
        corners = [y * (width + 1) + x for y, x in ((y1, x1), (cy0, x1), (y1, cx0), (cy0, cx0))]
        return (x0, y0, x1, y1), empty, corners

    def _strong_parts(self, window: Window) -> list[np.ndarray]:
        """:meth:`_strong` as OpenCV takes it: four camels a part (height × width × 4, uint8; 0 past the last camel),
        merged by OpenCV from the camels' rows of the evidence (``Window.planes``: each row contiguous), and
        ``Window.clutter``'s pixels beyond the track added as one 4-byte word a pixel (numpy moves words many times
        faster than rows of a few bytes, and OpenCV interleaves rows many times faster than numpy)."""
        camels = len(self.names)
        strong = (window.planes >= self.fit.strong_evidence).view(np.uint8)
        rows = [*strong, *[np.zeros(strong.shape[1], np.uint8)] * (-camels % 4)]
        parts = [cv2.merge(rows[first : first + 4]) for first in range(0, len(rows), 4)]  # each pixels × 1 × 4
        if window.clutter is not None:
            beyond, surely = window.clutter
            extra = np.zeros((len(surely), len(rows)), bool)
            extra[:, :camels] = surely
            at = np.flatnonzero(beyond.ravel())  # (indexing by it: 5x faster than by the mask)
            for part, words in zip(parts, extra.view(np.uint32).T, strict=True):
                part.reshape(-1).view(np.uint32)[at] |= words
        shape = (*window.boardlike.shape, 4)
        return [part.reshape(shape) for part in parts]

    def _strong(self, window: Window) -> np.ndarray:
        """Which pixels are surely each camel's (height × width × camels, boolean): its evidence at least
        ``strong_evidence``, or beyond the track ``Window.clutter``'s (:meth:`_strong_parts` gives the same as
        OpenCV takes it, faster)."""
        strong = window.evidence >= self.fit.strong_evidence
        if window.clutter is not None:
            beyond, surely = window.clutter
            strong[beyond] |= surely
        return strong

    def camel_score(self, track: Track, camel: str) -> float:
        """How well ``camel`` fits where ``track`` puts it (mostly 0.2 to 0.7 in plain view; 0 when hidden)."""
        for space, stack in track.items():
            if camel in stack and int(space) in self._windows:
                space, stack = int(space), tuple(stack)
                window = self._windows[space]
                _, offset = self._stack(space, stack, track)
                in_front = self._in_front(space, track, len(stack))
                labels = [self._index[name] for name in stack]
                return self._camel_scores(window, labels, offset, self._visible(window, in_front), in_front)[
                    stack.index(camel)]
        return 0.0

    def _ground_doubt(self, window: Window, offset: int, count: int, visible: np.ndarray | None) -> float:
        """How much the ground around the feet of a stack of ``count`` fails to look like the board (0 to
        ``ground_penalty``): the ground the stack leaves in view, less what ``visible`` (flat) leaves out.
        Mostly the stacks in front hide none of it: then it is the plain view's, worked out once."""
        if visible is not None:
            layout = self._layout(window, offset, count)
            ground, floor = visible[layout.ground], visible[layout.floor]
            if not (ground.all() and floor.all()):
                boardlike = window.boardlike.ravel()
                return self._doubt(boardlike[layout.ground[ground]], boardlike[layout.floor[floor]])
        doubt = window.doubts.get((offset, count))
        if doubt is None:
            # Every offset's at once: the lone scores and a stack's ranking ask for them all anyway.
            self._plain_doubts(window, count)
            doubt = window.doubts[(offset, count)]
        return doubt

    def _plain_doubts(self, window: Window, stacked: int = 1) -> np.ndarray:
        """:meth:`_ground_doubt` of a stack of ``stacked`` camels at every offset in plain view (offsets), all at
        once: the counts of every offset's ground together, and a median only where half of a part at least is
        unlike the board (the only parts that can raise the doubt, see :meth:`_doubt`)."""
        count = len(self._offsets)
        known = [window.doubts.get((offset, stacked)) for offset in range(count)]
        if all(doubt is not None for doubt in known):
            return np.array(known)
        band, inside, boxes, rings, floor, parts, sizes = self._ground_parts(window, stacked)
        boardlike = window.boardlike[band]
        unlike = _packed(boardlike[None] < 0)
        asked = [(size >= 8) & (bits_set(part & unlike) >= size // 2) for part, size in zip(parts, sizes, strict=True)]
        masks = (lambda offset: rings[offset][inside].view(bool) & (boxes[offset][inside] == 0),
                 lambda offset: floor & (boxes[offset][inside] == 0))
        found = []
        penalty = self.fit.ground_penalty
        for offset, asks in enumerate(zip(*(ask.tolist() for ask in asked), strict=True)):
            worst = 0.0
            if any(asks):  # (mostly not: no part of an offset's ground is asked)
                for mask, ask in zip(masks, asks, strict=True):
                    if ask:
                        worst = max(worst, -fast_median(boardlike[mask(offset)]))
            found.append(window.doubts.setdefault((offset, stacked), penalty * worst))
        return np.array(found)

    def _ground_parts(self, window: Window, stacked: int) -> tuple[Any, ...]:
        """What :meth:`_plain_doubts` counts a stack of ``stacked`` camels' ground in, at every offset: the band of the
        window's rows and columns that holds every ground ring and the floor, the same pixels in the masks' rows, the
        masks (body boxes, rings) and the floor there, and the ground's parts (rings, floor) each offset leaves in view
        as packed bits, with their sizes. All follow from the pose alone: drawn once and kept with the window's shapes
        (a still camera's frames take them over), only the pixels unlike the board are counted a frame."""
        found = window.ground_parts.get(stacked)
        if found is not None:
            return found
        count = len(self._offsets)
        if window.bottom is None:
            window.bottom = self._bottom_masks(window)
        top, boxes, rings = window.bottom
        # The ground rings and the floor lie in a band of the window (the air above the space is most of it):
        # counted there only, with a pixel to spare on every side of their outlines, as packed bits.
        outlines = np.concatenate([*(self._ground(window, offset)[1] for offset in range(count)),
                                   self._floor(window)]) // 4
        height, width = window.boardlike.shape
        (x0, y0), (x1, y1) = np.maximum(outlines.min(axis=0) - 2, 0), np.minimum(outlines.max(axis=0) + 3,
                                                                                 [width, height])
        if stacked > 1:
            # The camels above hide more of the ground: every level's box (as drawn for a layout) on the bottom one's.
            # A box wholly above the band's rows hides none of it (OpenCV fills no pixel more than one beyond a
            # polygon's outline) and is not drawn: most are, seen from above the table.
            lowest = self._corners(window)[:, 1:stacked, :, 1].max(axis=2) // 4 + 2  # offsets × levels above
            boxes = boxes.copy()
            for offset, level in zip(*np.nonzero(lowest >= y0), strict=True):
                boxes[offset] |= self._box_mask(window, int(offset), int(level) + 1)[top : top + len(boxes[offset])]
        band = (slice(y0, y1), slice(x0, x1))
        inside = (slice(y0 - top, y1 - top), slice(x0, x1))  # the same pixels in the masks' rows
        free = ~_packed(boxes[:, inside[0], inside[1]])  # (past the last pixel: padding, cleared by the parts')
        floor = self._floor_mask(window)[band]
        parts = (_packed(rings[:, inside[0], inside[1]]) & free, _packed(floor[None]) & free)
        found = window.ground_parts[stacked] = (band, inside, boxes, rings, floor, parts,
                                                tuple(bits_set(part) for part in parts))
        return found

    def _covered(self, window: Window, offset: int, count: int, in_front: Fronts) -> bool:
        """Whether the floor of the space that a stack of ``count`` at ``offset`` leaves in view, and the stacks
        ``in_front`` too, is mostly unlike the board (see ``FitConfig.covered_distance``): unlike its own colour
        and the others it may have (``Window.others``) alike (one can mislead; a tile is unlike them all)."""
        if self._floor_unlike(window)[1] < 5:
            return False  # then no floor it leaves in view (8 pixels or more) is mostly unlike the board
        key = (offset, count, in_front)
        covered = window.covers.get(key)
        if covered is None and in_front and self._open_floor_unlike(window, offset, count) < 5:
            # Stacks in front only take pixels away: fewer than 5 unlike pixels can never be most of 8 or more.
            covered = window.covers[key] = False
        if covered is None:
            crop = self._floor_box(window)  # nothing of the floor lies beyond it
            floor = self._open_floor(window, offset, count)[crop]
            if in_front:
                floor = floor & self._open_view(window, in_front)[crop]
            # Mostly unlike: the median beyond the limit. Counted with numpy (0/1 masks): OpenCV's countNonZero and
            # bitwise_and cost about 10 µs a call in overheads (OpenCV 4.12), numpy's under 1 µs on a floor's pixels,
            # and this is asked for every stack tried.
            shown = np.count_nonzero(floor)
            covered = shown >= 8 and all(2 * np.count_nonzero(floor & far) > shown
                                         for far in self._unlike_board(window))
            window.covers[key] = covered
        return covered

    def _open_floor_unlike(self, window: Window, offset: int, count: int) -> int:
        """How many pixels of the floor a stack of ``count`` at ``offset`` leaves beyond its reach are unlike the
        board's own colour, whatever stands in front: at least 5 are needed for that floor to be covered."""
        key = (offset, count)
        unlike = window.open_unlike.get(key)
        if unlike is None:
            floor = self._open_floor(window, offset, count)[self._floor_box(window)]
            board = next(self._unlike_board(window))
            unlike = window.open_unlike[key] = np.count_nonzero(floor & board)  # (numpy's: see _covered)
        return unlike

    def _may_be_covered(self, window: Window) -> np.ndarray:
        """Per offset, whether a lone camel's space there can be covered at all, from areas alone (no drawing):
        only if the floor's pixels unlike the board outnumber half of what the camel's reach (at most its
        bounding rectangle) can leave of the floor."""
        floor, unlike = self._floor_unlike(window)
        if unlike < 5:
            return np.zeros(len(self._offsets), bool)
        if window.reach is None:
            window.reach = self._reach_corners(window)
        corners = window.reach[0, :, 0] / 4  # offsets × 8 × 2
        sides = corners.max(axis=1) - corners.min(axis=1)
        return 2 * unlike > floor - sides[:, 0] * sides[:, 1]

    def _floor_unlike(self, window: Window) -> tuple[int, int]:
        """How many pixels the space's floor has, and how many of them are unlike its board's colour."""
        if window.floor_unlike is None:
            floor = self._floor_mask(window).view(np.uint8)[self._floor_box(window)]
            window.floor_unlike = (0, 0) if not floor.size else (
                np.count_nonzero(floor), np.count_nonzero(floor & next(self._unlike_board(window))))
        return window.floor_unlike

    def _floor_box(self, window: Window) -> tuple[slice, slice]:
        """The rows and columns of the window that hold the space's floor (what is covered is asked of it alone)."""
        if window.floor_box is None:
            rows, columns = (np.flatnonzero(self._floor_mask(window).any(axis=axis)) for axis in (1, 0))
            window.floor_box = ((slice(rows[0], rows[-1] + 1), slice(columns[0], columns[-1] + 1)) if len(rows)
                                else (slice(0, 0), slice(0, 0)))
        return window.floor_box

    def _unlike_board(self, window: Window) -> Iterator[np.ndarray]:
        """The floor's pixels (uint8 masks of :meth:`_floor_box`) beyond ``covered_distance`` of its board's colour,
        then of each of the others (worked out only when asked: most spaces look like their own board)."""
        limit = self.fit.covered_distance
        crop = self._floor_box(window)
        if window.unlike is None:
            window.unlike = [(window.board_distance[crop] > limit).view(np.uint8)]
        yield window.unlike[0]
        if len(window.unlike) == 1:
            # Of every pixel of the window, as before (the matrix products' rounding is then surely the same).
            pixels = window.corrected.reshape(-1, 3)
            distances = ray_distances(pixels, window.others, self.fit.board_shading).T
            window.unlike += [(row > limit).reshape(window.board_distance.shape)[crop].view(np.uint8)
                              for row in distances]
        yield from window.unlike[1:]

    @contextmanager
    def reading_blind(self) -> Iterator[None]:
        """Within it, each camel on a covered space costs ``FitConfig.blind_covered_cost``: a board read
        blind puts camels where they are seen (a board judged: ``FitConfig.covered_cost``)."""
        self.covered_cost = self.fit.blind_covered_cost
        try:
            yield
        finally:
            self.covered_cost = self.fit.covered_cost

    def covered(self, track: Track, space: int) -> bool:
        """Whether ``space``, as ``track`` has it, is covered (see ``FitConfig.covered_distance``)."""
        stack = tuple(track.get(space, ()))
        if space not in self._windows or not stack or any(camel not in self._index for camel in stack):
            return False
        window = self._windows[space]
        _, offset = self._stack(space, stack, track)
        in_front = self._in_front(space, track, len(stack))
        if self._covered(window, offset, len(stack), in_front):
            return True
        # Or every camel of it hidden behind something that is neither board nor camel.
        shown, areas = self._shown(window, offset, len(stack), self._visible(window, in_front))
        return all(self._behind_occluder(window, shown, areas))

    def _doubt(self, *grounds: np.ndarray) -> float:
        """The ground's doubt from the board-likeness of its pixels (each part of it judged alone)."""
        worst = 0.0
        for values in grounds:
            # Unless half of it is unlike the board, the median is not below 0 and cannot raise the doubt.
            if len(values) >= 8 and np.count_nonzero(values < 0) >= len(values) // 2:
                worst = max(worst, -fast_median(values))
        return self.fit.ground_penalty * worst

    def stack_cost(self, space: int, stack: Sequence[str], track: Track | None = None) -> float:
        if space not in self._windows:
            return 0.0
        return self._stack(space, tuple(stack), track)[0]

    def track_cost(self, track: Track) -> float:
        return sum(self.space_costs(track).values()) + self.out_of_view_cost(track)

    def out_of_view_cost(self, track: Track) -> float:
        """What the camels ``track`` puts where the picture shows no space cost (behind the start, past the
        finish, a space the frame cuts off): as much as on a covered space, since the picture cannot show them
        there either. A board that carries camels out of view is then no cheaper than one that leaves them
        where the picture cannot show them (or shows them faintly)."""
        return self.covered_cost * sum(len(stack) for space, stack in track.items() if int(space) not in self._windows)

    def space_costs(self, track: Track) -> dict[int, float]:
        return {space: self.stack_cost(space, track.get(space, ()), track) for space in self.spaces}

    def judge(self, hypotheses: Sequence[Track], priors: Sequence[float] | None = None) -> Verdict:
        return judge_costs(self, hypotheses, priors)

    def camel_outline(self, track: Track, camel: str) -> tuple[float, float, float, float] | None:
        """Where ``camel``'s body falls in the picture on ``track`` (x0, y0, x1, y1, pixels of the read picture),
        its stack at the offset where it fits best; None where the picture shows no space of it."""
        place = next(((int(space), tuple(stack)) for space, stack in track.items() if camel in stack), None)
        if place is None or place[0] not in self._windows:
            return None
        space, stack = place
        window = self._windows[space]
        _, offset = self._stack(space, stack, track)
        box = self._box(window, offset, stack.index(camel)) / 4.0
        x0, y0 = window.origin
        return (float(box[:, 0].min() + x0), float(box[:, 1].min() + y0), float(box[:, 0].max() + x0),
                float(box[:, 1].max() + y0))

    def camel_samples(self, track: Track, trim: float = 0.2) -> dict[str, np.ndarray]:
        """The light-corrected pixels each camel of ``track`` (a board known to be right) shows, where the
        fit puts it (its body, less what the stacks in front and the camels on it hide)."""
        found: dict[str, np.ndarray] = {}
        for space, stack in track.items():
            space = int(space)
            if not stack or space not in self._windows or any(camel not in self._index for camel in stack):
                continue
            window = self._windows[space]
            _, offset = self._stack(space, tuple(stack), track)
            visible = self._visible(window, self._in_front(space, track, len(stack)))
            shown, _ = self._shown(window, offset, len(stack), visible)
            height, width = window.evidence.shape[:2]
            # The body's edges (outline, legs, the board between them) would blur the colour: its middle only.
            for pixels, camel in zip(shown, stack, strict=True):
                mask = np.zeros(height * width, np.uint8)
                mask[pixels] = 1
                mask = mask.reshape(height, width)
                inner = cv2.erode(mask, np.ones((3, 3), np.uint8)) if trim > 0 else mask
                if inner.sum() < 3:
                    inner = mask
                found[camel] = window.corrected[inner.astype(bool)]
        return found


def _border_colour(image: np.ndarray, band: np.ndarray) -> np.ndarray | None:
    """The board's printed border's colour (BGR as the picture shows it): the median of a band just beyond the
    track (``band``: :func:`_border_band`'s pixels of the picture) all round the track, where camels on far spaces
    cover only a little of it. A window's own pixels beyond the track show more of the table than of the border when
    the board's margin is narrow, so the table's colour alone (their median) left the border to count for a camel
    whose colour is not known yet: a far camel as pale as its space was fitted onto the red border behind it (dev
    seed 97, table 0, its yellow camel learnt as (30, 37, 86)). ``None`` when fewer than ``TABLE_PIXELS`` of the band
    are in the picture."""
    if len(band) < TABLE_PIXELS:
        return None
    return column_medians(image.reshape(-1, 3)[band].astype(np.float32)).astype(np.float32)


def _border_band(on_track: np.ndarray) -> np.ndarray:
    """The pixels (flat indices of the picture) where :func:`_border_colour` looks at the border: from
    ``BORDER_BAND_PX[0]`` to ``[1]`` beyond the track (``on_track``: the picture's pixels within its outline)."""
    track = on_track.view(np.uint8)
    near, far = (cv2.dilate(track, np.ones((2 * px + 1, 2 * px + 1), np.uint8)) for px in BORDER_BAND_PX)
    return np.flatnonzero(far > near)


def _packed(masks: np.ndarray) -> np.ndarray:
    """Masks (n × …, boolean or 0/1 bytes) as packed bits, a row each (see :meth:`SilhouetteScorer._plain_doubts`)."""
    return np.packbits(masks.reshape(len(masks), -1).view(bool), axis=1)


def _bounds(points: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    """The bounding rectangle (x0, y0, x1, y1, pixels of the picture) of outlines in a window at ``origin`` (2 bits
    of sub-pixel), with 2 pixels to spare on every side: OpenCV fills no pixel beyond a polygon's by more than one."""
    return np.concatenate([points.min(axis=0) / 4 + origin - 2, points.max(axis=0) / 4 + origin + 2])


def _overlap(first: np.ndarray, second: np.ndarray) -> bool:
    """Whether two bounding rectangles (x0, y0, x1, y1) meet."""
    return bool(first[0] <= second[2] and second[0] <= first[2] and first[1] <= second[3] and second[1] <= first[3])


def _lone_parts(scorer: SilhouetteScorer, space: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each camel's score alone on ``space`` (nothing hiding it) comes from these: offsets × levels × camels, for
    ranking where to look (a stack's own cost is worked out exactly). Each body box is taken as the core of its
    bounding rectangle (a share ``LONE_CORE`` of its width and height), summed as from an integral image
    (:func:`vision.silhouette_evidence.box_sums`): all boxes of a window at once. At level 0 the ground around the
    feet must look like the board (see :meth:`SilhouetteScorer._ground_doubt`); where it would be covered, every
    level's score is what a camel there costs (:meth:`SilhouetteScorer.lone`), as where its box's core is mostly
    behind an occluder. Returns those sums, which offsets are covered, each offset's ground doubt (float32, as the
    scores are: 0 where covered), and which offsets × levels are behind an occluder."""
    window = scorer._windows[space]
    camels = window.evidence.shape[2]
    levels = scorer.fit.max_level
    offsets = len(scorer._offsets)
    if window.lone_cores is None:
        window.lone_cores = _lone_cores(scorer, window)
    x0, y0, x1, y1, area = window.lone_cores
    sums = box_sums(window.evidence, x0, y0, x1, y1)
    scores = (sums / area).reshape(offsets, levels, camels).astype(np.float32)
    maybe = scorer._may_be_covered(window)
    covered = np.array([bool(maybe[offset]) and scorer._covered(window, offset, 1, ()) for offset in range(offsets)])
    doubts = np.where(covered, np.float32(0.0), scorer._plain_doubts(window)).astype(np.float32)
    occluded = scorer._occluded.get(space)
    if occluded is None:
        hidden = np.zeros((offsets, levels), bool)
    else:
        # The share of each box's core behind an occluder (see ``FitConfig.hidden_share``), summed alike.
        counts = cv2.integral(occluded.view(np.uint8))
        inside = counts[y1, x1] - counts[y0, x1] - counts[y1, x0] + counts[y0, x0]
        hidden = (inside >= scorer.fit.hidden_share * area[:, 0]).reshape(offsets, levels)
    return scores, covered, doubts, hidden


def _lone_cores(scorer: SilhouetteScorer, window: Window) -> tuple[np.ndarray, ...]:
    """The cores :func:`_lone_parts` sums every offset × level's box over (x0, y0, x1, y1, pixels of the window; and
    their areas, at least 1): from the pose alone, kept with the window's shapes."""
    height, width = window.boardlike.shape
    levels = scorer.fit.max_level
    corners = scorer._corners(window)[:, :levels].reshape(len(scorer._offsets) * levels, 8, 2) / 4
    low, high = corners.min(axis=1), corners.max(axis=1)
    middle, half = (low + high) / 2, (high - low) / 2 * LONE_CORE
    x0, y0 = np.clip(np.rint(middle - half), 0, [width, height]).astype(int).T
    x1, y1 = np.clip(np.rint(middle + half), 0, [width, height]).astype(int).T
    return x0, y0, x1, y1, np.maximum((x1 - x0) * (y1 - y0), 1)[:, None]


LONE_CORE = 0.7
"""The share of a box's bounding rectangle (each way) its lone score is summed over."""


def first_track(
    scorer: SilhouetteScorer, threshold: float = 0.0, shortlist: int = 8, pair_gain: float = 0.3
) -> dict[int, list[str]]:
    """A first board, built as camels are: one camel at a time, standing on an empty space or on top of a
    stack already placed, each camel once. Of the ``shortlist`` moves whose camel fits best alone there, the
    one that makes the whole board fit better is taken (the stacks in front hide what they hide). When no camel
    alone helps, two set at once on a stack may, by ``pair_gain`` (tuned on seeds 100-101: below 0.3 the pairs
    it adds in light and props are as often wrong as right); it stops when nothing makes the board fit better."""
    scores = {space: scorer.lone(space) for space in scorer.spaces}
    track: dict[int, list[str]] = {}
    while True:
        placed = {camel for stack in track.values() for camel in stack}
        moves: list[tuple[float, int, str]] = []
        for space, table in scores.items():
            level = len(track.get(space, []))
            if level >= scorer.fit.max_level:
                continue
            alone = table[:, level, :].max(axis=0)
            moves += [(float(alone[index]), space, name) for index, name in enumerate(scorer.names)
                      if name not in placed]
        if not moves:
            break
        moves.sort(key=lambda move: -move[0])
        current = scorer.space_costs(track)
        best: tuple[float, dict[int, list[str]]] | None = None
        for _, space, camel in moves[:shortlist]:
            candidate = {**track, space: [*track.get(space, []), camel]}
            gain = sum(current[other] - scorer.stack_cost(other, candidate.get(other, ()), candidate)
                       for other in (space, *scorer.behind(space)))
            if best is None or gain > best[0]:
                best = (gain, candidate)
        if best is None or best[0] <= threshold:
            pair = _pair_move(scorer, scores, track, placed, current, shortlist, pair_gain)
            if pair is not None and pair[0] > max(threshold, pair_gain):
                best = pair
        if best is None or best[0] <= threshold:
            break
        track = best[1]
    return {space: stack for space, stack in sorted(track.items())}


def _pair_move(
    scorer: SilhouetteScorer,
    scores: dict[int, np.ndarray],
    track: dict[int, list[str]],
    placed: set[str],
    current: dict[int, float],
    shortlist: int,
    gain_needed: float,
) -> tuple[float, dict[int, list[str]]] | None:
    """The best two camels set at once on a stack, when no camel alone helps: a camel seen plainly one level
    up stands on one the picture barely tells from the board (a pale camel on a pale space) — alone, that one
    never pays its way, and without it the one above has nothing to stand on."""
    uppers: list[tuple[float, int, str]] = []
    for space, table in scores.items():
        level = len(track.get(space, [])) + 1
        if level >= min(scorer.fit.max_level, table.shape[1]):
            continue
        alone = table[:, level, :].max(axis=0)
        # The camel on top must bring the gain: mostly none left out fits that well, and nothing is tried.
        uppers += [(float(alone[index]), space, name) for index, name in enumerate(scorer.names)
                   if name not in placed and alone[index] > gain_needed]
    uppers.sort(key=lambda move: -move[0])
    best: tuple[float, dict[int, list[str]]] | None = None
    for _, space, upper in uppers[:shortlist]:
        for lower in scorer.names:
            if lower in placed or lower == upper:
                continue
            candidate = {**track, space: [*track.get(space, []), lower, upper]}
            gain = sum(current[other] - scorer.stack_cost(other, candidate.get(other, ()), candidate)
                       for other in (space, *scorer.behind(space)))
            if best is None or gain > best[0]:
                best = (gain, candidate)
    return best
