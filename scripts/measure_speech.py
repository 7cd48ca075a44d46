"""Measure the speech stages on this machine (no LLM involved):

- ASR real-time factor on the LibriVox clips: whisper-base with our short-window decoding, whisper-base
  through faster-whisper's standard 30 s window, whisper-tiny-en;
- endpointing delay and final-transcript latency after the end of speech, with streaming (partials +
  speculative final decode at the pause) and without (one decode after the endpoint), on questions
  played in real time;
- TTS first-audio latency for typical first clauses (piper, espeak-ng).

    python scripts/measure_speech.py [--out speech.json] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.asr.whisper import WhisperRecognizer
from voice_agent.audio.files import FileSource, read_audio
from voice_agent.audio.resample import int16_to_float32, resample
from voice_agent.config import Config, load_config
from voice_agent.speech import SpeechStack
from voice_agent.tts.espeak import EspeakSynthesizer
from voice_agent.turn_detection import TurnDetector, UserTurn

LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
QUESTIONS = [
    "What is the weather going to be like tomorrow morning?",
    "Please remind me to call my sister on Friday.",
    "How many people live in Tokyo these days?",
    "Can you tell me what I said about my new job",
]
FIRST_CLAUSES = [
    "Sure, here is what I found,",
    "Tomorrow will be sunny and warm,",
    "You told me last week",
    "I will remind you on Friday.",
    "Your sister's birthday is in June.",
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "n": len(values),
        "p50": pct(values, 0.5),
        "p95": pct(values, 0.95),
        "mean": round(statistics.mean(values), 1),
    }


async def asr_rtf(config: Config, clips: list[np.ndarray]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for model in ("whisper-base", "whisper-tiny-en"):
        asr = WhisperRecognizer(config.asr.model_copy(update={"model": model}), config.model_dir)
        await asr.start()
        await asr.transcribe(clips[0])  # warm-up
        elapsed = sum([(await asr.transcribe(c)).elapsed_s for c in clips])
        out[model] = round(elapsed / (sum(len(c) for c in clips) / 16000), 3)
        if model == "whisper-base":
            fw = asr._model  # the same model through faster-whisper's standard path (30 s window)
            started = time.perf_counter()
            for clip in clips:
                segments, _ = fw.transcribe(clip, beam_size=config.asr.beam_size, vad_filter=False)
                list(segments)
            out["whisper-base (faster-whisper 30 s window, language detection)"] = round(
                (time.perf_counter() - started) / (sum(len(c) for c in clips) / 16000), 3
            )
    return out


async def turn_latency(
    config: Config, stack: SpeechStack, stream: np.ndarray, streaming: bool
) -> dict[str, Any]:
    cfg = config.model_copy(update={"asr": config.asr.model_copy(update={"streaming": streaming})})
    detector = TurnDetector(cfg, vad=stack.vad, recognizer=stack.recognizer)
    endpoint, final, decode, after_endpoint = [], [], [], []
    reasons: dict[str, int] = {}
    windows: dict[str, int] = {}
    waited: list[float] = []
    async for event in detector.events(FileSource(samples=stream, realtime=True)):
        if isinstance(event, UserTurn):
            u = event.utterance
            endpoint.append((u.endpoint_ns - u.speech_end_ns) / 1e6)
            final.append((event.final.end_ns - u.speech_end_ns) / 1e6)
            after_endpoint.append((event.final.end_ns - u.endpoint_ns) / 1e6)
            decode.append((event.final.end_ns - event.final.start_ns) / 1e6)
            reasons[event.endpoint_reason] = reasons.get(event.endpoint_reason, 0) + 1
            window = str(event.result.attrs.get("window", "?"))
            windows[window] = windows.get(window, 0) + 1
            waited.append(float(event.result.attrs.get("waited_s", 0.0)) * 1000)
    return {
        "endpoint_ms": summary(endpoint),
        "final_transcript_after_speech_end_ms": summary(final),
        "final_transcript_after_endpoint_ms": summary(after_endpoint),
        "final_decode_ms": summary(decode),
        "endpoint_reasons": reasons,
        "final_decode_windows": windows,
        "final_decode_waited_for_model_ms": summary(waited),
    }


async def tts_first_audio(stack: SpeechStack) -> dict[str, Any]:
    espeak = EspeakSynthesizer()
    await espeak.start()
    out: dict[str, Any] = {}
    for name, voice in (("piper", stack.synthesizer), ("espeak-ng", espeak)):
        times = []
        for text in FIRST_CLAUSES * 2:
            started = time.perf_counter()
            async for _ in voice.synthesize(text, language="en"):
                times.append((time.perf_counter() - started) * 1000)
                break
        out[name] = summary(times[len(FIRST_CLAUSES) // 2 :])  # skip warm-up
    return out


async def main(args: argparse.Namespace) -> int:
    config = load_config()
    stack = SpeechStack.from_config(config)
    await stack.start()
    refs = sorted(await asyncio.to_thread(lambda: list(LIBRIVOX.glob("*.wav"))))
    clips = [read_audio(p) for p in refs]
    report: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "load_avg_1m_start": os.getloadavg()[0]}}
    report["asr_real_time_factor"] = await asr_rtf(config, clips)
    questions = []
    for text in QUESTIONS:
        pieces = [
            resample(int16_to_float32(c.pcm), c.sample_rate_hz, 16000)
            async for c in stack.synthesizer.synthesize(text)
        ]
        questions.append(np.concatenate(pieces))
    spoken = (questions + clips[:2]) if args.quick else (questions + clips)
    gap = np.zeros(int(1.5 * 16000), dtype=np.float32)
    stream = np.concatenate([x for q in spoken for x in (gap, q)] + [gap])
    report["turns"] = {
        "streaming": await turn_latency(config, stack, stream, True),
        "one decode after the endpoint": await turn_latency(config, stack, stream, False),
    }
    report["tts_first_audio_ms"] = await tts_first_audio(stack)
    report["machine"]["load_avg_1m_end"] = os.getloadavg()[0]
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        await asyncio.to_thread(Path(args.out).write_text, text + "\n")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", help="write the JSON report here too")
    parser.add_argument("--quick", action="store_true", help="fewer spoken questions")
    sys.exit(asyncio.run(main(parser.parse_args())))
