"""Measure the local LLM: first-token latency for a short and a ~500-token prompt, cold and with the
prefix reused (same prefix, new suffix), with an interleaved other prompt (with and without the
server's RAM prompt cache), and decode speed. Prints one JSON object.

    python scripts/measure_llm.py [--models smollm2-135m qwen2.5-coder-0.5b] [--reps 3] [--threads 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import uuid
from pathlib import Path
from typing import Any

from voice_agent.llm.local_server import LocalLlamaServer
from voice_agent.llm.openai_backend import OpenAIBackend
from voice_agent.llm.router import LlmRouter
from voice_agent.llm.tokens import TokenCounter
from voice_agent.paths import default_model_dir
from voice_agent.provision import locate

FILLER = (
    "Pinned record {i}: the user said on 2024-05-{d:02d} that they prefer short answers, use PostgreSQL "
    "for the project, and want reminders in the morning. "
)


def long_system(nonce: str, target_tokens: int, counter: TokenCounter) -> str:
    text = f"[{nonce}] You are a helpful voice assistant. Use the pinned records below.\n"
    i = 0
    while counter.count(text) < target_tokens:
        i += 1
        text += FILLER.format(i=i, d=1 + i % 28)
    return text


async def one(router: LlmRouter, system: str, user: str, max_tokens: int) -> dict[str, Any]:
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    _, stats = await router.complete(messages, max_tokens=max_tokens, temperature=0.0)
    return stats.to_json()


def med(values: list[float | None]) -> float | None:
    real = [v for v in values if v is not None]
    return round(statistics.median(real), 1) if real else None


async def measure_model(model_id: str, reps: int, threads: int, cache_mb: int) -> dict[str, Any]:
    path = locate(model_id, default_model_dir())
    counter = TokenCounter.from_gguf(path)
    logdir = Path(tempfile.mkdtemp(prefix="llm-measure-"))
    server = LocalLlamaServer(
        path, log_path=logdir / "llama-server.log", port=18000 + os.getpid() % 1000, n_ctx=4096,
        n_threads=threads, model_alias=model_id, prompt_cache_mb=cache_mb,
    )  # fmt: skip
    await server.start()
    backend = OpenAIBackend(
        "local", base_url=server.base_url, model=model_id, timeout_s=120, extra_body={"cache_prompt": True}
    )
    router = LlmRouter([backend], token_counter=counter, max_retries=0)
    kinds = ("short_cold", "short_reuse", "long_cold", "long_reuse", "long_after_other", "decode")
    rows: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
    try:
        await one(router, "warm up", "Hi", 2)
        for _ in range(reps):
            nonce = uuid.uuid4().hex[:8]
            short_sys = f"[{nonce}] You are a helpful voice assistant. Answer in one short sentence."
            rows["short_cold"].append(await one(router, short_sys, "What is the capital of France?", 8))
            rows["short_reuse"].append(await one(router, short_sys, "And of Germany?", 8))
            system = long_system(nonce, 480, counter)
            rows["long_cold"].append(await one(router, system, "What database do I use?", 8))
            rows["long_reuse"].append(await one(router, system, "When do I want reminders?", 8))
            await one(router, f"[{nonce}] Extract facts as JSON.", "I like tea.", 8)  # an interleaved call
            rows["long_after_other"].append(await one(router, system, "Do I like short answers?", 8))
        story = "Tell me a long story about a dragon who learns to cook. Use many sentences."
        for _ in range(max(1, reps - 1)):
            rows["decode"].append(await one(router, "You are a storyteller.", story, 96))
    finally:
        await router.aclose()
        await server.stop()
    hits = server.log_path.read_text(errors="replace").count("prefix-match hit")
    cache_hits = server.log_path.read_text(errors="replace").count("cache hit")
    summary: dict[str, Any] = {"model": model_id, "threads": threads, "prompt_cache_mb": cache_mb,
                               "startup_ms": round(server.last_startup_ms or 0), "log_prefix_hits": hits,
                               "log_ram_cache_hits": cache_hits, "rate": router.rate.snapshot()}  # fmt: skip
    for key, values in rows.items():
        summary[key] = {
            "prompt_tokens": med([r["prompt_tokens"] for r in values]),
            "new_tokens_est": med([r["prompt_tokens"] - (r["cached_tokens"] or 0) for r in values]),
            "first_token_ms": med([r["first_token_ms"] for r in values]),
            "first_token_ms_min": min((r["first_token_ms"] or 1e9 for r in values), default=None),
            "decode_tok_s": med([r["decode_tokens_per_s"] for r in values]),
            "decode_tok_s_max": max((r["decode_tokens_per_s"] or 0 for r in values), default=None),
            "all_first_token_ms": [r["first_token_ms"] for r in values],
        }
    return summary


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", nargs="+", default=["smollm2-135m", "qwen2.5-coder-0.5b"])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cache-mb", type=int, nargs="+", default=[0])
    args = parser.parse_args()
    results = []
    for model in args.models:
        for cache_mb in args.cache_mb:
            results.append(await measure_model(model, args.reps, args.threads, cache_mb))
    print(json.dumps({"load_avg": os.getloadavg(), "results": results}, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
