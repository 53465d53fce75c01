// The actions the engine allows now, as buttons: shared by the phone and the scorekeeper (host) page.
"use strict";

function renderControls(container, state, send) {
  container.replaceChildren();
  const legal = state.legal;
  if (state.game_over) { container.appendChild(el("p", { class: "turn" }, t("race_over"))); return; }
  if (!legal) { container.appendChild(el("p", { class: "muted" }, t("waiting", { player: state.next_player }))); return; }

  // Draw: the pyramid draws by itself, or the players say what the die showed.
  if (state.dice_mode === "pyramid") {
    container.appendChild(el("button", { class: "primary", id: "draw", onclick: () => send({ type: "pyramid" }) },
      `🎲 ${t("draw")}`));
    container.appendChild(el("p", { class: "muted" }, t("draw_hint")));
  } else {
    const die = el("select", { id: "die", "aria-label": t("die") }, legal.dice.map((d) => el("option", { value: d }, camelName(d))));
    const value = el("select", { id: "value", "aria-label": t("value") }, [1, 2, 3].map((v) => el("option", { value: v }, String(v))));
    const colour = el("select", { id: "crazy", "aria-label": t("colour") },
      (state.crazy_camels || []).map((c) => el("option", { value: c }, camelName(c))));
    const colourRow = el("span", {}, colour);
    const syncColour = () => { colourRow.hidden = die.value !== "grey"; };
    die.addEventListener("change", syncColour);
    syncColour();
    container.appendChild(el("h2", {}, t("manual_roll")));
    container.appendChild(el("div", { class: "row" }, die, value, colourRow,
      el("button", { class: "primary", id: "record-roll", onclick: () => {
        const action = { type: "pyramid", die: die.value, value: Number(value.value) };
        if (die.value === "grey") action.crazy = colour.value;
        send(action);
      } }, t("record_roll"))));
  }

  // Leg tickets: the top ticket of each colour still available, with its printed value.
  if (legal.leg_bets.length) {
    container.appendChild(el("h2", {}, t("leg_bets")));
    container.appendChild(el("div", { class: "grid" }, legal.leg_bets.map((bet) =>
      el("button", { class: "bet", "data-camel": bet.camel, style: `background:${CAMEL_COLOURS[bet.camel]};color:${TEXT_ON[bet.camel] || "#fff"}`,
        onclick: () => send({ type: "leg_bet", camel: bet.camel }) },
        camelName(bet.camel), el("small", {}, `${bet.value} EP`)))));
  }

  // The tile: any legal space, either side.
  if (legal.tile_spots.length) {
    const spaces = [...new Set(legal.tile_spots.map((spot) => spot[0]))];
    const space = el("select", { id: "tile-space", "aria-label": t("space") }, spaces.map((s) => el("option", { value: s }, `${t("space")} ${s}`)));
    const side = el("select", { id: "tile-side", "aria-label": t("side") }, (state.tile_sides || []).map((s) => el("option", { value: s }, t(s))));
    container.appendChild(el("h2", {}, t("tile")));
    container.appendChild(el("div", { class: "row" }, space, side,
      el("button", { id: "place-tile", onclick: () => send({ type: "spectator", space: Number(space.value), side: side.value }) }, t("place_tile"))));
  }

  // Finish cards: a seat sees its own hand; the scorekeeper enters whatever the player names.
  const hand = Array.isArray(legal.finish_cards) ? legal.finish_cards : (legal.finish_cards > 0 ? state.racing_camels : []);
  if (hand.length) {
    const camel = el("select", { id: "card-camel", "aria-label": t("finish_cards") }, hand.map((c) => el("option", { value: c }, camelName(c))));
    const play = (pile) => {
      const label = pile === "winner" ? t("winner_pile") : t("loser_pile");
      if (confirm(t("confirm_card", { camel: camelName(camel.value), pile: label })))
        send({ type: "finish_bet", pile, camel: camel.value });
    };
    container.appendChild(el("h2", {}, t("finish_cards")));
    container.appendChild(el("div", { class: "row" }, camel,
      el("button", { id: "card-winner", onclick: () => play("winner") }, `🏆 ${t("winner_pile")}`),
      el("button", { id: "card-loser", onclick: () => play("loser") }, `🐌 ${t("loser_pile")}`)));
  }

  if (legal.partners.length) {
    container.appendChild(el("h2", {}, t("partnership")));
    container.appendChild(el("div", { class: "row" }, legal.partners.map((p) =>
      el("button", { onclick: () => send({ type: "partnership", with: p }) }, t("partner_with", { player: p })))));
  }
}

