"""`voice-agent transcribe FILE [--json] [--model ID] [--language CODE]`."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

from voice_agent.cli.common import add_command, config_from_args, print_json, run_async

if TYPE_CHECKING:
    from voice_agent.asr.base import AsrResult


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = add_command(
        sub,
        "transcribe",
        "Transcribe an audio file (WAV/FLAC/MP3/...): text, language, segments, word timings",
        _run,
    )
    parser.add_argument("file", metavar="FILE", help="audio file")
    parser.add_argument("--model", choices=["whisper-base", "whisper-tiny-en"], help="default: asr.model")
    parser.add_argument("--language", metavar="CODE", help="force a language (e.g. en, zh); default: detect")


def _run(args: argparse.Namespace) -> int:
    return run_async(_transcribe(args))


async def _transcribe(args: argparse.Namespace) -> int:
    from voice_agent.asr.whisper import WhisperRecognizer
    from voice_agent.audio.files import read_audio

    config = config_from_args(args)
    updates: dict[str, Any] = {}
    if args.model:
        updates["model"] = args.model
    if args.language:
        updates["language"] = args.language
    asr = config.asr.model_copy(update=updates)
    audio = read_audio(args.file)  # clear InputError on a missing, empty or corrupt file, before loading
    recognizer = WhisperRecognizer(asr, config.model_dir)
    started = time.perf_counter()
    await recognizer.start()
    load_s = time.perf_counter() - started
    result = await recognizer.transcribe(audio, language=asr.language)
    await recognizer.close()
    if args.json:
        print_json({"file": args.file, "model": asr.model, "load_s": round(load_s, 3), **result.to_json()})
    else:
        print(result.text)
        if not result.text:
            print("\n".join(why_no_text(result)))
        print(
            f"[{result.language} p={result.language_probability:.2f}, {result.duration_s:.1f} s of audio "
            f"in {result.elapsed_s:.2f} s, real-time factor {result.real_time_factor:.2f}, model {asr.model}]"
        )
    return 0


def why_no_text(result: AsrResult) -> list[str]:
    """Lines saying why a transcript is empty: each dropped segment and the rule that dropped it."""
    if not result.dropped_segments:
        return ["[no speech: the decoder produced no words]"]
    count = len(result.dropped_segments)
    lines = [f"[no speech: {count} segment{'s' if count > 1 else ''} dropped as not speech]"]
    for dropped in result.dropped_segments:
        seg = dropped.segment
        lines.append(f"  {seg.start_s:.2f}-{seg.end_s:.2f} s {seg.text!r}: {dropped.rule} ({dropped.detail})")
    return lines
