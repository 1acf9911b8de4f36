"""rikken-analyser: double-dummy Monte-Carlo analysis of Rikken bids."""

__version__ = "0.1.0"
