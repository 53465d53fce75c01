// A past game's result (from the lobby's list): final money and winners.
"use strict";
(() => {
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  async function show() {
    const { games } = await api("GET", "/api/games");
    const game = games.find((g) => g.game_id === gameId);
    const box = document.getElementById("result");
    if (!game || !game.game_over) { box.replaceChildren(el("p", {}, t("results_not_over"))); return; }
    const order = rankedMoney(game.money);
    box.replaceChildren(el("h2", {}, new Date(game.created * 1000).toLocaleString(LANG)),
      el("p", { class: "turn" }, `🏆 ${t(game.winners.length > 1 ? "winners_are" : "winner_is_player", { players: game.winners.join(", ") })}`),
      el("ol", { class: "standings" }, order.map(([player, amount, rank]) => el("li", { value: rank }, el("span", { class: "who" }, player), el("b", { class: "num" }, money(amount))))));
  }
  languageSwitch(document.getElementById("lang"), show);
  show();
})();
