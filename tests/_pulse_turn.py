"""Child process of the PulseAudio test: one live voice session on the default microphone and speaker
(PortAudio → ALSA → PulseAudio), answering with a fixed reply. Prints READY once both devices run,
writes what happened as JSON and exits after ``--turns`` answered turns (or ``--timeout`` seconds).

Run in its own process so that PortAudio enumerates the devices of the test's PulseAudio server."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import contextlib

from _speech_support import ScriptedResponder

from voice_agent.audio.devices import MicrophoneSource, SpeakerSink
from voice_agent.config import load_config
from voice_agent.session import TurnResult, VoiceSession
from voice_agent.speech import SpeechStack


async def main(args: argparse.Namespace) -> int:
    config = load_config(env={})
    speech = SpeechStack.from_config(config)
    await speech.start()
    responder = ScriptedResponder(args.reply)
    sink = SpeakerSink()
    await sink.start()
    mic = MicrophoneSource()
    results: list[TurnResult] = []
    done = asyncio.Event()

    def on_turn(result: TurnResult) -> None:
        results.append(result)
        if len(results) >= args.turns:
            done.set()

    session = VoiceSession(
        config, responder=responder, conversation_id="pulse", speech=speech, on_turn=on_turn
    )
    task = asyncio.create_task(session.run(mic, sink))
    await asyncio.sleep(0.5)  # the microphone stream is open and flowing
    print("READY", flush=True)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), args.timeout)
    await asyncio.sleep(0.5)  # commits run on their own tasks
    task.cancel()
    await asyncio.wait({task})
    await mic.close()
    await sink.close()
    out = {
        "turns": [
            {
                "user_text": r.user_text,
                "spoken_text": r.spoken_text,
                "interrupted": r.interrupted,
                "error": r.error,
                "summary": r.summary(),
                "trace": r.trace.to_record(),
            }
            for r in results
        ],
        "commits": responder.commits,
        "mic_overflows": mic.overflows,
    }
    await asyncio.to_thread(Path(args.out).write_text, json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--reply", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--turns", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0)
    sys.exit(asyncio.run(main(parser.parse_args())))
