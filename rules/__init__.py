"""Per-game construction rules and goldfish engines. Pure Python: nothing here imports Django."""
