"""Goldfish engines: one rules module per game on a shared contract (see docs/engine.md)."""
from .core import (
    Action,
    Deck,
    EventLog,
    GameEngine,
    GameResult,
    GameState,
    Pilot,
    RunStats,
    game_rng,
    get_engine,
    play_game,
    register,
    run_games,
)

__all__ = [
    "Action", "Deck", "EventLog", "GameEngine", "GameResult", "GameState", "Pilot", "RunStats",
    "game_rng", "get_engine", "play_game", "register", "run_games",
]
