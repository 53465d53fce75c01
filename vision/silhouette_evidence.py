"""The picture as evidence for each camel colour, and the exact, fast arithmetic the silhouette scorer sums it
with (see :mod:`vision.silhouette` for what the evidence means and how a board is scored from it).

Colours are compared by :func:`ray_distances`: how far a pixel is from what a colour looks like under any light
within a range of shadings. Each helper here gives numpy's plain result bit for bit, only faster (the frame
budget is one core's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.silhouette import FitConfig

BOARD_SHADING = (0.55, 1.15)
"""The shadings of the board's colour that are still the board (``FitConfig.board_shading``'s default), here
so that :mod:`vision.read` can judge a rim's shade without importing the scorer built on it."""


def camel_evidence(
    fit: FitConfig, corrected: np.ndarray, board: np.ndarray, known: list[np.ndarray | None],
    table: tuple[np.ndarray, np.ndarray] | None = None, glare: float = 0.0,
    shadings: tuple[float, np.ndarray] | None = None, hot: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
    """Each camel's evidence (camels × pixels), the board-likeness and the distance from the board's colour
    (pixels) of ``corrected`` (pixels × 3), with a ``table`` (its colour, or several such as the board's printed
    border's, and which pixels lie beyond the track) for a rival, which of those pixels beyond the track would
    surely be each camel's without it (camels × those pixels): what a camel's colour around it counts as clutter;
    and which pixels are neither board nor any known camel (``FitConfig.occluder_distance`` from all: an arm's
    sleeve, a phone), whose evidence is 0.
    With ``glare``, the board's colour may be whitened by up to that much of the lamp's reflection (see
    :func:`glare_distances`). ``shadings``: the known colours' (in ``known``'s order) as :func:`camel_shadings`
    gives them, worked out here if not given (a scorer's colours are fixed: it works them out once, not for each
    window). ``hot``: the board's colour as a lamp's hot spot on the space shows it, a second colour of the board
    there. Worked out camels × pixels: numpy is many times faster along a few long rows than many short ones."""
    squares = np.einsum("ij,ij->i", corrected, corrected)
    board_distance = (glare_distances(corrected, board, fit.board_shading, glare) if glare else
                      ray_distance_rows(corrected, squares, board[None, :], fit.board_shading)[0])
    if hot is not None:
        # The board as a lamp's hot spot shows it is the board too (see :func:`whitened_apart`).
        hot_distance = (glare_distances(corrected, hot, fit.board_shading, glare) if glare else
                        ray_distance_rows(corrected, squares, hot[None, :], fit.board_shading)[0])
        np.minimum(board_distance, hot_distance, out=board_distance)
    have = [index for index, profile in enumerate(known) if profile is not None]
    distances = np.full((len(known), len(corrected)), np.inf, np.float32)
    if have:
        profiles = np.array([known[index] for index in have], np.float32)
        distances[have] = ray_distance_rows(corrected, squares, profiles,
                                            camel_shadings(fit, profiles) if shadings is None else shadings)
    # Each camel's rival is the nearest of the board and the other camels: the nearest camel's is the
    # second nearest (when two are nearest alike, each one's rival is the other, as near).
    evidence, nearest = nearest_of_others(distances)
    np.minimum(board_distance, evidence, out=evidence)
    if table is not None and np.count_nonzero(table[1]):
        # Beyond the track, the table is a rival too: a pixel as near the table's colour as a camel's is not
        # that camel's (a dark table behind the far row is no black camel standing on a stack there).
        colour, beyond = table
        near_table = np.full(len(corrected), np.inf, np.float32)
        # (np.compress: the same pixels as indexing by ``beyond``, three times faster.)
        # (Several colours: the table's and the board's printed border's, while calibrating; the nearest counts.)
        near_table[beyond] = ray_distance_rows(np.compress(beyond, corrected, axis=0), np.compress(beyond, squares),
                                               np.atleast_2d(colour), fit.board_shading).min(axis=0)
        evidence -= distances
        surely = np.compress(beyond, evidence, axis=1) >= fit.strong_evidence * fit.evidence_scale
        # min(rival, table) - distance, whole rows at once (on the track the table is no rival: infinitely far;
        # a colour not known yet is worked out below, whatever its rows hold here).
        with np.errstate(invalid="ignore"):
            np.minimum(evidence, near_table[None, :] - distances, out=evidence)
    else:
        evidence -= distances
    evidence /= fit.evidence_scale
    # What is far from the board and from every camel tells nothing for or against any of them (else each such
    # pixel counts for whichever camel, or the board, happens to be least far). Not while calibrating: a colour
    # not known yet is anything unlike the board.
    occluded = (board_distance > fit.occluder_distance) & (nearest > fit.occluder_distance)
    if len(have) < len(known):
        occluded[:] = False
    elif occluded.any():
        evidence[:, occluded] = 0.0
    unknown = [index for index, profile in enumerate(known) if profile is None]
    if unknown:
        unlike = board_distance
        if table is not None and np.count_nonzero(table[1]):
            # Beyond the track what is like the table (or the board's printed border) is no camel either: a camel
            # on a far space, measured while calibrating, drifted up onto the red border behind it and was learnt
            # in its colour (fresh POV-Ray seed 702, table 0: a yellow camel measured as (18, 38, 109)).
            unlike = np.minimum(board_distance, near_table)
        evidence[unknown] = ((unlike - fit.unknown_margin) / fit.evidence_scale)[None, :]
    nearest_camel = np.where(np.isfinite(nearest), nearest, 1.0)
    boardlike = (nearest_camel - board_distance) / fit.evidence_scale
    # A body box is rougher than a camel (between its legs, around its neck): what does not look like the
    # camel there counts for less than what does.
    np.clip(evidence, -1.0, 1.0, out=evidence)
    weigh_unlike(evidence, fit.unlike_weight)
    if table is None or not np.count_nonzero(table[1]):
        return evidence, np.clip(boardlike, -1.0, 1.0).astype(np.float32), board_distance, None, occluded
    # The table's pixels of a camel's colour still count as clutter around it: a board's border or a cloth of
    # its colour is no place to read it on, however little each pixel tells.
    if unknown:  # (only while calibrating: the rows of known colours are as worked out above)
        surely[unknown] = evidence[unknown][:, table[1]] >= fit.strong_evidence
    return evidence, np.clip(boardlike, -1.0, 1.0).astype(np.float32), board_distance, surely, occluded


def weigh_unlike(values: np.ndarray, weight: float) -> None:
    """``values`` (float32) below 0 times ``weight``, in place: ``np.multiply(values, weight, out=values,
    where=values < 0)`` bit for bit. With a weight from 0 to 1, the larger of a value and its weighted self is the
    weighted one below 0 (no further from 0 than the value, however rounded) and the value itself from 0 up: the
    same products, without numpy's masked multiply (20 times slower)."""
    if 0.0 <= weight <= 1.0:
        np.maximum(values, values * np.float32(weight), out=values)
    else:
        np.multiply(values, weight, out=values, where=values < 0)


def like_other_tone(
    fit: FitConfig, corrected: np.ndarray, board_distance: np.ndarray, colour: np.ndarray, other_tone: np.ndarray,
    shading: tuple[float, np.ndarray] | None = None,
) -> np.ndarray:
    """Which of the pixels ``corrected`` (h × w × 3, or pixels × 3) are nearer the board's other tone (the spaces on
    either side, as lit there) than the space's own colour (``board_distance``) and a camel's ``colour`` (seen in
    ``shading``: :func:`camel_shadings`' for it, worked out here if not given): under a lamp the darker tone looks
    like the yellow or the orange camel. As flat as ``board_distance``."""
    samples = np.ascontiguousarray(corrected.reshape(-1, 3), np.float32)
    squares = np.einsum("ij,ij->i", samples, samples)
    tone = ray_distance_rows(samples, squares, other_tone[None, :].astype(np.float32), fit.board_shading)[0]
    profile = colour[None, :].astype(np.float32)
    shading = camel_shadings(fit, profile) if shading is None else shading
    camel = ray_distance_rows(samples, squares, profile, shading)[0]
    return ((tone < camel) & (tone < board_distance.ravel())).reshape(board_distance.shape)


def camel_shadings(fit: FitConfig, profiles: np.ndarray) -> tuple[float, np.ndarray]:
    """The shadings each of ``profiles`` (camels' colours, C × 3) may be seen in: ``FitConfig.camel_shading``, the
    brightest raised for a dark paint to as bright as ``FitConfig.dark_reach`` (as :func:`ray_distance_rows` takes
    them: the brightest per colour, C × 1)."""
    darkest, brightest = fit.camel_shading
    means = np.maximum(profiles.mean(axis=1, dtype=np.float32), np.float32(1.0))
    return darkest, np.maximum(np.float32(brightest), np.float32(fit.dark_reach) / means)[:, None]


def glare_distances(
    samples: np.ndarray, colour: np.ndarray, shading: tuple[float, float], glare: float, steps: int = 7
) -> np.ndarray:
    """How far each of the N ``samples`` (light-corrected) is from ``colour`` lit anywhere from ``shading[0]`` to
    ``shading[1]`` times with up to ``glare`` (a share of full white) of grey added: a lamp's reflection on a
    matt surface adds the lamp's own light to the colour, which divided by that light is grey, and whitens it
    (the nearest of ``steps`` even amounts of grey; the step leaves under 0.01 of error)."""
    samples = np.ascontiguousarray(samples, np.float32)
    profile = np.asarray(colour, np.float32)[None, :]
    nearest = np.full(len(samples), np.inf, np.float32)
    for grey in np.linspace(0.0, glare * 255.0, steps, dtype=np.float32):
        lit = samples - grey
        squares = np.einsum("ij,ij->i", lit, lit)
        np.minimum(nearest, ray_distance_rows(lit, squares, profile, shading)[0], out=nearest)
    return nearest


def whitened_apart(
    colour: np.ndarray, board: np.ndarray, clip: np.ndarray, shading: tuple[float, float], glare: float,
    steps: int = 31,
) -> float:
    """How far ``colour`` (light-corrected) is from ``board`` lit anywhere from ``shading[0]`` to ``shading[1]``
    times with up to ``glare`` (a share of full white) of grey added, as a camera shows it: a channel at its
    sensor's limit (``clip``, per channel, light-corrected as ``colour`` is) only says the colour reached that far.
    A lamp's hot spot on a glossy board whitens it past what :func:`glare_distances` allows, and the camera clips
    the brightest channels; a pale sleeve or card is no such whitening of the board's colour. A share of full white
    (the nearest of ``steps`` even amounts of grey)."""
    colour = np.asarray(colour, np.float64)
    board = np.asarray(board, np.float64)
    clip = np.asarray(clip, np.float64)
    shown = colour < clip
    nearest = np.inf
    for grey in np.linspace(0.0, glare * 255.0, steps):
        if shown.any():
            target = colour[shown] - grey
            weight = float(np.dot(board[shown], board[shown]))
            shade = float(np.dot(target, board[shown])) / weight if weight > 0 else shading[1]
        else:
            shade = shading[1]
        lit = min(max(shade, shading[0]), shading[1]) * board + grey
        # A shown channel is what it is; a clipped one is only as bright as the limit, or brighter.
        apart = np.where(shown, lit - colour, np.maximum(clip - lit, 0.0))
        nearest = min(nearest, float(np.linalg.norm(apart)) / 255.0)
    return nearest


def even_share(samples: np.ndarray, shading: tuple[float, float], distance: float) -> float:
    """The share of ``samples`` (N × 3) within ``distance`` of their median colour lit anywhere within ``shading``:
    near 1 on a bare space (its light varies smoothly across it), lower on a tile (its disc, its edge, its
    printing) or a card."""
    if not len(samples):
        return 0.0
    samples = np.ascontiguousarray(samples, np.float32)
    median = column_medians(samples).astype(np.float32)
    return float(np.count_nonzero(ray_distances(samples, median[None, :], shading)[:, 0] <= distance)) / len(samples)


def ray_distances(samples: np.ndarray, profiles: np.ndarray, shading: tuple[float, float]) -> np.ndarray:
    """How far each of N samples is from each of C colours (N × C): the distance to what the colour looks like
    lit anywhere from ``shading[0]`` to ``shading[1]`` times (a segment of its ray), as a share of full white.
    Unlike channel shares, it stays calm on dark colours, whose shares are mostly noise."""
    samples = samples.astype(np.float32, copy=False)
    squares = np.einsum("ij,ij->i", samples, samples)
    return np.ascontiguousarray(ray_distance_rows(samples, squares, profiles, shading).T)


def ray_distance_rows(
    samples: np.ndarray, squares: np.ndarray, profiles: np.ndarray, shading: tuple[float, float | np.ndarray]
) -> np.ndarray:
    """:func:`ray_distances` as C × N, of float32 ``samples`` whose squared lengths (``squares``) are known:
    each colour's row is worked out along the samples, the same arithmetic in the same order. The brightest
    shading may be one per colour (C × 1: :func:`camel_shadings`)."""
    profiles = profiles.astype(np.float32, copy=False)
    dots = np.empty((len(profiles), len(samples)), np.float32)
    for start in range(0, len(samples), BLAS_ROWS):
        dots[:, start : start + BLAS_ROWS] = (samples[start : start + BLAS_ROWS] @ profiles.T).T
    lengths = (np.einsum("ij,ij->i", profiles, profiles) + 1e-6)[:, None]
    scale = dots / lengths
    np.clip(scale, shading[0], shading[1], out=scale)
    # squares - 2·scale·dots + scale²·lengths, in that order, without temporaries.
    squared = np.multiply(scale, 2, dtype=np.float32)
    squared *= dots
    np.subtract(squares, squared, out=squared)
    scale *= scale
    scale *= lengths
    squared += scale
    np.maximum(squared, 0.0, out=squared)
    np.sqrt(squared, out=squared)
    squared /= 255.0
    return squared


BLAS_ROWS = 4096
"""Samples per matrix product. OpenBLAS spreads a larger one over threads, which for three columns costs far
more than it saves (a 1600-wide board crop: 20 times the CPU); the frame budget is one core's."""


def nearest_of_others(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The smallest of the other rows' values, column by column (rows × columns; infinite for a single row), and
    the smallest of all rows (columns): the smallest of the rows before each and of those after it, a whole row at
    a time (the same minima as the second smallest wherever a row holds the smallest, the smallest elsewhere, at a
    fifth of the cost). With no rows (no colour known), the smallest of all is infinite."""
    rows = len(values)
    others = np.empty_like(values)
    if not rows:
        return others, np.full(values.shape[1], np.inf, values.dtype)
    others[0] = np.inf
    for row in range(1, rows):  # the smallest of the rows before each
        np.minimum(others[row - 1], values[row - 1], out=others[row])
    nearest = np.minimum(others[-1], values[-1])
    after = np.full(values.shape[1], np.inf, values.dtype)
    for row in range(rows - 1, -1, -1):  # and of those after it
        np.minimum(others[row], after, out=others[row])
        if row:
            np.minimum(after, values[row], out=after)
    return others, nearest


BITS_SET = np.array([bin(byte).count("1") for byte in range(256)], np.uint8)
"""How many bits each byte value has set (``np.bitwise_count`` is numpy 2's: Bookworm's numpy, the one apt's
picamera2 is built against, is 1.24)."""


def bits_set(packed: np.ndarray) -> np.ndarray:
    """How many bits are set in each row of ``packed`` (rows × bytes, uint8, as ``np.packbits`` gives them)."""
    return BITS_SET.take(packed).sum(axis=1, dtype=np.int64)  # (take: 3x faster than indexing, the same counts)


def fast_median(values: np.ndarray) -> float:
    """The median, without numpy's overheads (called for every stack tried)."""
    middle = len(values) // 2
    part = np.partition(values, [middle - 1, middle] if len(values) % 2 == 0 else middle)
    return float(part[middle] if len(values) % 2 else (part[middle - 1] + part[middle]) / 2)


def column_medians(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=0)`` of a 2-D array, bit for bit (same dtype), each column partitioned as one
    contiguous row: numpy's median partitions across the rows' stride, and costs most of its time in overheads
    on a few rows (called for every space's window)."""
    values = np.asarray(values)
    if len(values) <= 3:
        ordered = np.sort(values, axis=0)  # a space and its neighbours: too few to partition
        middle = len(values) // 2
        return ordered[middle] if len(values) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    columns = np.ascontiguousarray(values.T)
    middle = len(values) // 2
    kth = [middle - 1, middle] if len(values) % 2 == 0 else [middle]
    parts = np.partition(columns, kth, axis=1)
    return parts[:, middle] if len(values) % 2 else (parts[:, middle - 1] + parts[:, middle]) / 2


def box_sums(values: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """Each box's sum (boxes × c, float64) of ``values`` (h × w × c, float32) over its rows ``y0`` to ``y1`` and
    columns ``x0`` to ``x1`` (ends excluded), as the integral image gives it: the float32 running sums of numpy's
    ``cumsum`` down and then across, bit for bit, widened to float64 at the boxes' corners. Added a whole row at a
    time down, then a whole column across (numpy's cumsum runs along one lane at a time, far slower), and across
    only in the rows the corners are read from (the rest of the integral image is never looked at)."""
    height, width = int(y1.max()), int(x1.max())
    down = values[:height, :width].copy()
    if height:
        above = down[0]
        for row in down[1:]:  # (the rows' views once each: indexing them twice a row costs as much as the sums)
            row += above
            above = row
    rows = np.union1d(y0, y1)
    rows = rows[rows > 0]  # (row 0 of the integral image is 0)
    # Those rows of the integral image, column by column (each column of them contiguous), with its zero row and
    # column: float32 as summed, widened at the corners read (the whole table widened cost as much as the sums).
    integral = np.zeros((width + 1, len(rows) + 1, values.shape[2]), np.float32)
    integral[1:, 1:] = down[rows - 1].transpose(1, 0, 2)
    if width:
        before = integral[1]
        for column in integral[2:]:
            column += before
            before = column
    at = np.zeros(height + 1, np.intp)  # each row of the integral image: where its sums are in ``integral``
    at[rows] = np.arange(1, len(rows) + 1)
    top, bottom = at[y0], at[y1]
    a, b, c, d = (integral[x, row].astype(np.float64) for x, row in ((x1, bottom), (x1, top), (x0, bottom), (x0, top)))
    return a - b - c + d
