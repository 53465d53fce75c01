"""A second photo-like renderer of Camel Up tables, written without looking at vision/'s renderers (photo,
shapes, surfaces, optics, synth) or the reader's internals: test data the reader was not tuned on.

Only the board templates' JSON (where the spaces and markers are, in mm), the README's camera numbers and
OpenCV's ArUco dictionary are shared with the product. Modules: rays (camera and ray caster), art (printed
surfaces), pieces (camels, pyramids, palm tree, arms, props), lighting (lamp, shadow map, glare), sensor
(exposure, white balance, noise, blur, JPEG), table (one table's set-up), scene (one photo and its truth),
logs (game logs for the --expect check). benchmarks/camera_independent.py runs the reader on it."""
