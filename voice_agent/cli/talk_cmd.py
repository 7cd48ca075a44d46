"""`voice-agent talk`: live from the microphone, or file in → reply WAV out (the same code path)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from voice_agent.cli.common import add_command, config_from_args, print_json, run_async
from voice_agent.cli.ids import OperatorIds
from voice_agent.config import Config


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = add_command(
        sub,
        "talk",
        "Talk to the assistant: live from the microphone, or --input in.wav --output out.wav",
        _talk,
    )
    parser.add_argument(
        "--input", metavar="FILE", help="WAV/FLAC/MP3 to answer (file mode; several turns ok)"
    )
    parser.add_argument("--output", metavar="FILE", help="WAV of the replies (file mode)")
    parser.add_argument("--conversation", default="default", help="conversation id (memory is kept under it)")
    parser.add_argument("--user", default=None, help="optional user id")
    parser.add_argument("--trace", metavar="FILE", help="append per-turn traces (JSONL) here too")
    parser.add_argument(
        "--realtime", action="store_true", help="file mode: pace input and output like devices"
    )
    parser.add_argument("--input-device", default=None, help="live mode: microphone name or index")
    parser.add_argument("--output-device", default=None, help="live mode: speaker name or index")


def _talk(args: argparse.Namespace) -> int:
    if bool(args.input) != bool(args.output):
        print("voice-agent: file mode needs both --input and --output", file=sys.stderr)
        return 2
    if args.input and not Path(args.input).is_file():
        print(f"voice-agent: error: input file not found: {args.input}", file=sys.stderr)
        return 1
    return run_async(_run(config_from_args(args), args))


async def _run(config: Config, args: argparse.Namespace) -> int:
    from voice_agent.assistant import Assistant
    from voice_agent.metrics.trace import TraceWriter
    from voice_agent.session import TurnResult, VoiceSession
    from voice_agent.speech import SpeechStack

    # What the operator typed is stored, logged and traced only as the install's keyed hash.
    ids = OperatorIds.for_config(config)
    conversation, user = ids.conversation(args.conversation), ids.user(args.user)
    source, sink = await _audio_ends(config, args)
    stack = SpeechStack.from_config(config)
    reports: list[dict[str, Any]] = []
    async with await Assistant.open(config, user_id=user) as assistant:
        await asyncio.gather(stack.start(), assistant.engine.prefill(conversation))
        writer = TraceWriter(args.trace) if args.trace else assistant.traces

        def on_turn(result: TurnResult) -> None:
            report = _turn_report(result, assistant)
            reports.append(report)
            if not args.json:
                _print_turn(report)

        session = VoiceSession(
            config,
            responder=assistant.engine,
            conversation_id=conversation,
            speech=stack,
            guard=assistant.guard,
            trace_writer=writer,
            on_turn=on_turn,
        )
        if source.is_live and not args.json:
            print("listening… (Ctrl-C to stop)", file=sys.stderr)
        try:
            await session.run(source, sink)
        finally:
            await source.close()
            await sink.close()
            await stack.close()
    if args.json:
        print_json({"conversation_id": conversation, "output": args.output, "turns": reports})
    elif not reports:
        print("no speech found in the input: no turn (silence, noise or too short)")
    elif args.output:
        print(f"reply audio: {args.output}")
    return 0


async def _audio_ends(config: Config, args: argparse.Namespace) -> tuple[Any, Any]:
    if args.input:
        from voice_agent.speech import file_io

        return file_io(args.input, args.output, realtime=args.realtime)
    from voice_agent.speech import device_io

    return await device_io(args.input_device, args.output_device)


def _turn_report(result: Any, assistant: Any) -> dict[str, Any]:
    last = assistant.engine.last
    return {
        "turn_id": result.turn_id,
        "transcript": result.user_text,
        "language": result.language,
        "recalled": [r.text for r in last.retrieved],
        "pinned": [r.text for r in last.pinned],
        "reply": result.reply_text,
        "spoken": result.spoken_text,
        "interrupted": result.interrupted,
        "loopback_flagged": result.flagged_sentences,
        "error": result.error,
        "latency": result.summary(),
        "trace": result.trace.to_record(),
    }


def _print_turn(report: dict[str, Any]) -> None:
    print(f"you ({report['language']}): {report['transcript']}")
    if report["pinned"]:
        print(f"  pinned: {len(report['pinned'])} remembered item(s): " + " | ".join(report["pinned"][:3]))
    recalled = report["recalled"]
    print(
        f"  recalled: {len(recalled)} memory record(s)"
        + (": " + " | ".join(recalled[:3]) if recalled else "")
    )
    print(f"assistant: {report['spoken'] or report['reply']}")
    print(f"  {report['latency']}")
