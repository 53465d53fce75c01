// The phone page: one seat, one hand, one player.
"use strict";
(() => {
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  const token = localStorage.getItem(`camelup:seat:${gameId}`);
  const TAKE_BACK_MS = 10000;  // the server allows a little more
  let state = null;
  let cameraBox = null;  // the camera box: told of each game state shown, so it never shows a verdict on an earlier one
  let updates = null;
  let takeBackUntil = 0;
  let wasMyTurn = false;

  if (!token) {
    main.replaceChildren(el("section", { class: "card" }, el("p", {}, t("no_seat"))));
    return;
  }

  async function send(action) {
    try {
      const result = await api("POST", `/api/games/${gameId}/actions`, token, action);
      takeBackUntil = Date.now() + TAKE_BACK_MS;
      render(result.state);
    } catch (error) {
      // Read the game again first: the refusal is shown over what is true now, not over an old turn.
      await updates.refresh();
      if (state) render(state);
      toast(labelled(t("refused"), error.message));
    }
  }

  async function takeBack() {
    try {
      render((await api("POST", `/api/games/${gameId}/undo`, token)).state);
      takeBackUntil = 0;
    } catch (error) { await updates.refresh(); toast(error.message); }
  }

  function renderTakeBack() {
    const box = document.getElementById("take-back");
    const mine = state.last_action_by === state.you.player && Date.now() < takeBackUntil && !state.game_over &&
      state.last_action.type !== "pyramid";  // a die cannot be un-rolled
    if (!mine) { box.replaceChildren(); return; }
    box.replaceChildren(el("button", { type: "button", id: "take-back-button", onclick: takeBack }, `↶ ${t("take_back")}`));
    setTimeout(() => { if (Date.now() >= takeBackUntil) box.replaceChildren(); }, takeBackUntil - Date.now() + 50);
  }

  // Your leg tickets, drawn as tickets, and your pyramid tickets.
  function renderTickets(me) {
    const mine = state.leg_tickets.filter((ticket) => ticket.owner === me);
    const pyramid = state.pyramid_tickets[me] || 0;
    document.getElementById("tickets").replaceChildren(
      mine.length ? el("div", { class: "ticket-row" }, mine.map((ticket) => ticketEl(ticket.camel, ticket.value))) : el("p", { class: "muted" }, t("no_tickets")),
      el("p", {}, t("pyramid_tickets", { n: pyramid })));
  }

  // Your finish cards: face down on the table, so drawn as cards only this phone shows.
  function renderCards() {
    const played = state.you.played;
    document.getElementById("cards").replaceChildren(
      el("div", { class: "finish-cards" }, state.you.finish_cards.map((camel) => el("span", { class: "finish-card", "data-camel": camel },
        camelIcon(camel, 44), el("span", {}, camelName(camel))))),
      played.length ? el("ul", { class: "played" }, played.map((card) => el("li", {}, `${card.pile === "winner" ? "🏆" : "🐌"} `,
        t("played_on", { camel: camelName(card.camel), pile: pileName(card.pile) })))) : el("p", { class: "muted" }, t("no_cards_played")));
  }

  // At the end: this player's own cards turned over, then the standings.
  function renderResult(me) {
    const box = document.getElementById("result");
    const race = state.race_scoring;
    if (!race) { box.hidden = true; return; }
    box.hidden = false;
    const mine = race.cards.filter((card) => card.owner === me);
    box.replaceChildren(el("h2", {}, t("race_result", { camel: camelName(race.winner), loser: camelName(race.loser) })),
      el("h3", {}, t("your_card_results")),
      mine.length ? el("ul", { class: "my-cards" }, mine.map((card) => el("li", { class: card.right ? "right" : "wrong" },
        `${card.pile === "winner" ? "🏆" : "🐌"} `, camelChip(card.camel), ` ${card.right ? t("card_right") : t("card_wrong")} `, el("b", {}, signed(card.amount)))))
        : el("p", { class: "muted" }, t("no_cards_played")),
      el("p", { class: "turn", id: "winners" }, `🏆 ${winnersText(race)}`), standingsEl(race),
      el("p", {}, el("a", { class: "button-link", href: `/coach/${gameId}` }, t("coach_link"))));
  }

  function alertTurn(mine) {
    if (mine && !wasMyTurn) {
      if (navigator.vibrate) navigator.vibrate([180, 80, 180]);
      if (document.getElementById("sound").checked) beep();
    }
    wasMyTurn = mine;
  }
  function beep() {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = 660;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.18);
    } catch (_) { /* no sound on this device */ }
  }

  // The Screen Wake Lock while the race runs, so the phone does not sleep between turns.
  let wakeLock = null;
  async function keepAwake() {
    if (state && state.game_over && wakeLock && wakeLock.release) { wakeLock.release(); wakeLock = null; return; }
    if (!("wakeLock" in navigator) || !state || state.game_over || wakeLock || document.visibilityState !== "visible") return;
    wakeLock = "asking";  // one request at a time
    try { wakeLock = await navigator.wakeLock.request("screen"); wakeLock.addEventListener("release", () => { wakeLock = null; }); }
    catch (_) { wakeLock = null; }
  }
  document.addEventListener("visibilitychange", keepAwake);

  function render(next) {
    if (state && next.version < state.version) return;
    const before = state;
    state = next;
    if (cameraBox) cameraBox.gameChanged(state.version);
    const me = state.you.player;
    document.getElementById("who").replaceChildren(el("span", { "aria-hidden": "true" }, "🐪 "), playerLabel(state, me));
    document.getElementById("money").textContent = money(state.money[me]);
    document.title = `${me} — Camel Up`;
    const mine = state.next_player === me && !state.game_over;
    const turn = document.getElementById("turn");
    turn.textContent = `${t("leg", { leg: state.leg })} · ${turnText(state, me)}`;
    turn.classList.toggle("mine", mine);
    document.getElementById("turn-card").classList.toggle("mine", mine);
    const partner = partnerOf(state, me);
    const partnerLine = document.getElementById("partner");
    partnerLine.hidden = !partner;
    partnerLine.textContent = partner ? `🤝 ${t("partner_is", { player: partner })}` : "";
    renderInstruction(document.getElementById("instruction"), state);
    renderCorrectionNotice(document.getElementById("correction-notice"), state);
    renderTakeBack();
    renderControls(document.getElementById("actions"), state, send);
    renderTickets(me);
    renderCards();
    renderLegScoring(document.getElementById("scoring"), state, me);
    renderResult(me);
    renderBoard(document.getElementById("board"), state);
    alertTurn(mine);
    keepAwake();
    if (state.game_over) followRematch(gameId, token, "seat", "play");
    if (!before || before.version !== state.version) {
      const now = instructionOf(state);
      announce([noticeText(state), now ? now.text : "", turn.textContent].filter(Boolean).join(". "));
    }
  }

  function gone() {
    main.replaceChildren(el("section", { class: "card" }, el("h2", {}, t("seat_replaced")), el("p", {}, t("seat_replaced_hint"))));
    connectionStatus(true);
  }

  const sound = document.getElementById("sound");
  sound.checked = localStorage.getItem("camelup:sound") === "on";
  sound.addEventListener("change", () => localStorage.setItem("camelup:sound", sound.checked ? "on" : "off"));
  languageSwitch(document.getElementById("lang"), () => state && render(state));
  cameraBox = watchCamera(document.getElementById("camera"), gameId, token);
  updates = live(gameId, token, render, { onStatus: connectionStatus, onGone: gone });
})();
