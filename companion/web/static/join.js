// A seat's join link: the seat's token stays on this phone (so the seat survives reloads and sleep), then
// the phone page opens.
"use strict";
(() => {
  const box = document.getElementById("join");
  translatePage();
  localStorage.setItem(`camelup:seat:${box.dataset.game}`, box.dataset.token);
  location.replace(`/play/${box.dataset.game}`);
})();
