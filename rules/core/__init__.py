"""The engine API shared by every game, and the generic move recogniser."""
