"""memory/store stage."""
