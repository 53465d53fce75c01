"""One photo of a table: the camels of a board set down on their spaces (off centre, a little turned, stacks
18 to 20 mm a level), tiles on empty spaces, and with the ``props`` tier the pyramid, the palm tree, cards,
coins, a phone and sometimes an arm over the board; then lit, exposed and saved. Returns the truth: the
board, and how much of each camel and marker the camera really sees."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from benchmarks.independent.art import (
    BOARD_EDGE,
    BOARD_PX_PER_MM,
    card_texture,
    marker_texture,
    table_paint,
    texture_paint,
)
from benchmarks.independent.lighting import Light, shade
from benchmarks.independent.pieces import arm, camel, coin, palm_tree, phone, pyramid, tile
from benchmarks.independent.rays import Hits, Plane, Shape, block, cast, flat, rotation_z
from benchmarks.independent.sensor import Sensor, expose, save
from benchmarks.independent.table import BOARD_TOP, MIDDLE, Table

TIERS = ("clean", "light", "props")
REACH = 9.0
"""How far off its space's middle a stack stands in play (mm)."""
CALIBRATION_REACH = 18.0
"""The calibration photo's camels stand "anywhere on their space" (README): up to 18 mm off."""
CRAZY = ("black", "white")


@dataclass
class Truth:
    track: dict[int, list[str]]
    visible: dict[str, float]
    """The share of each camel's pixels that the camera sees (0 when it is out of the picture)."""
    level: dict[str, int]
    hidden_markers: list[int]
    """Markers less than 90% in view."""
    props: list[str]


@dataclass
class Placement:
    """Where a camel stands in a still scene, kept until it moves."""

    space: int
    level: int
    below: str | None
    offset: np.ndarray
    """From its space's middle on the board (mm)."""
    turn: float
    """Off the race's heading (radians)."""
    tilt: tuple[float, float]


@dataclass
class Still:
    """One table through a race, photographed by a camera that does not move: each camel keeps its placement until
    it moves (a moved unit is set down afresh at its new space, the camels it carries keep their place on the one
    below), the tiles keep theirs, the pyramid, palm tree, cards, coins and phone stay put, and the board is bumped
    now and then (``bump_share`` of the photos). The hand, the light, the exposure and the noise are per photo.
    Pass the same one to :func:`render` for each photo of the race, in order."""

    seed: int
    bump_share: float = 0.1
    pose: tuple[np.ndarray, float] | None = None
    """The board's shift and turn since the markers were taped (as :func:`bumped` draws them)."""
    camels: dict[str, Placement] = field(default_factory=dict)
    rng: np.random.Generator = field(init=False)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng([self.seed, 1])


def sensor_for(tier: str, light: Light, rng: np.random.Generator) -> Sensor:
    if tier == "clean":
        return Sensor(defocus=0.45)
    seen = light.lamp_colour ** rng.uniform(0.5, 1.0) * light.ambient_colour ** rng.uniform(0.0, 0.15)
    return Sensor(
        illuminant=tuple(float(c) for c in seen),  # type: ignore[arg-type]
        exposure_error=float(rng.uniform(-0.35, 0.35)),
        balance=tuple(float(g) for g in np.exp(rng.normal(0, 0.05, 3))),  # type: ignore[arg-type]
        vignette=float(rng.uniform(0.1, 0.45)),
        defocus=float(rng.uniform(0.3, 1.3)),
        shake=float(rng.uniform(1, 2.5)) if rng.random() < 0.2 else 0.0,
        shake_angle=float(rng.uniform(0, np.pi)),
        shot=float(rng.uniform(0.0005, 0.004)),
        read=float(rng.uniform(0.002, 0.008)),
        sharpen=float(rng.uniform(0, 0.8)),
        quality=int(rng.integers(60, 96)),
    )


def bumped(table: Table, rng: np.random.Generator, tier: str) -> tuple[Table, np.ndarray, float]:
    """The table with its board pushed a little since the markers were taped (players bump it): the board's
    middle and its turn. Clean scenes keep the board where the template says."""
    if tier == "clean":
        return table, MIDDLE.copy(), 0.0
    shift = np.array([*np.clip(rng.normal(0, 1.5, 2), -4, 4), 0.0])
    turn = float(np.radians(np.clip(rng.normal(0, 0.4), -1, 1)))
    return pushed(table, shift, turn)


def pushed(table: Table, shift: np.ndarray, turn: float) -> tuple[Table, np.ndarray, float]:
    """The table with its board shifted by ``shift`` (mm) and turned by ``turn`` about its middle."""
    rot = rotation_z(turn)

    def move(p: np.ndarray) -> np.ndarray:
        return MIDDLE + rot @ (np.asarray(p, float) - MIDDLE) + shift

    spaces = {n: [move([x, y, 0.0])[:2].tolist() for x, y in corners] for n, corners in table.spaces.items()}
    return replace(table, spaces=spaces, palm_at=move(table.palm_at)), MIDDLE + shift, turn


def _camels(
    table: Table, track: dict[int, list[str]], rng: np.random.Generator, reach: float
) -> tuple[list[Shape], list[str], dict[str, int]]:
    """Each stack set down within ``reach`` mm of its space's middle, each camel a little off the one below,
    turned and tilted a few degrees."""
    shapes: list[Shape] = []
    names: list[str] = []
    level: dict[str, int] = {}
    for space, stack in track.items():
        centre = table.centre(space)
        r, a = reach * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
        offset = np.array([r * np.cos(a), r * np.sin(a), 0.0])
        for k, name in enumerate(stack):
            if k:
                offset = offset + np.array([*rng.uniform(-2.5, 2.5, 2), 0.0])
                offset *= min(1.0, reach / max(np.linalg.norm(offset), 1e-9))
            base = centre + offset + np.array([0, 0, BOARD_TOP + k * table.step])
            facing = table.heading(space) + (np.pi if table.edition == "2018" and name in CRAZY else 0.0)
            facing += np.radians(np.clip(rng.normal(0, 4), -8, 8))
            tilt = (
                float(np.radians(rng.normal(0, 1.5))) if k else 0.0,
                float(np.radians(rng.normal(0, 1.5))) if k else 0.0,
            )
            shapes += camel(base, facing, table.paint[name], len(names), table.scale, seed=len(names), tilt=tilt)
            level[name] = k
            names.append(name)
    return shapes, names, level


def _still_camels(
    table: Table, track: dict[int, list[str]], still: Still, reach: float
) -> tuple[list[Shape], list[str], dict[str, int]]:
    """As :func:`_camels`, but each camel that has not moved since the previous photo (same space, level and camel
    below) stands exactly where it stood; a camel carried by a moved one keeps its place on it; the rest are set
    down afresh."""
    rng = still.rng
    shapes: list[Shape] = []
    names: list[str] = []
    level: dict[str, int] = {}
    placed: dict[str, Placement] = {}
    for space, stack in track.items():
        centre = table.centre(space)
        for k, name in enumerate(stack):
            below = stack[k - 1] if k else None
            was = still.camels.get(name)
            if was is not None and (was.space, was.level, was.below) == (space, k, below):
                place = was
            elif was is not None and below is not None and was.below == below and below in still.camels:
                # Carried: its place on the camel below, wherever that was set down.
                offset = placed[below].offset + (was.offset - still.camels[below].offset)
                place = Placement(space, k, below, offset, was.turn, was.tilt)
            else:
                if below is None:
                    r, a = reach * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
                    offset = np.array([r * np.cos(a), r * np.sin(a), 0.0])
                else:
                    offset = placed[below].offset + np.array([*rng.uniform(-2.5, 2.5, 2), 0.0])
                    offset *= min(1.0, reach / max(np.linalg.norm(offset), 1e-9))
                turn = float(np.radians(np.clip(rng.normal(0, 4), -8, 8)))
                tilt = (float(np.radians(rng.normal(0, 1.5))) if k else 0.0,
                        float(np.radians(rng.normal(0, 1.5))) if k else 0.0)
                place = Placement(space, k, below, offset, turn, tilt)
            placed[name] = place
            base = centre + place.offset + np.array([0, 0, BOARD_TOP + k * table.step])
            facing = table.heading(space) + (np.pi if table.edition == "2018" and name in CRAZY else 0.0) + place.turn
            grain = list(table.paint).index(name)  # its own wood whatever the order it is drawn in
            shapes += camel(base, facing, table.paint[name], len(names), table.scale, seed=grain, tilt=place.tilt)
            level[name] = k
            names.append(name)
    still.camels = placed
    return shapes, names, level


def _tiles(table: Table, track: dict[int, list[str]], rng: np.random.Generator) -> list[Shape]:
    free = [s for s in range(2, 17) if s not in track]
    chosen: list[int] = []
    for space in rng.permutation(free)[: int(rng.integers(0, 3))]:
        if all(abs(int(space) - c) > 1 for c in chosen):
            chosen.append(int(space))
    return [_one_tile(table, s, rng) for s in chosen]


def _tiles_at(table: Table, tiles: dict[int, bool], rng: np.random.Generator) -> list[Shape]:
    """The tiles a game has on the track (space -> plus side up)."""
    return [_one_tile(table, space, rng, plus) for space, plus in sorted(tiles.items())]


def _one_tile(table: Table, space: int, rng: np.random.Generator, plus: bool | None = None) -> Shape:
    """A tile set down a little off and crooked on ``space``, its side drawn when not given (in this order)."""
    centre = table.centre(space) + np.array([*rng.uniform(-4, 4, 2), BOARD_TOP])
    turn = float(np.radians(rng.uniform(-8, 8)))
    side = bool(rng.random() < 0.5) if plus is None else plus
    return tile(table.edition, centre, turn, side, rng)


def _off_board(table: Table, rng: np.random.Generator, room: float) -> np.ndarray | None:
    """A free place on the table, off the board and clear of the markers' paper."""
    x0, y0, x1, y1 = table.table_limits
    for _ in range(50):
        p = np.array([rng.uniform(x0 + room, x1 - room), rng.uniform(y0 + room, min(y1 - room, 800)), 0.0])
        if BOARD_EDGE[0] - room < p[0] < BOARD_EDGE[1] + room and BOARD_EDGE[0] - room < p[1] < BOARD_EDGE[1] + room:
            continue
        if all(np.linalg.norm(p - m.centre) > 50 + room + m.size * 0.75 for m in table.markers):
            return p
    return None


def _props(table: Table, rng: np.random.Generator, decals: list, hand: bool | None) -> tuple[list[Shape], list[str]]:
    shapes: list[Shape] = []
    labels: list[str] = []
    if table.edition == "2018":
        shapes += palm_tree(table.palm_at, float(rng.uniform(150, 190)), np.random.default_rng(table.seed))
        away = (MIDDLE - table.palm_at) * np.array([1, 1, 0])
        centre = MIDDLE + away / np.linalg.norm(away) * rng.uniform(15, 35) + np.array([0, 0, BOARD_TOP])
        shapes += pyramid(
            centre,
            float(rng.uniform(140, 160)),
            float(rng.uniform(170, 200)),
            float(rng.uniform(0, np.pi / 2)),
            (205, 170, 110),
            14.0,
        )
        labels += ["palm tree", "pyramid"]
    elif rng.random() < 0.6:
        centre = np.array([*rng.uniform(300, 370, 2), BOARD_TOP])
        shapes += pyramid(
            centre,
            float(rng.uniform(110, 130)),
            float(rng.uniform(100, 120)),
            float(rng.uniform(0, np.pi / 2)),
            (222, 196, 140),
            20.0,
        )
        labels.append("shaker")
    for _ in range(int(rng.integers(0, 4))):
        p = _off_board(table, rng, 60)
        if p is not None:
            tex = card_texture(rng)
            decals.append((tex, (float(p[0]), float(p[1])), float(rng.uniform(0, np.pi)), tex.shape[1] / 45.0))
    for _ in range(int(rng.integers(0, 6))):
        p = _off_board(table, rng, 15)
        if p is not None:
            shapes.append(coin(p, rng))
    if rng.random() < 0.3 and (p := _off_board(table, rng, 80)) is not None:
        shapes.append(phone(p, float(rng.uniform(0, np.pi))))
    labels.append("cards and coins")
    if rng.random() < 0.15 if hand is None else hand:
        shapes += _arm(table, rng)
        labels.append("hand")
    return shapes, labels


def _arm(table: Table, rng: np.random.Generator) -> list[Shape]:
    over = table.centre(int(rng.integers(1, 17))) + np.array([*rng.uniform(-40, 40, 2), rng.uniform(40, 140)])
    side = rng.uniform(0, 2 * np.pi)
    shoulder = MIDDLE + np.array([620 * np.cos(side), 620 * np.sin(side), rng.uniform(250, 380)])
    sleeve = np.array(rng.uniform(0.02, 0.5, 3), np.float32)
    return arm(shoulder, over, table.skin * rng.uniform(0.9, 1.1), sleeve, rng)


def render(
    table: Table,
    tier: str,
    track: dict[int, list[str]],
    seed: int,
    path: str,
    calibration: bool = False,
    hand: bool | None = None,
    tiles: bool | dict[int, bool] = True,
    still: Still | None = None,
    shows: dict | None = None,
) -> Truth:
    """Render the board ``track`` (space -> camels bottom first) at ``table`` and save it to ``path``. ``still``:
    the photo is the next of a race at a camera that does not move (see :class:`Still`); without it every camel,
    tile and prop is set down afresh. ``shows``: filled with which camel each pixel shows (``"camel"``: an int16
    picture, the camel's index in ``"camels"`` or -1), the truth a measurement of the camels' colours is checked
    against."""
    if tier not in TIERS:
        raise ValueError(f"tier {tier!r}: choose one of {', '.join(TIERS)}")
    if still is not None and (calibration or tier == "clean"):
        raise ValueError("a still race is rendered in the light or props tier, never as a calibration photo")
    rng = np.random.default_rng([table.seed, seed, TIERS.index(tier), int(calibration)])
    light = table.lights["clean" if tier == "clean" else "light"]
    if still is None:
        table, middle, turn = bumped(table, rng, tier)
        camel_shapes, names, level = _camels(table, track, rng, CALIBRATION_REACH if calibration else REACH)
    else:
        if still.pose is None or still.rng.random() < still.bump_share:
            _, middle, turn = bumped(table, still.rng, tier)
            still.pose = (middle - MIDDLE, turn)
        table, middle, turn = pushed(table, *still.pose)
        camel_shapes, names, level = _still_camels(table, track, still, REACH)
    decals: list = []
    for m in table.markers:
        tex = marker_texture(m.marker_id, m.size, np.random.default_rng([table.seed, m.marker_id]))
        half = (m.size + 16.0) / 2
        c, s = np.cos(m.angle), np.sin(m.angle)
        origin = m.centre[:2] + np.array([[c, -s], [s, c]]) @ np.array([-half, -half])
        decals.append((tex, (float(origin[0]), float(origin[1])), m.angle, tex.shape[1] / (2 * half)))
    extra: list[Shape] = []
    labels: list[str] = []
    if isinstance(tiles, dict) and still is not None:  # each tile where it was laid, until it is moved
        extra += [_one_tile(table, space, np.random.default_rng([still.seed, 2, space]), plus)
                  for space, plus in sorted(tiles.items())]
    elif isinstance(tiles, dict):  # the game's own tiles: space -> plus side up
        extra += _tiles_at(table, tiles, rng)
    elif tiles and not calibration and tier != "clean":
        extra += _tiles(table, track, rng)
    if tier == "props" and not calibration and still is not None:
        # The same props in the same places all race; only the hand comes and goes.
        props, labels = _props(table, np.random.default_rng([still.seed, 3]), decals, False)
        if rng.random() < 0.15 if hand is None else hand:
            props += _arm(table, rng)
            labels.append("hand")
        extra += props
    elif tier == "props" and not calibration:
        props, labels = _props(table, rng, decals, hand)
        extra += props
    lo, hi = BOARD_EDGE
    edge = flat((0.12, 0.07, 0.04))
    corner = middle + rotation_z(turn) @ np.array([lo - MIDDLE[0], lo - MIDDLE[1], 0.0])
    board = block(
        middle + np.array([0, 0, BOARD_TOP / 2]),
        ((hi - lo) / 2, (hi - lo) / 2, BOARD_TOP / 2),
        rotation_z(turn),
        texture_paint(table.board_art, (corner[0], corner[1]), BOARD_PX_PER_MM, turn, side=edge),
        gloss=0.35,
    )
    ground = Plane(
        0.0,
        table_paint(table.surface, np.random.default_rng(table.seed), decals),
        table.table_limits,
        gloss=0.5 if table.surface == "laminate" else 0.15,
    )
    floor = Plane(-740.0, flat((0.04, 0.035, 0.03)))
    casters = camel_shapes + extra
    shapes = [floor, ground, board, *casters]
    hits = cast(table.camera, shapes)
    radiance = shade(table.camera, shapes, hits, light, casters, MIDDLE, table.background, rng)
    sensor = sensor_for(tier, light, rng)
    save(expose(radiance, sensor, rng), path, sensor.quality)
    owners = np.array([s.owner for s in shapes])
    seen_owner = np.where(hits.shape >= 0, owners[np.maximum(hits.shape, 0)], -1)
    counts = np.bincount(seen_owner[seen_owner >= 0].ravel(), minlength=len(names))
    visible = {name: (counts[i] / hits.coverage[i] if hits.coverage.get(i) else 0.0) for i, name in enumerate(names)}
    if shows is not None:
        shows["camels"] = list(names)
        shows["camel"] = np.where(seen_owner < len(names), seen_owner, -1).astype(np.int16)
    return Truth(
        track={s: list(v) for s, v in track.items()},
        visible=visible,
        level=level,
        hidden_markers=_hidden_markers(table, hits),
        props=labels,
    )


def _hidden_markers(table: Table, hits: Hits) -> list[int]:
    cam = table.camera
    hidden = []
    for m in table.markers:
        pts = m.square(7)
        px, _ = cam.project(pts)
        ok = 0
        for (u, v), p in zip(px, pts, strict=True):
            iu, iv = round(u), round(v)
            if 0 <= iu < cam.width and 0 <= iv < cam.height:
                expected = np.linalg.norm(p - cam.centre)
                ok += abs(hits.distance[iv, iu] - expected) < 4.0
        if ok < 0.9 * len(pts):
            hidden.append(m.marker_id)
    return hidden
