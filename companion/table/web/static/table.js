// The table screen (TV or tablet): the race as a broadcast, readable from across the table. Read-only.
"use strict";
(() => {
  const screen = document.querySelector(".screen");
  const gameId = screen.dataset.game;
  const token = tokenFor("table", gameId);
  let state = null;
  let cameraBox = null;  // the camera box: told of each game state shown, so it never shows a verdict on an earlier one
  let odds = null;
  if (!token) { screen.replaceChildren(el("p", { class: "banner" }, t("table_no_token"))); return; }

  // The one big line: what the people at the table must do with their hands now.
  function renderBanner() {
    const banner = document.getElementById("banner");
    const now = instructionOf(state);
    const legOver = state.leg_scoring && state.last_action && state.last_action.leg_over && !state.undo && !state.game_over;
    if (!now && !legOver) { banner.hidden = true; return; }
    banner.hidden = false;
    banner.className = `banner ${now ? now.kind : "leg"}`;
    const parts = [];
    if (now && now.move) parts.push(camelIcon(now.move.camel, 86, (state.crazy_camels || []).includes(now.move.camel)));
    const words = el("div", { class: "banner-words" });
    if (now) words.appendChild(el("div", { class: "banner-main", id: "instruction" }, now.text));
    if (legOver) {
      const ranking = state.leg_scoring.ranking;
      words.appendChild(el("div", { class: "banner-sub" }, t("leg_over", { leg: state.leg_scoring.leg, first: camelName(ranking[0]), second: camelName(ranking[1]) })));
    }
    parts.push(words);
    banner.replaceChildren(...parts);
  }

  // The leg-ticket stacks as in the box: the top ticket's value, with the ones under it peeking out.
  function renderStacks() {
    const box = document.getElementById("stacks");
    box.replaceChildren(...state.racing_camels.map((camel) => {
      const left = state.tickets_left[camel];
      const pile = el("div", { class: "stack", style: `--depth:${Math.max(left.length - 1, 0)}` },
        left.length ? ticketEl(camel, left[0]) : el("span", { class: "ticket empty" }, camelIcon(camel, 38), el("span", { class: "ticket-name" }, camelName(camel)), el("b", { class: "ticket-value" }, "—")));
      const chance = odds && odds.leg[camel] ? el("div", { class: "odds" }, t("odds_first", { p: Math.round(100 * odds.leg[camel].first) })) : null;
      // The name under the pile rather than on the ticket: five piles in one row, the value as big as on the box's tickets.
      return el("div", { class: "stack-box", "aria-label": t("stack_words_tickets", { camel: camelName(camel), values: left.join(", ") || t("none") }) },
        pile, el("div", { class: "stack-name", "aria-hidden": "true" }, camelName(camel)), chance);
    }));
  }

  // Everything on one screen, whatever the number of players, the banner's length and the camera's news: when
  // the panel overflows, the details that are also on the phones give way first (the camera's list of
  // differences, the older ticker lines, the names under the piles), then the rows grow thinner, then the
  // ticker and the join code step aside; at last the players sit in two columns (the ticker back if it fits).
  // Never the players, the board, or the camera's headline and cause.
  const panel = document.getElementById("panel");
  const LEVELS = ["roomy", "snug", "tight", "tighter", "tightest", "crowded", "packed"];
  // Measured in fractions of a pixel (scrollHeight rounds): a row cut by one pixel is a row cut.
  const below = (inner, outer) => inner && inner.getBoundingClientRect().bottom > outer.getBoundingClientRect().bottom + 0.25;
  function overflowing() {
    const players = panel.querySelector(".players-box");
    const rows = [...players.querySelectorAll(".players > li")];
    return below(panel.querySelector(".foot"), panel) || rows.some((row) => below(row, players));
  }
  function fit() {
    const slot = document.getElementById("camera-slot");
    slot.style.minHeight = "";
    let level = 0;
    panel.dataset.fit = LEVELS[level];
    while (overflowing() && level < LEVELS.length - 1) panel.dataset.fit = LEVELS[++level];
    keepCameraRoom(slot);
  }
  // The camera's word changes as the game goes (agrees, waits, differs with its cause): where the panel has room to
  // spare below the players, the camera box's place keeps the height of a difference with its cause (and its list
  // where the list is shown), so the piles and the players below it stay where they are. Taken from spare room
  // only: the panel's fit is chosen without it.
  function keepCameraRoom(slot) {
    const box = document.getElementById("camera");
    // No room kept where no verdict can come (a camera reading the other edition for another game, or one that failed).
    if (box.hidden || ["other board", "other game", "released", "not checked", "no colour", "unavailable"].includes(box.dataset.state)) return;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    const listed = ["roomy", "snug"].includes(panel.dataset.fit);
    // (and the line under the cause saying what the players can do: about two lines more)
    const loudest = (listed ? 11.5 : 9) * rem;
    const height = box.getBoundingClientRect().height;
    if (height >= loudest) return;
    const foot = panel.querySelector(".foot");
    const floor = foot.offsetParent ? foot.getBoundingClientRect().top - parseFloat(getComputedStyle(panel).rowGap)
      : panel.getBoundingClientRect().bottom;
    const spare = floor - panel.querySelector(".players-box").getBoundingClientRect().bottom;
    if (spare > 0) slot.style.minHeight = `${height + Math.min(loudest - height, spare)}px`;
  }
  new MutationObserver(fit).observe(document.getElementById("camera"), { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
  window.addEventListener("resize", fit);
  if (document.fonts) document.fonts.ready.then(fit);  // an emoji font loading late changes the lines' heights

  function renderPlayers() {
    const scored = state.leg_scoring && state.last_action && state.last_action.leg_over
      ? Object.fromEntries(state.leg_scoring.players.map((p) => [p.player, p])) : {};
    const list = document.getElementById("players");
    list.dataset.count = state.players.length;  // the rows' size: fewer players, bigger rows
    list.style.setProperty("--rows", Math.ceil(state.players.length / 2));  // in two columns, when crowded
    list.replaceChildren(...state.players.map((player) => {
      const tickets = state.leg_tickets.filter((ticket) => ticket.owner === player).map((ticket) => ticketEl(ticket.camel, ticket.value, "small"));
      const pyramid = state.pyramid_tickets[player] || 0;
      const partner = partnerOf(state, player);
      const leg = scored[player];
      const current = state.next_player === player && !state.game_over;
      return el("li", { class: `player${current ? " current" : ""}`, "data-player": player },
        el("span", { class: "who" }, current ? el("span", { class: "marker", "aria-label": t("their_turn") }, "▶") : "",
          el("b", {}, el("bdi", {}, player)), (state.characters || {})[player] ? el("span", { class: "muted" }, " ", el("bdi", {}, (state.characters || {})[player])) : ""),
        el("span", { class: "held" }, partner ? el("span", { class: "partner" }, "🤝 ", el("bdi", {}, partner)) : "", tickets, pyramid ? el("span", { class: "pyramid-ticket", title: t("pyramid_tickets", { n: pyramid }) }, `▲×${pyramid}`) : ""),
        leg ? el("span", { class: "leg-delta" }, signed(leg.after - leg.before)) : "",
        el("b", { class: "num money" }, money(state.money[player])));
    }));
  }

  function renderTicker() {
    document.getElementById("ticker").replaceChildren(...state.ticker.slice(-3).reverse().map((action, index) =>
      el("li", { class: `${index ? "muted" : ""}${action.corrected_from ? " corrected" : ""}`.trim() },
        // A corrected entry: what it was entered as goes whole to a line of its own when the line is full.
        action.corrected_from ? [actionText(action), " ", el("span", { class: "correction" },
          t("ticker_corrected", { was: entryDieText(action.corrected_from) }))] : tickerText(action))));
  }

  async function loadOdds() {
    const wanted = document.getElementById("odds-toggle").checked && state && !state.game_over;
    odds = wanted ? await api("GET", `/api/games/${gameId}/odds`, token).catch(() => null) : null;
    if (state) { renderStacks(); fit(); }
  }

  function render(next) {
    if (state && next.version < state.version) return;
    const before = state;
    state = next;
    if (cameraBox) cameraBox.gameChanged(state.version);
    document.getElementById("leg").textContent = t("leg", { leg: state.leg });
    const turn = document.getElementById("turn");
    turn.textContent = state.game_over ? t("race_over") : t("turn_of", { player: playerLabel(state, state.next_player) });
    renderBoard(document.getElementById("board"), state);
    renderBanner();
    const pyramidNotice = document.getElementById("pyramid-notice");  // the dice pyramid asks for a hand
    pyramidNotice.hidden = !(state.pyramid && state.pyramid.notice);
    pyramidNotice.textContent = pyramidNoticeText(state.pyramid);
    renderCorrectionNotice(document.getElementById("correction-notice"), state);
    renderStacks();
    renderPlayers();
    renderTicker();
    fit();
    if (!before || before.version !== state.version) {
      const now = instructionOf(state);
      const news = noticeText(state) || (state.last_action ? actionText(state.last_action) : "");
      announce([news, now ? now.text : "", turn.textContent].filter(Boolean).join(". "));
      if (odds) loadOdds();
    }
    if (state.race_scoring) startReveal(state);
    if (state.game_over) followRematch(gameId, token, "table", "table");
  }

  // ---------------------------------------------------------------------------------------------------
  // The reveal: the winner pile then the loser pile, card by card, with everyone's money running; the
  // winner is named only after the last card, then the podium and the standings with their breakdowns.
  let revealFor = null;
  let revealTimer = null;
  function startReveal(end) {
    const race = end.race_scoring;
    const box = document.getElementById("reveal");
    if (revealFor === `${end.version}:${LANG}`) return;
    revealFor = `${end.version}:${LANG}`;
    clearTimeout(revealTimer);
    box.hidden = false;
    const running = Object.fromEntries(end.players.map((player) => [player, race.final_money[player] - race.cards
      .filter((card) => card.owner === player).reduce((sum, card) => sum + card.amount, 0)]));
    const top = Math.max(...Object.values(race.final_money), ...Object.values(running), 1);
    const bars = Object.fromEntries(end.players.map((player) => [player, el("div", { class: "bar-fill" })]));
    const amounts = Object.fromEntries(end.players.map((player) => [player, el("b", { class: "num" })]));
    const setMoney = () => end.players.forEach((player) => {
      bars[player].style.width = `${Math.max(2, 100 * running[player] / top)}%`;
      amounts[player].textContent = money(running[player]);
    });
    const cards = el("ol", { class: "cards", id: "reveal-cards" });
    const money_ = el("ul", { class: "running", id: "running" }, end.players.map((player) =>
      el("li", {}, el("span", { class: "who" }, player), el("div", { class: "bar" }, bars[player]), amounts[player])));
    const finale = el("div", { class: "finale", id: "finale" });
    box.replaceChildren(el("div", { class: "reveal-inner" },
      el("h2", { class: "reveal-title" }, camelIcon(race.winner, 90), t("race_result", { camel: camelName(race.winner), loser: camelName(race.loser) }),
        camelIcon(race.loser, 60)),
      el("div", { class: "reveal-grid" }, el("section", {}, el("h3", {}, t("reveal")), cards), el("section", {}, el("h3", {}, t("money_title")), money_)),
      finale));
    setMoney();
    const steps = race.cards.slice();
    const fast = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const pause = fast ? 700 : 1300;
    const turnNext = () => {
      const card = steps.shift();
      if (!card) { showFinale(end, finale); return; }
      running[card.owner] = card.after;
      cards.appendChild(el("li", { class: `card-turned ${card.right ? "right" : "wrong"}` },
        el("span", { class: "pile" }, card.pile === "winner" ? "🏆" : "🐌"), el("b", {}, card.owner), camelChip(card.camel),
        el("span", { class: "verdict" }, card.right ? t("card_right") : t("card_wrong")), el("b", { class: "num" }, signed(card.amount))));
      while (cards.children.length > 6) cards.firstChild.remove();
      setMoney();
      announce(t("card_announce", { player: card.owner, camel: camelName(card.camel), amount: signed(card.amount) }));
      revealTimer = setTimeout(turnNext, pause);
    };
    revealTimer = setTimeout(turnNext, pause);
  }

  function showFinale(end, finale) {
    const race = end.race_scoring;
    // The podium: places 1 to 3, everyone tied for a place on its step (two third places both stand on it).
    const places = new Map();
    rankedMoney(race.final_money).filter(([, , rank]) => rank <= 3).forEach(([player, amount, rank]) => {
      if (!places.has(rank)) places.set(rank, { players: [], amount });
      places.get(rank).players.push(player);
    });
    const podium = el("div", { class: "podium" }, [2, 1, 3].filter((rank) => places.has(rank)).map((rank) => {
      const { players, amount } = places.get(rank);
      return el("div", { class: `step step-${rank}` }, el("b", { class: "names" }, players.map((player) => el("bdi", {}, player))),
        el("span", {}, money(amount)), el("div", { class: "block" }, String(rank)));
    }));
    finale.replaceChildren(el("p", { class: "winners", id: "winners" }, `🏆 ${winnersText(race)}`),
      el("div", { class: "finale-grid" }, podium, standingsEl(race)),
      el("p", {}, el("a", { class: "button-link", href: `/coach/${gameId}` }, t("coach_link"))));
    document.getElementById("reveal").classList.add("done");
    announce(winnersText(race));
  }

  // The QR code joins a seat: it opens the seat picker of this game.
  api("GET", `/api/games/${gameId}/seat-picker-link`, token).then((info) => {
    document.getElementById("join-qr").src = info.qr;
    document.getElementById("join-qr").dataset.url = info.url;
    document.getElementById("join-qr").alt = t("join_hint");
    document.getElementById("join").hidden = false;
    fit();
  }).catch(() => {});

  cameraBox = watchCamera(document.getElementById("camera"), gameId, token, { tv: true });
  document.getElementById("odds-toggle").addEventListener("change", loadOdds);
  languageSwitch(document.getElementById("lang"), () => { revealFor = null; if (state) { const s = state; state = null; render(s); } });
  live(gameId, token, render, { onStatus: connectionStatus });
})();
