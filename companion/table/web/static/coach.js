// The coach page: one request to /api/games/<id>/coach, then a card per player.
(function () {
  const main = document.getElementById("coach");
  const gameId = main.dataset.game;
  const token = ["seat", "table", "host"].map((kind) => localStorage.getItem(`camelup:${kind}:${gameId}`)).find(Boolean);
  const status = document.getElementById("coach-status");
  const signed = (x) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(2);

  function bar(cost, worst) {
    const width = worst > 0 ? Math.round((100 * cost) / worst) : 0;
    return el("span", { class: "coach-bar", style: `display:inline-block;height:0.7em;background:#b5542c;width:${width}px` });
  }

  function card(player, decisions, worst) {
    const rows = decisions.map((d) => el("tr", {},
      el("td", { class: "num" }, String(d.leg)),
      el("td", {}, d.done.what, " ", signed(d.done.ev), d.done.ev_95 ? ` ±${d.done.ev_95.toFixed(2)}` : ""),
      el("td", {}, d.cost > 1e-9 ? `${d.best.what} ${signed(d.best.ev)}` : "best choice"),
      el("td", { class: "num" }, d.cost.toFixed(2), " ", bar(d.cost, worst))));
    return el("article", { class: "card" },
      el("h2", {}, player.player),
      el("p", {}, `Total cost ${player.total_cost.toFixed(2)} coins over ${player.decisions} decisions. `,
        `Choices worth ${signed(player.ev_of_choices)}, money won ${signed(player.final_money - player.start_money)}: `,
        `luck ${signed(player.luck)}.`),
      player.most_expensive.length ? el("ol", {}, player.most_expensive.map((text) => el("li", {}, text))) : el("p", {}, "No costly decision."),
      el("details", {}, el("summary", {}, "Every decision"),
        el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "leg"), el("th", {}, "done"), el("th", {}, "best"), el("th", {}, "cost"))),
          el("tbody", {}, rows))));
  }

  if (!token) { status.textContent = "Open the coach from your phone or the table screen of this game."; return; }
  api("GET", `/api/games/${gameId}/coach`, token).then((report) => {
    const worst = Math.max(0, ...report.decisions.map((d) => d.cost));
    const players = Object.values(report.players).sort((a, b) => a.total_cost - b.total_cost);
    document.getElementById("coach-players").replaceChildren(...players.map((player) =>
      card(player, report.decisions.filter((d) => d.player === player.player), worst)));
    status.textContent = `Finish cards valued from ${report.rollouts} race rollouts (seed ${report.seed}); ± is the 95% interval.`;
  }).catch((error) => { status.textContent = error.message; });
})();
