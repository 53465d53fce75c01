// Generated from hardware/mechanism.toml by `camelup pyramid drawings`: do not edit by hand.
die = 16;
inner = 18;
wall = 2;
height = 40;
funnel = 4;
pitch = 44;
count = 6;
plate_r = 12;
plate_t = 2;
arm = 24;
servo_l = 22.8;
servo_w = 12.2;
servo_shaft = 5.9;
