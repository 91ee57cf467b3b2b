"""Per-game construction rules and goldfish engines. Pure Python: nothing here imports Django.

The engines' hot modules run compiled when ``python -m rules.native build`` has compiled them from
today's sources (``rules.native``: same games, faster), else as the plain Python they are."""
from rules import native as _native

_native.install()
