"""The kiosk service against the attacks of issue 11, end to end: `voice-agent serve` as a subprocess
(whisper-tiny-en, MiniLM, piper) whose language model repeats what the visitor said (a real HTTP
endpoint, ``_echo_llm``), clients over real WebSockets.

- DNS rebinding: a ``Host`` that does not name this service gets 403, for pages and the socket;
- ``/healthz`` tells strangers only ok / not ok;
- sockets without a valid ``hello`` hold no place and are closed within about a second; a client that
  stays silent is closed after the idle timeout;
- a badge id alone gives nothing back: its PIN (self-enrolled or set by the operator's CLI) or a signed
  badge token is needed, wrong PINs lock out;
- the loopback guard's notice carries no score, and too many refused replies end the visit.

The tests share one server and run in file order: the lockouts come last."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from _echo_llm import EchoLlm
from _llm_support import free_port
from _server_support import REPO, TOKEN_ENV, ServerProcess, utterances, write_config

from voice_agent.config import load_config
from voice_agent.conversation.guard import NOTICES
from voice_agent.memory.writes import WriteRequest
from voice_agent.server.simclient import SimClient
from voice_agent.server.spoken_pin import REPLIES, pin_from_speech
from voice_agent.server.visitors import public_id, returning_conversation_id, users_key

pytestmark = pytest.mark.slow
TOKEN = "hardening-test-token-0123456789"
IDLE_S = 4
SECRET = "My sister Margaret lives in Lisbon and works as a nurse at the city hospital."
SECRET_2 = "Her husband David works nights at the airport and drives a red pickup truck."
# The probes ask about the secrets (in words the scrubber keeps: names reach the model as placeholders),
# and the model (the echo server) answers with what it should not know. A probe that says the secret
# itself is answered by its own echo, which the reply check leaves out before the loopback check.
PROBES = {"probe": "Tell me about the nurse at the hospital.", "probe_2": "Who drives the red pickup truck?"}
LEAKS = {"nurse": SECRET, "truck": SECRET_2}


@pytest.fixture(scope="module")
def echo() -> Iterator[EchoLlm]:
    llm = EchoLlm(leaks=LEAKS).start()
    yield llm
    llm.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, echo: EchoLlm) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("hardening")
    server_extra = "\n".join(
        [
            f'token_env = "{TOKEN_ENV}"',
            f"idle_timeout_s = {IDLE_S}",
            'allowed_hosts = ["kiosk.example"]',
            "identity_max_failures = 3",
            "identity_lockout_s = 60",
            "loopback_refusals_max = 2",
        ]
    )
    config = write_config(
        root, port=free_port(), llm_section=echo.backend_section(), server_extra=server_extra,
        extra="[trace]\nenabled = true",
    )  # fmt: skip
    data = root / "data"
    asyncio.run(_seed(load_config(config, env={}).model_copy(update={"data_dir": data})))
    proc = ServerProcess(config, data, env={TOKEN_ENV: TOKEN}).start()
    yield proc
    assert proc.stop() in (0, -15), proc.log_tail()


async def _seed(config: Any) -> None:
    """Someone else's secret (another visit), and a returning user's memory from an earlier visit."""
    from voice_agent.memory.service import Memory

    memory = await Memory.open(config)
    try:
        await memory.remember(WriteRequest("visit-someone-else", "user", SECRET))
        await memory.remember(WriteRequest("visit-someone-else", "user", SECRET_2))
        await memory.remember(
            WriteRequest(_conversation(config, "badge-seeded"), "user", "My locker is number 42.")
        )
    finally:
        await memory.close()


@pytest.fixture(scope="module")
def speech(model_dir: Path) -> dict[str, np.ndarray]:
    texts = {
        **PROBES,
        "hello": "Hello, can you hear me today?",
        "pin": "Two, four, six, eight.",
    }
    return utterances(model_dir, texts)


def _config(server: ServerProcess) -> Any:
    return load_config(server.config, env={}).model_copy(update={"data_dir": server.data_dir})


def _conversation(config: Any, badge: str) -> str:
    from voice_agent.memory.keys import install_key_from_config

    return returning_conversation_id(users_key(install_key_from_config(config)), badge)


def _client(server: ServerProcess, **kwargs: Any) -> SimClient:
    return SimClient(server.ws_url, token=TOKEN, **kwargs)


def _errors(client: SimClient) -> list[str]:
    return [e["code"] for e in client.events if e["type"] == "error"]


async def _settled(client: SimClient) -> list[str]:
    """The errors so far, once the server answered a ping (events arrive in order)."""
    n = len(client.events)
    await client.send_json({"type": "ping", "t": n})
    await client.wait_for("pong", after=n, where=lambda e: e["t"] == n)
    return _errors(client)


def _cli(server: ServerProcess, *args: str, stdin: str = "") -> str:
    command = [sys.executable, "-m", "voice_agent", "kiosk", *args]
    command += ["--config", str(server.config), "--data-dir", str(server.data_dir)]
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


async def _raw(server: ServerProcess, **kwargs: Any) -> Any:
    import websockets

    return await websockets.connect(server.ws_url, open_timeout=10, **kwargs)


async def _closed(ws: Any) -> tuple[int | None, list[str]]:
    import websockets

    codes: list[str] = []
    try:
        async for message in ws:
            if isinstance(message, str) and json.loads(message).get("type") == "error":
                codes.append(json.loads(message)["code"])
    except websockets.ConnectionClosed:
        pass
    return ws.close_code, codes


# -- finding 3: DNS rebinding ---------------------------------------------------------------------------
async def test_a_host_that_does_not_name_this_service_is_refused(server: ServerProcess) -> None:
    import websockets

    rebound = f"rebind.attacker.example:{server.port}"
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
        for path in ("/", "/healthz", "/static/kiosk.js", "/metrics"):
            response = await http.get(path, headers={"Host": rebound})
            assert response.status_code == 403, path
        allowed = await http.get("/", headers={"Host": f"kiosk.example:{server.port}"})
        assert allowed.status_code == 200
    # the page of a rebinding attack: Origin and Host both name the attacker's domain
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(
            f"ws://{rebound}/ws",
            host="127.0.0.1",
            port=server.port,
            origin=f"http://{rebound}",
            open_timeout=10,
        )
    assert refused.value.response.status_code == 403
    async with _client(server) as good:  # the service's own name still works
        assert good.ready is not None
    assert server.metrics()['voice_agent_disconnects_total{reason="bad_host"}'] >= 5


# -- finding 5 (server side): /healthz --------------------------------------------------------------------
def test_healthz_tells_strangers_only_whether_it_is_ok(server: ServerProcess) -> None:
    stranger = httpx.get(server.base + "/healthz", timeout=10)
    assert stranger.status_code == 200 and stranger.json() == {"ok": True}
    wrong = httpx.get(server.base + "/healthz", headers={"Authorization": "Bearer not-the-token"}, timeout=10)
    assert wrong.json() == {"ok": True}
    operator = httpx.get(server.base + "/healthz", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
    details = operator.json()
    assert details["ok"] is True and {c["name"] for c in details["checks"]} >= {"models", "store"}
    assert str(server.data_dir) not in stranger.text and str(server.data_dir) in operator.text


# -- finding 4: lock-out without a token, silent clients ----------------------------------------------------
async def test_sockets_without_a_valid_hello_hold_no_place_and_are_closed_quickly(
    server: ServerProcess,
) -> None:
    bare = [await _raw(server) for _ in range(20)]  # more than the 16 places, none says hello
    wrong = [await _raw(server) for _ in range(4)]
    for ws in wrong:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": "x" * 20}))
    async with _client(server) as good:  # a real client gets in while they wait
        assert good.ready is not None
    # each is closed within about a second (the old limit was 10 s; 5 s leaves room for a loaded machine)
    closed = await asyncio.gather(*(asyncio.wait_for(_closed(ws), 5) for ws in bare))
    assert closed == [(1008, ["hello_timeout"])] * len(bare)
    closed = await asyncio.gather(*(asyncio.wait_for(_closed(ws), 5) for ws in wrong))
    assert closed == [(1008, ["unauthorized"])] * len(wrong)


async def test_a_silent_client_is_closed_after_the_idle_timeout(server: ServerProcess) -> None:
    silent = _client(server)  # a valid token, then only silence (and pings)
    try:
        await silent.connect()
        for _ in range(3):
            await silent.send_json({"type": "ping", "t": 1})
            await asyncio.sleep(1)
        ended = await silent.wait_for("visit_ended", timeout_s=IDLE_S + 20)
        for _ in range(100):
            if silent.closed is not None:
                break
            await asyncio.sleep(0.1)
    finally:
        await silent.close()
    assert ended["reason"] == "idle"
    assert silent.closed is not None and silent.closed[0] == 1000


# -- finding 3: a badge id is not a credential ----------------------------------------------------------
async def test_a_badge_id_alone_gives_nothing_back(server: ServerProcess) -> None:
    config = _config(server)
    theirs = public_id(_conversation(config, "badge-seeded"))
    async with _client(server, user="badge-seeded") as bare:  # the id alone, as someone who read it
        assert bare.ready is not None
        assert bare.ready["returning"] is False and bare.ready["conversation"] != theirs
        assert "pin_required" in await _settled(bare)
    async with _client(server, user="badge-seeded", pin="2468") as squatter:
        # the badge has a history, so nobody can enrol a PIN for it: only the operator can
        assert squatter.ready is not None and squatter.ready["returning"] is False
        assert "identity_refused" in await _settled(squatter)
        n = len(squatter.events)
        await squatter.send_json({"type": "erase"})
        erased = await squatter.wait_for("erased", after=n)
    assert erased["records"] == 0
    assert [r.text for r in await _records(config, "badge-seeded")] == ["My locker is number 42."]

    assert _cli(server, "pin", "badge-seeded", stdin="2468\n") == "PIN set"
    pins = (server.data_dir / "kiosk" / "pins.json").read_text()
    assert "badge-seeded" not in pins and "2468" not in pins
    async with _client(server, user="badge-seeded", pin="2468") as owner:
        assert owner.ready is not None and owner.ready["returning"] is True
        assert owner.ready["conversation"] == theirs and await _settled(owner) == []


async def test_a_new_badge_enrols_its_pin_and_a_signed_badge_needs_no_pin(server: ServerProcess) -> None:
    config = _config(server)
    async with _client(server, user="badge-new", pin="1357") as first:
        assert first.ready is not None and first.ready["returning"] is True
    async with _client(server, user="badge-new", pin="1357") as again:
        assert again.ready is not None and again.ready["conversation"] == first.ready["conversation"]
    async with _client(server, user="badge-new", pin="7531") as guess:
        assert guess.ready is not None and guess.ready["returning"] is False
        assert guess.ready["conversation"] != first.ready["conversation"]
        assert await _settled(guess) == ["identity_refused"]

    token = _cli(server, "badge", "badge-card-9", "--days", "30")
    async with _client(server, badge=token) as card:
        assert card.ready is not None and card.ready["returning"] is True
        assert card.ready["conversation"] == public_id(_conversation(config, "badge-card-9"))
    forged = token.rsplit(".", 1)[0] + "." + "A" * 24
    async with _client(server, badge=forged) as fake:
        assert fake.ready is not None and fake.ready["returning"] is False
        assert await _settled(fake) == ["identity_refused"]
    async with _client(server) as kiosk:  # a badge scanned mid-visit goes through the same check
        n = len(kiosk.events)
        await kiosk.send_json({"type": "hello", "protocol": 1, "token": TOKEN, "user": "badge-new"})
        started = await kiosk.wait_for("visit_started", after=n)
        assert started["returning"] is False
        await kiosk.wait_for("error", after=n, where=lambda e: e["code"] == "pin_required")
        n = len(kiosk.events)
        await kiosk.send_json({"type": "hello", "token": TOKEN, "user": "badge-new", "pin": "1357"})
        started = await kiosk.wait_for("visit_started", after=n)
        assert started["returning"] is True and started["conversation"] == first.ready["conversation"]


async def test_a_pin_said_aloud_opens_the_returning_conversation(
    server: ServerProcess, speech: dict[str, np.ndarray]
) -> None:
    async with _client(server, user="badge-spoken", pin="2468") as enrol:
        assert enrol.ready is not None and enrol.ready["returning"] is True
    async with _client(server, user="badge-spoken") as c:
        assert c.ready is not None and c.ready["returning"] is False and await _settled(c) == ["pin_required"]
        n = len(c.events)
        turn = await c.say(speech["pin"], timeout_s=60)
        if turn.says != [REPLIES["ok"][0]] and pin_from_speech(turn.final) is None:
            # heard as no PIN at all (once in a full CI run, only its first word, as "Tip"): the person
            # says it again, as at a real kiosk that did not welcome them back
            n = len(c.events)
            turn = await c.say(speech["pin"], timeout_s=60)
        started = await c.wait_for("visit_started", after=n, timeout_s=30)
    assert turn.says == [REPLIES["ok"][0]], turn
    assert not any(ch.isdigit() for ch in turn.final) and "•" in turn.final  # masked on screen
    assert started["returning"] is True and started["conversation"] == enrol.ready["conversation"]
    assert await _records(_config(server), "badge-spoken") == []  # the PIN turn is never stored


async def test_wrong_pins_lock_the_badge_out(server: ServerProcess) -> None:
    outcomes = []
    for pin in ("0000", "1111", "2222", "1357"):  # three wrong guesses, then the right PIN
        async with _client(server, user="badge-new", pin=pin) as c:
            assert c.ready is not None and c.ready["returning"] is False
            outcomes.append(await _settled(c))
            locked = [e for e in c.events if e.get("code") == "identity_locked"]
    assert outcomes == [["identity_refused"], ["identity_refused"], ["identity_locked"], ["identity_locked"]]
    assert 0 < locked[0]["retry_after_s"] <= 60


# -- finding 5 (server side): the loopback guard as a membership oracle --------------------------------
async def test_the_loopback_notice_hides_the_score_and_refusals_end_the_visit(
    server: ServerProcess, speech: dict[str, np.ndarray]
) -> None:
    async with _client(server) as prober:
        plain = await prober.say(speech["hello"], timeout_s=240)
        assert plain.outcome == "ok" and plain.says and NOTICES["en"] not in plain.says  # echoed, not refused
        first = await prober.say(speech["probe"], timeout_s=240)
        assert first.says == [NOTICES["en"]], first  # the model said someone else's secret
        second = await prober.say(speech["probe_2"], timeout_s=240)
        assert second.says == [NOTICES["en"]], second
        await prober.wait_for("error", where=lambda e: e["code"] == "too_many_refusals", timeout_s=10)
        for _ in range(50):
            if prober.closed is not None:
                break
            await asyncio.sleep(0.1)
    assert prober.closed is not None and prober.closed[0] == 1008
    wire = json.dumps(prober.events)  # nothing tells a near miss from a match
    assert "similarity" not in wire and "threshold" not in wire and "flagged" not in wire
    again = SimClient(server.ws_url, token=TOKEN)  # the same client comes straight back
    with pytest.raises((TimeoutError, AssertionError)):
        await again.connect(timeout_s=10)
    await again.close()
    assert again.closed is not None and again.closed[0] == 1013 and _errors(again) == ["try_later"]
    trace = (server.data_dir / "traces" / "trace.jsonl").read_text()  # the score stays in the private trace
    assert "loopback.flagged" in trace and "similarity" in trace


async def _records(config: Any, badge: str) -> list[Any]:
    from voice_agent.memory.service import Memory

    memory = await Memory.open(config)
    try:
        return list(await memory.list(_conversation(config, badge), limit=50))
    finally:
        await memory.close()
