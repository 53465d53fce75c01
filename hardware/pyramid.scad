// The dice pyramid's printable parts: a row of chutes (one per die) and the gate plates.
// Every size comes from pyramid-params.scad, generated from mechanism.toml (`camelup pyramid drawings`).
// Render one part:  openscad -D 'part="chutes"' -o chutes.stl pyramid.scad   (or part="plate")
include <pyramid-params.scad>

part = "chutes";
$fn = 48;

module chute() {
    difference() {
        cube([inner + 2 * wall, inner + 2 * wall, height]);
        translate([wall, wall, -1]) cube([inner, inner, height + 2]);
        // The funnel: the top opening is wider, so a die drops in without aiming.
        translate([wall + inner / 2, wall + inner / 2, height - 2 * funnel])
            linear_extrude(height = 2 * funnel + 0.01, scale = (inner + 2 * funnel) / inner)
                square(inner, center = true);
    }
}

module chutes() {
    for (i = [0 : count - 1]) {
        translate([i * pitch, 0, 0]) chute();
        // A tab behind each chute carries its servo, shaft down, arm's length from the chute's centre.
        translate([i * pitch + wall + inner / 2 - servo_w / 2 - wall, wall + inner + wall, height - 4])
            difference() {
                cube([servo_w + 2 * wall, arm + servo_l - servo_shaft - inner / 2 - wall, 4]);
                translate([wall, arm - servo_shaft - inner / 2 - wall, -1]) cube([servo_w, servo_l, 6]);
            }
    }
}

module plate() {
    // A disc under the chute on an arm to the servo's horn (screw holes for a single-arm SG90 horn).
    difference() {
        union() {
            cylinder(r = plate_r, h = plate_t);
            translate([-3, 0, 0]) cube([6, arm, plate_t]);
            translate([0, arm, 0]) cylinder(r = 5, h = plate_t);
        }
        translate([0, arm, -1]) cylinder(r = 1.2, h = plate_t + 2);
        translate([0, arm - 8, -1]) cylinder(r = 0.8, h = plate_t + 2);
    }
}

if (part == "chutes") chutes();
if (part == "plate") plate();
