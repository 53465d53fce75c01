"""The Camel Up table companion: rules engine, game logs, odds, bots and the web companion."""

__version__ = "0.1.0"
