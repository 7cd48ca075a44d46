#!/usr/bin/env python3
"""Load test for the kiosk service on loopback: N simulated clients talking at once, real audio.

    python scripts/kiosk_load.py --url ws://127.0.0.1:8080/ws [--clients 4] [--duration-s 180]
    python scripts/kiosk_load.py --spawn --config config/kiosk.toml [--data-dir DIR] [--clients 4] ...
                                 [--token-env NAME] [--json OUT]

Each client is its own visitor: it speaks real speech (the piper voice) in real time over the WebSocket,
its microphone sending silence between utterances like a browser's. It alternates planting a canary
("my secret word is <word>", a word unique to it) and asking for it back. Reported: turns completed and
their outcomes, voice-to-voice p50/p95 (as the client saw it: last speech frame sent → first reply audio
received; and as the server measured it), errors, the server's resident memory before/after (from
/metrics), and cross-talk: any other client's canary word in anything a client received. Exit 1 when
there was cross-talk or a client failed.

Bounded on purpose: loopback only, at most 16 clients and 15 minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from voice_agent.server.metrics import parse_text
from voice_agent.server.simclient import SimClient, TurnRecord

CANARIES = (
    "pineapple", "volcano", "giraffe", "saxophone", "lighthouse", "cucumber", "umbrella", "kangaroo",
    "dinosaur", "telescope", "waterfall", "snowman", "butterfly", "pyramid", "submarine", "tornado",
)  # fmt: skip
MAX_CLIENTS = len(CANARIES)
MAX_DURATION_S = 900.0
WARMUP_S = 60.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass
class ClientReport:
    index: int
    canary: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cross_talk: list[str] = field(default_factory=list)
    own_canary_heard: int = 0
    closed: str | None = None


async def speech_for(clients: int) -> list[dict[str, np.ndarray]]:
    from voice_agent.audio.resample import int16_to_float32, resample
    from voice_agent.config import load_config
    from voice_agent.tts.router import TtsRouter

    config = load_config(env={})
    tts = TtsRouter(config.tts, config.model_dir)
    await tts.start()

    async def say(text: str) -> np.ndarray:
        parts = [
            resample(int16_to_float32(c.pcm), c.sample_rate_hz, 16_000) async for c in tts.synthesize(text)
        ]
        return np.concatenate([np.zeros(6400, np.float32), *parts]).astype(np.float32)

    ask = await say("What is my secret word?")
    out = []
    for i in range(clients):
        out.append({"plant": await say(f"Please remember that my secret word is {CANARIES[i]}."), "ask": ask})
    await tts.close()
    return out


async def run_client(
    index: int,
    url: str,
    token: str | None,
    audio: dict[str, np.ndarray],
    deadline: float,
    turn_timeout_s: float,
) -> ClientReport:
    report = ClientReport(index, CANARIES[index])
    client = SimClient(url, token=token)
    try:
        await client.connect()
    except Exception as err:  # a refused client is a result, not a crash of the load test
        report.errors.append(f"connect: {type(err).__name__}: {err}")
        return report
    try:
        step = 0
        while time.monotonic() < deadline and client.closed is None:
            kind = "plant" if step % 2 == 0 else "ask"
            record: TurnRecord = await client.say(audio[kind], timeout_s=turn_timeout_s)
            report.turns.append({"kind": kind, **asdict(record)})
            if record.timed_out:
                report.errors.append(f"turn {step} timed out")
            elif record.outcome == "error":
                report.errors.append(f"turn {step} outcome error")
            step += 1
            await asyncio.sleep(1.0)
    finally:
        await client.close()
        report.errors += [f"event error: {e.get('code')}" for e in client.events if e.get("type") == "error"]
        if client.closed is not None and client.closed[0] not in (None, 1000):
            report.closed = f"{client.closed[0]} {client.closed[1]}"
        report.own_canary_heard = sum(
            report.canary in s.lower() for t in report.turns if t["kind"] == "ask" for s in t["says"]
        )
        report.cross_talk = [
            f"{word} in {text!r}"
            for text in client.texts
            for word in CANARIES
            if word != report.canary and word in text.lower()
        ]
    return report


async def server_metrics(base: str) -> dict[str, float]:
    import httpx

    async with httpx.AsyncClient(timeout=10) as http:
        return parse_text((await http.get(base + "/metrics")).text)


async def sample_memory(base: str, out: list[tuple[float, float]], stop: asyncio.Event) -> None:
    """(seconds since start, resident MB) every 5 s."""
    started = time.monotonic()
    while not stop.is_set():
        try:
            rss = (await server_metrics(base)).get("process_resident_memory_bytes")
            if rss:
                out.append((round(time.monotonic() - started, 1), rss / 2**20))
        except Exception:  # the server is busy; skip one sample
            pass
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 5.0)


def percentile(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 1) if values else None


def summarize(reports: list[ClientReport], series: list[tuple[float, float]], wall_s: float,
              before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:  # fmt: skip
    turns = [t for r in reports for t in r.turns if not t["timed_out"]]
    rss = [mb for _, mb in series]
    # after the first minute every lazily loaded model part is in memory: growth from there is the leak
    warm = next((mb for t, mb in series if t >= WARMUP_S), None)
    client_v2v = [t["client_v2v_ms"] for t in turns if t["client_v2v_ms"] is not None]
    server_v2v = [t["server_v2v_ms"] for t in turns if t["server_v2v_ms"] is not None]
    outcomes: dict[str, int] = {}
    for t in turns:
        outcomes[t["outcome"]] = outcomes.get(t["outcome"], 0) + 1
    errors_by_stage = {
        k.split('stage="')[1].rstrip('"}'): v - before.get(k, 0.0)
        for k, v in after.items()
        if k.startswith("voice_agent_errors_total{")
    }
    return {
        "clients": len(reports),
        "wall_s": round(wall_s, 1),
        "turns_completed": len(turns),
        "turns_by_outcome": outcomes,
        "turns_timed_out": sum(t["timed_out"] for r in reports for t in r.turns),
        "client_v2v_ms": {"p50": percentile(client_v2v, 50), "p95": percentile(client_v2v, 95)},
        "server_v2v_ms": {"p50": percentile(server_v2v, 50), "p95": percentile(server_v2v, 95)},
        "errors": [f"client {r.index}: {e}" for r in reports for e in r.errors],
        "server_errors_by_stage": errors_by_stage,
        "unexpected_closes": [f"client {r.index}: {r.closed}" for r in reports if r.closed],
        "rss_mb": {
            "start": round(rss[0], 1) if rss else None,
            "end": round(rss[-1], 1) if rss else None,
            "max": round(max(rss), 1) if rss else None,
            "growth": round(rss[-1] - rss[0], 1) if rss else None,
            f"after_{WARMUP_S:.0f}s": round(warm, 1) if warm is not None else None,
            "growth_after_warmup": round(rss[-1] - warm, 1) if warm is not None else None,
        },
        "rss_series_mb": [[t, round(mb, 1)] for t, mb in series],
        "cross_talk": [f"client {r.index}: {c}" for r in reports for c in r.cross_talk],
        "own_canary_recalled": sum(r.own_canary_heard for r in reports),
        "asks": sum(1 for t in turns if t["kind"] == "ask"),
    }


async def load_test(
    url: str, clients: int, duration_s: float, token: str | None, turn_timeout_s: float
) -> dict[str, Any]:
    parts = urlsplit(url)
    base = f"http://{parts.netloc}"
    audio = await speech_for(clients)
    before = await server_metrics(base)
    rss: list[tuple[float, float]] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(base, rss, stop))
    started = time.monotonic()
    deadline = started + duration_s
    reports = await asyncio.gather(
        *(run_client(i, url, token, audio[i], deadline, turn_timeout_s) for i in range(clients))
    )
    wall = time.monotonic() - started
    stop.set()
    await sampler
    after = await server_metrics(base)
    if after.get("process_resident_memory_bytes"):
        rss.append((round(wall, 1), after["process_resident_memory_bytes"] / 2**20))
    summary = summarize(list(reports), rss, wall, before, after)
    summary["per_client"] = [asdict(r) for r in reports]
    return summary


def spawn(config: str, data_dir: str | None) -> tuple[subprocess.Popen[bytes], str]:
    from voice_agent.config import load_config

    port = load_config(config, env={}).server.port
    command = [sys.executable, "-m", "voice_agent", "serve", "--config", config]
    if data_dir:
        command += ["--data-dir", data_dir]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sys.stderr)
    import httpx

    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"serve exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                return proc, f"ws://127.0.0.1:{port}/ws"
        except httpx.HTTPError:
            pass
        time.sleep(1)
    proc.kill()
    raise SystemExit("serve did not become healthy")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="the service's WebSocket (loopback only)")
    parser.add_argument("--spawn", action="store_true", help="start `voice-agent serve --config` itself")
    parser.add_argument("--config", help="with --spawn")
    parser.add_argument("--data-dir", help="with --spawn")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--duration-s", type=float, default=180.0)
    parser.add_argument("--turn-timeout-s", type=float, default=120.0)
    parser.add_argument("--token-env", help="env var holding the service's token")
    parser.add_argument("--json", metavar="OUT", help="write the full report here")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be within 1..{MAX_CLIENTS}")
    if not 0 < args.duration_s <= MAX_DURATION_S:
        parser.error(f"--duration-s must be within (0, {MAX_DURATION_S:.0f}]")
    proc = None
    if args.spawn:
        if not args.config:
            parser.error("--spawn needs --config")
        proc, url = spawn(args.config, args.data_dir)
    elif args.url:
        url = args.url
    else:
        parser.error("give --url or --spawn --config FILE")
    if urlsplit(url).hostname not in LOOPBACK:
        parser.error("the load test only runs against a loopback address")
    token = os.environ.get(args.token_env) if args.token_env else None
    try:
        report = asyncio.run(load_test(url, args.clients, args.duration_s, token, args.turn_timeout_s))
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    brief = {k: v for k, v in report.items() if k not in ("per_client", "rss_series_mb")}
    print(json.dumps(brief, indent=2))
    failed = report["cross_talk"] or report["unexpected_closes"] or report["turns_completed"] == 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
