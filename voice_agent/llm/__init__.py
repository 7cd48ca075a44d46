"""llm stage: chat backends through the ``openai`` client, the local llama.cpp server, routing with
fallback and circuit breakers, token counting and the prompt-reading-rate estimate."""

from voice_agent.llm.base import ChatBackend, ChatStream, LlmCallStats, Message, TokenUsage
from voice_agent.llm.breaker import BreakerState, CircuitBreaker
from voice_agent.llm.local_server import LocalLlamaServer, LocalServerError, server_from_config
from voice_agent.llm.openai_backend import LlmRequestError, OpenAIBackend, map_openai_error
from voice_agent.llm.rate import PromptRateEstimator
from voice_agent.llm.router import LlmRouter, RoutedStream, build_router
from voice_agent.llm.tokens import TokenCounter, estimate_tokens

__all__ = [
    "BreakerState",
    "ChatBackend",
    "ChatStream",
    "CircuitBreaker",
    "LlmCallStats",
    "LlmRequestError",
    "LlmRouter",
    "LocalLlamaServer",
    "LocalServerError",
    "Message",
    "OpenAIBackend",
    "PromptRateEstimator",
    "RoutedStream",
    "TokenCounter",
    "TokenUsage",
    "build_router",
    "estimate_tokens",
    "map_openai_error",
    "server_from_config",
]
