// Shared by every page: the API client, live updates, English/French strings and the SVG board.
"use strict";

const CAMEL_COLOURS = {
  blue: "#2f6fd6", green: "#2e9b48", orange: "#f08a24", yellow: "#f2c81f", white: "#f4f1ea",
  red: "#d8383a", purple: "#8a4fc9", black: "#262626",
};
const TEXT_ON = { yellow: "#222", white: "#222", orange: "#222" };

// ---------------------------------------------------------------------------------------------------------
// Languages: from the browser, with a switch remembered on this device.
const STRINGS = {
  en: {
    your_turn: "Your turn", turn_of: "{player}'s turn", race_over: "The race is over",
    leg: "Leg {leg}", money: "{money} EP", draw: "Draw a die", draw_hint: "Take a pyramid ticket (+1 EP)",
    leg_bets: "Leg tickets", tile: "Your tile", place_tile: "Place tile", finish_cards: "Finish cards",
    winner_pile: "Overall winner", loser_pile: "Overall loser", play_card: "Play card face down",
    partnership: "Partnership", partner_with: "Partner with {player}", manual_roll: "What did the die show?",
    die: "Die", value: "Value", colour: "Colour", record_roll: "Record roll", waiting: "Waiting for {player}…",
    your_tickets: "Your tickets", pyramid_tickets: "Pyramid tickets: {n}", no_tickets: "No tickets yet",
    leg_scoring: "Leg {leg} scoring", first: "first", second: "second", reconnecting: "Reconnecting…",
    refused: "Not allowed", undo: "Undo last action", seats: "Seats", reissue: "New link",
    open_table: "Open the table screen", export_log: "Download game log", scorekeeper: "Scorekeeper",
    acting_for: "Entering for {player}", odds: "Odds", odds_off: "Odds panel (off)", money_title: "Money",
    tickets_left: "Leg tickets left", dice_out: "Dice out", piles: "Finish piles: winner {w}, loser {l}",
    last_move: "Last move", reveal: "Reveal", winner_is: "{camel} wins, {loser} comes last",
    final_money: "Final money", wins: "{players} win{s}!", create: "Create game", edition: "Edition",
    players: "Players, one per line in seating order: Name (character)", dice_from: "Dice", from_pyramid: "Electronic pyramid",
    manual: "Entered by hand", setup: "Starting positions",
    roll_hint: "Bottom camel first. Leave empty to have them rolled.",
    past_games: "Past games", join_hint: "Scan to take your seat", cheer: "cheering (+1)", boo: "booing (−1)",
    oasis: "oasis (+1)", mirage: "mirage (−1)", space: "Space", side: "Side", your_cards: "Your finish cards",
    played_cards: "Played: {cards}", confirm_card: "Play your {camel} card on the {pile} pile?",
    joined: "You are {player}", import_log: "Import a game log", none: "none", language: "Français",
    address: "Phones: {url}", no_game: "No such game", copy: "Copy", ev: "value {ev}", camera: "Camera",
    camera_correct: "The camera is right: correct the draw", read_camera: "Read from the camera",
  },
  fr: {
    your_turn: "À vous de jouer", turn_of: "Au tour de {player}", race_over: "La course est finie",
    leg: "Manche {leg}", money: "{money} £", draw: "Tirer un dé", draw_hint: "Prendre une tuile Pyramide (+1 £)",
    leg_bets: "Tuiles Pari-Manche", tile: "Votre tuile", place_tile: "Poser la tuile", finish_cards: "Cartes Pari-Course",
    winner_pile: "Vainqueur", loser_pile: "Dernier", play_card: "Jouer la carte face cachée",
    partnership: "Partenariat", partner_with: "Partenaire de {player}", manual_roll: "Qu'a donné le dé ?",
    die: "Dé", value: "Valeur", colour: "Couleur", record_roll: "Enregistrer", waiting: "En attente de {player}…",
    your_tickets: "Vos tuiles", pyramid_tickets: "Tuiles Pyramide : {n}", no_tickets: "Aucune tuile",
    leg_scoring: "Décompte de la manche {leg}", first: "premier", second: "deuxième", reconnecting: "Reconnexion…",
    refused: "Refusé", undo: "Annuler la dernière action", seats: "Places", reissue: "Nouveau lien",
    open_table: "Ouvrir l'écran de table", export_log: "Télécharger la partie", scorekeeper: "Arbitre",
    acting_for: "Saisie pour {player}", odds: "Probabilités", odds_off: "Probabilités (masquées)", money_title: "Argent",
    tickets_left: "Tuiles Pari-Manche restantes", dice_out: "Dés sortis", piles: "Paris : vainqueur {w}, dernier {l}",
    last_move: "Dernier mouvement", reveal: "Révélation", winner_is: "{camel} gagne, {loser} est dernier",
    final_money: "Argent final", wins: "{players} gagne{s} !", create: "Créer la partie", edition: "Édition",
    players: "Joueurs, un par ligne dans l'ordre : Nom (personnage)", dice_from: "Dés", from_pyramid: "Pyramide électronique",
    manual: "Saisis à la main", setup: "Positions de départ",
    roll_hint: "Chameau du dessous d'abord. Laissez vide pour les tirer au hasard.",
    past_games: "Parties précédentes", join_hint: "Scannez pour prendre votre place", cheer: "encouragements (+1)",
    boo: "huées (−1)", oasis: "oasis (+1)", mirage: "mirage (−1)", space: "Case", side: "Face",
    your_cards: "Vos cartes Pari-Course", played_cards: "Jouées : {cards}",
    confirm_card: "Jouer votre carte {camel} sur le pari {pile} ?", joined: "Vous êtes {player}",
    import_log: "Importer une partie", none: "aucune", language: "English", address: "Téléphones : {url}",
    no_game: "Partie introuvable", copy: "Copier", ev: "valeur {ev}", camera: "Caméra",
    camera_correct: "La caméra a raison : corriger le tirage", read_camera: "Lire avec la caméra",
    // What the camera is doing, by state (the server's detail, in English, follows in brackets).
    "camera:starting": "La caméra démarre", "camera:unsettled": "En attente d'un plateau immobile",
    "camera:board not found": "Plateau introuvable", "camera:unavailable": "Caméra indisponible : on joue à la main",
    "camera:other board": "La caméra est réglée pour l'autre édition",
    // Refusals by the rules, by kind (the detail stays in the rules engine's words).
    NotYourTurnError: "Ce n'est pas votre tour", NoTicketLeftError: "Plus de tuile Pari-Manche de cette couleur",
    TilePlacementError: "La tuile ne peut pas aller là", DieNotInPyramidError: "Ce dé n'est plus dans la pyramide",
    FinishCardError: "Carte déjà jouée", PartnershipError: "Partenariat impossible",
    RaceOverError: "La course est finie", InvalidActionError: "Action impossible",
  },
};
const CAMEL_NAMES_FR = { blue: "bleu", green: "vert", orange: "orange", yellow: "jaune", white: "blanc",
  red: "rouge", purple: "violet", black: "noir", grey: "gris" };

function currentLanguage() {
  const chosen = localStorage.getItem("camelup:lang");
  if (chosen) return chosen;
  const configured = document.documentElement.dataset.language;
  if (configured && configured !== "auto") return configured;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}
let LANG = currentLanguage();

function t(key, params = {}) {
  const text = (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (!(name in params) ? ""
    : name === "player" || name === "players" ? isolate(params[name]) : params[name]));
}
// A name written right to left must not reorder the words and numbers around it (Unicode bidi isolation).
function isolate(text) { return `\u2068${text}\u2069`; }
function camelName(camel) { return LANG === "fr" ? (CAMEL_NAMES_FR[camel] || camel) : camel; }

// The page's fixed words (elements marked data-t) in the current language.
function translatePage() { document.querySelectorAll("[data-t]").forEach((node) => { node.textContent = t(node.dataset.t); }); }

function languageSwitch(container, onChange) {
  const button = el("button", { class: "lang", type: "button" }, t("language"));
  button.addEventListener("click", () => {
    LANG = LANG === "fr" ? "en" : "fr";
    localStorage.setItem("camelup:lang", LANG);
    button.textContent = t("language");
    document.documentElement.lang = LANG;
    translatePage();
    onChange();
  });
  container.appendChild(button);
  document.documentElement.lang = LANG;
  translatePage();
}

// ---------------------------------------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false)
      node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

function camelChip(camel, label) {
  return el("span", { class: "chip", style: `background:${CAMEL_COLOURS[camel] || "#999"};color:${TEXT_ON[camel] || "#fff"}` },
    label === undefined ? camelName(camel) : label);
}

let toastTimer = null;
function toast(message, kind = "error") {
  let box = document.getElementById("toast");
  if (!box) { box = el("div", { id: "toast", role: "alert" }); document.body.appendChild(box); }
  box.textContent = message;
  box.className = `toast ${kind} show`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = `toast ${kind}`; }, 4500);
}

// ---------------------------------------------------------------------------------------------------------
// The API client.
async function api(method, path, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  if (!response.ok) {
    let message = (data && data.error) || `${response.status} ${response.statusText}`;
    // In French, say which rule refused it in French first; the detail follows in the engine's words.
    if (data && data.code && LANG !== "en" && STRINGS[LANG][data.code]) message = `${STRINGS[LANG][data.code]} (${message})`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

function tokenFor(kind, gameId) {
  // A token in the address's fragment (#token) is kept on this device, then removed from the address bar.
  const key = `camelup:${kind}:${gameId}`;
  const fragment = location.hash.slice(1);
  if (fragment) {
    localStorage.setItem(key, fragment);
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(key);
}

// Live updates: Server-Sent Events, reconnecting by itself; on waking up, fetch the state at once.
function live(gameId, token, onState, onStatus = () => {}) {
  let source = null;
  let latest = -1;
  const deliver = (state) => { if (state.version >= latest) { latest = state.version; onState(state); } };
  const connect = () => {
    if (source) source.close();
    source = new EventSource(`/api/games/${gameId}/events?token=${encodeURIComponent(token)}`);
    source.addEventListener("state", (event) => { onStatus(true); deliver(JSON.parse(event.data)); });
    source.onerror = () => {
      onStatus(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 1500);
    };
  };
  const refresh = () => api("GET", `/api/games/${gameId}/state`, token).then(deliver).catch(() => {});
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { refresh(); if (!source || source.readyState === EventSource.CLOSED) connect(); }
  });
  window.addEventListener("online", () => { refresh(); connect(); });
  connect();
  return { refresh, deliver };
}

// ---------------------------------------------------------------------------------------------------------
// The board: 16 spaces around a square, as on the real board (the finish line between 16 and 1).
const CELL = 100;
function spaceCell(space) {
  // Clockwise from the top left: 1..5 along the top, 6..8 down the right, 9..13 back along the bottom,
  // 14..16 up the left, so the finish line lies between 16 and 1 at the top left.
  if (space <= 5) return { x: space - 1, y: 0 };
  if (space <= 8) return { x: 4, y: space - 5 };
  if (space <= 13) return { x: 13 - space, y: 4 };
  return { x: 0, y: 17 - space };
}

function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children.flat()) if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}

function camelBar(camel, x, y, width, crazy, title) {
  const group = svgEl("g", { class: "camel", "data-camel": camel });
  group.appendChild(svgEl("rect", { x, y: y - 7, width, height: 14, rx: 5, fill: CAMEL_COLOURS[camel] || "#999",
    stroke: "#222", "stroke-width": 1.2 }, svgEl("title", {}, title)));
  // A letter as well as a colour, for colour-blind players; crazy camels point backwards.
  group.appendChild(svgEl("text", { x: x + width / 2, y: y + 4, "text-anchor": "middle", class: "camel-letter",
    fill: TEXT_ON[camel] || "#fff" }, `${crazy ? "◀ " : ""}${camelName(camel)[0].toUpperCase()}`));
  return group;
}

function renderBoard(svg, state) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-10 -10 ${5 * CELL + 20} ${5 * CELL + 20}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "race track");
  svg.appendChild(svgEl("rect", { x: -10, y: -10, width: 5 * CELL + 20, height: 5 * CELL + 20, fill: "#f3e2bd", rx: 18 }));
  const tiles = {};
  for (const tile of state.tiles || []) tiles[tile.space] = tile;
  for (let space = 1; space <= 16; space++) {
    const { x, y } = spaceCell(space);
    const gx = x * CELL, gy = y * CELL;
    svg.appendChild(svgEl("rect", { x: gx + 3, y: gy + 3, width: CELL - 6, height: CELL - 6, rx: 10,
      fill: space === 1 ? "#fff8e6" : "#fbf1d9", stroke: "#c9a46a", "stroke-width": 2 }));
    svg.appendChild(svgEl("text", { x: gx + 10, y: gy + 22, class: "space-number" }, String(space)));
    const tile = tiles[space];
    if (tile) {
      const plus = tile.side === (state.tile_sides || [])[0];
      svg.appendChild(svgEl("rect", { x: gx + 14, y: gy + 30, width: CELL - 28, height: 44, rx: 8,
        fill: plus ? "#9be39b" : "#f3a0a0", stroke: "#555" }));
      svg.appendChild(svgEl("text", { x: gx + CELL / 2, y: gy + 50, "text-anchor": "middle", class: "tile-sign" }, plus ? "+1" : "−1"));
      svg.appendChild(svgEl("text", { x: gx + CELL / 2, y: gy + 68, "text-anchor": "middle", class: "tile-owner" }, tile.owner));
    }
  }
  // The finish line, between 16 and 1.
  svg.appendChild(svgEl("line", { x1: -6, y1: CELL, x2: CELL, y2: CELL, stroke: "#111", "stroke-width": 6, "stroke-dasharray": "8 6" }));
  const crazy = state.crazy_camels || [];
  let crossedRow = 0;
  for (const [key, stack] of Object.entries(state.track)) {
    const space = Number(key);
    if (space < 1 || space > 16) {
      // A unit across the line is drawn in the middle of the board, with the way it crossed.
      const y = 1.5 * CELL + crossedRow * 90;
      crossedRow += 1;
      svg.appendChild(svgEl("text", { x: 2.5 * CELL, y, "text-anchor": "middle", class: "crossed" },
        space > 16 ? `🏁 ${space}` : `🏁 ${space} ◀`));
      stack.forEach((camel, height) =>
        svg.appendChild(camelBar(camel, 1.5 * CELL, y + 24 + (stack.length - 1 - height) * 16, 2 * CELL, crazy.includes(camel), `${camelName(camel)} (${space})`)));
      continue;
    }
    const { x, y } = spaceCell(space);
    stack.forEach((camel, height) =>
      svg.appendChild(camelBar(camel, x * CELL + 10, y * CELL + CELL - 16 - height * 15, CELL - 20, crazy.includes(camel), `${camelName(camel)} (${space})`)));
  }
  return svg;
}

// ---------------------------------------------------------------------------------------------------------
// Shared by the phone, the scorekeeper and the table screen.
function renderLegScoring(section, state, viewer) {
  const scoring = state.leg_scoring;
  if (!scoring) { section.hidden = true; return; }
  section.hidden = false;
  section.replaceChildren(
    el("h2", {}, t("leg_scoring", { leg: scoring.leg })),
    el("p", {}, camelChip(scoring.ranking[0]), ` ${t("first")}, `, camelChip(scoring.ranking[1]), ` ${t("second")}`),
    el("ul", { class: "scoring" }, scoring.players
      .filter((p) => !viewer || p.player === viewer)
      .map((p) => el("li", {}, el("b", {}, `${isolate(p.player)}: `), `${p.explain}  (${p.before} → ${p.after})`,
        el("div", { class: "muted" }, p.lines.join(" · "))))));
}

function playerLabel(state, player) {
  const character = (state.characters || {})[player];
  return character ? `${isolate(player)} · ${isolate(character)}` : isolate(player);
}

function turnText(state, me) {
  if (state.game_over) return t("race_over");
  return state.next_player === me ? t("your_turn") : t("turn_of", { player: state.next_player });
}

// ---------------------------------------------------------------------------------------------------------
// The camera beside the board, if there is one: what differs from the game, or why it cannot tell. The host
// may take the camera's board as right (the die entry that explains it is corrected).
function watchCamera(box, gameId, token, { host = false, onState = () => {} } = {}) {
  async function correct() {
    try {
      const result = await api("POST", `/api/games/${gameId}/camera/correct`, token);
      onState(result.state);
      toast(result.correction, "ok");
      show();
    } catch (error) { toast(error.message); }
  }
  async function show() {
    try {
      const camera = await api("GET", `/api/games/${gameId}/camera?lang=${LANG}`, token);
      box.hidden = camera.state === "off";
      const differences = camera.differences || [];
      const lines = differences.map((text) => el("li", {}, text));
      // Readings come worded in the page's language; other news is translated by state, detail after it.
      const translated = STRINGS[LANG][`camera:${camera.state}`];
      const message = camera.differences || !translated ? camera.message || camera.state
        : `${translated}${camera.message ? ` (${camera.message})` : ""}`;
      box.replaceChildren(...[el("h2", {}, t("camera")),
        el("p", { class: differences.length ? "instruction" : "muted" }, message),
        lines.length ? el("ul", {}, lines) : null,
        host && differences.length ? el("button", { onclick: correct }, t("camera_correct")) : null].filter(Boolean));
    } catch (_) { box.hidden = true; }
  }
  show();
  return setInterval(show, 2000);
}

// The last move as an instruction in the page's language (the server words it in English).
function moveText(state) {
  const m = state.last_movement;
  if (!m || LANG !== "fr") return state.last_move || "";
  let text = `Déplacez ${camelName(m.camel)} de ${m.steps}`;
  if (m.carried.length) text += ` (avec ${m.carried.map(camelName).join(", ")})`;
  if (m.tile) text += ` : tombe sur la tuile de ${m.tile.owner} case ${m.tile.space} (${m.tile.owner} +1), puis va case ${m.end}`;
  else text += ` : case ${m.end}`;
  if (m.under) text += `, sous ${camelName(m.under)}`;
  else if (m.on) text += `, sur ${camelName(m.on)}`;
  if (m.crossed) text += " — la ligne d'arrivée est franchie !";
  return text;
}
