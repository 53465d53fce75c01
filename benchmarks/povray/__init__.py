"""A second independent renderer for the camera bench: scenes written for POV-Ray 3.7 (a real ray tracer with area
lights, soft shadows, radiosity, procedural wood, cloth and laminate, CSG camels, the pyramid and palm tree) and
the camera's faults added by code of its own (lens, vignetting, white balance, exposure, noise, blur, JPEG).

Shared with benchmarks/independent/ are only the physical facts: the board's geometry and marker places (read from
vision/templates by ``make_table``), the board print and marker textures, and the camera's pose within the
README's numbers. The truth (space -> camels bottom first, how much of each camel the camera sees) comes in the
form of benchmarks/independent/scene.py's ``Truth``, so camera_independent's ``judge`` and ``summarise`` apply."""
