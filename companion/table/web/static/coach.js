// The coach page: one request to /api/games/<id>/coach, then a card per player, in the page's language.
"use strict";
(() => {
  const main = document.getElementById("coach");
  const gameId = main.dataset.game;
  const token = ["seat", "table", "host"].map((kind) => localStorage.getItem(`camelup:${kind}:${gameId}`)).find(Boolean);
  const status = document.getElementById("coach-status");
  const number = (x) => x.toLocaleString(LANG, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const signed = (x) => (x >= 0 ? "+" : "−") + number(Math.abs(x));
  let report = null;
  let problem = null;

  // An option in words from its data (the coach's English words when it comes without data).
  function choiceText(option) {
    const c = option.choice || {};
    if (c.type === "pyramid") return t("coach.choice.pyramid");
    if (c.type === "leg_bet") return t("coach.choice.leg_bet", { camel: camelName(c.camel), value: c.value });
    if (c.type === "spectator") return t("coach.choice.spectator", { space: c.space, side: t(c.side) });
    if (c.type === "partnership") return t("coach.choice.partnership", { partner: c.partner });
    if (c.type === "finish_bet") return t("coach.choice.finish_bet", { camel: camelName(c.camel), pile: pileName(c.pile) });
    return option.what;
  }

  function bar(cost, worst) {
    const width = worst > 0 ? Math.round((100 * cost) / worst) : 0;
    return el("span", { class: "coach-bar", style: `display:inline-block;height:0.7em;background:#b5542c;width:${width}px` });
  }

  function costly(d) {
    return t("coach_costly", { leg: d.leg, index: d.index, player: d.player, done: choiceText(d.done),
      done_ev: signed(d.done.ev), best: choiceText(d.best), best_ev: signed(d.best.ev) });
  }

  function card(player, decisions, worst) {
    const rows = decisions.map((d) => el("tr", {},
      el("td", { class: "num" }, String(d.leg)),
      el("td", {}, choiceText(d.done), " ", signed(d.done.ev), d.done.ev_95 ? ` ±${number(d.done.ev_95)}` : ""),
      el("td", {}, d.cost > 1e-9 ? `${choiceText(d.best)} ${signed(d.best.ev)}` : t("coach_best_choice")),
      el("td", { class: "num" }, number(d.cost), " ", bar(d.cost, worst))));
    // The costliest decisions, as many as the coach lists, from the decisions themselves (worded here).
    const worstOnes = decisions.filter((d) => d.cost > 1e-9).sort((a, b) => b.cost - a.cost)
      .slice(0, player.most_expensive.length);
    return el("article", { class: "card" },
      el("h2", {}, player.player),
      el("p", {}, t("coach_total", { cost: number(player.total_cost), decisions: player.decisions }), " ",
        t("coach_luck", { choices: signed(player.ev_of_choices), won: signed(player.final_money - player.start_money),
          luck: signed(player.luck) })),
      worstOnes.length ? el("ol", {}, worstOnes.map((d) => el("li", {}, costly(d)))) : el("p", {}, t("coach_no_costly")),
      el("details", {}, el("summary", {}, t("coach_every")),
        el("table", {}, el("thead", {}, el("tr", {}, ...["leg", "done", "best", "cost"].map((c) =>
          el("th", { scope: "col", class: c === "leg" || c === "cost" ? "num" : null }, t(`coach_col_${c}`))))),
          el("tbody", {}, rows))));
  }

  function render() {
    if (problem) { status.textContent = typeof problem === "function" ? problem() : problem; return; }
    if (!report) { status.textContent = t("coach_working"); return; }
    const worst = Math.max(0, ...report.decisions.map((d) => d.cost));
    const players = Object.values(report.players).sort((a, b) => a.total_cost - b.total_cost);
    document.getElementById("coach-players").replaceChildren(...players.map((player) =>
      card(player, report.decisions.filter((d) => d.player === player.player), worst)));
    status.textContent = t("coach_footer", { rollouts: report.rollouts.toLocaleString(LANG), seed: report.seed });
  }

  languageSwitch(document.getElementById("lang"), render);
  if (!token) { problem = () => t("coach_no_token"); render(); return; }
  render();
  api("GET", `/api/games/${gameId}/coach`, token).then((data) => { report = data; render(); })
    .catch((error) => { problem = error.message; render(); });
})();
