"""`voice-agent memory`: add, search, list, forget, export, import, ingest (LoCoMo), purge.

Every subcommand takes --data-dir (where memory.sqlite3 lives) and --json (machine-readable output).
Text is scrubbed before it is stored, searched or printed: PII is only ever shown as placeholders.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from voice_agent.cli.common import add_command, common_options, config_from_args, print_json, run_async
from voice_agent.errors import InputError

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([dhw]?)\s*$")


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_command(sub, "memory", "Inspect and manage stored memories", _help)
    actions = parser.add_subparsers(dest="memory_action", metavar="ACTION")
    parent = common_options()

    def action(name: str, help_text: str, handler: Any) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = actions.add_parser(
            name, help=help_text, description=help_text, parents=[parent]
        )
        p.set_defaults(handler=handler)
        return p

    p = action("add", "Remember one utterance (scrubbed, chunked, embedded, stored)", _add)
    p.add_argument("--conversation", required=True, metavar="ID")
    p.add_argument("--role", default="user", choices=["user", "assistant", "system"])
    p.add_argument("--text", required=True)
    p.add_argument("--source", default="", help="turn id this came from")
    p.add_argument("--speaker", help="who said it (stored as a name placeholder)")
    p.add_argument("--kind", default="utterance")
    p.add_argument("--subject", help="subject key: a new fact/decision on it supersedes the old one")

    p = action(
        "search", "Retrieve what a conversation's memory holds about a query, within a token budget", _search
    )
    p.add_argument("--conversation", required=True, metavar="ID")
    p.add_argument("--query", required=True)
    p.add_argument("--budget-tokens", type=int, default=None, help="default: memory.budget_cap_tokens")

    p = action("list", "List a conversation's records (or the conversations, without --conversation)", _list)
    p.add_argument("--conversation", metavar="ID")
    p.add_argument("--kind", action="append", help="only these kinds (repeatable)")
    p.add_argument("--limit", type=int, default=50)

    p = action("forget", "Forget records by id, by what a query matches, or a whole conversation", _forget)
    p.add_argument("--conversation", required=True, metavar="ID")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--id", action="append", dest="ids", metavar="RECORD_ID")
    which.add_argument("--query")
    which.add_argument("--all", action="store_true", help="the whole conversation, vault values included")

    p = action("export", "Export a conversation as JSON (scrubbed text, no vault values)", _export)
    p.add_argument("--conversation", required=True, metavar="ID")
    p.add_argument("--out", metavar="FILE", help="default: stdout")

    p = action("import", "Import an export file (re-scrubbed and re-embedded)", _import)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--conversation", metavar="ID", help="import into this conversation instead")

    p = action("ingest", "Write a dataset through the full write path", _ingest)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", required=True, choices=["locomo"])

    p = action("purge", "Remove records older than a duration (e.g. 30d, 12h, 2w)", _purge)
    p.add_argument("--older-than", required=True, metavar="DURATION")


def _help(args: argparse.Namespace) -> int:
    print(
        "usage: voice-agent memory {add,search,list,forget,export,import,ingest,purge} ...", file=sys.stderr
    )
    return 2


async def _open(args: argparse.Namespace) -> Any:
    from voice_agent.memory.service import Memory

    return await Memory.open(config_from_args(args))


async def _turn_log(args: argparse.Namespace) -> Any:
    """The conversation turn log in the same data directory (forget/purge clear it too)."""
    from voice_agent.conversation.turns import TurnLog

    log = TurnLog(config_from_args(args).store_path())
    await log.open()
    return log


def _records_out(records: list[Any]) -> list[dict[str, Any]]:
    return [r.to_json() for r in records]


def _add(args: argparse.Namespace) -> int:
    async def run() -> int:
        memory = await _open(args)
        try:
            records = await memory.remember(
                args.conversation, args.role, args.text, source=args.source, speaker=args.speaker,
                kind=args.kind, subject=args.subject,
            )  # fmt: skip
        finally:
            await memory.close()
        if args.json:
            print_json({"conversation": args.conversation, "records": _records_out(records)})
        else:
            print(f"stored {len(records)} record(s) in conversation {args.conversation}")
            for r in records:
                print(f"  {r.id}  {r.text}")
        return 0

    return run_async(run())


def _search(args: argparse.Namespace) -> int:
    async def run() -> int:
        memory = await _open(args)
        budget = (
            args.budget_tokens if args.budget_tokens is not None else memory.config.memory.budget_cap_tokens
        )
        try:
            result = await memory.recall(args.conversation, args.query, budget_tokens=budget)
        finally:
            await memory.close()
        if args.json:
            print_json(result.to_json())
            return 0
        used = f"{result.tokens_used}/{result.budget_tokens}"
        print(f"{len(result.items)} item(s), {used} tokens; cut: {result.cut_counts()}")
        for item in result.items:
            r = item.record
            who = r.speaker or r.role
            print(f"  {item.score:6.3f}  [{r.source}] {who}: {r.text}   ({item.why})")
        return 0

    return run_async(run())


def _list(args: argparse.Namespace) -> int:
    async def run() -> int:
        memory = await _open(args)
        try:
            if not args.conversation:
                conversations = await memory.store.conversations()
                records = None
            else:
                records = await memory.list(args.conversation, kinds=args.kind, limit=args.limit)
        finally:
            await memory.close()
        if records is None:
            print_json({"conversations": conversations}) if args.json else print("\n".join(conversations))
            return 0
        if args.json:
            print_json({"conversation": args.conversation, "records": _records_out(records)})
        else:
            for r in records:
                print(f"{r.id}  {r.kind:9} {r.status:10} [{r.source}] {r.speaker or r.role}: {r.text}")
        return 0

    return run_async(run())


def _forget(args: argparse.Namespace) -> int:
    async def run() -> int:
        memory = await _open(args)
        try:
            if args.all:
                removed = await memory.forget(args.conversation)
                turns = await _turn_log(args)
                try:
                    await turns.forget(args.conversation)
                finally:
                    await turns.close()
            elif args.query is not None:
                removed = await memory.forget(args.conversation, query=args.query)
            else:
                removed = await memory.forget(args.conversation, ids=args.ids)
        finally:
            await memory.close()
        print_json({"removed": removed}) if args.json else print(f"forgot {removed} record(s)")
        return 0

    return run_async(run())


def _export(args: argparse.Namespace) -> int:
    async def run() -> int:
        memory = await _open(args)
        try:
            document = await memory.export(args.conversation)
        finally:
            await memory.close()
        text = json.dumps(document, ensure_ascii=False, indent=2)
        if args.out:
            await asyncio.to_thread(Path(args.out).write_text, text + "\n", encoding="utf-8")
            summary = {"out": args.out, "records": len(document["records"])}
            print_json(summary) if args.json else print(
                f"exported {summary['records']} record(s) to {args.out}"
            )
        else:
            sys.stdout.write(text + "\n")
        return 0

    return run_async(run())


def _import(args: argparse.Namespace) -> int:
    try:
        document = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise InputError(f"file not found: {args.file}") from err
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"{args.file} is not a JSON export: {err}") from err

    async def run() -> int:
        memory = await _open(args)
        try:
            report = await memory.import_(document, conversation_id=args.conversation)
        finally:
            await memory.close()
        if args.json:
            print_json(report.to_json())
        else:
            failed = len(report.failed)
            print(f"imported {report.imported}, skipped {report.skipped} already present, failed {failed}")
            for line in report.failed[:20]:
                print(f"  {line}")
        return 0 if not report.failed else 1

    return run_async(run())


def _ingest(args: argparse.Namespace) -> int:
    from voice_agent.bench.dataset import load_locomo
    from voice_agent.bench.report import Progress

    dataset = load_locomo(args.file)

    async def run() -> int:
        memory = await _open(args)
        stored = 0
        skipped: Counter[str] = Counter(dataset.skipped)
        bar = Progress("ingest", dataset.turns)
        try:
            for sample in dataset.samples:
                for turn in sample.turns:
                    try:
                        records = await memory.remember(
                            sample.sample_id, "user", turn.text, source=turn.dia_id,
                            speaker=turn.speaker or None, created_at=turn.created_at,
                        )  # fmt: skip
                        stored += len(records)
                        if not records:
                            skipped["turn_empty"] += 1
                    except InputError as err:
                        skipped[f"turn_rejected: {str(err)[:60]}"] += 1
                    bar.advance()
        finally:
            bar.close()
            await memory.close()
        summary = {
            "conversations": [s.sample_id for s in dataset.samples],
            "turns": dataset.turns,
            "records": stored,
            "skipped": dict(skipped),
        }
        if args.json:
            print_json(summary)
        else:
            conversations = len(dataset.samples)
            print(f"ingested {dataset.turns} turns of {conversations} conversation(s) as {stored} records")
            for reason, count in sorted(skipped.items()):
                print(f"  skipped {count}: {reason}")
        return 0

    return run_async(run())


def parse_duration_days(text: str) -> float:
    """``30d`` / ``12h`` / ``2w`` / ``30`` (days) → days."""
    m = _DURATION.match(text)
    if not m or float(m.group(1)) <= 0:
        raise InputError(f"--older-than: {text!r} is not a duration like 30d, 12h or 2w")
    value, unit = float(m.group(1)), m.group(2) or "d"
    return value * {"d": 1.0, "h": 1 / 24, "w": 7.0}[unit]


def _purge(args: argparse.Namespace) -> int:
    days = parse_duration_days(args.older_than)

    async def run() -> int:
        memory = await _open(args)
        try:
            removed = await memory.purge_older_than(days)
            turns = await _turn_log(args)
            try:
                await turns.purge_older_than(days)
            finally:
                await turns.close()
        finally:
            await memory.close()
        print_json({"removed": removed, "older_than_days": days}) if args.json else print(
            f"removed {removed} record(s) older than {days:g} day(s)"
        )
        return 0

    return run_async(run())
