// A page with fixed words only (a message): the language switch, and the game that holds the camera where the
// message names it (its words follow the page's language).
"use strict";
(() => {
  const holder = document.getElementById("camera-holder");
  const name = () => { if (holder) holder.textContent = holderText(JSON.parse(holder.dataset.holder)); };
  name();
  languageSwitch(document.getElementById("lang"), name);
})();
