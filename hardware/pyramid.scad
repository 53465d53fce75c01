// The dice pyramid's printable parts. Every size comes from pyramid-params.scad, generated from mechanism.toml
// (`camelup pyramid drawings`). Coordinates: x along the row, y from the chutes' front (0) to the back, z up
// from the chutes' bottom (0); the table is at z = table_z.
// Render one part:  openscad -D 'part="chutes"' -o chutes.stl pyramid.scad   (part = chutes | plate | ramp)
//   chutes: the frame, printed in one piece: the chutes, the back spine joining them, a servo tab behind each
//           chute, and the two legs (the right one holds the button and the LED);
//   plate:  one gate plate (print one per die);
//   ramp:   the ramp and tray, standing on the table between the legs.
//   For a bed smaller than the frame (it is about 306 mm wide): chutes_left + chutes_right + splice, and
//   ramp_left + ramp_right: each half fits a 220 x 220 mm bed. The cut runs between the middle chutes, where only
//   the spine joins them; the splice is glued across the spine's back there.
//   (part="assembly" shows everything in place, with the servos, for a picture: not a part to print.)
include <pyramid-params.scad>

part = "chutes";
$fn = 48;

outer = inner + 2 * wall;
back = outer + spine;                                  // the spine's back face
row = (count - 1) * pitch + outer;
// The last plate swings out towards +x: the right leg stands clear of its sweep (2 mm to spare).
span = max(row, (count - 1) * pitch + outer / 2 + arm + plate_r + 2);
left = min(0, outer / 2 - plate_r - 2);                 // and the left leg clear of the first plate
shaft_y = outer / 2 + arm;                              // every servo's shaft, behind its chute
ear_face = servo_ear_bottom + servo_ear_t;              // the ears' shaft-side face, from the case's bottom
// The ramp's surface: `drop` under the plates at the chutes' centre line, sloping down to the front.
ramp_back_z = -(gap + plate_t + drop) + (outer / 2 + spine) * tan(ramp_angle);
ramp_foot_y = -20;                                      // the ramp meets the tray 20 mm in front of the chutes
table_z = ramp_back_z - (back - ramp_foot_y) * tan(ramp_angle) - 2;

module chute() {
    difference() {
        cube([outer, outer, height]);
        translate([wall, wall, -1]) cube([inner, inner, height + 2]);
        // The funnel: the top opening is wider, so a die drops in without aiming (funnel <= wall - 0.8).
        translate([wall + inner / 2, wall + inner / 2, height - 2 * funnel])
            linear_extrude(height = 2 * funnel + 0.01, scale = (inner + 2 * funnel) / inner)
                square(inner, center = true);
    }
}

module servo_tab() {
    // Shaft down through a closed slot, the ears resting on the tab's top face; the case's shaft end is at
    // `servo_shaft` from the body's end, so the body runs from shaft_y - servo_shaft away from the chute.
    body_y = shaft_y - servo_shaft;
    mid_y = body_y + servo_l / 2;
    tab_end = mid_y + servo_span / 2 + 2;
    translate([-(servo_w / 2 + wall + 2), outer, tab_top - tab_t])
        difference() {
            cube([servo_w + 2 * wall + 4, tab_end - outer, tab_t]);
            translate([wall + 2 - 0.2, body_y - outer - 0.2, -1]) cube([servo_w + 0.4, servo_l + 0.4, tab_t + 2]);
            for (side = [-1, 1])
                translate([servo_w / 2 + wall + 2, mid_y - outer + side * ear_holes / 2, -1])
                    cylinder(d = screw_pilot, h = tab_t + 2);
        }
}

// The legs reach from the ramp's foot to behind the servos, so the frame cannot tip back under their weight.
tab_end = shaft_y - servo_shaft + servo_l / 2 + servo_span / 2 + 2;

module leg(with_controls) {
    difference() {
        translate([0, ramp_foot_y, table_z]) cube([leg, tab_end - ramp_foot_y, height - table_z]);
        if (with_controls) {
            // A 12 mm panel button and a 5 mm LED above it, facing out of the right side.
            translate([-1, back / 2, table_z + 25]) rotate([0, 90, 0]) cylinder(d = button_hole, h = leg + 2);
            translate([-1, back / 2, table_z + 25 + button_hole]) rotate([0, 90, 0]) cylinder(d = led_hole, h = leg + 2);
        }
    }
}

module chutes() {
    for (i = [0 : count - 1]) {
        translate([i * pitch, 0, 0]) chute();
        translate([i * pitch + outer / 2, 0, 0]) servo_tab();
    }
    // The spine holds the chutes at their pitch and carries the tabs, so every gap is set by the print.
    translate([left, outer - 0.01, 0]) cube([span - left, spine + 0.01, height]);
    translate([left - leg + 0.01, 0, 0]) leg(false);
    translate([span - 0.01, 0, 0]) leg(true);
}

module plate() {
    // A disc under the chute on an arm to the servo's shaft. The horn sits on top of the plate pointing AWAY
    // from the chute (so it cannot touch the chute's wall); its hole `horn_hole` from the shaft takes a screw.
    difference() {
        union() {
            cylinder(r = plate_r, h = plate_t);
            translate([-3, 0, 0]) cube([6, arm + horn_hole + 2, plate_t]);
            translate([0, arm, 0]) cylinder(r = 5, h = plate_t);
        }
        translate([0, arm, -1]) cylinder(r = 1.2, h = plate_t + 2);          // the horn's centre screw
        translate([0, arm + horn_hole, -1]) cylinder(r = 0.8, h = plate_t + 2); // a screw through the horn's arm
    }
}

module ramp() {
    // Printed on its side: the profile (y, z) extruded along the row. The tray's floor is the table level.
    lip = 12;
    tray_front = ramp_foot_y - depth;
    profile_wall = [[back, table_z], [back, ramp_back_z], [ramp_foot_y, table_z + 2], [tray_front, table_z + 2],
                    [tray_front, table_z + lip], [tray_front - 2, table_z + lip], [tray_front - 2, table_z]];
    profile_shell = [[back, ramp_back_z], [ramp_foot_y, table_z + 2], [tray_front, table_z + 2],
                     [tray_front, table_z + lip], [tray_front - 2, table_z + lip], [tray_front - 2, table_z],
                     [ramp_foot_y, table_z], [back, ramp_back_z - 2.5]];
    translate([left, 0, 0]) rotate([90, 0, 90]) {
        linear_extrude(height = 2) polygon(profile_wall);
        linear_extrude(height = span - left) polygon(profile_shell);
        translate([0, 0, span - left - 2]) linear_extrude(height = 2) polygon(profile_wall);
    }
}

// Where the halves meet: between the middle two chutes, clear of both servo tabs.
cut = floor(count / 2) * pitch - (pitch - outer) / 2;
splice_w = 24;
splice_t = 3;

module side_of_cut(right) {
    intersection() {
        children();
        translate([right ? cut : cut - 1000, -500, -500]) cube(1000);
    }
}

module splice() {
    // Glued to the spine's back face across the cut (between the two servo tabs there), the full height.
    translate([cut - splice_w / 2, back, 0]) cube([splice_w, splice_t, height]);
}

module servo_dummy() {
    // Not printed: an SG90 hung shaft down on its tab, and its horn, to see that the plate meets the chute.
    translate([-servo_w / 2, shaft_y - servo_shaft, tab_top - (body_h - ear_face) ]) {
        color("SteelBlue", 0.8) cube([servo_w, servo_l, body_h]);
        color("SteelBlue", 0.8) translate([0, -(servo_span - servo_l) / 2, body_h - ear_face])
            cube([servo_w, servo_span, servo_ear_t]);
    }
    shaft_end = tab_top - (servo_shaft_top - ear_face);
    color("SteelBlue", 0.8) translate([0, shaft_y, shaft_end]) cylinder(d = 11.6, h = tab_top - (body_h - ear_face) - shaft_end);
    color("White") translate([0, shaft_y, -gap]) {
        cylinder(r = 3.5, h = shaft_end + gap);
        translate([-2, 0, 0]) cube([4, horn_hole + 3, servo_horn_t]);
    }
}

// The whole rig as assembled (for a picture; print the parts one by one).
module assembly() {
    color("Wheat") chutes();
    color("Peru") ramp();
    for (i = [0 : count - 1]) translate([i * pitch + outer / 2, 0, 0]) {
        servo_dummy();
        color("Gray") translate([0, outer / 2, -gap - plate_t]) plate();
    }
}

if (part == "chutes") chutes();
if (part == "assembly") assembly();
if (part == "plate") plate();
if (part == "ramp") ramp();
if (part == "chutes_left") side_of_cut(false) chutes();
if (part == "chutes_right") side_of_cut(true) chutes();
if (part == "ramp_left") side_of_cut(false) ramp();
if (part == "ramp_right") side_of_cut(true) ramp();
if (part == "splice") splice();
