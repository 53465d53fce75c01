// A page with fixed words only (a message): the language switch.
"use strict";
languageSwitch(document.getElementById("lang"), () => {});
