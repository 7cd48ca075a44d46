"""asr stage."""
