// The table screen (tablet or TV): the race for everyone to see. Read-only.
"use strict";
(() => {
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  const token = tokenFor("table", gameId);
  let state = null;
  let revealed = null;
  if (!token) { main.replaceChildren(el("p", {}, "Open the table screen from the host's page.")); return; }

  async function showOdds() {
    const box = document.getElementById("odds");
    box.hidden = !document.getElementById("odds-toggle").checked;
    if (box.hidden || !state || state.game_over) return;
    const odds = await api("GET", `/api/games/${gameId}/odds`, token);
    box.replaceChildren(el("table", { class: "money" }, Object.entries(odds.leg).map(([camel, p]) =>
      el("tr", {}, el("td", {}, camelChip(camel)), el("td", { class: "num" }, `${(100 * p.first).toFixed(1)}%`),
        el("td", { class: "num" }, `${(100 * p.second).toFixed(1)}%`),
        el("td", { class: "num" }, odds.leg_ticket_ev[camel] === null ? "—" : t("ev", { ev: odds.leg_ticket_ev[camel].toFixed(2) }))))));
  }

  function reveal(race) {
    // At the end: the winner pile, then the loser pile, card by card, with each payout.
    const section = document.getElementById("reveal");
    section.hidden = false;
    if (revealed === state.version) return;
    revealed = state.version;
    const items = race.cards.map((card) => el("li", {},
      `${card.pile === "winner" ? "🏆" : "🐌"} ${card.owner}: `, camelChip(card.camel),
      ` ${card.amount > 0 ? "+" : ""}${card.amount} (${card.before} → ${card.after})`));
    section.replaceChildren(el("h2", {}, t("reveal")),
      el("p", { class: "turn" }, t("winner_is", { camel: camelName(race.winner), loser: camelName(race.loser) })),
      el("ol", { class: "reveal" }, items),
      el("p", { class: "turn", id: "winners" }, t("wins", { players: race.winners.join(", "), s: race.winners.length > 1 ? "" : "s" })));
    items.forEach((item, index) => setTimeout(() => item.classList.add("shown"), 700 * (index + 1)));
  }

  function render(next) {
    if (state && next.version < state.version) return;
    state = next;
    document.getElementById("leg").textContent = t("leg", { leg: state.leg });
    document.getElementById("turn").textContent = turnText(state, null);
    renderBoard(document.getElementById("board"), state);
    const instruction = document.getElementById("instruction");
    instruction.hidden = !state.last_move;
    instruction.textContent = state.last_move ? `${t("last_move")}: ${moveText(state)}` : "";
    const pyramidNotice = document.getElementById("pyramid-notice");  // the dice pyramid asks for a hand
    pyramidNotice.hidden = !(state.pyramid && state.pyramid.notice);
    pyramidNotice.textContent = (state.pyramid && state.pyramid.notice) || "";
    document.getElementById("money").replaceChildren(...state.players.map((player) =>
      el("tr", { class: player === state.next_player ? "current" : "", "data-player": player }, el("td", {}, playerLabel(state, player)),
        el("td", {}, state.leg_tickets.filter((x) => x.owner === player).map((x) => camelChip(x.camel, String(x.value)))),
        el("td", { class: "num" }, String(state.money[player])))));
    document.getElementById("tickets-left").replaceChildren(...Object.entries(state.tickets_left).map(([camel, values]) =>
      camelChip(camel, `${camelName(camel)} ${values.length ? values[0] : "—"}`)));
    document.getElementById("dice-out").textContent = `${t("dice_out")}: ` + (state.dice_out.map((d) =>
      `${camelName(d.die)} ${d.value}${d.crazy ? ` (${camelName(d.crazy)})` : ""}`).join(", ") || t("none"));
    document.getElementById("piles").textContent = t("piles", { w: state.piles.winner, l: state.piles.loser });
    renderLegScoring(document.getElementById("scoring"), state, null);
    if (state.race_scoring) reveal(state.race_scoring);
    if (state.race_scoring) document.getElementById("scoring").appendChild(el("p", {}, el("a", { href: `/coach/${gameId}` }, "The coach: what each decision cost")));
    showOdds();
  }

  // The Wi-Fi to join (when the Pi is the table's hotspot) and the companion's address, as QR codes.
  api("GET", `/api/games/${gameId}/table`, token).then((info) => {
    const codes = [];
    if (info.wifi) codes.push(el("figure", {}, el("img", { class: "qr", alt: "Wi-Fi", src: `/qr.svg?data=${encodeURIComponent(info.wifi.qr)}` }),
      el("figcaption", { class: "muted" }, `Wi-Fi: ${info.wifi.ssid} / ${info.wifi.password}`)));
    codes.push(el("figure", {}, el("img", { class: "qr", alt: "companion", src: `/qr.svg?data=${encodeURIComponent(info.address)}` }),
      el("figcaption", { class: "muted" }, info.address)));
    document.getElementById("join-codes").replaceChildren(...codes);
  }).catch(() => { document.getElementById("join").hidden = true; });

  watchCamera(document.getElementById("camera"), gameId, token);

  document.getElementById("odds-toggle").addEventListener("change", showOdds);
  languageSwitch(document.getElementById("lang"), () => { revealed = null; state && render(state); });
  live(gameId, token, render, (ok) => { document.getElementById("status").textContent = ok ? "" : t("reconnecting"); });
})();
