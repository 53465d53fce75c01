"""Tools for testers and bot writers: bots from files, modules or other programs, leagues with ratings,
the coach that prices every decision of a game, and reinforcement-learning environments.

The older testers' modules (``companion.sim.bots``, ``simulate``, ``play``, ``dice``, ``narrate``) stay where
they are for now; what is new lives here.
"""
