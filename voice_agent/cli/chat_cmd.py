"""`voice-agent chat`: a text conversation with memory (REPL, or one turn with --once)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from voice_agent.cli.common import add_command, config_from_args, print_json, run_async
from voice_agent.cli.ids import OperatorIds
from voice_agent.config import Config
from voice_agent.errors import VoiceAgentError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = add_command(
        sub, "chat", "Text conversation with memory (a REPL, or one turn with --once TEXT)", _chat
    )
    parser.add_argument(
        "--conversation", default="default", help="conversation id: everything is kept under it"
    )
    parser.add_argument("--user", default=None, help="optional user id")
    parser.add_argument("--once", metavar="TEXT", help="answer one turn and exit")


def _chat(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    return run_async(_run(config, args))


async def _run(config: Config, args: argparse.Namespace) -> int:
    from voice_agent.assistant import Assistant

    # What the operator typed is stored, logged and traced only as the install's keyed hash.
    ids = OperatorIds.for_config(config)
    conversation, user = ids.conversation(args.conversation), ids.user(args.user)
    async with await Assistant.open(config, user_id=user) as assistant:
        if args.once is not None:
            reply = await assistant.chat_turn(conversation, args.once)
            if args.json:
                print_json(reply.to_json())
            else:
                print(reply.text)
            return 0
        await assistant.engine.prefill(conversation)
        print(
            f"conversation {args.conversation!r}: type a message; "
            "/pinned lists what is remembered, /quit ends"
        )
        while True:
            try:
                line = (await asyncio.to_thread(input, "you> ")).strip()
            except EOFError:
                return 0
            if not line:
                continue
            if line in {"/quit", "/exit"}:
                return 0
            if line == "/pinned":
                for number, record in enumerate(await assistant.memory.pinned(conversation), 1):
                    print(f"  {number}. ({record.kind}) {record.text}")
                continue
            try:
                reply = await assistant.chat_turn(conversation, line)
            except VoiceAgentError as err:  # keep the REPL alive; the error is shown
                print(f"error: {err}", file=sys.stderr)
                continue
            print(f"assistant> {reply.text}")
