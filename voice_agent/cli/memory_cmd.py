"""`voice-agent memory`: add, search, list, forget, export, import, ingest (LoCoMo), purge, consolidate.

Every subcommand takes --data-dir (where memory.sqlite3 lives) and --json (machine-readable output).
Text is scrubbed before it is stored, searched or printed: PII is only ever shown as placeholders.
Conversation and user ids the operator types are stored, listed and traced only as the install's keyed
hash (``cli/ids.py``): the same ``--conversation X`` reaches the same conversation every time.
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
from voice_agent.cli.ids import OperatorIds, is_stored_form
from voice_agent.errors import InputError
from voice_agent.memory.writes import WriteRequest

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([dhw]?)\s*$")


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_command(sub, "memory", "Inspect and manage stored memories", _help)
    actions = parser.add_subparsers(dest="memory_action", metavar="ACTION")
    parent = common_options(nested=True)

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

    p = action(
        "consolidate", "Condense old clauses into summary records (their sources kept on disk)", _consolidate
    )
    p.add_argument("--conversation", metavar="ID", help="default: every conversation")
    p.add_argument("--dry-run", action="store_true", help="report what would be condensed; change nothing")
    p.add_argument("--horizon-days", type=float, help="default: memory.consolidation.horizon_days")
    p.add_argument("--keep-recent", type=int, help="default: memory.consolidation.keep_recent")


def _help(args: argparse.Namespace) -> int:
    print(
        "usage: voice-agent memory {add,search,list,forget,export,import,ingest,purge,consolidate} ...",
        file=sys.stderr,
    )
    return 2


async def _open(args: argparse.Namespace) -> Any:
    from voice_agent.memory.service import Memory

    return await Memory.open(config_from_args(args))


def _conversation(args: argparse.Namespace) -> str:
    """``--conversation`` as stored: the keyed hash of what was typed (empty is an error)."""
    return OperatorIds.for_config(config_from_args(args)).conversation(args.conversation)


async def _turn_log(args: argparse.Namespace) -> Any:
    """The conversation turn log in the same data directory (forget/purge clear it too)."""
    from voice_agent.conversation.turns import TurnLog

    log = TurnLog(config_from_args(args).store_path())
    await log.open()
    return log


def _records_out(records: list[Any]) -> list[dict[str, Any]]:
    return [r.to_json() for r in records]


def _add(args: argparse.Namespace) -> int:
    conversation = _conversation(args)

    async def run() -> int:
        memory = await _open(args)
        try:
            records = await memory.remember(
                WriteRequest(
                    conversation, args.role, args.text, source=args.source, speaker=args.speaker,
                    kind=args.kind, subject=args.subject,
                )
            )  # fmt: skip
        finally:
            await memory.close()
        if args.json:
            print_json({"conversation": conversation, "records": _records_out(records)})
        else:
            print(f"stored {len(records)} record(s) in conversation {conversation}")
            for r in records:
                print(f"  {r.id}  {r.text}")
        return 0

    return run_async(run())


def _search(args: argparse.Namespace) -> int:
    conversation = _conversation(args)

    async def run() -> int:
        memory = await _open(args)
        budget = (
            args.budget_tokens if args.budget_tokens is not None else memory.config.memory.budget_cap_tokens
        )
        try:
            result = await memory.recall(conversation, args.query, budget_tokens=budget)
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
    # Only a missing --conversation lists the conversations; an empty one is an error, never "all".
    conversation = None if args.conversation is None else _conversation(args)

    async def run() -> int:
        memory = await _open(args)
        try:
            if conversation is None:
                conversations = await memory.store.conversations()
                records = None
            else:
                records = await memory.list(conversation, kinds=args.kind, limit=args.limit)
        finally:
            await memory.close()
        if records is None:
            print_json({"conversations": conversations}) if args.json else print("\n".join(conversations))
            return 0
        if args.json:
            print_json({"conversation": conversation, "records": _records_out(records)})
        else:
            for r in records:
                print(f"{r.id}  {r.kind:9} {r.status:10} [{r.source}] {r.speaker or r.role}: {r.text}")
        return 0

    return run_async(run())


def _forget(args: argparse.Namespace) -> int:
    conversation = _conversation(args)

    async def run() -> int:
        memory = await _open(args)
        try:
            if args.all:
                removed = await memory.forget(conversation)
                turns = await _turn_log(args)
                try:
                    await turns.forget(conversation)
                finally:
                    await turns.close()
            elif args.query is not None:
                removed = await memory.forget(conversation, query=args.query)
            else:
                removed = await memory.forget(conversation, ids=args.ids)
        finally:
            await memory.close()
        print_json({"removed": removed}) if args.json else print(f"forgot {removed} record(s)")
        return 0

    return run_async(run())


def _export(args: argparse.Namespace) -> int:
    conversation = _conversation(args)

    async def run() -> int:
        memory = await _open(args)
        try:
            document = await memory.export(conversation)
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
    target = _import_target(args, document)

    async def run() -> int:
        memory = await _open(args)
        try:
            report = await memory.import_(document, conversation_id=target)
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


def _import_target(args: argparse.Namespace, document: Any) -> str | None:
    """The conversation an import goes into, as stored: ``--conversation`` hashed, else the file's own id
    (hashed unless already in stored form: an export names its conversation as stored). User ids in the
    records are hashed the same way."""
    ids = OperatorIds.for_config(config_from_args(args))
    if args.conversation is not None:
        return ids.conversation(args.conversation)
    if not isinstance(document, dict):
        return None  # refused with a clear error by the import itself
    for record in document.get("records") or []:
        if not isinstance(record, dict):
            continue
        for key, what in (("user_id", "--user"), ("conversation_id", "--conversation")):
            value = record.get(key)
            if isinstance(value, str) and value.strip() and not is_stored_form(value.strip()):
                record[key] = ids.conversation(value, what=what)
    own = document.get("conversation_id")
    if isinstance(own, str) and own.strip():
        return ids.conversation(own, what="the export's conversation_id")
    return None


def _ingest(args: argparse.Namespace) -> int:
    from voice_agent.bench.dataset import load_locomo
    from voice_agent.bench.report import Progress

    dataset = load_locomo(args.file)

    ids = OperatorIds.for_config(config_from_args(args))
    conversations = [
        ids.conversation(s.sample_id, what="the dataset's conversation id") for s in dataset.samples
    ]

    async def run() -> int:
        from voice_agent.memory.ingest import IngestReport, ingest_turns

        memory = await _open(args)
        report = IngestReport(skipped=Counter(dataset.skipped))
        bar = Progress("ingest", dataset.turns)
        try:
            for sample, conversation in zip(dataset.samples, conversations, strict=True):
                await ingest_turns(memory, conversation, sample.turns, report, bar.advance)
        finally:
            bar.close()
            await memory.close()
        summary = {
            "conversations": [s.sample_id for s in dataset.samples],
            "turns": dataset.turns,
            "records": report.records,
            "resumed": report.resumed,
            "skipped": dict(report.skipped),
        }
        if args.json:
            print_json(summary)
        else:
            count = len(dataset.samples)
            print(
                f"ingested {dataset.turns} turns of {count} conversation(s) as {report.records} new records"
            )
            if report.resumed:
                print(f"  {report.resumed} turn(s) were stored by an earlier run: skipped")
            for reason, n in sorted(report.skipped.items()):
                print(f"  skipped {n}: {reason}")
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


def _consolidate(args: argparse.Namespace) -> int:
    from voice_agent.memory.consolidate import consolidate, policy_from_config

    conversation = None if args.conversation is None else _conversation(args)
    section = config_from_args(args).memory.consolidation
    policy = policy_from_config(section, horizon_days=args.horizon_days, keep_recent=args.keep_recent)

    async def run() -> int:
        memory = await _open(args)
        try:
            targets = [conversation] if conversation else await memory.store.conversations()
            reports = [await consolidate(memory, c, policy=policy, dry_run=args.dry_run) for c in targets]
        finally:
            await memory.close()
        if args.json:
            print_json({"conversations": [r.to_json() for r in reports]})
        for r in reports if not args.json else []:
            verb = "would write" if r.dry_run else "wrote"
            print(
                f"{r.conversation_id}: {r.records_before} -> {r.records_after} active records; {verb} "
                f"{r.summaries_written} summaries of {r.records_consolidated} clauses ({r.seconds:.1f} s)"
            )
        return 0

    return run_async(run())
