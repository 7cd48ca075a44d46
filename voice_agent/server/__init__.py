"""The kiosk service: ``voice-agent serve`` (see ``app.create_app`` and ``PROTOCOL.md``).

Nothing is imported here: FastAPI and uvicorn (the ``serve`` extra) load only when the service starts.
"""
