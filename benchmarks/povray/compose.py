"""What stands on one table in one photo: the camels of a board set down on their spaces, the tiles, the props of
the ``props`` tier, the lights and the table's surface, drawn from a seed and written as a :class:`Scene`."""

from __future__ import annotations

import numpy as np

from benchmarks.independent.table import BOARD_TOP, MIDDLE, Table
from benchmarks.povray.scene import (
    BOARD_HI,
    BOARD_LO,
    CALIBRATION_REACH,
    CRAZY,
    PAINT_SRGB,
    REACH,
    Piece,
    Scene,
    frame,
    kelvin,
    pov,
    rgb,
    tex,
    to_linear,
)

TIERS = ("clean", "light", "props")
METAL = "finish { metallic diffuse 0.5 specular 0.6 roughness 0.02 reflection { 0.25 } }"
SCREEN = "pigment { rgb <0.01,0.012,0.02> } finish { specular 0.9 roughness 0.002 reflection { 0.2 } }"


def table_look(table: Table) -> dict:
    """What stays the same at a table whatever the photo: its camels' paint and finish, its surface, its lamp and
    window, its room, the players' skin. Drawn from the table's seed, apart from the independent renderer's."""
    rng = np.random.default_rng([table.seed, 4242])
    glossy = rng.random() < 0.5
    finish = (
        f"finish {{ diffuse 0.75 specular {rng.uniform(0.35, 0.7):.2f} roughness {rng.uniform(0.008, 0.03):.3f} "
        f"reflection {{ {rng.uniform(0.01, 0.05):.3f} }} }}"
        if glossy
        else f"finish {{ diffuse 0.9 specular {rng.uniform(0.02, 0.1):.2f} roughness 0.1 }}"
    )
    brightness = rng.uniform(0.85, 1.1)
    paints = {}
    for name, srgb in PAINT_SRGB.items():
        # a batch of paint is lighter or darker as a whole, its hue drifts only a little
        c = to_linear(np.clip(np.array(srgb) + rng.normal(0, 8) + rng.normal(0, 4, 3), 0, 255)) * brightness
        paints[name] = (
            f"pigment {{ wood turbulence 0.25 color_map {{ [0 {rgb(c * 0.9)}] [0.6 {rgb(c)}] [1 {rgb(c * 1.04)}] }} "
            f"scale {rng.uniform(2, 5):.2f} rotate <{rng.uniform(0, 90):.0f},{rng.uniform(0, 90):.0f},0> }} "
            f"normal {{ bumps 0.12 scale 0.6 }} {finish}"
        )
    surface = table_surface(table.surface, rng)
    lamp_where = rng.uniform(0, 2 * np.pi)
    lamp_reach = rng.uniform(0, 650)
    lamp = MIDDLE + np.array([lamp_reach * np.cos(lamp_where), lamp_reach * np.sin(lamp_where),
                              rng.uniform(750, 1600)])
    window_where = rng.uniform(0, 2 * np.pi)
    window = MIDDLE + np.array([2200 * np.cos(window_where), 2200 * np.sin(window_where), rng.uniform(500, 1400)])
    return {
        "paints": paints,
        "glossy": glossy,
        "surface": surface,
        "lamp": lamp,
        "lamp_kelvin": float(rng.uniform(2700, 5200)),
        "lamp_size": float(rng.uniform(40, 260)),
        "window": window,
        "window_kelvin": float(rng.uniform(5600, 9000)),
        "window_share": float(rng.uniform(0.15, 0.7)),
        "room": to_linear(np.clip(np.array([150, 140, 125]) + rng.normal(0, 30, 3), 20, 240)) * 0.5,
        "skin": to_linear(np.clip(np.array([(232, 188, 158), (188, 138, 98), (118, 78, 54)][int(rng.integers(3))])
                                  + rng.normal(0, 8, 3), 0, 255)),
    }


def table_surface(kind: str, rng: np.random.Generator) -> str:
    """POV-Ray's own procedural wood, cloth or laminate, each with a perturbed normal."""
    if kind == "wood":
        a = to_linear(np.clip(np.array([156, 104, 62]) + rng.normal(0, 14, 3), 0, 255))
        b = a * rng.uniform(0.55, 0.75)
        return (
            f"texture {{ pigment {{ wood turbulence {rng.uniform(0.03, 0.12):.3f} color_map {{ [0 {rgb(a)}] "
            f"[0.7 {rgb(a * 0.92)}] [1 {rgb(b)}] }} scale <9,9,400> rotate <0,{rng.uniform(0, 180):.0f},0> "
            f"translate <{rng.uniform(-300, 300):.0f},-40,0> }} normal {{ bumps 0.08 scale <3,3,60> }} "
            f"finish {{ diffuse 0.8 specular 0.25 roughness 0.02 reflection {{ 0.03 }} }} }}"
        )
    if kind == "cloth":
        # felt: a soft nap a few millimetres across (a finer weave only draws moire rings at this distance)
        base = to_linear(np.clip(np.array([(40, 92, 62), (62, 62, 112), (124, 124, 124), (140, 42, 42)]
                                          [int(rng.integers(4))]) + rng.normal(0, 12, 3), 0, 255))
        return (
            f"texture {{ pigment {{ granite color_map {{ [0 {rgb(base * 0.85)}] [1 {rgb(base * 1.1)}] }} scale 40 }} "
            f"normal {{ bumps 0.25 scale <2.5,1,2.5> }} finish {{ diffuse 0.9 specular 0 }} }}"
        )
    base = to_linear(np.clip(np.array([(226, 226, 220), (202, 190, 168), (92, 92, 98)][int(rng.integers(3))])
                             + rng.normal(0, 8, 3), 0, 255))
    return (
        f"texture {{ pigment {{ granite color_map {{ [0 {rgb(base * 0.96)}] [1 {rgb(base * 1.03)}] }} scale 25 }} "
        f"normal {{ bumps 0.02 scale 4 }} finish {{ diffuse 0.7 specular 0.6 roughness 0.004 "
        f"reflection {{ 0.07 }} }} }}"
    )


def lights_for(tier: str, look: dict, rng: np.random.Generator) -> tuple[str, np.ndarray]:
    """POV-Ray light sources and the light's overall colour (what a camera's white balance would aim at)."""
    if tier == "clean":
        above = MIDDLE + np.array([0.0, 150.0, 1500.0])
        return (
            f"light_source {{ {pov(above)} rgb 1.0 area_light <700,0,0>, <0,0,700>, 5, 5 adaptive 1 jitter "
            f"circular orient }}\n"
            f"light_source {{ {pov(MIDDLE + np.array([0.0, 1500.0, 900.0]))} rgb 0.35 shadowless }}",
            np.ones(3),
        )
    lamp_colour = kelvin(look["lamp_kelvin"])
    window_colour = kelvin(look["window_kelvin"])
    size = look["lamp_size"]
    share = look["window_share"]
    power = rng.uniform(0.9, 1.3)
    window_size = 900.0
    text = (
        f"light_source {{ {pov(look['lamp'])} {rgb(lamp_colour * power)} area_light <{size:.0f},0,0>, "
        f"<0,0,{size:.0f}>, 4, 4 adaptive 1 jitter circular orient "
        f"fade_distance {np.linalg.norm(look['lamp'] - MIDDLE):.0f} fade_power 2 }}\n"
        f"light_source {{ {pov(look['window'])} {rgb(window_colour * share)} area_light <{window_size:.0f},0,0>, "
        f"<0,{window_size:.0f},0>, 3, 3 adaptive 0 jitter orient }}"
    )
    overall = lamp_colour * power + window_colour * share
    return text, overall / overall[1]


def place_camels(
    table: Table, spaces: dict[int, list[list[float]]], track: dict[int, list[str]], rng: np.random.Generator,
    reach: float,
) -> list[Piece]:
    """Each stack within ``reach`` mm of its space's middle, each camel up to 2.5 mm off the one below, turned a
    few degrees; the crazy camels of 2018 face backwards."""
    pieces = []
    for space, stack in track.items():
        centre = np.array([*np.asarray(spaces[space], float).mean(axis=0), 0.0])
        nxt = np.array([*np.asarray(spaces[space % 16 + 1], float).mean(axis=0), 0.0])
        heading = float(np.arctan2(*(nxt - centre)[[1, 0]]))
        r, a = reach * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
        offset = np.array([r * np.cos(a), r * np.sin(a), 0.0])
        for k, name in enumerate(stack):
            if k:
                offset = offset + np.array([*rng.uniform(-2.5, 2.5, 2), 0.0])
                offset *= min(1.0, reach / max(np.linalg.norm(offset), 1e-9))
            base = centre + offset + np.array([0.0, 0.0, BOARD_TOP + k * table.step])
            facing = heading + (np.pi if table.edition == "2018" and name in CRAZY else 0.0)
            facing += np.radians(np.clip(rng.normal(0, 4), -9, 9))
            tilt = (float(np.radians(rng.normal(0, 1.5))) if k else 0.0,
                    float(np.radians(rng.normal(0, 1.5))) if k else 0.0)
            pieces.append(Piece(name, base, facing, k, tilt))
    return pieces


def moved_spaces(table: Table, rng: np.random.Generator, tier: str) -> tuple[dict, np.ndarray, float]:
    """The board pushed a little since the markers were taped (not in the clean tier): its spaces, middle, turn."""
    if tier == "clean":
        return table.spaces, MIDDLE.copy(), 0.0
    shift = np.array([*np.clip(rng.normal(0, 1.5, 2), -4, 4), 0.0])
    turn = float(np.radians(np.clip(rng.normal(0, 0.4), -1, 1)))
    c, s = np.cos(turn), np.sin(turn)
    rot = np.array([[c, -s], [s, c]])
    spaces = {n: [(rot @ (np.array(p) - MIDDLE[:2]) + MIDDLE[:2] + shift[:2]).tolist() for p in corners]
              for n, corners in table.spaces.items()}
    return spaces, MIDDLE + shift, turn


def tiles(table: Table, spaces: dict, track: dict[int, list[str]], rng: np.random.Generator) -> list[str]:
    """Up to two desert (2014) or spectator (2018) tiles on free spaces, never side by side."""
    free = [s for s in range(2, 17) if s not in track]
    chosen: list[int] = []
    for space in rng.permutation(free)[: int(rng.integers(0, 3))]:
        if all(abs(int(space) - c) > 1 for c in chosen):
            chosen.append(int(space))
    out = []
    for space in chosen:
        centre = np.array([*np.asarray(spaces[space], float).mean(axis=0), BOARD_TOP])
        centre[:2] += rng.uniform(-5, 5, 2)
        turn = np.radians(rng.uniform(-10, 10))
        plus = rng.random() < 0.5
        owner = to_linear([(200, 40, 40), (40, 80, 190), (40, 150, 70), (230, 190, 40), (120, 60, 160),
                           (90, 90, 90), (220, 220, 220), (230, 120, 30)][int(rng.integers(8))])
        if table.edition == "2014":
            face = to_linear((118, 168, 84) if plus else (206, 198, 168))
            motif = (f"union {{ cylinder {{ <0,2,0>, <0,12,0>, 1.6 }} sphere {{ <0,13,0>, 6 scale <1,0.35,1> }} "
                     f"{tex('pigment { rgb <0.05,0.2,0.03> } finish { diffuse 0.8 }')} }}" if plus else
                     f"cylinder {{ <0,2,0>, <0,2.3,0>, 16 {tex(f'pigment {{ {rgb(to_linear((160, 172, 200)))} }}')} }}")
        else:
            face = to_linear((236, 202, 122) if plus else (108, 94, 132))
            motif = (f"union {{ sphere {{ <-8,5,0>, 5 }} sphere {{ <8,5,0>, 5 }} cylinder {{ <-8,2,0>, <8,2,0>, 4 }} "
                     f"{tex(f'pigment {{ {rgb(to_linear((205, 150, 110)))} }} finish {{ specular 0.2 }}')} }}")
        out.append(
            f"union {{ box {{ <-29,0,-29>, <29,2,29> {tex(f'pigment {{ {rgb(owner)} }} finish {{ diffuse 0.8 }}')} }} "
            f"box {{ <-25,0.1,-25>, <25,2.05,25> {tex(f'pigment {{ {rgb(face)} }} finish {{ diffuse 0.85 }}')} }} "
            f"{motif} {frame(centre, np.array([np.cos(turn), np.sin(turn), 0.0]))} }}"
        )
    return out


def off_board(table: Table, rng: np.random.Generator, room: float) -> np.ndarray | None:
    """A free place on the table, off the board and clear of the markers' paper."""
    x0, y0, x1, y1 = table.table_limits
    for _ in range(60):
        p = np.array([rng.uniform(x0 + room, x1 - room), rng.uniform(y0 + room, y1 - room), 0.0])
        if BOARD_LO - room < p[0] < BOARD_HI + room and BOARD_LO - room < p[1] < BOARD_HI + room:
            continue
        if all(np.linalg.norm(p[:2] - m.centre[:2]) > 55 + room + m.size * 0.75 for m in table.markers):
            return p
    return None


def pyramid(centre: np.ndarray, base: float, height: float, turn: float, colour: tuple) -> str:
    """A cardboard pyramid: four triangles, printed stone courses (POV-Ray's brick pattern)."""
    b = base / 2
    corners = [(-b, 0, -b), (b, 0, -b), (b, 0, b), (-b, 0, b)]
    apex = (0, height, 0)
    faces = " ".join(
        f"triangle {{ <{p[0]:.1f},{p[1]:.1f},{p[2]:.1f}>, <{q[0]:.1f},{q[1]:.1f},{q[2]:.1f}>, "
        f"<{apex[0]},{apex[1]:.1f},{apex[2]}> }}"
        for p, q in zip(corners, corners[1:] + corners[:1], strict=True)
    )
    stone = to_linear(colour)
    body = (f"pigment {{ brick {rgb(stone * 0.7)}, {rgb(stone)} brick_size <24,9,24> mortar 0.8 }} "
            f"normal {{ bumps 0.2 scale 2 }} finish {{ diffuse 0.85 specular 0.05 }}")
    return f"mesh {{ {faces} {tex(body)} {frame(centre, np.array([np.cos(turn), np.sin(turn), 0.0]))} }}"


def palm_tree(foot: np.ndarray, height: float, rng: np.random.Generator) -> str:
    """A trunk swept up in a slight curve and a crown of drooping fronds."""
    lean = rng.uniform(0, 2 * np.pi)
    points = []
    for k in range(6):
        t = k / 5
        p = foot + np.array([12 * t * t * np.cos(lean), 12 * t * t * np.sin(lean), height * t])
        points.append(f"{pov(p)}, {9 - 4 * t:.1f}")
    bark = ("pigment { granite color_map { [0 rgb <0.16,0.09,0.04>] [1 rgb <0.3,0.18,0.08>] } scale 3 } "
            "normal { bumps 0.4 scale 2 } finish { diffuse 0.8 }")
    trunk = f"sphere_sweep {{ b_spline 6, {', '.join(points)} {tex(bark)} }}"
    top = foot + np.array([12 * np.cos(lean), 12 * np.sin(lean), height])
    fronds = []
    for k in range(7):
        a = 2 * np.pi * k / 7 + rng.uniform(-0.3, 0.3)
        reach = rng.uniform(50, 75)
        tip = top + np.array([reach * np.cos(a), reach * np.sin(a), -rng.uniform(20, 40)])
        mid = top + np.array([reach * 0.55 * np.cos(a), reach * 0.55 * np.sin(a), 8.0])
        fronds.append(f"sphere_sweep {{ b_spline 4, {pov(top)}, 3, {pov(top)}, 5, {pov(mid)}, 6, {pov(tip)}, 1 }}")
    leaf = rgb(to_linear((60, 120, 40)) * rng.uniform(0.8, 1.2))
    green = f"pigment {{ {leaf} }} finish {{ diffuse 0.8 specular 0.1 }}"
    return f"{trunk}\nunion {{ {' '.join(fronds)} {tex(green)} }}"


def props(table: Table, look: dict, spaces: dict, middle: np.ndarray, rng: np.random.Generator,
          hand: bool | None) -> tuple[list[str], list[str]]:
    """The props tier's things: the 2018 pyramid and palm tree (the shaker pyramid on most 2014 tables), cards,
    coins and a phone beside the board, and an arm over it in about 15% of scenes."""
    out: list[str] = []
    labels: list[str] = []
    if table.edition == "2018":
        palm = table.palm_at + (middle - MIDDLE) * np.array([1, 1, 0])
        out.append(palm_tree(palm, float(rng.uniform(150, 195)), rng))
        away = (middle - palm) * np.array([1, 1, 0])
        centre = middle + away / np.linalg.norm(away) * rng.uniform(10, 35) + np.array([0, 0, BOARD_TOP])
        out.append(pyramid(centre, float(rng.uniform(140, 165)), float(rng.uniform(180, 210)),
                           float(rng.uniform(0, np.pi / 2)), (212, 176, 116)))
        labels += ["palm tree", "pyramid"]
    elif rng.random() < 0.6:
        centre = np.array([*rng.uniform(305, 365, 2), BOARD_TOP])
        out.append(pyramid(centre, float(rng.uniform(110, 130)), float(rng.uniform(100, 120)),
                           float(rng.uniform(0, np.pi / 2)), (226, 198, 140)))
        labels.append("shaker")
    for _ in range(int(rng.integers(0, 5))):
        if (p := off_board(table, rng, 60)) is not None:
            colour = to_linear([(200, 40, 40), (40, 80, 190), (40, 150, 70), (230, 190, 40), (120, 60, 160),
                                (230, 120, 30)][int(rng.integers(6))])
            turn = rng.uniform(0, np.pi)
            paper = tex(f"pigment {{ {rgb(colour)} }} finish {{ specular 0.3 }}")
            card = (f"union {{ box {{ <-34,0,-22>, <34,0.4,22> {paper} }} "
                    f"box {{ <-28,0.1,-16>, <28,0.45,16> {tex('pigment { rgb 0.8 } finish { diffuse 0.8 }')} }} "
                    f"box {{ <-24,0.2,-12>, <24,0.5,12> {tex(f'pigment {{ {rgb(colour)} }}')} }} "
                    f"{frame(p, np.array([np.cos(turn), np.sin(turn), 0.0]))} }}")
            out.append(card)
    for _ in range(int(rng.integers(0, 7))):
        if (p := off_board(table, rng, 15)) is not None:
            metal = "rgb <0.9,0.65,0.25>" if rng.random() < 0.6 else "rgb <0.7,0.7,0.72>"
            out.append(f"cylinder {{ {pov(p)}, {pov(p + np.array([0, 0, 2.2]))}, {rng.uniform(9, 13):.1f} "
                       f"{tex(f'pigment {{ {metal} }} {METAL}')} }}")
    if rng.random() < 0.35 and (p := off_board(table, rng, 90)) is not None:
        turn = rng.uniform(0, np.pi)
        out.append(f"union {{ superellipsoid {{ <0.2,0.2> scale <74,4,36> translate <0,4,0> "
                   f"{tex('pigment { rgb 0.02 } finish { specular 0.5 roughness 0.01 }')} }} "
                   f"box {{ <-68,7.9,-31>, <68,8.1,31> {tex(SCREEN)} }} "
                   f"{frame(p, np.array([np.cos(turn), np.sin(turn), 0.0]))} }}")
    labels.append("cards and coins")
    if rng.random() < 0.15 if hand is None else hand:
        out.append(arm(spaces, look, rng))
        labels.append("hand")
    return out, labels


def arm(spaces: dict, look: dict, rng: np.random.Generator) -> str:
    """A forearm from beyond the table's edge to a hand held over a space: a swept sleeve and skin, a flat palm and
    four fingers."""
    space = int(rng.integers(1, 17))
    over = np.array([*np.asarray(spaces[space], float).mean(axis=0), 0.0])
    over = over + np.array([*rng.uniform(-40, 40, 2), rng.uniform(45, 140)])
    # a player on the left, the right or the far side (the camera stands on the near side, +y)
    side = rng.uniform(-np.pi * 0.85, -np.pi * 0.15) if rng.random() < 0.5 else float(rng.choice([0.0, np.pi]))
    side += rng.normal(0, 0.1)
    shoulder = MIDDLE + np.array([620 * np.cos(side), 620 * np.sin(side), rng.uniform(260, 400)])
    wrist = over + (shoulder - over) / np.linalg.norm(shoulder - over) * 70
    elbow = wrist + (shoulder - wrist) * 0.55 + np.array([0, 0, -40])
    skin = look["skin"] * rng.uniform(0.9, 1.1)
    sleeve = rng.uniform(0.02, 0.5, 3)
    skin_tex = (f"pigment {{ {rgb(skin)} }} normal {{ bumps 0.1 scale 3 }} "
                "finish { diffuse 0.8 specular 0.15 roughness 0.05 }")
    along = (over - wrist) / np.linalg.norm(over - wrist)
    fingers = []
    across = np.cross(along, [0, 0, 1.0])
    across /= np.linalg.norm(across)
    for k in range(4):
        start = over + across * (k - 1.5) * 17
        tip = start + along * 55 - np.array([0, 0, 15])
        fingers.append(f"sphere_sweep {{ linear_spline 2, {pov(start)}, 8, {pov(tip)}, 6.5 }}")
    thumb = over - across * 36 + along * 5
    fingers.append(f"sphere_sweep {{ linear_spline 2, {pov(over - across * 20)}, 9, {pov(thumb + along * 30)}, 7 }}")
    return (
        f"sphere_sweep {{ linear_spline 3, {pov(shoulder)}, 48, {pov(elbow)}, 40, "
        f"{pov(wrist + (elbow - wrist) * 0.4)}, 34 "
        f"{tex(f'pigment {{ {rgb(sleeve)} }} normal {{ quilted 0.4 scale 2 }} finish {{ diffuse 0.9 }}')} }}\n"
        f"union {{ sphere_sweep {{ linear_spline 2, {pov(wrist + (elbow - wrist) * 0.4)}, 30, {pov(wrist)}, 25 }} "
        f"sphere {{ 0, 1 scale <48,16,44> {frame(over, along)} }} {' '.join(fingers)} {tex(skin_tex)} }}"
    )


def compose(
    table: Table,
    tier: str,
    track: dict[int, list[str]],
    seed: int,
    board_image: str,
    marker_images: dict[int, str],
    calibration: bool = False,
    hand: bool | None = None,
    tiles_on_free_spaces: bool = True,
) -> tuple[Scene, np.ndarray, np.random.Generator]:
    """One photo's scene; also the light's overall colour and the photo's generator (for the camera's faults).
    ``tiles_on_free_spaces=False``: no tiles (a board a game's log leads to has only the tiles the log lays)."""
    if tier not in TIERS:
        raise ValueError(f"tier {tier!r}: choose one of {', '.join(TIERS)}")
    rng = np.random.default_rng([table.seed, seed, TIERS.index(tier), int(calibration), 31337])
    look = table_look(table)
    spaces, middle, turn = moved_spaces(table, rng, tier)
    camels = place_camels(table, spaces, track, rng, CALIBRATION_REACH if calibration else REACH)
    lights, colour = lights_for(tier, look, rng)
    extras: list[str] = []
    labels: list[str] = []
    if tier != "clean" and not calibration and tiles_on_free_spaces:
        extras += tiles(table, spaces, track, rng)
    if tier == "props" and not calibration:
        more, labels = props(table, look, spaces, middle, rng, hand)
        extras += more
    scene = Scene(
        table=table,
        tier=tier,
        camels=camels,
        lights=lights,
        paints=look["paints"],
        surface=look["surface"],
        board_middle=middle,
        board_turn=turn,
        board_image=board_image,
        marker_images=marker_images,
        extras=extras,
        labels=labels,
        radiosity=tier != "clean",
        room=look["room"],
    )
    return scene, colour, rng
