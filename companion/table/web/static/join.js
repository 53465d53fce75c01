// The join link: the seat's token stays on this phone, so the seat survives reloads and sleep. (A file of its
// own, not an inline script: the pages' Content-Security-Policy runs no inline script.)
"use strict";
(() => {
  const join = document.getElementById("join");
  localStorage.setItem(`camelup:seat:${join.dataset.game}`, join.dataset.token);
  location.replace(`/play/${encodeURIComponent(join.dataset.game)}`);
})();
