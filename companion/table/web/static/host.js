// The host's page: scorekeeper mode (enter everything for whoever's turn it is, naming them), the board,
// money and tickets, undo that asks first, seats and their links, and the result with a rematch.
"use strict";
(() => {
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  const token = tokenFor("host", gameId);
  let state = null;
  let cameraBox = null;  // the camera box: told of each game state shown, so it never shows a verdict on an earlier one
  let updates = null;
  if (!token) { main.replaceChildren(el("section", { class: "card" }, el("p", {}, t("not_host")))); return; }

  async function send(action) {
    try {
      const result = await api("POST", `/api/games/${gameId}/actions`, token, { ...action, player: state.legal.player });
      render(result.state);
    } catch (error) {
      await updates.refresh();
      if (state) render(state);
      toast(labelled(t("refused"), error.message));
    }
  }

  async function showSeats() {
    const credentials = await api("GET", `/api/games/${gameId}/credentials`, token);
    document.getElementById("table-link").href = credentials.table_url;
    // Listening on this machine only (a loopback address): the links work here, never on a phone.
    document.getElementById("address").textContent = t(credentials.local_only ? "address_local_only" : "address", { url: credentials.table_url.split("/table/")[0] });
    document.getElementById("seats").replaceChildren(...credentials.seats.map((seat) =>
      el("div", { class: "seat" },
        el("img", { class: "qr", alt: t("qr_for", { player: seat.player }), src: `/qr.svg?data=${encodeURIComponent(seat.join_url)}` }),
        el("div", {}, el("b", {}, seat.player), el("div", { class: "muted" }, t("join_hint")),
          el("div", { class: "muted" }, el("a", { href: seat.join_url }, seat.join_url)),
          el("button", { type: "button", onclick: async () => {
            if (!confirm(t("confirm_reissue", { player: seat.player }))) return;
            await api("POST", `/api/games/${gameId}/seats/${encodeURIComponent(seat.player)}/reissue`, token);
            showSeats();
          } }, t("reissue"))))));
  }

  function renderPlayers() {
    document.getElementById("players").replaceChildren(...state.players.map((player) => {
      const partner = partnerOf(state, player);
      const tickets = state.leg_tickets.filter((ticket) => ticket.owner === player);
      return el("li", { class: state.next_player === player && !state.game_over ? "current" : "", "data-player": player },
        el("div", { class: "host-player-head" }, el("b", {}, playerLabel(state, player)), el("b", { class: "num" }, money(state.money[player]))),
        el("div", { class: "ticket-row" }, tickets.map((ticket) => ticketEl(ticket.camel, ticket.value, "small")),
          state.pyramid_tickets[player] ? el("span", { class: "muted" }, t("pyramid_tickets", { n: state.pyramid_tickets[player] })) : ""),
        partner ? el("div", { class: "partner-line" }, `🤝 ${t("partner_is", { player: partner })}`) : "");
    }));
  }

  async function rematch() {
    try {
      const game = await api("POST", `/api/games/${gameId}/rematch`, token);
      location.href = `/host/${game.game_id}#${game.host_token}`;
    } catch (error) { toast(error.message); }
  }

  function renderResult() {
    const box = document.getElementById("result");
    const race = state.race_scoring;
    if (!race) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren(el("h2", {}, t("race_result", { camel: camelName(race.winner), loser: camelName(race.loser) })),
      el("p", { class: "turn", id: "winners" }, `🏆 ${winnersText(race)}`), standingsEl(race),
      el("button", { class: "primary", type: "button", id: "rematch", onclick: rematch }, t("rematch")));
  }

  function render(next) {
    if (state && next.version < state.version) return;
    const before = state;
    state = next;
    if (cameraBox) cameraBox.gameChanged(state.version);
    const turn = document.getElementById("turn");
    turn.textContent = state.game_over ? t("race_over") : `${t("leg", { leg: state.leg })} · ${t("acting_for", { player: playerLabel(state, state.next_player) })}`;
    renderInstruction(document.getElementById("instruction"), state);
    renderCorrectionNotice(document.getElementById("correction-notice"), state);
    const pyramidNotice = document.getElementById("pyramid-notice");  // the dice pyramid asks for a hand
    pyramidNotice.hidden = !(state.pyramid && state.pyramid.notice);
    pyramidNotice.textContent = pyramidNoticeText(state.pyramid);
    renderControls(document.getElementById("actions"), state, send);
    renderPlayers();
    renderBoard(document.getElementById("board"), state);
    renderLegScoring(document.getElementById("scoring"), state, null);
    renderResult();
    document.getElementById("export").hidden = !state.game_over;
    document.getElementById("undo").disabled = !state.actions_taken;
    if (!before || before.version !== state.version) {
      const now = instructionOf(state);
      announce([noticeText(state), now ? now.text : "", turn.textContent].filter(Boolean).join(". "));
    }
  }

  // Undo asks first, naming what it takes back; then every page says what to put back on the table.
  document.getElementById("undo").addEventListener("click", async () => {
    if (!state || !state.last_action) return;
    if (!confirm(t("confirm_undo", { action: actionText(state.last_action) }))) return;
    try { render((await api("POST", `/api/games/${gameId}/undo`, token)).state); }
    catch (error) { toast(error.message); }
  });
  document.getElementById("export").addEventListener("click", async () => {
    const log = await api("GET", `/api/games/${gameId}/log`, token);
    const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(log, null, 1)], { type: "application/json" })),
      download: `camelup-${gameId}.json` });
    link.click();
  });
  languageSwitch(document.getElementById("lang"), () => { state && render(state); showSeats(); });
  showSeats();
  cameraBox = watchCamera(document.getElementById("camera"), gameId, token, { host: true, onState: render });
  updates = live(gameId, token, render, { onStatus: connectionStatus });
})();
