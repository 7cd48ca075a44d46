"""provision stage."""
