// The host's page: scorekeeper mode (enter everything for whoever's turn it is), undo, seats and links.
"use strict";
(() => {
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  const token = tokenFor("host", gameId);
  let state = null;
  if (!token) { main.replaceChildren(el("p", {}, "This device is not the host of this game.")); return; }

  async function send(action) {
    try {
      const result = await api("POST", `/api/games/${gameId}/actions`, token, { ...action, player: state.legal.player });
      render(result.state);
    } catch (error) { toast(`${t("refused")}: ${error.message}`); }
  }

  async function showSeats() {
    const credentials = await api("GET", `/api/games/${gameId}/credentials`, token);
    document.getElementById("table-link").href = credentials.table_url;
    document.getElementById("address").textContent = t("address", { url: credentials.table_url.split("/table/")[0] });
    document.getElementById("seats").replaceChildren(...credentials.seats.map((seat) =>
      el("div", { class: "seat" },
        el("img", { class: "qr", alt: `QR ${seat.player}`, src: `/qr.svg?data=${encodeURIComponent(seat.join_url)}` }),
        el("div", {}, el("b", {}, seat.player), el("div", { class: "muted" }, t("join_hint")),
          el("div", { class: "muted" }, el("a", { href: seat.join_url }, seat.join_url)),
          el("button", { onclick: async () => {
            await api("POST", `/api/games/${gameId}/seats/${encodeURIComponent(seat.player)}/reissue`, token);
            showSeats();
          } }, t("reissue"))))));
  }

  function render(next) {
    if (state && next.version < state.version) return;
    state = next;
    const turn = document.getElementById("turn");
    turn.textContent = state.game_over ? t("race_over") : `${t("leg", { leg: state.leg })} · ${t("acting_for", { player: state.next_player })}`;
    const instruction = document.getElementById("instruction");
    instruction.hidden = !state.last_move;
    instruction.textContent = moveText(state);
    const pyramidNotice = document.getElementById("pyramid-notice");  // the dice pyramid asks for a hand
    pyramidNotice.hidden = !(state.pyramid && state.pyramid.notice);
    pyramidNotice.textContent = (state.pyramid && state.pyramid.notice) || "";
    renderControls(document.getElementById("actions"), state, send);
    renderLegScoring(document.getElementById("scoring"), state, null);
    document.getElementById("export").hidden = !state.game_over;
  }

  document.getElementById("undo").addEventListener("click", async () => {
    try { render((await api("POST", `/api/games/${gameId}/undo`, token)).state); toast(t("undo"), "ok"); }
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
  watchCamera(document.getElementById("camera"), gameId, token, { host: true, onState: render });
  live(gameId, token, render, (ok) => { document.getElementById("status").textContent = ok ? "" : t("reconnecting"); });
})();
