"""Weiß Schwarz in one place: card checks, deck construction, identity, stat line and the goldfish engine."""
