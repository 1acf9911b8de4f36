"""Rikken's relatives from the founding documents (docs/whist.md): each game's rules as data
and its hand analysis, beside Rikken's own (analyser.rules, analyser.analysis)."""
