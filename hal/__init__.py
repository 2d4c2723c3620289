"""hal package."""
