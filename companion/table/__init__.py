"""The table service: games stored as logs, the JSON views each caller may see, live updates, the web pages,
and the adapters the table composes (the dice pyramid, the camera). Uses the game (rules, odds, logs),
``firmware_py`` and ``vision``; ``companion.sim`` only for narration and the coach."""
