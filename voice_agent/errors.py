"""The error hierarchy of voice-agent.

Every error the library raises on purpose is a ``VoiceAgentError``; vendor exceptions are mapped to
these in one place per backend (``raise BackendError(...) from e``)::

    VoiceAgentError
    ├── ConfigError              a config file, key or env override is wrong (names file, key, reason)
    ├── ModelError               a model file is missing or corrupt (names the file and the fix)
    ├── DependencyMissingError   an optional extra is not installed ("pip install voice-agent[x]")
    ├── InputError               bad user input: empty/oversized text, corrupt audio, unknown id
    ├── BackendError             an LLM / ASR / TTS / store backend failed (``retryable``: may a retry help)
    │   └── CircuitOpenError     the backend's breaker is open: not tried, try the next one
    ├── StoreError               the memory store refused or failed an operation
    │   └── TenantRequiredError  a read or write did not name its conversation
    ├── AudioDeviceError         PortAudio missing or no usable device (points at file mode)
    └── NotReadyError            a command whose feature has not landed yet
"""

from __future__ import annotations


class VoiceAgentError(Exception):
    """Base of all errors raised by voice-agent on purpose."""


class ConfigError(VoiceAgentError):
    def __init__(self, reason: str, *, file: str | None = None, key: str | None = None) -> None:
        self.file = file
        self.key = key
        self.reason = reason
        where = ", ".join(p for p in (f"file {file}" if file else "", f"key {key}" if key else "") if p)
        super().__init__(f"config error ({where}): {reason}" if where else f"config error: {reason}")


class ModelError(VoiceAgentError):
    def __init__(self, message: str, *, model: str | None = None, path: str | None = None) -> None:
        self.model = model
        self.path = path
        super().__init__(message)


class DependencyMissingError(VoiceAgentError):
    def __init__(self, module: str, extra: str) -> None:
        self.module = module
        self.extra = extra
        super().__init__(
            f"the optional module {module!r} is not installed: pip install 'voice-agent[{extra}]'"
        )


class InputError(VoiceAgentError):
    """The caller gave something unusable; nothing was stored."""


class BackendError(VoiceAgentError):
    def __init__(self, message: str, *, backend: str = "", retryable: bool = False) -> None:
        self.backend = backend
        self.retryable = retryable
        super().__init__(f"{backend}: {message}" if backend else message)


class CircuitOpenError(BackendError):
    def __init__(self, backend: str, retry_in_s: float) -> None:
        self.retry_in_s = retry_in_s
        super().__init__(f"circuit open, next probe in {retry_in_s:.1f} s", backend=backend, retryable=True)


class StoreError(VoiceAgentError):
    pass


class TenantRequiredError(StoreError):
    def __init__(self, operation: str) -> None:
        super().__init__(f"{operation}: a conversation id is required (no default tenant exists)")


class AudioDeviceError(VoiceAgentError):
    pass


class NotReadyError(VoiceAgentError):
    pass
