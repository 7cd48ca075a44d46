"""vad stage."""
