// The placement assistant (the host's device only: the page's address carries the game and its host token):
// the camera's view with its findings, refreshed while the host moves the camera, and what to change.
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  const gameId = params.get("game");
  const token = params.get("token");
  const view = document.getElementById("placement-view");
  const message = document.getElementById("placement-message");
  const advice = document.getElementById("placement-advice");
  const state = document.getElementById("placement-state");
  const rows = document.querySelector("#placement-numbers tbody");
  const start = document.getElementById("placement-start");
  const startTitle = document.getElementById("placement-start-title");
  const startList = document.getElementById("placement-start-list");
  const photo = document.getElementById("placement-photo");
  const release = document.getElementById("placement-release");
  const holding = document.getElementById("placement-holder");
  const query = `game=${encodeURIComponent(gameId)}&token=${encodeURIComponent(token)}`;
  document.getElementById("placement-back").href = `/host/${encodeURIComponent(gameId)}`;
  let report = null;
  let failure = null;
  let released = false;  // this game let the camera go: the page stops asking (the view is another game's now)
  let elsewhere = false;  // another game holds the camera: nothing here to let go
  let holdingGame = null;  // that game, as the lobby names it (players, board, when it began and was last played)
  // A new picture only once the last one has arrived: on a slow device (or a busy Pi) a picture that takes
  // longer than the refresh would otherwise be replaced before it ever shows (a stalled one is given up after 15 s).
  let loading = 0;
  view.addEventListener("load", () => { loading = 0; });
  view.addEventListener("error", () => { loading = 0; });

  // Which advice (catalog keys) speaks about which row of numbers.
  const ROW_KEYS = {
    distance: ["placement.too_near", "placement.too_far"],
    elevation: ["placement.too_low", "placement.too_steep"],
    azimuth: ["placement.turned", "placement.wrong_side"],
    margin: ["placement.marker_outside", "placement.marker_near_edge", "placement.marker_edge_px"],
    camels: ["placement.camels_small"],
    sharpness: ["placement.blurred", "placement.whole_blurred", "placement.whole_featureless"],
    exposure: ["placement.too_dark", "placement.too_noisy", "placement.overexposed", "placement.whole_too_dark",
      "placement.whole_overexposed", "placement.whole_black"],
  };

  // A figure to a tenth, written as the page's language writes it (12.3, 12,3).
  const tenths = (n) => new Intl.NumberFormat(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);
  // A number stays on one line with its unit (a narrow phone wraps the words between them).
  const keep = (text) => text.replace(/(\d) /g, "$1\u00a0");

  const said = (name) => report.change_keys && (ROW_KEYS[name] || []).some((key) => report.change_keys.includes(key));

  // outside: the figure shown is outside the aim. Marked "to change" only with advice about it; else it is within
  // what the markers can measure (vision allows for that) and says so, so a figure and its verdict never disagree.
  function row(name, now, aim, outside = false) {
    const bad = said(name);
    const note = bad ? ` — ${t("placement_bad")}` : outside ? ` — ${t("placement_near")}` : "";
    return el("tr", { class: bad ? "bad" : "" }, el("th", { scope: "row" }, t(`placement_row_${name}`)),
      el("td", {}, now === null ? t("placement_unknown") : keep(now), note ? el("b", {}, note) : ""),
      el("td", {}, keep(aim)));
  }

  function numbers() {
    const g = report.guidance;
    const p = report.pose;
    const cm = (mm) => t("placement_cm", { n: Math.round(mm / 10) });
    const sine = (deg) => Math.sin((deg * Math.PI) / 180);
    // The least room any marker has, found or where a missing one should be (below 0: outside the picture).
    const edges = Object.values(report.markers).map((m) => m.edge_px).filter((px) => px !== undefined);
    const room = edges.length ? Math.min(...edges) : null;
    // The figures as vision judges them (vision.guidance.shown_*): whole cm and degrees, camels to 0.1 px.
    const distance = p ? Math.round(p.distance_mm / 10) : null;
    const height = p ? Math.round(p.height_mm / 10) : null;
    const elevation = p ? Math.round(p.elevation_deg) : null;
    const azimuth = p ? Math.round(Math.abs(p.azimuth_deg)) : null;
    const heights = [Math.round((g.distance_mm[0] / 10) * sine(g.elevation_deg[0])),
      Math.round((g.distance_mm[1] / 10) * sine(g.elevation_deg[1]))];
    const out = (value, low, high) => value !== null && (value < low || value > high);
    const camels = report.camel_px;
    // The picture itself (vision.focus): its marker edges' width and its white paper, against the reader's limits.
    const picture = report.picture && report.picture.edge_px !== null ? report.picture : null;
    const limits = picture ? picture.limits : null;
    // No marker to measure on: the same two figures measured on the whole picture (vision.focus.measure_whole),
    // said to be so, against the whole picture's own limits.
    const whole = !picture && report.whole_picture ? report.whole_picture : null;
    const sharpness = picture ? t("placement_px", { n: tenths(picture.edge_px) })
      : whole ? (whole.edge_px === null ? t("placement_whole_no_edge") : t("placement_whole_px", { n: tenths(whole.edge_px) }))
        : null;
    const exposure = picture ? t("placement_paper", { n: picture.white, clipped: Math.round(100 * picture.clipped) })
      : whole ? t("placement_whole_bright", { n: whole.bright, clipped: Math.round(100 * whole.clipped) }) : null;
    return [
      row("distance", p ? cm(p.distance_mm) : null,
        t("placement_cm_span", { low: g.distance_mm[0] / 10, high: g.distance_mm[1] / 10 }),
        out(distance, g.distance_mm[0] / 10, g.distance_mm[1] / 10)),
      // The height follows from the distance and the angle: outside its span it is what those rows say.
      row("height", p ? cm(p.height_mm) : null, t("placement_cm_span", { low: heights[0], high: heights[1] }),
        out(height, heights[0], heights[1]) && !said("distance") && !said("elevation")),
      row("elevation", p ? t("placement_deg", { n: elevation }) : null,
        t("placement_deg_span", { low: g.elevation_deg[0], high: g.elevation_deg[1] }),
        out(elevation, g.elevation_deg[0], g.elevation_deg[1])),
      row("azimuth", p ? t("placement_deg", { n: azimuth }) : null,
        t("placement_within_deg", { n: g.azimuth_deg }), out(azimuth, 0, g.azimuth_deg)),
      row("margin", room === null ? null : room < 0 ? t("placement_off_picture") : t("placement_px", { n: Math.floor(room) }),
        t("placement_least_px", { n: g.margin_px })),
      // The smallest a camel looks, and on which space (from a camera looking down, often the nearest one).
      row("camels", camels ? t("placement_px_on_space", { n: tenths(camels.smallest), space: camels.space }) : null,
        t("placement_least_px", { n: g.min_camel_px })),
      row("sharpness", sharpness, limits ? t("placement_most_px", { n: tenths(limits.edge_px) })
        : whole ? t("placement_most_px", { n: tenths(whole.limits.edge_px) }) : ""),
      row("exposure", exposure, limits ? t("placement_paper_aim", { n: limits.white, clipped: Math.round(100 * limits.clipped) })
        : whole ? t("placement_paper_aim", { n: whole.limits.bright, clipped: Math.round(100 * whole.limits.clipped) }) : ""),
    ];
  }

  // Where to start this camera (the README's per-camera table), beside the wider span the checks allow: this
  // camera's when the companion knows it (a Pi camera's sensor, a webcam), else each camera's, one line each.
  function renderStart() {
    const hint = report.start;
    start.hidden = !hint;
    if (!hint) return;
    const words = (p) => keep(t("placement_start_span", {
      distance: p.distance_cm[0] === p.distance_cm[1] ? t("placement_cm", { n: p.distance_cm[0] })
        : t("placement_cm_span", { low: p.distance_cm[0], high: p.distance_cm[1] }),
      also: p.also.map((a) => t("placement_start_also", { n: a.cm, low: a.angle_deg[0], high: a.angle_deg[1] })).join(""),
      low: p.angle_deg[0], high: p.angle_deg[1] }));
    const cameras = Object.entries(hint.positions);
    const known = hint.camera && cameras.length === 1;
    startTitle.textContent = hint.camera === "cm3_wide" ? t("placement_start_wide")
      : known ? t("placement_start_known", { camera: t(`placement_camera.${hint.camera}`) }) : t("placement_start_any");
    startList.replaceChildren(...cameras.map(([id, p]) => el("li", {},
      known ? words(p) : labelled(t(`placement_camera.${id}`), words(p)))));
  }

  function render() {
    for (const id of ["placement-release-how", "placement-release-button"]) document.getElementById(id).hidden = released;
    for (const id of ["placement-released", "placement-take"]) document.getElementById(id).hidden = !released;
    photo.hidden = released || elsewhere;
    holding.hidden = !(elsewhere && holdingGame);
    holding.textContent = elsewhere && holdingGame ? holderText(holdingGame) : "";
    release.hidden = elsewhere && !released;
    // Let go: the view, its findings and numbers are another game's now (the page says so and offers it back).
    for (const part of [view, advice]) part.closest("section").hidden = released;
    if (released) {
      rows.closest("section").hidden = true;
      state.textContent = "";
      return;
    }
    // "unavailable" (the camera's error) and "unreadable" (what is wrong with its latest picture) say why.
    const live = report && !["off", "waiting", "unavailable", "unreadable"].includes(report.state) && !failure;
    view.alt = t("placement_view_alt");
    view.hidden = !live;
    message.hidden = live;
    rows.closest("section").hidden = !live;
    if (!live) {
      state.textContent = "";
      const why = report && report.message && ["unavailable", "unreadable"].includes(report.state);
      message.replaceChildren(failure || (why ? serverWords(report.message)
        : report && t(report.state === "off" ? "placement_off" : "placement_waiting")) || "");
      advice.replaceChildren();
      return;
    }
    state.textContent = report.ok ? t("placement_state_ok") : t("placement_state_advice", { n: report.changes.length });
    state.className = `status ${report.ok ? "ok" : "advice"}`;
    const other = report.changes_language !== LANG ? report.changes_language : null;
    advice.replaceChildren(...(report.ok ? [el("li", { class: "ok" }, t("placement_ok"))]
      : report.changes.map((text) => el("li", { lang: other }, text))));
    rows.replaceChildren(...numbers());
    renderStart();
  }

  async function refresh() {
    if (released) return render();
    try {
      report = await api("GET", `/camera/placement?frame=json&game=${encodeURIComponent(gameId)}&lang=${LANG}`, token);
      failure = null;
      elsewhere = false;
    } catch (error) {
      released = error.code === "CameraReleased";  // let go from the host's page meanwhile
      elsewhere = error.code === "CameraOtherGame";
      holdingGame = (error.body && error.body.holder) || null;
      // Another game took the camera (this one let it go, or was left): how that game frees it, in the page's words.
      failure = error.status === 401 || error.status === 403 ? t("camera_view_bad_token")
        : error.code === "CameraOtherGame" ? t("camera.other game") : t("placement_no_answer");
    }
    render();
    if (!view.hidden && Date.now() - loading > 15000) {
      loading = Date.now();
      view.src = `/camera/placement?frame=jpg&${query}&t=${Date.now()}`;
    }
  }
  // Done placing: the camera is let go for the game that will be played (its pages take it at their next look), or
  // asked for again.
  async function holder(path) {
    try {
      await api("POST", `/api/games/${encodeURIComponent(gameId)}/camera/${path}`, token);
      released = path === "release";
      if (!released) toast(t("camera_taken_toast"), "ok");
    } catch (error) {
      toast(error.body && error.body.holder ? `${error.message} ${holderText(error.body.holder)}` : error.message);
    }
    refresh();
  }
  document.getElementById("placement-release-button").addEventListener("click", () => holder("release"));
  document.getElementById("placement-take").addEventListener("click", () => holder("take"));
  // The calibration photo: a full-resolution still, kept on the companion (for `camelup vision calibrate` there)
  // and downloaded to this device.
  const take = document.getElementById("placement-photo-take");
  const photoSaid = document.getElementById("placement-photo-said");
  take.addEventListener("click", async () => {
    take.disabled = true;
    photoSaid.hidden = false;
    photoSaid.textContent = t("placement_photo_taking");
    try {
      const response = await fetch(`/camera/placement?frame=still&${query}`, { headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(await response.text());
      const blob = await response.blob();
      const name = (/filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "") || [])[1] || "camelup-calibration.jpg";
      const link = el("a", { href: URL.createObjectURL(blob), download: name });
      document.body.append(link);
      link.click();
      link.remove();
      const saved = response.headers.get("X-Saved-As");
      photoSaid.textContent = saved ? t("placement_photo_saved", { path: saved, size: response.headers.get("X-Picture-Size") || "",
          board: response.headers.get("X-Board") || "2018" })
        : t("placement_photo_sent", { size: response.headers.get("X-Picture-Size") || "" });
    } catch (error) {
      // Why, in the server's words: marked as English on another language's page (screen readers say it right).
      photoSaid.replaceChildren(...labelledWhy(t("placement_photo_failed", { why: "\u0001" }), error.message));
    } finally {
      take.disabled = false;
    }
  });
  function labelledWhy(words, why) {
    const [before, after] = words.split("\u0001");
    return [before, serverWords(why), after];
  }
  languageSwitch(document.getElementById("lang"), refresh);
  refresh();
  setInterval(refresh, 2000);
})();
