// Shared by every page: words from the message catalogs, the API client, live updates, and the wording of
// the facts the server sends (moves, actions, scoring, what to put back).
"use strict";

// ---------------------------------------------------------------------------------------------------------
// Languages: CATALOGS comes from /i18n/catalogs.js (built from the .po files). The browser's language, or
// a switch remembered on this device.
const LANGUAGES = Object.keys(CATALOGS);
function currentLanguage() {
  const chosen = localStorage.getItem("camelup:lang");
  if (chosen && CATALOGS[chosen]) return chosen;
  const configured = document.documentElement.dataset.language;
  if (configured && CATALOGS[configured]) return configured;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return CATALOGS[browser] ? browser : "en";
}
let LANG = currentLanguage();

function hasText(key) { return Boolean(CATALOGS[LANG][key] || CATALOGS.en[key]); }
const NAMES = new Set(["player", "players", "owner", "partner"]);
function t(key, params = {}) {
  const text = CATALOGS[LANG][key] || CATALOGS.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (!(name in params) ? "" : NAMES.has(name) ? isolate(params[name]) : params[name]));
}
// A name written right to left must not reorder the words and numbers around it (Unicode bidi isolation).
function isolate(text) { return String(text).startsWith("\u2068") ? text : `\u2068${text}\u2069`; }
function camelName(camel) { return hasText(`camel.${camel}`) ? t(`camel.${camel}`) : camel; }
function money(amount) { return t("money", { money: amount }); }
// "Label: text", with the colon as the page's language writes it.
function labelled(label, text) { return t("labelled", { label, text }); }
function signed(amount) { return amount > 0 ? `+${amount}` : amount < 0 ? `−${-amount}` : "0"; }

// The page's fixed words: elements marked data-t (text) or data-t-label (aria-label) or data-t-title.
function translatePage() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-t]").forEach((node) => { node.textContent = t(node.dataset.t); });
  document.querySelectorAll("[data-t-label]").forEach((node) => node.setAttribute("aria-label", t(node.dataset.tLabel)));
  document.querySelectorAll("[data-t-placeholder]").forEach((node) => node.setAttribute("placeholder", t(node.dataset.tPlaceholder)));
  const title = document.querySelector("[data-t-title]");
  if (title) document.title = t(title.dataset.tTitle);
}

function languageSwitch(container, onChange) {
  const next = () => LANGUAGES[(LANGUAGES.indexOf(LANG) + 1) % LANGUAGES.length];
  const button = el("button", { class: "lang", type: "button", lang: next() }, t(`language.${next()}`));
  button.addEventListener("click", () => {
    LANG = next();
    localStorage.setItem("camelup:lang", LANG);
    button.textContent = t(`language.${next()}`);
    button.setAttribute("lang", next());
    translatePage();
    onChange();
  });
  container.replaceChildren(button);
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

// A camel's name with its picture (glyph and colour), for lists and sentences.
function camelChip(camel, label) {
  return el("span", { class: "chip" }, camelIcon(camel, 34), el("span", {}, label === undefined ? camelName(camel) : label));
}

// A leg ticket drawn as a ticket: the camel, its name and the printed value.
function ticketEl(camel, value, extra = "") {
  return el("span", { class: `ticket ${extra}`, "data-camel": camel, style: `--camel:${CAMEL_COLOURS[camel]}` },
    camelIcon(camel, 38), el("span", { class: "ticket-name" }, camelName(camel)), el("b", { class: "ticket-value" }, String(value)));
}

let toastTimer = null;
function toast(message, kind = "error", lang = null) {
  let box = document.getElementById("toast");
  if (!box) { box = el("div", { id: "toast", role: "alert" }); document.body.appendChild(box); }
  box.textContent = message;
  if (lang) box.setAttribute("lang", lang); else box.removeAttribute("lang");  // words not in the page's language
  box.className = `toast ${kind} show`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = `toast ${kind}`; }, 5000);
}

// A polite live region: screen readers hear turn changes and moves.
let lastAnnounced = "";
function announce(text) {
  if (!text || text === lastAnnounced) return;
  lastAnnounced = text;
  let region = document.getElementById("announce");
  if (!region) { region = el("div", { id: "announce", class: "sr-only", "aria-live": "polite", role: "status" }); document.body.appendChild(region); }
  region.textContent = text;
}

// ---------------------------------------------------------------------------------------------------------
// The API client. A refusal is worded from its stable code in the page's language (the server's English
// detail is kept for English pages, where it says more).
async function api(method, path, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  if (!response.ok) {
    let message = (data && data.error) || `${response.status}`;
    if (LANG !== "en") message = data && data.code && hasText(`refusal.${data.code}`) ? t(`refusal.${data.code}`) : t("refusal.other");
    const error = new Error(message);
    error.status = response.status;
    error.code = data && data.code;
    error.detail = data && data.error;  // the server's own words, whatever the page's language
    error.body = data;  // a refusal may carry more (the lobby's camera read: what it did see)
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

// Live updates: Server-Sent Events, reconnecting by itself; on waking up, fetch the state at once. A token
// that stopped working (the host gave the seat a new link) ends the updates and says so.
function live(gameId, token, onState, { onStatus = () => {}, onGone = () => {} } = {}) {
  let source = null;
  let latest = -1;
  let gone = false;
  const deliver = (state) => { if (state.version >= latest) { latest = state.version; onState(state); } };
  const refresh = () => api("GET", `/api/games/${gameId}/state`, token).then(deliver).catch((error) => {
    if (error.status === 401 && !gone) { gone = true; if (source) source.close(); onGone(); }
  });
  const connect = () => {
    if (gone) return;
    if (source) source.close();
    source = new EventSource(`/api/games/${gameId}/events?token=${encodeURIComponent(token)}`);
    source.addEventListener("state", (event) => { onStatus(true); deliver(JSON.parse(event.data)); });
    source.onerror = () => {
      onStatus(false);
      refresh();
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 1500);
    };
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { refresh(); if (!source || source.readyState === EventSource.CLOSED) connect(); }
  });
  window.addEventListener("online", () => { refresh(); connect(); });
  connect();
  return { refresh, deliver };
}

function connectionStatus(ok) {
  const status = document.getElementById("status");
  if (status) status.textContent = ok ? "" : t("reconnecting");
}

// ---------------------------------------------------------------------------------------------------------
// Facts worded in the page's language.
function pileName(pile) { return t(pile === "winner" ? "winner_pile_short" : "loser_pile_short"); }

function moveText(move) {
  let text = t("move", { camel: camelName(move.camel), steps: move.steps });
  if (move.carried.length) text += t("move_carrying", { camels: move.carried.map(camelName).join(", ") });
  if (move.tile) text += t("move_tile", { owner: move.tile.owner, space: move.tile.space, end: move.end });
  else if (move.end > 16) text += t("move_finish");
  else text += t("move_to", { end: move.end });
  if (move.under) text += t("move_under", { camel: camelName(move.under) });
  else if (move.on) text += t("move_on", { camel: camelName(move.on) });
  if (move.crossed) text += t("move_crossed");
  return text;
}

function actionText(action) {
  const p = { player: action.player };
  if (action.type === "leg_bet") return t("did_leg_bet", { ...p, camel: camelName(action.camel), value: action.value });
  if (action.type === "spectator") return t("did_tile", { ...p, space: action.space, side: t(action.side) });
  if (action.type === "finish_bet") return t("did_finish_bet", { ...p, pile: pileName(action.pile) });
  if (action.type === "partnership") return t("did_partnership", { ...p, partner: action.partner });
  if (action.die === "grey") return t("did_draw_grey", { ...p, value: action.value, camel: camelName(action.crazy) });
  return t("did_draw", { ...p, die: camelName(action.die), value: action.value });
}

// After an undo: what to put back on the real table.
function putBackText(undo) {
  const action = undo.action;
  const by = undo.by === "host" ? t("undone_by_host") : t("taken_back_by", { player: undo.by });
  let what;
  if (undo.camels) {
    const c = undo.camels;
    what = t("put_back_camel", { camel: camelName(c.camel), from: c.from > 16 ? t("finish_line") : c.from, to: c.to });
    if (c.unit.length > 1) what += t("move_carrying", { camels: c.unit.filter((x) => x !== c.camel).map(camelName).join(", ") });
    if (c.on) what += t("move_on", { camel: camelName(c.on) });
    else if (c.under) what += t("move_under", { camel: camelName(c.under) });
    what += t("put_back_die", { die: camelName(action.die) });
  } else if (action.type === "leg_bet") what = t("put_back_ticket", { camel: camelName(action.camel), value: action.value, player: action.player });
  else if (action.type === "spectator") what = t("put_back_tile", { player: action.player, space: action.space });
  else if (action.type === "finish_bet") what = t("put_back_card", { player: action.player, pile: pileName(action.pile) });
  else if (action.type === "partnership") what = t("put_back_partnership", { player: action.player, partner: action.partner });
  else what = t("put_back_die_only", { die: camelName(action.die) });
  return labelled(by, what);
}

// After a correction (the host took the camera's word): what changed and what that changed, for everyone.
// "Cy's draw corrected: red 1 → red 3 · Ann 3 → 5 · leg 1 scored again"
function correctionNoticeText(correction) {
  const was = correction.was;
  const said = t("correction_notice", { player: was.player, was: entryDieText(was), becomes: entryDieText(correction.becomes) });
  return [said, ...effectsWords(correction)].join(" · ");
}

// What a correction or an undo changed for everyone: money, legs scored, the race's end ("no money changes").
function effectsWords(facts) {
  const unbroken = (amount) => money(amount).replace(/ /g, "\u00a0");  // "3 EP" never split over two lines
  const parts = (facts.money || []).map((change) => t("correction_money", { player: change.player, before: unbroken(change.before), after: unbroken(change.after) }));
  for (const leg of facts.legs || []) parts.push(t(`correction_leg_${leg.change}`, { leg: leg.leg }));
  if (facts.race) parts.push(t(facts.race === "over" ? "correction_race_over" : "correction_race_on"));
  return parts.length ? parts : [t("correction_no_money")];
}

// The dice pyramid's notice in the page's language: its words' key and params (a param named "x_key" is a key
// itself, said with the same params as "x"; a list of dice is their colours' names, joined as the language joins
// a list: "blue and red", « bleu et rouge »; a number is written as the language writes it: 2.5, 2,5); the
// server's English where it gives no key.
function pyramidNoticeText(pyramid) {
  if (!pyramid || !pyramid.notice) return "";
  const words = pyramid.notice_words;
  if (!words || !hasText(words.key)) return pyramid.notice;
  const params = { ...words.params };
  for (const [name, value] of Object.entries(words.params)) {
    if (Array.isArray(value)) params[name] = new Intl.ListFormat(LANG, { type: "conjunction" }).format(value.map(camelName));
    else if (typeof value === "number") params[name] = new Intl.NumberFormat(LANG).format(value);
  }
  for (const [name, key] of Object.entries(words.params)) if (name.endsWith("_key")) params[name.slice(0, -4)] = t(key, words.params);
  return t(words.key, params);
}

// The notice under the instruction: a correction, or what an undo changed beyond the board (money, a leg).
function noticeText(state) {
  if (state.correction) return correctionNoticeText(state.correction);
  const undo = state.undo;
  if (undo && ((undo.money || []).length || (undo.legs || []).length || undo.race)) return labelled(t("undo_changed"), effectsWords(undo).join(" · "));
  return "";
}

// A ticker line; an entry corrected since says what it was entered as.
function tickerText(action) {
  const text = actionText(action);
  return action.corrected_from ? `${text} ${t("ticker_corrected", { was: entryDieText(action.corrected_from) })}` : text;
}

function renderCorrectionNotice(box, state) {
  const text = noticeText(state);
  box.hidden = !text;
  box.textContent = text;
}

function rewardText(reward) {
  if (reward.source === "pyramid_ticket") return t("reward_pyramid", { amount: signed(reward.amount) });
  if (reward.source === "partner") return t("reward_partner", { partner: reward.partner, line: rewardText(reward.copied), amount: signed(reward.amount) });
  const place = reward.place === 1 ? t("first") : reward.place === 2 ? t("second") : t("not_placed");
  return t("reward_ticket", { camel: camelName(reward.camel), printed: reward.printed, place, amount: signed(reward.amount) });
}

function instructionOf(state) {
  // What the people at the table must do with their hands now, if anything: put back after an undo, move
  // the camels of the draw just made, or set up the board before the first action.
  if (state.undo) return { kind: "undo", text: putBackText(state.undo) };
  if (state.move_current && state.last_action.move) return { kind: "move", text: moveText(state.last_action.move), move: state.last_action.move };
  if (!state.actions_taken) return { kind: "setup", text: labelled(t("setup_board"), trackWords(state.start_track)) };
  return null;
}

// The move line on phones and the host page: current (an order) or past (muted, labelled "Last move").
function renderInstruction(box, state) {
  const now = instructionOf(state);
  const last = state.ticker.slice().reverse().find((action) => action.type === "pyramid" && action.move);
  box.className = "instruction";
  if (now) {
    box.hidden = false;
    box.classList.add(now.kind);
    box.replaceChildren(now.move ? camelIcon(now.move.camel, 44) : "", el("span", {}, now.text));
  } else if (last) {
    box.hidden = false;
    box.classList.add("past");
    box.replaceChildren(el("span", {}, labelled(t("last_move"), moveText(last.move))));
  } else box.hidden = true;
}

function renderLegScoring(section, state, viewer) {
  const scoring = state.leg_scoring;
  if (!scoring) { section.hidden = true; return; }
  section.hidden = false;
  section.replaceChildren(
    el("h2", {}, t("leg_scoring", { leg: scoring.leg })),
    el("p", { class: "ranking" }, camelChip(scoring.ranking[0]), ` ${t("first")} · `, camelChip(scoring.ranking[1]), ` ${t("second")}`),
    el("ul", { class: "scoring" }, scoring.players
      .filter((p) => !viewer || p.player === viewer)
      .map((p) => el("li", {}, el("b", {}, `${isolate(p.player)}: `), `${p.explain}  (${money(p.before)} → ${money(p.after)})`,
        el("div", { class: "muted" }, (p.rewards || []).map(rewardText).join(" · ") || t("no_tickets"))))));
}

function playerLabel(state, player) {
  const character = (state.characters || {})[player];
  return character ? `${isolate(player)} · ${isolate(character)}` : isolate(player);
}
function partnerOf(state, player) {
  const pair = (state.partnerships || []).find((p) => p.includes(player));
  return pair ? pair.find((p) => p !== player) : null;
}

function turnText(state, me) {
  if (state.game_over) return t("race_over");
  return state.next_player === me ? t("your_turn") : t("turn_of", { player: state.next_player });
}

// Players by money, richest first, each with their place (players with the same money share it).
function rankedMoney(money) {
  const order = Object.entries(money).sort((a, b) => b[1] - a[1]);
  return order.map(([player, amount]) => [player, amount, 1 + order.filter(([, other]) => other > amount).length]);
}

// Final standings with each player's breakdown (start, legs, finish cards, tiles).
function standingsEl(race) {
  const order = rankedMoney(race.final_money);
  return el("ol", { class: "standings" }, order.map(([player, amount, rank]) => {
    const parts = race.breakdown[player];
    return el("li", { class: race.winners.includes(player) ? "winner" : "", value: rank },
      el("bdi", { class: "who" }, player), el("b", { class: "num" }, money(amount)),
      el("span", { class: "muted parts" }, t("breakdown", { start: parts.start, legs: signed(parts.legs), cards: signed(parts.cards), tiles: signed(parts.tiles) })));
  }));
}
function winnersText(race) {
  return t(race.winners.length > 1 ? "winners_are" : "winner_is_player", { players: race.winners.join(", ") });
}

// ---------------------------------------------------------------------------------------------------------
// The camera beside the board, if there is one. Its verdict (the game's board checked against the picture,
// with the slips that could explain a difference) is what the pages say: "matches", "differs: most likely
// …" or "cannot tell (spaces 5, 6 not clear enough)". Without a verdict (no frame with the board yet, the
// race over), the camera's state as before. The host may take the camera's word when one die entry explains
// the difference (the verdict's correction).
function verdictKind(verdict) {
  const answer = String(verdict.answer || "");
  if (answer.startsWith("pending")) return "pending";
  if (answer.startsWith("cannot tell")) return "cannot-tell";
  if (answer.startsWith("differs")) return "differs";
  if (answer.startsWith("matches")) return "matches";
  return verdict.matches === true ? "matches" : verdict.matches === false ? "differs" : "cannot-tell";
}

// The spaces a "cannot tell" verdict names (its "unclear" list), for the page to say in its own language.
function unclearSpaces(verdict) {
  return Array.isArray(verdict.unclear) ? verdict.unclear.map(String) : [];
}

function entryDieText(action) {
  return action.crazy ? t("camera_die_grey", { value: action.value, camel: camelName(action.crazy) })
    : `${camelName(action.die)} ${action.value}`;
}

// The die entry the camera would correct, worded: "Bob's draw was entered as blue 2; the board shows blue 3".
function correctionText(correction) {
  return t("camera_why.entry", { player: correction.was.player, was: entryDieText(correction.was), becomes: entryDieText(correction.becomes) });
}

// Where a hand's slip set a camel down, as the server words it ("alone on 6", "on 6 under red", "on 6 on top of red").
function placeText(words) {
  let found = /^alone on (\d+)$/.exec(words);
  if (found) return t("camera_place.alone", { space: found[1] });
  found = /^on (\d+)$/.exec(words);
  if (found) return t("camera_place.on", { space: found[1] });
  found = /^on (\d+) (under|on top of) (\w+)$/.exec(words);
  if (found) return t(found[2] === "under" ? "camera_place.under" : "camera_place.on_top", { space: found[1], other: camelName(found[3]) });
  return null;
}

// The most likely explanation in the page's words (the server's English words when it is one we do not know).
function mostLikelyText(verdict) {
  if (verdict.correction) return correctionText(verdict.correction);
  const why = String(verdict.most_likely || "");
  let found = /^(\w+) set down (.+), not on (\d+)$/.exec(why);
  if (found && placeText(found[2])) return t("camera_why.set_down", { camel: camelName(found[1]), place: placeText(found[2]), space: found[3] });
  // A game whose dice come from the electronic pyramid: its draw is a fact, the hand puts the board right.
  found = /^put (\w+)(?: with ([\w ]+) on it)? back (.+): it stands (.+)$/.exec(why);
  if (found && placeText(found[3]) && placeText(found[4])) {
    const others = found[2] ? found[2].split(" and ").map(camelName).join(", ") : "";
    return t(others ? "camera_why.put_back_with" : "camera_why.put_back",
      { camel: camelName(found[1]), others, should: placeText(found[3]), place: placeText(found[4]) });
  }
  found = /^swap (\w+) and (\w+) back on (\d+): they stand the wrong way round$/.exec(why);
  if (found) return t("camera_why.swap_back", { camel: camelName(found[1]), other: camelName(found[2]), space: found[3] });
  found = /^(\w+) and (\w+) swapped on (\d+)$/.exec(why);
  if (found) return t("camera_why.swapped", { camel: camelName(found[1]), other: camelName(found[2]), space: found[3] });
  if (why === "the camera's own reading of the board") return t("camera_why.reading");
  return why ? serverWords(why) : null;
}

// Whether the verdict says what to put back where (a game whose board is a fact) rather than what went wrong.
function putBack(verdict) { return /^(put|swap) \w+ /.test(String(verdict.most_likely || "")); }

// Words the server gives only in English: marked as English on other pages (screen readers say them right).
function serverWords(text) { return LANG === "en" ? String(text) : el("span", { lang: "en" }, String(text)); }

// "Label: …" around an element, with the colon as the page's language writes it.
function labelledEls(label, node) {
  const [before, after] = labelled(label, "\u0001").split("\u0001");
  return [before, node, after];
}

// The verdict as the camera box shows it: a calm line when the board matches, the most likely cause and the
// differences when it differs, a neutral note naming the spaces not clear when the camera cannot tell. On a
// phone the differences fold under one line when there is a cause (the controls stay in sight); the table
// screen, which nobody taps, lists them.
function verdictEls(verdict, { fold = false, hint = false } = {}) {
  const kind = verdictKind(verdict);
  if (kind === "matches") return [el("p", { class: "camera-verdict matches" }, el("span", { "aria-hidden": "true" }, "✓ "), t("camera_verdict.matches"))];
  if (kind === "cannot-tell") {
    const spaces = unclearSpaces(verdict);
    const key = spaces.length > 1 ? "camera_verdict.cannot_tell_spaces" : spaces.length ? "camera_verdict.cannot_tell_space" : "camera_verdict.cannot_tell";
    return [el("p", { class: "camera-verdict cannot-tell" }, t(key, { spaces: spaces.join(", ") }))];
  }
  // The latest draw's camel not moved yet, or (dice entered by hand) a camel moved before its roll was typed in:
  // the usual course of play. No alarm, nothing to correct.
  if (kind === "pending") {
    if (verdict.unmoved && verdict.unmoved.die) {
      return [el("p", { class: "camera-verdict cannot-tell pending" }, t("camera_verdict.unmoved", { die: entryDieText(verdict.unmoved) }))];
    }
    const die = verdict.pending && verdict.pending.die ? entryDieText(verdict.pending) : "";
    return [el("p", { class: "camera-verdict cannot-tell pending" }, t(die ? "camera_verdict.pending" : "camera_verdict.pending_any", { die }))];
  }
  const why = mostLikelyText(verdict);
  const differences = verdict.differences || [];
  const list = differences.length ? el("ul", { class: "camera-differences" }, differences.map((text) => el("li", {}, text))) : null;
  // Beside a move line that says otherwise, the players learn what they can do (the host has the button). On a
  // phone it folds with the differences: the controls stay in sight.
  const said = hint && !putBack(verdict) ? el("p", { class: "camera-hint" }, t(verdict.correction ? "camera_hint.correct" : "camera_hint.put_right")) : null;
  const folded = list && fold && why;
  return [el("p", { class: "camera-verdict differs instruction" }, t("camera_verdict.differs")),
    why ? el("p", { class: "camera-why" }, labelledEls(t(putBack(verdict) ? "camera_to_do" : "camera_most_likely"), why)) : null,
    folded ? null : said,
    folded ? el("details", { class: "camera-details" }, el("summary", {}, t("camera_differences", { n: differences.length })), said, list) : list];
}

// The game that holds the camera (the server's "holder"), named as the lobby lists it, so that another game's
// players recognise it: its players, its board, when it began and when something was last entered (the camera is
// free 15 minutes after that).
function holderText(holder) {
  const time = (seconds) => {
    const when = new Date(seconds * 1000);
    const today = when.toDateString() === new Date().toDateString();
    // A time stays on one line ("5:03 PM"): a phone wraps the words around it instead.
    return when.toLocaleString(LANG, today ? { timeStyle: "short" } : { dateStyle: "short", timeStyle: "short" }).replace(/\s/g, "\u00a0");
  };
  return t("camera_holder", { players: new Intl.ListFormat(LANG, { type: "conjunction" }).format(holder.players),
    edition: holder.edition, started: time(holder.created), last: time(holder.last_played) });
}

// Today's words for the camera's state when there is no verdict: a reading's differences, or the state.
function stateEls(camera, host = false) {
  const differences = camera.differences || [];
  // Readings come worded in the page's language; other news is translated by state: a short plain sentence
  // for everyone, the server's technical words (markers, a file's path) for the host only, on a line of their own.
  // Those who cannot fix the camera (players, the table screen) learn that it is not checking the board for now
  // and that the host knows: the host's page says why.
  const others = `camera_others.${camera.state}`;
  const key = !host && hasText(others) ? others : `camera.${camera.state}`;
  const known = !camera.differences && hasText(key);
  const message = known ? t(key) : camera.message || camera.state;
  // A camera setting to fix (it names the setting and the file): the host is told which, in any language.
  const detail = known && host && (LANG === "en" || camera.state === "not checked") && camera.message && !["unsettled", "starting", "off", "switching"].includes(camera.state);
  // A picture too blurred, dark or bright for any marker: the host is told so in the page's language (the English
  // detail says it first already, as `vision read` does).
  const picture = host && !detail && camera.picture_problem;
  // Which markers are not seen (or moved), or why the camera cannot be opened, for the host in the page's language
  // (the English detail says it already).
  const reason = host && !detail && camera.reason;
  // The other board: the server's words say the same as the general line, more precisely (which board, and why).
  const instead = detail && ["other board", "other game"].includes(camera.state);
  return [el("p", { class: differences.length ? "instruction" : "muted" }, instead ? String(camera.message).replace(/^./, (first) => first.toUpperCase()) : message),
    // Under "Board not found", the server's words without saying it again.
    detail && !instead ? el("p", { class: "muted camera-detail" }, String(camera.message).replace(/^board not found: /, "")) : null,
    picture ? el("p", { class: "muted camera-detail camera-picture" }, camera.picture_problem) : null,
    reason ? el("p", { class: "muted camera-detail camera-reason" }, camera.reason) : null,
    camera.state === "other game" && camera.holder ? el("p", { class: "muted camera-holder" }, holderText(camera.holder)) : null,
    differences.length ? el("ul", {}, differences.map((text) => el("li", {}, text))) : null];
}

// The host's calibration line in the page's language: catalog words whose params may be words themselves (said
// first); the server's English where the catalog has no such words.
function wordsText(words) {
  if (!words || typeof words !== "object") return String(words ?? "");
  const params = {};
  for (const [name, value] of Object.entries(words.params || {})) params[name] = value && typeof value === "object" ? wordsText(value) : value;
  return t(words.key, params);
}
function knownWords(words) {
  return !words || typeof words !== "object" || (hasText(words.key) && Object.values(words.params || {}).every(knownWords));
}
function learntText(camera) {
  return camera.learnt_words && knownWords(camera.learnt_words) ? wordsText(camera.learnt_words) : serverWords(camera.learnt);
}

// The camera's states of a game that does not hold it (companion/table/camera_game.py): no verdicts, nothing to let go.
const NOT_HOLDING = ["off", "not checked", "other game", "released"];

// Returns { gameChanged(version) }: the page calls it with each game state it shows. A verdict worked out for an
// earlier version of the game (an entry, a correction or an undo since) is about a board that is no longer the
// game's: it leaves the box at once, and the camera is asked again without waiting for the next poll.
function watchCamera(box, gameId, token, { host = false, tv = false, onState = () => {} } = {}) {
  let offered = null;  // the correction the host's button was shown for
  let shown = "";  // the report on screen: the same words again are not drawn again (a focused button keeps focus)
  let gameVersion = -1;  // the newest game state the page shows
  let latest = null;  // the camera's latest report
  async function correct() {
    const asked = offered;
    // Asked first, as undo is: the host's tap changes a draw everyone has seen.
    if (asked && !confirm(t("confirm_camera_correct", { player: asked.was.player, was: entryDieText(asked.was), becomes: entryDieText(asked.becomes) }))) return;
    try {
      const result = await api("POST", `/api/games/${gameId}/camera/correct`, token);
      onState(result.state);
      toast(asked ? t("camera_corrected", { player: asked.was.player, was: entryDieText(asked.was), becomes: entryDieText(asked.becomes) })
        : result.correction, "ok", asked || LANG === "en" ? null : "en");
    } catch (error) {
      // The server's own words when this language has none for its refusal (a new one, say).
      const own = LANG !== "en" && error.detail && !hasText(`refusal.${error.code}`);
      toast(own ? error.detail : error.message, "error", own ? "en" : null);
    }
    show();
  }
  // The host lets the camera go (the game made to place it), or asks for it again: the box shows the answer at once.
  async function holder(path, done) {
    // Asked first during a game (a tap beside the verdicts): the camera stops checking this game's board.
    if (path === "release" && !confirm(t("confirm_camera_release"))) return;
    try {
      await api("POST", `/api/games/${gameId}/camera/${path}`, token);
      toast(t(done), "ok");
    } catch (error) {
      const own = LANG !== "en" && error.detail && !hasText(`refusal.${error.code}`);
      const holding = error.body && error.body.holder ? ` ${holderText(error.body.holder)}` : "";  // which game has it
      toast((own ? error.detail : error.message) + holding, "error", own ? "en" : null);
    }
    show();
  }
  // The report as it stands for the game the page shows: a verdict about an earlier version of it is no verdict.
  function current(camera) {
    const verdict = camera.verdict;
    if (!verdict || !(Number(verdict.version) < gameVersion)) return camera;
    return { state: "unsettled", learnt: camera.learnt, learnt_words: camera.learnt_words, wanted: camera.wanted };
  }
  let asked = 0;
  let answered = 0;
  async function show() {
    const ask = ++asked;
    try {
      const camera = await api("GET", `/api/games/${gameId}/camera?lang=${LANG}`, token);
      if (ask < answered) return;  // a later question was answered first (a game change asks at once)
      answered = ask;
      latest = camera;
      draw(current(latest));
    } catch (_) { if (ask >= answered) { box.hidden = true; shown = ""; } }
  }
  function draw(camera) {
    const seen = `${LANG} ${JSON.stringify(camera, (key, value) => (key === "margin" ? undefined : value))}`;
    if (seen === shown) return;
    shown = seen;
    box.hidden = camera.state === "off";
    const verdict = camera.verdict || null;
    const kind = verdict ? verdictKind(verdict) : "";
    // A new difference is news for everyone at the table, screen readers too (agreeing or not seeing well is not).
    if (kind === "differs" && box.dataset.verdict !== "differs") {
      const why = mostLikelyText(verdict);
      const cause = typeof why === "string" ? labelled(t(putBack(verdict) ? "camera_to_do" : "camera_most_likely"), why) : null;  // not the server's English
      announce([t("camera_verdict.differs"), cause].filter(Boolean).join(". "));
    }
    box.dataset.verdict = kind;
    box.dataset.state = camera.state || "";
    offered = kind === "differs" && verdict.correction ? verdict.correction : null;
    const open = box.querySelector(".camera-details[open]");  // a list someone unfolded stays unfolded
    // Only while a game in play waits for the camera (its page asked lately): a game being played keeps the box short.
    const offerRelease = host && camera.wanted && !NOT_HOLDING.includes(camera.state);
    // The placement assistant shows the room: its link carries the host's token, so only the host has it.
    // (not for a game the camera does not check: the view is for that game's host)
    const placement = host && !["other game", "released"].includes(camera.state) ? el("a", { class: `button-link${["board not found", "no colour", "unavailable"].includes(camera.state) ? " primary" : ""}`,
      id: "placement-link", href: `/camera/placement?game=${encodeURIComponent(gameId)}&token=${encodeURIComponent(token)}` },
    t("placement_link")) : null;
    box.replaceChildren(...[
      // The heading and, for the host, the placement assistant's link on one line: the box costs one line less.
      el("div", { class: "camera-head" }, el("h2", {}, t("camera")), placement),
      ...(verdict ? verdictEls(verdict, { fold: !tv, hint: !host }) : stateEls(camera, host)),
      // What is wrong with the picture itself (too dark, blurred, a frame too small): for the host, whatever the
      // verdict (an "agrees" on a frame too dark to trust is said with why), in the page's language where the
      // server knows the sentence (problems_languages), else in its English, marked as such.
      host && verdict && (verdict.problems || []).length
        ? el("p", { class: "muted camera-detail" }, (verdict.problems_languages || [])[0] === LANG ? verdict.problems[0] : serverWords(verdict.problems[0])) : null,
      host && offered ? el("button", { type: "button", id: "camera-correct", onclick: correct }, t("camera_correct")) : null,
      // Whether the camera learnt this table's colours from a board the game confirmed (the host's concern).
      host && (camera.learnt_words || camera.learnt) ? el("p", { class: "muted camera-learnt" }, labelledEls(t("camera_learnt"), learntText(camera))) : null,
      // The game that holds the camera lets it go (made only to place it); one that let it go asks for it again.
      host && camera.state === "released" ? el("button", { type: "button", id: "camera-take", onclick: () => holder("take", "camera_taken_toast") }, t("camera_take")) : null,
      offerRelease ? el("p", { class: "camera-wanted" }, t("camera_wanted")) : null,
      offerRelease ? el("button", { type: "button", id: "camera-release", onclick: () => holder("release", "camera_released_toast") }, t("camera_release")) : null,
    ].filter(Boolean));
    const details = box.querySelector(".camera-details");
    if (open && details) details.open = true;
  }
  function gameChanged(version) {
    if (!(version > gameVersion)) return;
    const first = gameVersion < 0;  // the page's first state: the camera is being asked already
    gameVersion = version;
    if (latest) draw(current(latest));
    if (!first) show();
  }
  show();
  setInterval(show, 2000);
  return { gameChanged };
}

// Once the race is over, watch for the host's rematch and go to this device's place in it.
let rematchTimer = null;
function followRematch(gameId, token, kind, page) {
  if (rematchTimer) return;
  const look = () => api("GET", `/api/games/${gameId}/rematch`, token).then((next) => {
    if (!next) return;  // 204: no rematch yet
    clearInterval(rematchTimer);
    localStorage.setItem(`camelup:${kind}:${next.game_id}`, next.token);
    location.replace(`/${page}/${next.game_id}`);
  }).catch(() => {});
  rematchTimer = setInterval(look, 3000);
  look();
}
