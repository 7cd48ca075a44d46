"""`voice-agent kiosk`: the operator's side of returning users (signed badge tokens and PINs).

    voice-agent kiosk badge BADGE-ID [--days 365]   # print a signed token to put on the badge / QR code
    voice-agent kiosk pin BADGE-ID                  # set (or --clear) the PIN; read from the terminal
                                                    # or one line of stdin, never from the command line

Both use the install secret of ``--data-dir`` (or ``VOICE_AGENT_PII_KEY``): tokens and PINs made here work
on every kiosk sharing that secret (PINs: sharing the data directory too).
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from typing import Any

from voice_agent.cli.common import add_command, common_options, config_from_args, print_json
from voice_agent.errors import InputError

MAX_DAYS = 3650


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = add_command(sub, "kiosk", "Returning kiosk users: issue signed badge tokens, set PINs", _help)
    actions = parser.add_subparsers(dest="kiosk_action", metavar="ACTION")
    parent = common_options(nested=True)

    def action(name: str, help_text: str, handler: Any) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = actions.add_parser(
            name, help=help_text, description=help_text, parents=[parent]
        )
        p.set_defaults(handler=handler)
        p.add_argument("badge", metavar="BADGE-ID", help="the id the badge or QR reader types")
        return p

    p = action("badge", "Print a signed badge token (the badge id, an expiry, an HMAC)", _badge)
    p.add_argument("--days", type=float, default=365.0, help="valid for this many days (default 365)")
    p = action("pin", "Set a returning user's PIN (4-12 digits), read from the terminal or stdin", _pin)
    p.add_argument("--clear", action="store_true", help="remove the PIN (the badge can enrol again)")


def _help(_args: argparse.Namespace) -> int:
    print("usage: voice-agent kiosk {badge,pin} BADGE-ID ...", file=sys.stderr)
    return 2


def _keys(args: argparse.Namespace) -> tuple[Any, bytes]:
    from voice_agent.memory.keys import install_key_from_config

    config = config_from_args(args)
    return config, install_key_from_config(config)


def _badge_id(args: argparse.Namespace) -> str:
    badge = str(args.badge).strip()
    if not badge or not badge.isprintable() or len(badge) > 128:
        raise InputError("a badge id is 1 to 128 printable characters")
    return badge


def _badge(args: argparse.Namespace) -> int:
    from voice_agent.server.credentials import BadgeSigner, badges_key

    badge = _badge_id(args)
    if not 0 < args.days <= MAX_DAYS:
        raise InputError(f"--days must be between 0 and {MAX_DAYS}")
    _config, install_key = _keys(args)
    expires_at = int(time.time() + args.days * 86400)
    token = BadgeSigner(badges_key(install_key)).issue(badge, expires_at=expires_at)
    if args.json:
        print_json({"token": token, "expires_at": expires_at})
    else:
        print(token)
    return 0


def _pin(args: argparse.Namespace) -> int:
    from voice_agent.server.credentials import PinStore, pins_key, valid_pin
    from voice_agent.server.visitors import returning_conversation_id, users_key

    badge = _badge_id(args)
    config, install_key = _keys(args)
    pins = PinStore.for_data_dir(config.data_dir, pins_key(install_key))
    conversation = returning_conversation_id(users_key(install_key), badge)
    if args.clear:
        removed = pins.remove(conversation)
        _report(args, {"pin": "cleared" if removed else "none"})
        return 0
    pin = _read_pin()
    if not valid_pin(pin):
        raise InputError("a PIN is 4 to 12 digits")
    pins.set(conversation, pin, by="operator")
    _report(args, {"pin": "set"})
    return 0


def _read_pin() -> str:
    if sys.stdin.isatty():
        first = getpass.getpass("PIN (4-12 digits): ")
        if getpass.getpass("again: ") != first:
            raise InputError("the two PINs differ")
        return first.strip()
    return sys.stdin.readline().strip()


def _report(args: argparse.Namespace, result: dict[str, str]) -> None:
    if args.json:
        print_json(result)
    else:
        print(f"PIN {result['pin']}")
