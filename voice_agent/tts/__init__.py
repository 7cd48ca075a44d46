"""tts stage."""
