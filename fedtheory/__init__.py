"""fedtheory."""
