// The actions the engine allows now, as buttons: shared by the phone and the scorekeeper (host) page.
// `send` returns a promise; every control is disabled while an action is on its way, so a double tap sends
// one action, not one action and a refusal.
//
// The page draws the same game state more than once (its own tap's answer, then the live update of it, late on a
// busy table; a reconnection's read; the pyramid's notice): drawing it again keeps what the player has chosen in
// the lists (a die picked, then "green 1" sent instead), and an action on its way keeps the controls disabled.
"use strict";

function renderControls(container, state, send) {
  const sameState = container.dataset.version === String(state.version);
  const chosen = sameState ? [...container.querySelectorAll("select[id]")].map((list) => [list.id, list.value]) : [];
  container.dataset.version = state.version;
  container.replaceChildren();
  const legal = state.legal;
  if (state.game_over) { container.appendChild(el("p", { class: "turn" }, t("race_over"))); return; }
  if (!legal) { container.appendChild(el("p", { class: "muted" }, t("waiting", { player: state.next_player }))); return; }
  const disable = (yes) => container.querySelectorAll("button, select").forEach((control) => { control.disabled = yes; });
  const go = (action) => {
    container.dataset.sending = "yes";
    disable(true);
    // Settled: the answer (or the game read again after a refusal) is drawn already; its controls come alive.
    return Promise.resolve(send(action)).finally(() => { delete container.dataset.sending; disable(false); });
  };

  // Draw: the pyramid draws by itself, or the players say what the die showed.
  if (state.dice_mode === "pyramid") {
    container.appendChild(el("button", { class: "primary", id: "draw", type: "button", onclick: () => go({ type: "pyramid" }) },
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
      el("button", { class: "primary", id: "record-roll", type: "button", onclick: () => {
        const action = { type: "pyramid", die: die.value, value: Number(value.value) };
        if (die.value === "grey") action.crazy = colour.value;
        go(action);
      } }, t("record_roll"))));
  }

  // Leg tickets: the top ticket of each colour still available, drawn as the ticket itself.
  if (legal.leg_bets.length) {
    container.appendChild(el("h2", {}, t("leg_bets")));
    container.appendChild(el("div", { class: "grid" }, legal.leg_bets.map((bet) =>
      el("button", { class: "bet", type: "button", "data-camel": bet.camel, "aria-label": t("take_ticket", { camel: camelName(bet.camel), value: bet.value }),
        onclick: () => go({ type: "leg_bet", camel: bet.camel }) }, ticketEl(bet.camel, bet.value)))));
  }

  // The tile: any legal space, either side.
  if (legal.tile_spots.length) {
    const spaces = [...new Set(legal.tile_spots.map((spot) => spot[0]))];
    const space = el("select", { id: "tile-space", "aria-label": t("space") }, spaces.map((s) => el("option", { value: s }, `${t("space")} ${s}`)));
    const side = el("select", { id: "tile-side", "aria-label": t("side") }, (state.tile_sides || []).map((s) => el("option", { value: s }, t(s))));
    container.appendChild(el("h2", {}, state.you ? t("tile") : t("tile_of", { player: legal.player })));
    container.appendChild(el("div", { class: "row" }, space, side,
      el("button", { id: "place-tile", type: "button", onclick: () => go({ type: "spectator", space: Number(space.value), side: side.value }) }, t("place_tile"))));
  }

  // Finish cards: a seat sees its own hand; the scorekeeper enters whatever the player names.
  // A seat whose phone has joined plays its cards from that phone (the server refuses the scorekeeper).
  const fromPhone = !state.you && (state.joined || []).includes(legal.player);
  const hand = fromPhone ? [] : Array.isArray(legal.finish_cards) ? legal.finish_cards : (legal.finish_cards > 0 ? state.racing_camels : []);
  if (fromPhone && legal.finish_cards > 0) {
    container.appendChild(el("h2", {}, t("finish_cards")));
    container.appendChild(el("p", { class: "muted" }, t("cards_from_phone", { player: legal.player })));
  }
  if (hand.length) {
    const camel = el("select", { id: "card-camel", "aria-label": t("finish_cards") }, hand.map((c) => el("option", { value: c }, camelName(c))));
    const play = (pile) => {
      if (confirm(t("confirm_card", { camel: camelName(camel.value), pile: pileName(pile) })))
        go({ type: "finish_bet", pile, camel: camel.value });
    };
    container.appendChild(el("h2", {}, t("finish_cards")));
    container.appendChild(el("div", { class: "row" }, camel,
      el("button", { id: "card-winner", type: "button", onclick: () => play("winner") }, `🏆 ${t("winner_pile")}`),
      el("button", { id: "card-loser", type: "button", onclick: () => play("loser") }, `🐌 ${t("loser_pile")}`)));
  }

  // A partnership lasts the leg: it asks first.
  if (legal.partners.length) {
    container.appendChild(el("h2", {}, t("partnership")));
    container.appendChild(el("div", { class: "row" }, legal.partners.map((p) =>
      el("button", { type: "button", class: "partner-button", "data-partner": p, onclick: () => {
        if (confirm(t("confirm_partnership", { player: p }))) go({ type: "partnership", with: p });
      } }, t("partner_with", { player: p })))));
  }

  for (const [id, value] of chosen) {
    const list = container.querySelector(`select#${id}`);
    if (!list || ![...list.options].some((option) => option.value === value)) continue;  // no longer a choice
    list.value = value;
    list.dispatchEvent(new Event("change"));  // what follows the list (the grey die's colour) follows it again
  }
  if (container.dataset.sending) disable(true);
}
