// The placement assistant: the camera's view with its findings, refreshed while the builder moves the camera.
"use strict";
(() => {
  const view = document.getElementById("placement-view");
  const advice = document.getElementById("placement-advice");
  const numbers = document.getElementById("placement-numbers");
  const state = document.getElementById("placement-state");

  function item(text) {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }

  async function refresh() {
    try {
      const response = await fetch("/camera/placement?frame=json", { cache: "no-store" });
      const report = await response.json();
      if (report.state === "off" || report.state === "waiting") {
        state.textContent = report.message;
        advice.replaceChildren(item(report.message));
        view.hidden = true;
        return;
      }
      view.hidden = false;
      view.src = `/camera/placement?frame=jpg&t=${Date.now()}`;
      state.textContent = report.ok ? "the camera is well placed" : `${report.advice.length} thing(s) to change`;
      advice.replaceChildren(...(report.ok ? [item("Nothing: the camera is well placed.")] : report.advice.map(item)));
      const g = report.guidance;
      const pose = report.pose
        ? `Now: ${(report.pose.distance_mm / 10).toFixed(0)} cm from the board's middle, ` +
          `${(report.pose.height_mm / 10).toFixed(0)} cm high, ${report.pose.elevation_deg.toFixed(0)}° down, ` +
          `${report.pose.azimuth_deg.toFixed(0)}° round; camels ${report.camel_px.smallest.toFixed(0)} px tall. `
        : "";
      numbers.textContent = pose + `Aim for ${g.distance_mm[0] / 10}–${g.distance_mm[1] / 10} cm, ` +
        `${g.elevation_deg[0]}–${g.elevation_deg[1]}° down, within ${g.azimuth_deg}° of straight on, ` +
        `${g.margin_px} px around each marker, camels at least ${g.min_camel_px} px tall.`;
    } catch (error) {
      state.textContent = `the companion does not answer (${error.message})`;
    }
  }
  refresh();
  setInterval(refresh, 2000);
})();
