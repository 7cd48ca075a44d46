"""memory stage."""
