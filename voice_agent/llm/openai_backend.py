"""Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp), through the ``openai`` client.

Every message sent is neutralised first (``text.inert.neutralize_messages``): a chat-template marker
in user- or memory-derived text (``<|im_start|>``, ``[INST]``, ``<s>``) reaches no server as a control
token, whichever path built the messages.

Streaming chat completions with a first-token timeout and a request timeout, both counted on the time
spent waiting for the server (not on the time the caller spends with each delta). The client's own
retries are off: the router decides. Vendor errors are mapped to ``BackendError`` here, in one place.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import Any, TypeVar

from voice_agent.config import LlmEndpoint, resolve_api_key
from voice_agent.errors import BackendError, DependencyMissingError, VoiceAgentError
from voice_agent.llm.base import GeneratorStream, Message, TokenUsage
from voice_agent.llm.tokens import TokenCounter
from voice_agent.text.inert import neutralize_messages

OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"
_T = TypeVar("_T")


class LlmRequestError(BackendError):
    """The server refused this request itself (400/413/422: too long, bad parameters), not the endpoint
    being down: no retry, and the circuit breaker does not count it."""


def map_openai_error(err: BaseException, backend: str, base_url: str = "") -> BackendError:
    """The one place where ``openai`` and ``httpx`` exceptions become voice-agent errors."""
    import openai

    where = f" ({base_url})" if base_url else ""
    if isinstance(err, BackendError):
        return err
    if isinstance(err, openai.APITimeoutError):
        return BackendError(f"request timed out{where}", backend=backend, retryable=True)
    if isinstance(err, openai.APIConnectionError):
        cause = err.__cause__ or err
        return BackendError(f"cannot connect{where}: {cause}", backend=backend, retryable=True)
    if isinstance(err, openai.APIStatusError):
        return _map_status(err.status_code, _status_detail(err), backend, where)
    if isinstance(err, openai.APIError):  # an error event inside the stream
        return BackendError(f"server error in the stream{where}: {err.message}", backend=backend)
    if isinstance(err, asyncio.TimeoutError | TimeoutError):
        return BackendError(f"timed out{where}", backend=backend, retryable=True)
    if _is_transport_error(err):
        return BackendError(f"connection failed{where}: {err!r}", backend=backend, retryable=True)
    if isinstance(err, openai.OpenAIError):
        return BackendError(f"client error: {err}", backend=backend)
    return BackendError(f"unexpected {type(err).__name__}{where}: {err}", backend=backend)


def _map_status(status: int, detail: str, backend: str, where: str) -> BackendError:
    if status in (408, 409, 425, 429) or status >= 500:
        return BackendError(f"HTTP {status}{where}: {detail}", backend=backend, retryable=True)
    if status in (401, 403):
        return BackendError(
            f"HTTP {status}{where}: the API key was refused (check api_key_env / api_key_file): {detail}",
            backend=backend,
        )
    if status == 404:
        return BackendError(
            f"HTTP 404{where}: the model name or the base_url path is wrong: {detail}", backend=backend
        )
    return LlmRequestError(f"HTTP {status}{where}: {detail}", backend=backend)


def _status_detail(err: Any) -> str:
    body = getattr(err, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:300]
        if body.get("detail"):
            return str(body["detail"])[:300]
    return str(getattr(err, "message", err))[:300]


def _is_timeout(err: BaseException) -> bool:
    import openai

    return isinstance(err, openai.APITimeoutError | TimeoutError) or any(
        cls.__module__.split(".")[0] in ("httpx", "httpx2") and cls.__name__ == "TimeoutException"
        for cls in type(err).__mro__
    )


def _is_transport_error(err: BaseException) -> bool:
    """httpx (or the openai client's vendored httpx2) transport and timeout errors, by class name."""
    return any(
        cls.__module__.split(".")[0] in ("httpx", "httpx2")
        and cls.__name__ in ("TransportError", "TimeoutException", "StreamError")
        for cls in type(err).__mro__
    )


class OpenAIBackend:
    """A ``ChatBackend`` for one OpenAI-compatible endpoint."""

    def __init__(
        self,
        name: str,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 20.0,
        first_token_timeout_s: float | None = None,
        extra_body: Mapping[str, Any] | None = None,
        include_usage: bool = True,
        retry_timeouts: bool = True,
        token_counter: TokenCounter | None = None,
        prepare: Callable[[], Awaitable[None]] | None = None,
        on_close: Callable[[], Awaitable[None]] | None = None,
        queue_aware: bool = False,
        server_cpu_s: Callable[[], float | None] | None = None,
    ) -> None:
        """``retry_timeouts=False`` marks timeouts as not retryable: a local server is still busy with
        the abandoned request, so asking it again only queues more work behind it.
        ``prepare`` runs before each request (the local backend starts its server there; its time is
        not counted against the timeouts); ``on_close`` runs in :meth:`aclose`.
        ``queue_aware``: a request queued behind ``queued_ahead`` others at this (one-at-a-time) server
        gets a first-token limit that many times longer. ``server_cpu_s``: the serving process's CPU
        time; while it keeps working, a late first token is a busy server, not a dead one, and the wait
        goes on (up to ``BUSY_EXTENSIONS`` more first-token limits)."""
        if timeout_s <= 0 or (first_token_timeout_s is not None and first_token_timeout_s <= 0):
            raise ValueError("timeouts must be positive")
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout_s = timeout_s
        self.first_token_timeout_s = min(first_token_timeout_s or timeout_s, timeout_s)
        self._api_key = api_key
        self._extra_body = dict(extra_body or {})
        self._include_usage = include_usage
        self._token_counter = token_counter
        self._client: Any = None
        self._prepare = prepare
        self._on_close = on_close
        self._retry_timeouts = retry_timeouts
        self.queue_aware = queue_aware
        self._server_cpu_s = server_cpu_s

    @classmethod
    def from_endpoint(
        cls,
        endpoint: LlmEndpoint,
        *,
        env: Mapping[str, str] | None = None,
        base_url: str | None = None,
        extra_body: Mapping[str, Any] | None = None,
        token_counter: TokenCounter | None = None,
    ) -> OpenAIBackend:
        return cls(
            endpoint.name,
            base_url=base_url or endpoint.base_url or OPENAI_DEFAULT_BASE_URL,
            model=endpoint.model,
            api_key=resolve_api_key(endpoint, env),
            timeout_s=endpoint.timeout_s,
            first_token_timeout_s=endpoint.first_token_timeout_s,
            extra_body=extra_body,
            token_counter=token_counter,
        )

    def stream(
        self, messages: list[Message], *, max_tokens: int, temperature: float, queued_ahead: int = 0
    ) -> OpenAIChatStream:
        return OpenAIChatStream(
            self, messages, max_tokens=max_tokens, temperature=temperature, queued_ahead=queued_ahead
        )

    def count_tokens(self, text: str) -> int | None:
        if self._token_counter is None or not self._token_counter.exact:
            return None
        return self._token_counter.count(text)

    async def start(self) -> None:
        """Get ready before the first request (start a local server); a no-op for remote endpoints."""
        if self._prepare is None:
            return
        try:
            await self._prepare()
        except BackendError:
            raise
        except VoiceAgentError as err:
            raise BackendError(str(err), backend=self.name) from err

    async def aclose(self) -> None:
        client, self._client = self._client, None
        try:
            if client is not None:
                await client.close()
        finally:
            if self._on_close is not None:
                await self._on_close()

    def _get_client(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError as err:
                raise DependencyMissingError("openai", "openai") from err
            self._client = openai.AsyncOpenAI(
                base_url=self.base_url,
                api_key=self._api_key or "no-key",  # local servers need none; the client wants one
                # a queued request hears nothing for a while: the wait budgets limit it, not the client
                timeout=max(self.timeout_s, QUEUED_CLIENT_TIMEOUT_S) if self.queue_aware else self.timeout_s,
                max_retries=0,
            )
        return self._client

    async def _generate(
        self,
        messages: list[Message],
        max_tokens: int,
        temperature: float,
        usage: TokenUsage,
        queued_ahead: int = 0,
    ) -> AsyncGenerator[str, None]:
        await self.start()
        ahead = max(0, queued_ahead) if self.queue_aware else 0
        waited = _WaitBudget(self.first_token_timeout_s * (1 + ahead), self.timeout_s, self._server_cpu_s)
        usage.first_token_limit_s = waited.first_token_s
        try:
            response = await waited.run(self._create(messages, max_tokens, temperature), first=True)
        except Exception as err:
            raise self._mapped(err, waited) from err
        try:
            chunks = response.__aiter__()
            got_text = False
            while True:
                try:
                    chunk = await waited.run(chunks.__anext__(), first=not got_text)
                except StopAsyncIteration:
                    return
                _read_usage(chunk, usage)
                for choice in chunk.choices or ():
                    text = choice.delta.content if choice.delta is not None else None
                    if text:
                        got_text = True
                        yield text
        except Exception as err:
            raise self._mapped(err, waited) from err
        finally:
            usage.busy_extensions = waited.extensions
            await response.close()

    async def _create(self, messages: list[Message], max_tokens: int, temperature: float) -> Any:
        import openai

        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": neutralize_messages(messages),
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": True,
        }
        if self._extra_body:
            kwargs["extra_body"] = self._extra_body
        if self._include_usage:
            try:
                return await self._get_client().chat.completions.create(
                    **kwargs, stream_options={"include_usage": True}
                )
            except openai.BadRequestError as err:
                if "stream_options" not in str(err):
                    raise
                self._include_usage = False  # an older server: ask once more without it
        return await self._get_client().chat.completions.create(**kwargs)

    def _mapped(self, err: Exception, waited: _WaitBudget) -> BackendError:
        if isinstance(err, TimeoutError | asyncio.TimeoutError) and waited.expired_reason:
            return BackendError(waited.expired_reason, backend=self.name, retryable=self._retry_timeouts)
        mapped = map_openai_error(err, self.name, self.base_url)
        if not self._retry_timeouts and _is_timeout(err):
            mapped.retryable = False
        return mapped


class OpenAIChatStream(GeneratorStream):
    """The deltas of one request; ``usage`` holds what the server reported (often only at the end)."""

    def __init__(
        self,
        backend: OpenAIBackend,
        messages: list[Message],
        *,
        max_tokens: int,
        temperature: float,
        queued_ahead: int = 0,
    ) -> None:
        if not messages:
            raise ValueError("messages must not be empty")
        self.usage = TokenUsage()
        super().__init__(backend._generate(messages, max_tokens, temperature, self.usage, queued_ahead))


QUEUED_CLIENT_TIMEOUT_S = 600.0
BUSY_EXTENSIONS = 3  # a busy (working) server gets at most this many more first-token limits
BUSY_CPU_S = 0.05  # CPU seconds the server must have used during a limit to count as working


class _WaitBudget:
    """The first token must come within the first-token timeout; after it, each further chunk within the
    request timeout (an idle limit: a slow but steady reply on a busy CPU is not cut off). When the
    first-token limit runs out while the server process keeps using CPU (``server_cpu_s``), it is busy,
    not dead: the limit is extended (``BUSY_EXTENSIONS`` times at most)."""

    def __init__(
        self, first_token_s: float, total_s: float, server_cpu_s: Callable[[], float | None] | None = None
    ) -> None:
        self.first_token_s = first_token_s
        self.total_s = total_s
        self.waited_s = 0.0
        self.expired_reason = ""
        self.extensions = 0
        self._server_cpu_s = server_cpu_s

    async def run(self, awaitable: Awaitable[_T], *, first: bool) -> _T:
        started = time.monotonic()
        task = asyncio.ensure_future(awaitable)
        try:
            while True:
                elapsed = time.monotonic() - started
                limit = self._first_limit() - self.waited_s - elapsed if first else self.total_s - elapsed
                cpu_before = self._server_cpu_s() if first and self._server_cpu_s is not None else None
                if limit > 0:
                    done, _ = await asyncio.wait({task}, timeout=limit)
                    if done:
                        return task.result()
                if not (first and self._server_working(cpu_before)):
                    raise TimeoutError
                self.extensions += 1  # the server is working on it (or on the requests ahead)
        except TimeoutError:
            if first:
                self.expired_reason = f"no first token within {self._first_limit():g} s"
            else:
                self.expired_reason = f"reply stalled: no token for {self.total_s:g} s"
            raise
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.waited_s += time.monotonic() - started

    def _first_limit(self) -> float:
        return self.first_token_s * (1 + self.extensions)

    def _server_working(self, cpu_before: float | None) -> bool:
        if cpu_before is None or self._server_cpu_s is None or self.extensions >= BUSY_EXTENSIONS:
            return False
        now = self._server_cpu_s()
        return now is not None and now - cpu_before >= BUSY_CPU_S


def _read_usage(chunk: Any, usage: TokenUsage) -> None:
    reported = getattr(chunk, "usage", None)
    if reported is None:
        return
    usage.prompt_tokens = reported.prompt_tokens
    usage.completion_tokens = reported.completion_tokens
    details = getattr(reported, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    if cached is not None:
        usage.cached_tokens = cached
