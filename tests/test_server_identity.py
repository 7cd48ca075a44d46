"""Returning users' second factor and the limits around it, without models: signed badge tokens, the PIN
file (real files, real locks), lockouts that double, the identity gate's answers, and the Host check."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from voice_agent.clock import FakeClock
from voice_agent.config import ServerConfig
from voice_agent.server.attempts import AttemptLimiter
from voice_agent.server.credentials import BadgeError, BadgeSigner, PinStore, badges_key, pins_key
from voice_agent.server.hosts import HostPolicy, host_name, same_origin
from voice_agent.server.identity import IdentityGate
from voice_agent.server.protocol import ProtocolError, parse_client_text
from voice_agent.server.visitors import returning_conversation_id

KEY = b"i" * 32
USERS = b"u" * 32


# -- badge tokens -----------------------------------------------------------------------------------------
def test_a_badge_token_names_its_badge_until_it_expires() -> None:
    signer = BadgeSigner(badges_key(KEY))
    token = signer.issue(" badge-0042 ", expires_at=time.time() + 3600)
    assert token.startswith("vab1.") and "badge-0042" not in token  # encoded, and never the PIN key
    assert signer.verify(token) == "badge-0042"
    with pytest.raises(BadgeError) as expired:
        signer.verify(token, now=time.time() + 7200)
    assert expired.value.reason == "expired"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # another MAC
        lambda t: t.replace(t.split(".")[2], str(int(t.split(".")[2]) + 86400 * 365)),  # a later expiry
        lambda t: ".".join([t.split(".")[0], "YmFkZ2UtMDA0Mw", *t.split(".")[2:]]),  # another badge id
        lambda t: t.split(".", 1)[1],  # no version
        lambda t: "vab1.x.y.z",
        lambda t: "",
    ],
)
def test_a_forged_badge_token_is_refused(tamper: object) -> None:
    signer = BadgeSigner(badges_key(KEY))
    token = signer.issue("badge-0042", expires_at=time.time() + 3600)
    with pytest.raises(BadgeError) as info:
        signer.verify(tamper(token))  # type: ignore[operator]
    assert info.value.reason == "invalid"
    with pytest.raises(BadgeError):  # another install's secret
        BadgeSigner(badges_key(b"j" * 32)).verify(token)


# -- PINs -------------------------------------------------------------------------------------------------
def test_pins_are_stored_only_as_keyed_hashes_in_a_private_file(tmp_path: Path) -> None:
    pins = PinStore.for_data_dir(tmp_path, pins_key(KEY))
    alice = returning_conversation_id(USERS, "badge-alice")
    assert not pins.has_pin(alice) and not pins.verify(alice, "4821")
    assert pins.set(alice, "4821", by="visitor", only_if_unset=True)
    assert not pins.set(alice, "9999", by="visitor", only_if_unset=True)  # the first enrolment wins
    assert pins.verify(alice, "4821") and not pins.verify(alice, "9999") and not pins.verify(alice, "48210")
    other = returning_conversation_id(USERS, "badge-bob")
    assert not pins.verify(other, "4821")  # bound to the badge: the same PIN elsewhere means nothing
    text = pins.path.read_text()
    assert "4821" not in text and "badge-alice" not in text
    assert stat.S_IMODE(os.stat(pins.path).st_mode) == 0o600
    assert not PinStore.for_data_dir(tmp_path, pins_key(b"j" * 32)).verify(alice, "4821")  # keyed
    pins.set(alice, "1234", by="operator")
    assert pins.verify(alice, "1234") and not pins.verify(alice, "4821")
    assert pins.remove(alice) and not pins.has_pin(alice) and not pins.remove(alice)
    with pytest.raises(ValueError):
        pins.set(alice, "12a4", by="operator")


# -- lockouts -------------------------------------------------------------------------------------------
def test_failures_lock_a_key_out_for_longer_each_time() -> None:
    clock = FakeClock()
    limiter = AttemptLimiter(3, 60, clock, max_lockout_s=200)
    assert [limiter.fail("k") for _ in range(3)] == [0.0, 0.0, 60.0]
    assert limiter.retry_after("k") == pytest.approx(60) and limiter.retry_after("other") == 0
    clock.advance_ms(60_000)
    assert limiter.retry_after("k") == 0
    assert [limiter.fail("k") for _ in range(3)] == [0.0, 0.0, 120.0]  # doubled
    clock.advance_ms(120_000)
    assert [limiter.fail("k") for _ in range(3)][-1] == 200.0  # capped
    clock.advance_ms(200_000)
    limiter.succeed("k")
    assert [limiter.fail("k") for _ in range(3)][-1] == 60.0  # a success starts over


def test_failures_spread_out_beyond_the_window_do_not_add_up() -> None:
    clock = FakeClock()
    limiter = AttemptLimiter(3, 60, clock, window_s=100)
    for _ in range(5):
        assert limiter.fail("k") == 0.0
        clock.advance_ms(60_000)
    assert limiter.failures("k") <= 2


def test_the_limiter_forgets_old_keys_but_never_a_lockout() -> None:
    clock = FakeClock()
    limiter = AttemptLimiter(1, 60, clock, max_keys=3)
    limiter.fail("locked")
    for n in range(10):
        clock.advance_ms(1)
        limiter.fail(f"k{n}") if n % 2 else limiter.succeed(f"k{n}")
    assert limiter.retry_after("locked") > 0


# -- the gate ---------------------------------------------------------------------------------------------
def _gate(
    tmp_path: Path, clock: FakeClock, *, history: set[str] | None = None, **server: object
) -> IdentityGate:
    async def has_history(conversation: str) -> bool:
        return conversation in (history or set())

    config = ServerConfig.model_validate({"identity_max_failures": 3, **server})
    return IdentityGate(
        config,
        user_key=USERS,
        pins=PinStore.for_data_dir(tmp_path, pins_key(KEY)),
        signer=BadgeSigner(badges_key(KEY)),
        by_badge=AttemptLimiter(3, 60, clock),
        by_client=AttemptLimiter(5, 60, clock),
        has_history=has_history,
    )


def _hello(**fields: str) -> object:
    import json

    return parse_client_text(json.dumps({"type": "hello", **fields}))


async def test_a_badge_id_needs_its_pin_and_wrong_pins_lock_it(tmp_path: Path) -> None:
    gate = _gate(tmp_path, FakeClock())
    assert (await gate.resolve(_hello(), peer="p")).user is None
    bare = await gate.resolve(_hello(user="badge-1"), peer="p")
    assert bare.user is None and bare.problem == "pin_required"
    enrolled = await gate.resolve(_hello(user="badge-1", pin="2468"), peer="p")
    assert enrolled.user == "badge-1" and enrolled.enrolled and enrolled.event() is None
    assert (await gate.resolve(_hello(user="badge-1", pin="2468"), peer="q")).user == "badge-1"
    answers = [
        (await gate.resolve(_hello(user="badge-1", pin=p), peer=f"c{p}"))
        for p in ("1", "0000", "1111", "2222")
    ]
    assert [a.problem for a in answers] == [
        "identity_refused",
        "identity_refused",
        "identity_refused",
        "identity_locked",
    ]
    assert answers[-1].event()["retry_after_s"] == 60  # type: ignore[index]
    right = await gate.resolve(_hello(user="badge-1", pin="2468"), peer="p")
    assert right.user is None and right.problem == "identity_locked"  # locked even for the right PIN


async def test_a_client_guessing_across_badges_is_locked_out(tmp_path: Path) -> None:
    gate = _gate(tmp_path, FakeClock())
    for n in range(6):
        await gate.resolve(_hello(user=f"badge-{n}", pin="2468"), peer="enrol")
    answers = [await gate.resolve(_hello(user=f"badge-{n}", pin="1357"), peer="guesser") for n in range(6)]
    assert [a.problem for a in answers][-2:] == ["identity_locked", "identity_locked"]


async def test_a_badge_with_history_cannot_enrol_itself(tmp_path: Path) -> None:
    history = {returning_conversation_id(USERS, "badge-old")}
    gate = _gate(tmp_path, FakeClock(), history=history)
    assert (await gate.resolve(_hello(user="badge-old", pin="2468"), peer="p")).problem == "identity_refused"
    no_enrol = _gate(tmp_path / "b", FakeClock(), pin_self_enrol=False)
    assert (
        await no_enrol.resolve(_hello(user="badge-x", pin="2468"), peer="p")
    ).problem == "identity_refused"
    gate.pins.set(returning_conversation_id(USERS, "badge-old"), "2468", by="operator")
    assert (await gate.resolve(_hello(user="badge-old", pin="2468"), peer="p")).user == "badge-old"


async def test_the_operator_chooses_the_factor(tmp_path: Path) -> None:
    token = BadgeSigner(badges_key(KEY)).issue("badge-7", expires_at=time.time() + 60)
    expired = BadgeSigner(badges_key(KEY)).issue("badge-7", expires_at=time.time() - 1)
    either = _gate(tmp_path, FakeClock())
    assert (await either.resolve(_hello(badge=token), peer="p")).user == "badge-7"
    assert (await either.resolve(_hello(badge=expired), peer="p")).problem == "badge_expired"
    badge_only = _gate(tmp_path, FakeClock(), returning_factor="badge")
    assert (
        await badge_only.resolve(_hello(user="badge-7", pin="2468"), peer="p")
    ).problem == "identity_refused"
    assert (await badge_only.resolve(_hello(badge=token), peer="p")).user == "badge-7"
    pin_only = _gate(tmp_path, FakeClock(), returning_factor="pin")
    assert (await pin_only.resolve(_hello(badge=token), peer="p")).user is None


def test_hello_carries_a_pin_or_a_badge() -> None:
    hello = parse_client_text('{"type": "hello", "user": "b-1", "pin": " 2468 "}')
    assert (hello.user, hello.pin, hello.badge) == ("b-1", "2468", None)
    assert "2468" not in repr(hello)
    with pytest.raises(ProtocolError) as both:
        parse_client_text('{"type": "hello", "user": "b-1", "badge": "vab1.a.b.c"}')
    assert both.value.code == "bad_user"
    with pytest.raises(ProtocolError) as bad:
        parse_client_text('{"type": "hello", "pin": 2468}')
    assert bad.value.code == "bad_pin"


# -- Host -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("bind", "extra", "host", "allowed"),
    [
        ("127.0.0.1", (), "127.0.0.1:8080", True),
        ("127.0.0.1", (), "localhost:8080", True),
        ("127.0.0.1", (), "LOCALHOST", True),
        ("127.0.0.1", (), "[::1]:8080", True),
        ("127.0.0.1", (), "rebind.attacker.example:8080", False),
        ("127.0.0.1", (), "localhost.attacker.example", False),
        ("127.0.0.1", (), "10.0.0.7:8080", False),
        ("127.0.0.1", (), "", False),
        ("127.0.0.1", (), "localhost:8080@evil", False),
        ("127.0.0.1", (), "localhost:port", False),
        ("127.0.0.1", ("kiosk.example",), "kiosk.example:443", True),
        ("127.0.0.1", ("kiosk.example",), "kiosk.example.", True),
        ("0.0.0.0", (), "10.0.0.7:8080", True),
        ("0.0.0.0", (), "[fe80::1]:8080", True),
        ("0.0.0.0", (), "kiosk.lan:8080", False),
        ("kiosk.lan", (), "kiosk.lan:8080", True),
    ],
)
def test_only_the_services_own_names_pass_the_host_check(
    bind: str, extra: tuple[str, ...], host: str, allowed: bool
) -> None:
    assert HostPolicy(bind, extra).allows(host) is allowed


def test_host_names_and_origins_compare_without_case() -> None:
    assert host_name("[::1]:8080") == "::1" and host_name("Kiosk.Example:80") == "kiosk.example"
    assert host_name("a b") is None
    assert same_origin("http://Kiosk.Example:8080", "kiosk.example:8080")  # names are case-blind


# -- a PIN said aloud -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "pin"),
    [
        ("2 4 6 8", "2468"),
        ("2468.", "2468"),
        ("My PIN is 2, 4, 6, 8.", "2468"),
        ("Two four six eight", "2468"),
        ("It's one two three four five six.", "123456"),
        ("我的密码是二四六八。", "2468"),
        ("一，二，三，四", "1234"),
        ("I was born in 1984.", None),
        ("What is my secret word?", None),
        ("1 2 3", None),
        ("My phone number is 13800138000123", None),
        ("我今年二十岁", None),
        ("Two, Far. Six, Eight.", "2468"),  # how one CPU's int8 Whisper heard "two four six eight"
        ("Won, tu, free, fore.", "1234"),
        ("I won four times.", None),  # a digit heard-as word counts only in a PIN-only utterance
        ("Far, far away.", None),
    ],
)
def test_a_pin_said_aloud_is_recognised_only_when_the_utterance_is_one(said: str, pin: str | None) -> None:
    from voice_agent.server.spoken_pin import pin_from_speech

    assert pin_from_speech(said) == pin


async def test_a_spoken_pin_is_answered_without_the_model_and_masked(tmp_path: Path) -> None:
    from voice_agent.server.spoken_pin import REPLIES, SpokenPin

    gate = _gate(tmp_path, FakeClock())
    gate.pins.set(returning_conversation_id(USERS, "badge-9"), "2468", by="operator")
    told: list[object] = []
    spoken = SpokenPin(gate, "p", told.append)
    assert await spoken.answer("2 4 6 8") is None  # nobody is waiting for a PIN: ordinary speech
    spoken.expect("badge-9", await gate.resolve(_hello(user="badge-9"), peer="p"))
    assert spoken.mask("my PIN is 2 4 six 8") == "my PIN is • • • •"
    assert spoken.mask("Two, Far. Six, Eight.") == "•, •. •, •."  # no digit of it left on screen
    assert spoken.mask("I won 2 games") == "I won • games"  # conversation: only the digits hidden
    assert await spoken.answer("What time is it?") is None  # not a PIN: an ordinary turn
    assert await spoken.answer("1 3 5 7") == REPLIES["identity_refused"][0]
    assert spoken.waiting_for == "badge-9"  # may say it again
    assert await spoken.answer("我的密码是二四六八") == REPLIES["ok"][1]
    assert [getattr(v, "user", None) for v in told] == [None, "badge-9"]
    assert spoken.waiting_for is None and spoken.mask("2468") == "2468"


def test_a_key_can_be_locked_out_at_once_and_the_lockouts_double() -> None:
    clock = FakeClock()
    limiter = AttemptLimiter(9, 60, clock)
    limiter.fail("k")
    assert limiter.lock("k") == 60.0 and limiter.failures("k") == 0
    assert limiter.lock("k") == 120.0  # a second lockout while locked: the longer one holds
    clock.advance_ms(120_000)
    assert limiter.retry_after("k") == 0 and limiter.lock("k") == 240.0


# -- the operator's CLI ---------------------------------------------------------------------------------
def test_the_operator_issues_badge_tokens_and_sets_pins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import json

    from voice_agent.cli import main
    from voice_agent.config import load_config
    from voice_agent.memory.keys import install_key_from_config
    from voice_agent.server.visitors import users_key

    data = tmp_path / "data"
    assert main(["kiosk", "badge", "badge-77", "--days", "2", "--data-dir", str(data), "--json"]) == 0
    issued = json.loads(capsys.readouterr().out)
    install_key = install_key_from_config(load_config(data_dir=data))
    assert BadgeSigner(badges_key(install_key)).verify(issued["token"]) == "badge-77"
    assert 86400 < issued["expires_at"] - time.time() <= 2 * 86400

    monkeypatch.setattr("sys.stdin", io.StringIO("24680\n"))
    assert main(["kiosk", "pin", "badge-77", "--data-dir", str(data)]) == 0
    pins = PinStore.for_data_dir(data, pins_key(install_key))
    assert pins.verify(returning_conversation_id(users_key(install_key), "badge-77"), "24680")
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert main(["kiosk", "pin", "badge-77", "--data-dir", str(data)]) == 1  # not a PIN: nothing changes
    assert "4 to 12 digits" in capsys.readouterr().err
    assert main(["kiosk", "pin", "badge-77", "--clear", "--data-dir", str(data)]) == 0
    assert not pins.has_pin(returning_conversation_id(users_key(install_key), "badge-77"))
