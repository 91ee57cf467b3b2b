"""Prism Connect deck rules: none beyond the shared ones (40 cards, 3 copies of a work and number)."""
from __future__ import annotations

CHECKS = ()
