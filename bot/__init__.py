"""Trick Night: a Discord bot for Pinochle and Pitch tables, leagues and leaderboards."""

__version__ = "0.1.0"
