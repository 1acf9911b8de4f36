"""Klaverjas (docs/klaverjas.md): rules as data (rules.py), the exact double-dummy solver
(solver.py) and the hand analysis (analysis.py)."""
