// The phone page: one seat, one hand, one player.
"use strict";
(() => {
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  const token = localStorage.getItem(`camelup:seat:${gameId}`);
  let state = null;

  if (!token) {
    main.replaceChildren(el("section", { class: "card" }, el("p", {}, "This phone has no seat in this game: scan your QR code or ask the host for a new link.")));
    return;
  }

  async function send(action) {
    try {
      const result = await api("POST", `/api/games/${gameId}/actions`, token, action);
      render(result.state);
    } catch (error) {
      toast(`${t("refused")}: ${error.message}`);
    }
  }

  function render(next) {
    if (state && next.version < state.version) return;
    state = next;
    const me = state.you.player;
    document.getElementById("who").textContent = `🐪 ${playerLabel(state, me)}`;
    document.getElementById("money").textContent = t("money", { money: state.money[me] });
    document.title = `${me} — Camel Up`;
    const turn = document.getElementById("turn");
    turn.textContent = `${t("leg", { leg: state.leg })} · ${turnText(state, me)}`;
    turn.classList.toggle("mine", state.next_player === me);
    const instruction = document.getElementById("instruction");
    instruction.hidden = !state.last_move;
    instruction.textContent = moveText(state);
    renderControls(document.getElementById("actions"), state, send);
    const mine = state.leg_tickets.filter((ticket) => ticket.owner === me);
    document.getElementById("tickets").replaceChildren(
      mine.length ? el("div", {}, mine.map((ticket) => camelChip(ticket.camel, `${camelName(ticket.camel)} ${ticket.value}`))) : el("span", { class: "muted" }, t("no_tickets")),
      el("p", { class: "muted" }, t("pyramid_tickets", { n: state.pyramid_tickets[me] || 0 })));
    const played = state.you.played.map((card) => `${camelName(card.camel)} → ${card.pile === "winner" ? t("winner_pile") : t("loser_pile")}`);
    document.getElementById("cards").replaceChildren(
      el("div", {}, state.you.finish_cards.map((camel) => camelChip(camel))),
      el("p", { class: "muted" }, t("played_cards", { cards: played.length ? played.join(", ") : t("none") })));
    renderLegScoring(document.getElementById("scoring"), state, me);
    if (state.race_scoring) {
      const race = state.race_scoring;
      document.getElementById("scoring").appendChild(el("p", { class: "turn" },
        t("winner_is", { camel: camelName(race.winner), loser: camelName(race.loser) }), el("br"),
        t("wins", { players: race.winners.join(", "), s: race.winners.length > 1 ? "" : "s" })));
      document.getElementById("scoring").appendChild(el("p", {}, el("a", { href: `/coach/${gameId}` }, "The coach: what each decision cost")));
    }
    renderBoard(document.getElementById("board"), state);
  }

  languageSwitch(document.getElementById("lang"), () => state && render(state));
  watchCamera(document.getElementById("camera"), gameId, token);
  live(gameId, token, render, (ok) => { document.getElementById("status").textContent = ok ? "" : t("reconnecting"); });
})();
