"""Text helpers for speech: sentence splitting, turn completeness."""
