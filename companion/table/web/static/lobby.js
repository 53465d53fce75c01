// The lobby: create a game (the host), list past games, import a game log.
"use strict";
(() => {
  // Camel names as typed, in any of the catalogs' languages ("vert" or "green"), to the game's camel ids.
  function camelId(word) {
    const lower = word.toLowerCase();
    for (const catalog of Object.values(CATALOGS)) {
      for (const [key, name] of Object.entries(catalog)) if (key.startsWith("camel.") && name.toLowerCase() === lower) return key.slice(6);
    }
    return lower;
  }
  function parseSetup(text) {
    // "1: green red; 3: yellow blue purple" → {"track": {"1": ["green", "red"], ...}} (bottom first)
    const track = {};
    for (const part of text.split(";").map((p) => p.trim()).filter(Boolean)) {
      const [space, camels] = part.split(":");
      if (!camels) throw Object.assign(new Error(t("setup_bad", { part })), { code: "setup" });  // worded here
      track[space.trim()] = camels.trim().split(/[\s,]+/).filter(Boolean).map(camelId);
    }
    return { track };
  }

  document.getElementById("create").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    // One player per line: "Ann" or "Ann (character)".
    const lines = form.get("players").split("\n").map((p) => p.trim()).filter(Boolean);
    const parsed = lines.map((line) => line.match(/^(.*?)\s*(?:\((.+)\))?$/));
    const body = {
      edition: form.get("edition"),
      players: parsed.map((m) => m[1].trim()),
      characters: Object.fromEntries(parsed.filter((m) => m[2]).map((m) => [m[1].trim(), m[2].trim()])),
      dice: form.get("dice"),
    };
    try {
      if (form.get("setup").trim()) body.setup = parseSetup(form.get("setup"));
      const game = await api("POST", "/api/games", null, body);
      location.href = `/host/${game.game_id}#${game.host_token}`;
    } catch (error) { toast(LANG === "en" || error.code ? error.message : t("create_refused")); }
  });

  // The starting positions shown in full under the field, a space a line, and the camels the camera did not see
  // (the field is marked incomplete until the host edits it).
  const setupField = document.getElementById("create").elements.setup;
  const setupParts = document.getElementById("setup-parts");
  const setupUnseen = document.getElementById("setup-unseen");
  function showParts() {
    const parts = setupField.value.split(";").map((part) => part.trim()).filter(Boolean);
    setupParts.replaceChildren(...parts.map((part) => el("li", {}, part)));
    setupParts.hidden = parts.length < 2;
  }
  function fillSetup(setup, unseen) {
    setupField.value = Object.entries(setup.track).map(([space, stack]) => `${space}: ${stack.map(camelName).join(" ")}`).join("; ");
    setupUnseen.textContent = unseen.length ? t("read_camera_unseen", { camels: unseen.map(camelName).join(", ") }) : "";
    setupUnseen.hidden = !unseen.length;
    if (unseen.length) setupField.setAttribute("aria-invalid", "true");
    else setupField.removeAttribute("aria-invalid");
    showParts();
  }
  setupField.addEventListener("input", () => {
    setupUnseen.hidden = true;
    setupField.removeAttribute("aria-invalid");
    showParts();
  });

  // With a camera beside the board, the starting positions can be read instead of typed.
  const readCamera = document.getElementById("read-camera");
  api("GET", "/api/camera").then((camera) => { readCamera.hidden = camera.state === "off"; }).catch(() => {});
  // A board just set up (or a hand just taken off it) is steady a few frames later: the button waits for that,
  // showing that it reads, before it gives up and says to try again.
  const READ_WAIT_MS = 12000;
  const READ_POLL_MS = 600;
  readCamera.addEventListener("click", async () => {
    if (readCamera.disabled) return;
    readCamera.disabled = true;
    readCamera.setAttribute("aria-busy", "true");
    readCamera.textContent = t("read_camera_busy");
    const deadline = Date.now() + READ_WAIT_MS;
    try {
      for (;;) {
        try {
          // Read as the edition chosen: the camera switches to that edition's board and colours first.
          const form = document.getElementById("create");
          const { edition, setup } = await api("GET", `/api/camera/setup?edition=${encodeURIComponent(form.elements.edition.value)}`);
          form.elements.edition.value = edition;
          fillSetup(setup, []);
          return;
        } catch (error) {
          if (error.code === "CameraIncomplete" && error.body && error.body.setup) {
            // What it saw goes in; the camels it did not see are named under the field, for the host to add.
            document.getElementById("create").elements.edition.value = error.body.edition;
            fillSetup(error.body.setup, error.body.unseen || []);
            return;
          }
          if (error.code !== "CameraNotReady" || Date.now() >= deadline) {
            // A game of the other edition holds the camera: which one, as listed below (its host can release it).
            const holding = error.body && error.body.holder ? ` ${holderText(error.body.holder)}` : "";
            toast(error.code === "CameraNotReady" ? t("read_camera_again", { why: error.message }) : error.message + holding);
            return;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, READ_POLL_MS));
      }
    } finally {
      readCamera.disabled = false;
      readCamera.removeAttribute("aria-busy");
      readCamera.textContent = t("read_camera");
    }
  });

  document.getElementById("import").addEventListener("change", async (event) => {
    try {
      const log = JSON.parse(await event.target.files[0].text());
      const game = await api("POST", "/api/import", null, log);
      location.href = `/host/${game.game_id}#${game.host_token}`;
    } catch (error) { toast(error.message); }
  });

  // Past games are links: the host page where this device hosts the game, the result once it is over.
  function showGames() {
    api("GET", "/api/games").then(({ games }) => {
      document.getElementById("games").replaceChildren(...games.map((game) => {
        const hosted = localStorage.getItem(`camelup:host:${game.game_id}`);
        const label = `${new Date(game.created * 1000).toLocaleString(LANG)} · ${game.edition} · ${game.players.join(", ")} · ` +
          (game.game_over ? `🏆 ${game.winners.join(", ")}` : t("leg", { leg: game.leg }));
        const href = hosted ? `/host/${game.game_id}` : game.game_over ? `/results/${game.game_id}` : null;
        return el("li", {}, href ? el("a", { href }, label) : el("span", { class: "muted" }, `${label} · ${t("hosted_elsewhere")}`));
      }));
    }).catch(() => {});
  }
  showGames();
  languageSwitch(document.getElementById("lang"), showGames);
})();
