// The race drawn in SVG: camels as camels (each with its own glyph as well as its colour), the 16 spaces
// around the board with stacks in order (top on top), tiles with their owner, the pyramid with the dice out
// in the centre, and a move animated along the track (unless the reader prefers reduced motion).
"use strict";

const CAMEL_COLOURS = {
  blue: "#2f6fd6", green: "#2e9b48", orange: "#f08a24", yellow: "#f2c81f", white: "#f4f1ea",
  red: "#d8383a", purple: "#8a4fc9", black: "#262626", grey: "#8d8d8d",
};
const LIGHT_CAMELS = new Set(["yellow", "white", "orange"]);
function inkOn(camel) { return LIGHT_CAMELS.has(camel) ? "#1d1d1d" : "#ffffff"; }

function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(key, value);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

// A glyph per camel, so that no camel is told by colour alone (drawn in a 20×20 box centred on 0,0).
const GLYPHS = {
  blue: () => svgEl("circle", { r: 7 }),
  green: () => svgEl("path", { d: "M0,-8 L8,6 L-8,6 Z" }),
  orange: () => svgEl("path", { d: "M0,-9 L8,0 L0,9 L-8,0 Z" }),
  yellow: () => svgEl("path", { d: "M0,-9 L2.6,-3 L9,-3 L4,1.5 L6,8 L0,4 L-6,8 L-4,1.5 L-9,-3 L-2.6,-3 Z" }),
  white: () => svgEl("rect", { x: -7, y: -7, width: 14, height: 14 }),
  red: () => svgEl("path", { d: "M-3,-9 H3 V-3 H9 V3 H3 V9 H-3 V3 H-9 V-3 H-3 Z" }),
  purple: () => svgEl("path", { d: "M-4,-8 H4 L8,0 L4,8 H-4 L-8,0 Z" }),
  black: () => svgEl("path", { d: "M-8,-5 L-5,-8 L0,-3 L5,-8 L8,-5 L3,0 L8,5 L5,8 L0,3 L-5,8 L-8,5 L-3,0 Z" }),
  grey: () => svgEl("path", { d: "M-7,-7 H7 L-7,7 H7 Z", fill: "none", "stroke-width": 3 }),
};
function glyph(camel, x, y, size, colour) {
  const shape = (GLYPHS[camel] || GLYPHS.blue)();
  if (shape.getAttribute("fill") === "none") shape.setAttribute("stroke", colour); else shape.setAttribute("fill", colour);
  return svgEl("g", { transform: `translate(${x} ${y}) scale(${size / 20})`, "aria-hidden": "true" }, shape);
}

// A camel facing right in a 100×70 box (crazy camels are drawn facing left: they run backwards).
const CAMEL_PATH = "M8,38 Q6,22 24,22 Q34,4 46,20 Q54,26 64,22 L74,8 Q80,0 90,5 L97,12 L95,17 L85,17 " +
  "L80,30 Q78,42 72,45 L73,66 L65,66 L63,48 L32,48 L30,66 L22,66 L21,46 Q12,46 8,38 Z";
function camelFigure(camel, x, y, width, crazy = false) {
  const scale = width / 100;
  const flip = crazy ? `translate(${100} 0) scale(-1 1)` : "";
  return svgEl("g", { class: "camel-figure", transform: `translate(${x} ${y}) scale(${scale})`, "aria-hidden": "true" },
    svgEl("g", { transform: flip },
      svgEl("path", { d: CAMEL_PATH, fill: CAMEL_COLOURS[camel] || "#999", stroke: "#1d1d1d", "stroke-width": 3,
        "stroke-linejoin": "round" }),
      svgEl("path", { d: "M8,36 Q0,40 3,52", fill: "none", stroke: "#1d1d1d", "stroke-width": 3 }),
      svgEl("circle", { cx: 88, cy: 9, r: 2.4, fill: "#1d1d1d" }),
      glyph(camel, 42, 34, 22, inkOn(camel))));
}

// A small inline picture of a camel for the HTML around the board (tickets, chips, banners).
function camelIcon(camel, size = 40, crazy = false) {
  return svgEl("svg", { class: "camel-icon", viewBox: "0 0 100 70", width: size, height: Math.round(size * 0.7), "aria-hidden": "true",
    focusable: "false" }, camelFigure(camel, 0, 0, 100, crazy));
}

// ---------------------------------------------------------------------------------------------------------
// The board: 16 spaces around a square, clockwise from the top left, the finish line between 16 and 1.
const CELL = 100, MARGIN = 10, SIZE = 5 * CELL + 2 * MARGIN;
function spaceCell(space) {
  if (space <= 5) return { x: space - 1, y: 0 };
  if (space <= 8) return { x: 4, y: space - 5 };
  if (space <= 13) return { x: 13 - space, y: 4 };
  return { x: 0, y: 17 - space };
}
function cellOrigin(space) { const { x, y } = spaceCell(space); return { x: MARGIN + x * CELL, y: MARGIN + y * CELL }; }

// Where each camel of a stack stands in its space: rows from the bottom up, the top camel highest.
function stackRows(stackLength) {
  const top = 30, bottom = CELL - 4;
  const row = Math.min(30, (bottom - top) / Math.max(stackLength, 1));
  return { row, y: (height) => bottom - (height + 1) * row };
}

function drawCamelInSpace(camel, space, height, stackLength, crazy) {
  const origin = cellOrigin(space);
  const { row, y } = stackRows(stackLength);
  const figureWidth = row * 100 / 70;
  const nameSize = Math.max(14, Math.min(19, row * 0.6));
  const group = svgEl("g", { class: "camel", "data-camel": camel, "data-space": space });
  group.appendChild(camelFigure(camel, origin.x + 3, origin.y + y(height), figureWidth, crazy));
  const name = camelName(camel);
  const room = CELL - 13 - figureWidth;  // clear of the space's border
  // A long name is narrowed to fit its space rather than spill into the next one.
  const narrow = name.length * nameSize * 0.6 > room;
  group.appendChild(svgEl("text", { x: origin.x + 5 + figureWidth, y: origin.y + y(height) + row * 0.5 + nameSize * 0.36,
    class: "camel-name", "font-size": nameSize, textLength: narrow ? room : null, lengthAdjust: narrow ? "spacingAndGlyphs" : null }, name));
  return group;
}

function renderBoard(svg, state, { centre = true } = {}) {
  const previous = svg.camelPositions;  // undefined on the first drawing: nothing to animate from
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${SIZE} ${SIZE}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", boardWords(state));
  svg.appendChild(svgEl("rect", { x: 0, y: 0, width: SIZE, height: SIZE, rx: 22, fill: "#e9c98e" }));
  svg.appendChild(svgEl("rect", { x: MARGIN + CELL, y: MARGIN + CELL, width: 3 * CELL, height: 3 * CELL, rx: 12, fill: "#d9b070" }));
  const tiles = Object.fromEntries((state.tiles || []).map((tile) => [tile.space, tile]));
  // The space the hands must go to: where the move just drawn ends, or where an undone move's camels go back.
  const highlight = state.move_current && state.last_action && state.last_action.move ? state.last_action.move.end : null;
  const putBack = state.undo && state.undo.camels ? state.undo.camels.to : null;
  for (let space = 1; space <= 16; space++) {
    const { x, y } = cellOrigin(space);
    const marked = space === highlight ? ["#fff2a8", "#b8860b"] : space === putBack ? ["#ffd0b5", "#b3261e"] : null;
    svg.appendChild(svgEl("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 10,
      fill: marked ? marked[0] : "#fbf1d9", stroke: marked ? marked[1] : "#a47c3c", "stroke-width": marked ? 5 : 2,
      "data-space": space, "data-marked": space === highlight ? "move" : space === putBack ? "put-back" : null }));
    svg.appendChild(svgEl("text", { x: x + 10, y: y + 24, class: "space-number" }, String(space)));
    const tile = tiles[space];
    if (tile) {
      const plus = tile.side === (state.tile_sides || [])[0];
      svg.appendChild(svgEl("rect", { x: x + 10, y: y + 30, width: CELL - 20, height: 60, rx: 8,
        fill: plus ? "#bfe8bf" : "#f5c0c0", stroke: plus ? "#1e6b2e" : "#8f1d1d", "stroke-width": 3 }));
      svg.appendChild(svgEl("text", { x: x + CELL / 2, y: y + 56, "text-anchor": "middle", class: "tile-sign" }, plus ? "+1" : "−1"));
      // A long name is narrowed to the tile rather than spill over the next space (as the camels' names are).
      const room = CELL - 26, narrow = tile.owner.length * 17 * 0.62 > room;
      svg.appendChild(svgEl("text", { x: x + CELL / 2, y: y + 80, "text-anchor": "middle", class: "tile-owner",
        textLength: narrow ? room : null, lengthAdjust: narrow ? "spacingAndGlyphs" : null }, tile.owner));
    }
  }
  // The finish line between 16 and 1, chequered.
  for (let i = 0; i < 10; i++) {
    svg.appendChild(svgEl("rect", { x: MARGIN + i * 10, y: MARGIN + CELL - 4, width: 10, height: 8, fill: i % 2 ? "#fff" : "#111" }));
  }
  const crazy = state.crazy_camels || [];
  const positions = {};
  const crossed = [];
  for (const [key, stack] of Object.entries(state.track)) {
    const space = Number(key);
    if (space < 1 || space > 16) { crossed.push([space, stack]); continue; }
    stack.forEach((camel, height) => {
      svg.appendChild(drawCamelInSpace(camel, space, height, stack.length, crazy.includes(camel)));
      positions[camel] = space;
    });
  }
  if (centre) svg.appendChild(state.game_over ? finishedCentre(crossed, crazy) : pyramidCentre(state));
  svg.camelPositions = positions;
  animateMove(svg, state, previous);
  return svg;
}

// The centre of the board during the race: the pyramid (how many dice are still inside), the dice out with
// their faces, the pyramid tickets left, and the two face-down finish piles.
function pyramidCentre(state) {
  const group = svgEl("g", { class: "centre" });
  const cx = MARGIN + 2.5 * CELL, top = MARGIN + CELL + 12;
  group.appendChild(svgEl("path", { d: `M${cx},${top} L${cx + 78},${top + 104} L${cx - 78},${top + 104} Z`,
    fill: "#f4e3b5", stroke: "#5b4120", "stroke-width": 4, "stroke-linejoin": "round" }));
  group.appendChild(svgEl("path", { d: `M${cx},${top} L${cx + 14},${top + 104} L${cx - 14},${top + 104} Z`, fill: "#e2c98b" }));
  group.appendChild(svgEl("text", { x: cx, y: top + 88, "text-anchor": "middle", class: "pyramid-count" }, String(state.dice_in_pyramid)));
  group.appendChild(svgEl("text", { x: cx, y: top + 132, "text-anchor": "middle", class: "centre-label" },
    t("dice_inside", { n: state.dice_in_pyramid })));
  const dice = state.dice_out || [];
  const size = 44, gap = 6, width = dice.length * size + (dice.length - 1) * gap;
  dice.forEach((die, index) => {
    const x = cx - width / 2 + index * (size + gap), y = top + 146;
    const colour = die.die === "grey" ? die.crazy : die.die;
    group.appendChild(svgEl("rect", { x, y, width: size, height: size, rx: 8, fill: CAMEL_COLOURS[die.die] || "#999",
      stroke: "#1d1d1d", "stroke-width": 2.5 }, svgEl("title", {}, dieWords(die))));
    group.appendChild(svgEl("text", { x: x + size * 0.62, y: y + size * 0.78, "text-anchor": "middle", class: "die-value",
      fill: inkOn(die.die) }, String(die.value)));
    group.appendChild(glyph(colour, x + 11, y + 11, 14, die.die === "grey" ? CAMEL_COLOURS[colour] : inkOn(die.die)));
  });
  const pilesY = top + 214;
  [["winner", "🏆"], ["loser", "🐌"]].forEach(([pile, mark], index) => {
    const x = cx - 120 + index * 130;
    const count = state.piles[pile];
    for (let i = Math.min(count, 4) - 1; i >= 0; i--) {
      group.appendChild(svgEl("rect", { x: x + i * 3, y: pilesY - i * 3, width: 50, height: 60, rx: 6,
        fill: "#7b4b2a", stroke: "#f4e3b5", "stroke-width": 2 }));
    }
    if (!count) group.appendChild(svgEl("rect", { x, y: pilesY, width: 50, height: 60, rx: 6, fill: "none", stroke: "#7b4b2a",
      "stroke-width": 2, "stroke-dasharray": "6 4" }));
    group.appendChild(svgEl("text", { x: x + 58, y: pilesY + 28, class: "centre-label" }, `${mark} ${count}`));
    group.appendChild(svgEl("text", { x: x + 58, y: pilesY + 52, class: "centre-small" }, t(pile === "winner" ? "winner_pile_short" : "loser_pile_short")));
  });
  return group;
}

// Once the race is over the centre shows the camels that crossed the line, in order.
function finishedCentre(crossed, crazy) {
  const group = svgEl("g", { class: "centre" });
  const cx = MARGIN + 2.5 * CELL;
  group.appendChild(svgEl("text", { x: cx, y: MARGIN + CELL + 40, "text-anchor": "middle", class: "centre-label" }, `🏁 ${t("finished")}`));
  let y = MARGIN + CELL + 70;
  crossed.sort((a, b) => b[0] - a[0]).forEach(([, stack]) => {
    [...stack].reverse().forEach((camel) => {
      group.appendChild(camelFigure(camel, cx - 110, y, 60, crazy.includes(camel)));
      group.appendChild(svgEl("text", { x: cx - 40, y: y + 32, class: "camel-name", "font-size": 20 }, camelName(camel)));
      y += 44;
    });
  });
  return group;
}

// Slide the unit that just moved from its old space to its new one, through the spaces between.
function animateMove(svg, state, previous) {
  const move = state.move_current && state.last_action && state.last_action.move;
  if (!move || svg.animatedFor === state.last_action.n) return;
  svg.animatedFor = state.last_action.n;
  if (!previous || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const unit = [move.camel, ...move.carried];
  const from = previous[move.camel];
  if (!from || from === move.end || move.end > 16 || move.end < 1) return;
  const direction = move.end > from ? 1 : -1;
  const path = [];
  for (let space = from; space !== move.end; space += direction) path.push(space);
  path.push(move.end);
  const end = cellOrigin(move.end);
  const frames = path.map((space) => { const o = cellOrigin(space); return { transform: `translate(${o.x - end.x}px, ${o.y - end.y}px)` }; });
  for (const camel of unit) {
    const node = svg.querySelector(`g.camel[data-camel="${camel}"]`);
    if (node) node.animate(frames, { duration: 350 * path.length, easing: "ease-in-out" });
  }
}

// ---------------------------------------------------------------------------------------------------------
// The same in words, for screen readers and for copying the setup onto the real board.
function stackWords(stack) {
  if (stack.length === 1) return camelName(stack[0]);
  return t("stack_words", { bottom: stack.slice(0, -1).map(camelName).join(", "), top: camelName(stack[stack.length - 1]) });
}
function trackWords(track) {
  return Object.entries(track).filter(([, stack]) => stack.length)
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([space, stack]) => t("space_words", { space, camels: stackWords(stack) })).join(t("list_separator"));
}
function boardWords(state) { return labelled(t("board"), trackWords(state.track)); }
function dieWords(die) {
  return die.die === "grey" ? t("grey_die_words", { value: die.value, camel: camelName(die.crazy) })
    : t("die_words", { camel: camelName(die.die), value: die.value });
}
