"""`voice-agent speak TEXT --output f.wav [--voice piper|espeak|edge] [--language CODE]`."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from voice_agent.cli.common import add_command, config_from_args, print_json, run_async
from voice_agent.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = add_command(sub, "speak", "Synthesise TEXT to a WAV file", _run)
    parser.add_argument("text", metavar="TEXT", help="what to say ('-' reads standard input)")
    parser.add_argument("--output", "-o", required=True, metavar="FILE", help="WAV file to write")
    parser.add_argument(
        "--voice", choices=["piper", "espeak", "edge"], help="default: tts.backend (edge falls back to local)"
    )
    parser.add_argument("--language", metavar="CODE", help="e.g. en, zh; default: from the text's script")


def _run(args: argparse.Namespace) -> int:
    return run_async(_speak(args))


async def _speak(args: argparse.Namespace) -> int:
    from voice_agent.audio.files import write_wav
    from voice_agent.audio.resample import float32_to_int16, int16_to_float32, resample
    from voice_agent.text.sentences import SentenceSplitter
    from voice_agent.tts.router import TtsRouter

    text = sys.stdin.read() if args.text == "-" else args.text
    if not text.strip():
        raise InputError("nothing to say: TEXT is empty")
    config = config_from_args(args)
    tts = config.tts.model_copy(update={"backend": args.voice}) if args.voice else config.tts
    router = TtsRouter(tts, config.model_dir)
    await router.start()
    splitter = SentenceSplitter(first_clause_min_words=tts.first_clause_min_words)
    sentences = splitter.push(text) + splitter.flush()
    rate = router.sample_rate_hz
    pieces: list[np.ndarray] = []
    backends: set[str] = set()
    started = time.perf_counter()
    first_audio_s: float | None = None
    for sentence in sentences:
        async for chunk in router.synthesize(
            sentence.text, language=args.language, sentence_index=sentence.index
        ):
            first_audio_s = first_audio_s if first_audio_s is not None else time.perf_counter() - started
            backends.add(chunk.meta.get("backend", ""))
            samples = resample(int16_to_float32(chunk.pcm), chunk.sample_rate_hz, rate)
            pieces.append(float32_to_int16(samples))
    elapsed_s = time.perf_counter() - started
    await router.close()
    pcm = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int16)
    path = write_wav(args.output, pcm, rate)
    info = {
        "output": str(path),
        "sample_rate_hz": rate,
        "duration_s": round(len(pcm) / rate, 3),
        "sentences": len(sentences),
        "voices": sorted(backends),
        "first_audio_s": round(first_audio_s or 0.0, 3),
        "elapsed_s": round(elapsed_s, 3),
        "fallbacks": router.fallbacks,
    }
    if args.json:
        print_json(info)
    else:
        print(
            f"wrote {path} ({info['duration_s']} s, {', '.join(sorted(backends))}); "
            f"first audio after {info['first_audio_s']} s, all in {info['elapsed_s']} s"
        )
        for reason in router.fallbacks:
            print(f"fallback: {reason}", file=sys.stderr)
    return 0
