"""The pyramid's configuration (firmware_py/config.py) at the edge of every number it accepts: the value at
each end is taken, a step beyond is refused with the key and the range named. Mutation testing found most of
these edges could move, or a key's name drop out of its message, unnoticed."""

import pytest

from firmware_py.config import ConfigError, load_config, parse_config

# (section, key, lowest, highest, whether each end can be set alone: a partner setting may forbid it)
LIMITS = [
    ("button", "debounce", 0.001, 0.5, True, True),
    ("button", "lockout", 0, 30, True, True),
    ("button", "hold_time", 0.1, 30, True, False),  # refill_hold_time (4 s) must stay longer
    ("button", "refill_hold_time", 0.1, 60, False, True),
    ("led", "show_time", 0, 10, True, True),
    ("led", "blink_on", 0.01, 5, True, True),
    ("led", "blink_off", 0.01, 5, True, True),
    ("servo", "min_angle", -360, 360, True, False),
    ("servo", "max_angle", -360, 360, False, True),
    ("servo", "min_pulse_width", 0.0002, 0.003, True, False),
    ("servo", "max_pulse_width", 0.0002, 0.003, False, True),
    ("servo", "frequency", 40, 333, True, True),
    ("servo", "reference_clock", 20e6, 30e6, True, True),
    ("servo", "move_time", 0, 5, True, True),
]


def one(section, key, value):
    return parse_config({section: {key: value}})


@pytest.mark.parametrize(("section", "key", "low", "high", "low_alone", "high_alone"), LIMITS)
def test_each_number_is_taken_at_its_ends_and_refused_beyond_them(section, key, low, high, low_alone, high_alone):
    if low_alone:
        assert getattr(getattr(one(section, key, low), section), key) == low
    if high_alone:
        assert getattr(getattr(one(section, key, high), section), key) == high
    step = (high - low) / 1000
    for beyond in (low - step, high + step):
        with pytest.raises(ConfigError) as refused:
            one(section, key, beyond)
        assert str(refused.value) == f"{section}.{key}: {beyond} is outside {low}..{high}"


def test_the_angles_and_pulses_must_rise_and_the_last_i2c_address_is_taken():
    with pytest.raises(ConfigError) as refused:
        parse_config({"servo": {"min_angle": 90, "max_angle": 90}})
    assert str(refused.value) == "servo.max_angle: must be greater than servo.min_angle"
    with pytest.raises(ConfigError) as refused:
        parse_config({"servo": {"frequency": 333, "max_pulse_width": 0.003}})
    assert str(refused.value) == "servo.frequency: 333 Hz leaves no room for a 3 ms pulse"
    assert parse_config({"servo": {"i2c_address": 0x7F}}).servo.i2c_address == 0x7F
    with pytest.raises(ConfigError, match=r"^servo.i2c_address: 128 is not a PCA9685 address \(0x40 to 0x7F\)$"):
        parse_config({"servo": {"i2c_address": 0x80}})


def test_a_die_colour_is_read_channel_by_channel():
    config = parse_config({"colours": {"green": "#102030"}})
    green = next(die for die in config.dice if die.name == "green")
    assert green.led_colour == (0x10 / 255, 0x20 / 255, 0x30 / 255)
    with pytest.raises(ConfigError) as refused:
        parse_config({"colours": "green"})
    assert str(refused.value) == 'colours: must be a table of die name = "#rrggbb"'


def test_unknown_and_removed_keys_are_named_where_they_are():
    with pytest.raises(ConfigError, match=r"^colour: unknown key \(known here: "):
        parse_config({"colour": {}})
    with pytest.raises(ConfigError) as refused:
        parse_config({"servo": {"angles": [0, 90]}})
    assert str(refused.value).startswith("servo.angles: the single-servo carousel") and str(refused.value).endswith(
        "see hardware/README.md and hardware/pyramid.example.toml")


def test_the_config_says_where_it_came_from_and_which_pins_drive_what(tmp_path):
    defaults = load_config(None)
    assert defaults.source == "defaults" and defaults.pin_factory == "auto"
    path = tmp_path / "rig.toml"
    path.write_text('pin_factory = "mock"\n[button]\npin = 5\n')
    config = load_config(path)
    assert config.source == str(path) and config.pin_factory == "mock" and config.button.pin == 5
    path.write_text("[button]\npin = 2\n")  # the I²C bus's SDA
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == f"{path}: button.pin: GPIO2 is already used by I2C SDA"


@pytest.mark.parametrize(("data", "message"), [
    ({"button": {"pin": 1}}, "button.pin: 1 is not a GPIO pin (BCM numbers 2 to 27)"),
    ({"button": {"pin": True}}, "button.pin: True is not a GPIO pin (BCM numbers 2 to 27)"),
    ({"led": {"green": 40}}, "led.green: 40 is not a GPIO pin (BCM numbers 2 to 27)"),
    ({"servo": {"min_pulse_width": 0.002, "max_pulse_width": 0.002}},
     "servo.max_pulse_width: must be greater than servo.min_pulse_width"),
    ({"servo": {"channels": {"orange": 1}}}, "servo.channels.orange: no such die in the 2018 pyramid "
                                             "(green, yellow, red, blue, purple, grey)"),
    ({"servo": {"closed_angle": 200}}, "servo.closed_angle: 200 is outside 0.0..180.0"),
    ({"servo": {"open_angles": 90}}, "servo.open_angles: must be a table of die name = angle"),
])
def test_each_refused_setting_is_named_with_its_section(data, message):
    with pytest.raises(ConfigError) as refused:
        parse_config(data)
    assert str(refused.value) == message


def test_a_die_given_its_own_colour_keeps_its_faces_and_crazy_colours():
    config = parse_config({"colours": {"grey": "#808080"}})
    assert config.source == "configuration"
    grey = next(die for die in config.dice if die.name == "grey")
    assert grey.faces == (1, 2, 3) and grey.crazy_colours == ("white", "black")


def test_a_pin_must_be_a_whole_number_not_a_float_that_equals_one():
    with pytest.raises(ConfigError) as refused:
        parse_config({"button": {"pin": 17.0}})
    assert str(refused.value) == "button.pin: 17.0 is not a GPIO pin (BCM numbers 2 to 27)"


def test_more_settings_refused_or_kept_word_for_word():
    with pytest.raises(ConfigError) as refused:
        parse_config({"colours": {"green": 5}})
    assert str(refused.value) == 'colours.green: 5 is not a colour like "#ff8000"'
    with pytest.raises(ConfigError) as refused:
        parse_config({"pin_factory": "gpio"})
    assert str(refused.value) == "pin_factory: must be one of auto, lgpio, rpigpio, mock, not 'gpio'"
    servo = parse_config({"servo": {"min_angle": 10, "max_angle": 170}}).servo
    assert servo.driver == "pca9685"
    assert servo.pulse_width(90) == pytest.approx((servo.min_pulse_width + servo.max_pulse_width) / 2)
    assert servo.pulse_width(10) == pytest.approx(servo.min_pulse_width)
