// The seat picker (from the table screen's QR code): tap your name, and this phone becomes your seat.
"use strict";
(() => {
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  const key = tokenFor("picker", gameId);
  const list = document.getElementById("seat-list");
  async function show() {
    try {
      const seats = await api("GET", `/api/games/${gameId}/seat-picker?key=${encodeURIComponent(key || "")}`);
      list.replaceChildren(...seats.players.map((player) => el("button", { class: "seat-button", type: "button", onclick: async () => {
        try { location.href = (await api("POST", `/api/games/${gameId}/seat-picker`, null, { key, player })).join_url; }
        catch (error) { toast(error.message); }
      } }, player, seats.characters[player] ? el("span", { class: "muted" }, ` · ${seats.characters[player]}`) : "")));
    } catch (error) { list.replaceChildren(el("p", {}, t("pick_bad_link"))); }
  }
  languageSwitch(document.getElementById("lang"), show);
  show();
})();
