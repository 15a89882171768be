"""Seasons and players: standings, charts, a player's figures, imports and exports."""
