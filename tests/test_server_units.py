"""The kiosk service's parts without models: protocol validation, visitor ids, metrics exposition,
the WebSocket audio source and sink, the outbox, the turn limiter, and logs without personal data."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time

import numpy as np
import pytest

from voice_agent.clock import FakeClock
from voice_agent.config import Config
from voice_agent.errors import ConfigError
from voice_agent.frames import SpeechChunk
from voice_agent.server import logs
from voice_agent.server.app import resolve_token
from voice_agent.server.hosts import same_origin as _same_origin
from voice_agent.server.metrics import ServerMetrics, parse_text
from voice_agent.server.outbox import Outbox
from voice_agent.server.protocol import (
    CLOSE_INVALID,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    ProtocolError,
    float32_to_pcm16,
    parse_client_text,
    pcm16_to_float32,
)
from voice_agent.server.responder import TurnLimiter
from voice_agent.server.visitors import (
    HEARING_GRACE_S,
    Visit,
    idle_seconds,
    new_conversation_id,
    public_id,
    returning_conversation_id,
)
from voice_agent.server.wsaudio import WebSocketAudioSink, WebSocketAudioSource

KEY = b"k" * 32


# -- protocol -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "code", "close"),
    [
        ("not json", "bad_json", CLOSE_INVALID),
        ("[1, 2]", "bad_message", CLOSE_INVALID),
        ('{"type": "launch_missiles"}', "unknown_type", CLOSE_POLICY),
        ('{"type": "hello", "protocol": 2}', "bad_version", CLOSE_POLICY),
        ('{"type": "hello", "token": 5}', "bad_token", CLOSE_POLICY),
        ('{"type": "hello", "user": "   "}', "bad_user", CLOSE_POLICY),
        ('{"type": "hello", "user": "a\\u0000b"}', "bad_user", CLOSE_POLICY),
        ('{"type": "hello", "user": "' + "x" * 200 + '"}', "bad_user", CLOSE_POLICY),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "text_too_long", CLOSE_TOO_BIG),
        ("[" * 100000 + "]" * 100000, "text_too_long", CLOSE_TOO_BIG),
    ],
)
def test_bad_control_messages_name_the_problem(raw: str, code: str, close: int) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_text(raw)
    assert info.value.code == code
    assert info.value.close_code == close
    assert info.value.event()["fatal"] is True


def test_hello_and_controls_parse() -> None:
    hello = parse_client_text('{"type": "hello", "protocol": 1, "token": "t0k3n", "user": " badge-42 "}')
    assert (hello.type, hello.token, hello.user) == ("hello", "t0k3n", "badge-42")
    assert parse_client_text('{"type": "hello"}').user is None
    assert parse_client_text('{"type": "ping", "t": 12.5}').t == 12.5
    assert parse_client_text('{"type": "erase"}').type == "erase"
    assert parse_client_text('{"type": "new_conversation"}').type == "new_conversation"


def test_pcm_frames_round_trip_and_limits() -> None:
    samples = np.array([0.0, 0.5, -0.5, 0.999], dtype=np.float32)
    back = pcm16_to_float32(float32_to_pcm16(samples), max_bytes=64)
    assert np.allclose(back, samples, atol=1e-4)
    with pytest.raises(ProtocolError, match="even"):
        pcm16_to_float32(b"\x00\x01\x02", max_bytes=64)
    with pytest.raises(ProtocolError, match="limit is 64") as info:
        pcm16_to_float32(b"\x00" * 66, max_bytes=64)
    assert info.value.close_code == CLOSE_TOO_BIG
    with pytest.raises(ProtocolError, match="empty"):
        pcm16_to_float32(b"", max_bytes=64)


# -- visitors ---------------------------------------------------------------------------------------------
def test_visits_get_unlinkable_ids_and_returning_users_a_keyed_hash() -> None:
    ids = {new_conversation_id() for _ in range(200)}
    assert len(ids) == 200
    alice = returning_conversation_id(KEY, "badge-0042")
    assert alice == returning_conversation_id(KEY, " badge-0042 ")
    assert alice != returning_conversation_id(KEY, "badge-0043")
    assert alice != returning_conversation_id(b"x" * 32, "badge-0042")  # keyed: another install differs
    assert "0042" not in alice
    with pytest.raises(ValueError):
        returning_conversation_id(KEY, " ")
    assert public_id(alice) != alice and len(public_id(alice)) == 12


def test_visit_idle_time_follows_the_clock() -> None:
    clock = FakeClock()
    visit = Visit.start(clock, install_key=KEY)
    assert not visit.returning and visit.user_key is None
    clock.advance_ms(5000)
    assert visit.idle_s() == pytest.approx(5.0)
    visit.touch()
    assert visit.idle_s() == 0.0
    returning = Visit.start(clock, install_key=KEY, user="badge-7")
    assert returning.returning and returning.user_key == returning.conversation_id


def test_a_turn_being_heard_is_not_idle_time_but_cannot_hold_a_visit_open_for_ever() -> None:
    # The visitor spoke (their PIN) 6 s ago and the busy CPU is still transcribing: not idle.
    assert idle_seconds(6.0, hearing_s=7.0) == 0.0
    assert idle_seconds(6.0, hearing_s=None) == 6.0  # nobody speaking: the plain idle time
    # A speech start whose turn never resolved: idle again once the grace is over, counted from its end.
    assert idle_seconds(100.0, hearing_s=HEARING_GRACE_S + 12.0) == pytest.approx(12.0)
    assert idle_seconds(3.0, hearing_s=HEARING_GRACE_S + 12.0) == 3.0  # activity since: that counts


def test_turn_limiter_slides_over_a_minute() -> None:
    clock = FakeClock()
    limiter = TurnLimiter(3, clock)
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]
    clock.advance_ms(59000)
    assert not limiter.allow()
    clock.advance_ms(1000)
    assert limiter.allow()


# -- metrics ----------------------------------------------------------------------------------------------
def test_metrics_render_in_prometheus_text_format() -> None:
    metrics = ServerMetrics()
    metrics.turns.inc(outcome="ok")
    metrics.turns.inc(outcome="ok")
    metrics.errors.inc(stage="llm")
    metrics.fallbacks.inc(stage="llm", backend="apology")
    for seconds in (0.4, 1.2, 30.0):
        metrics.voice_to_voice.observe(seconds)
    metrics.active_clients.add(2)
    text = metrics.render()
    samples = parse_text(text)
    assert samples['voice_agent_turns_total{outcome="ok"}'] == 2
    assert samples['voice_agent_errors_total{stage="llm"}'] == 1
    assert samples['voice_agent_fallbacks_total{backend="apology",stage="llm"}'] == 1
    assert samples['voice_agent_voice_to_voice_seconds_bucket{le="0.5"}'] == 1
    assert samples['voice_agent_voice_to_voice_seconds_bucket{le="1.5"}'] == 2
    assert samples['voice_agent_voice_to_voice_seconds_bucket{le="+Inf"}'] == 3
    assert samples["voice_agent_voice_to_voice_seconds_count"] == 3
    assert samples["voice_agent_voice_to_voice_seconds_sum"] == pytest.approx(31.6)
    assert samples["voice_agent_active_clients"] == 2
    assert samples["process_resident_memory_bytes"] > 10_000_000
    assert "# TYPE voice_agent_voice_to_voice_seconds histogram" in text
    with pytest.raises(ValueError):
        metrics.turns.inc(-1)


# -- audio source -----------------------------------------------------------------------------------------
async def _take(source: WebSocketAudioSource, n: int) -> list[np.ndarray]:
    frames = []
    async for frame in source:
        frames.append(frame.samples)
        if len(frames) == n:
            break
    return frames


async def test_source_yields_frames_in_order_and_can_be_read_again() -> None:
    source = WebSocketAudioSource()
    for k in range(4):
        source.push(np.full(512, k / 10, dtype=np.float32))
    first = await _take(source, 2)  # a visit ends after two frames …
    second = await _take(source, 2)  # … the next one reads on from the same socket
    assert [float(f[0]) for f in first + second] == pytest.approx([0.0, 0.1, 0.2, 0.3])
    source.push(np.zeros(512, dtype=np.float32))
    source.discard_pending()  # a new visit never hears the previous visitor's queued audio
    source.push(np.ones(512, dtype=np.float32))
    assert float((await _take(source, 1))[0][0]) == 1.0
    await source.close()
    assert await _take(source, 5) == []


async def test_source_refuses_audio_faster_than_real_time_but_allows_a_burst() -> None:
    clock = FakeClock()
    source = WebSocketAudioSource(clock=clock, max_speed=1.5, burst_s=1.0)
    second = np.zeros(16_000, dtype=np.float32)
    source.push(second)  # a one-second burst is fine
    clock.advance_ms(2000)
    source.push(second)
    source.push(second)
    source.push(second)  # 4 s of audio after 2 s: exactly 1.5x real time plus the burst
    with pytest.raises(ProtocolError, match="faster than") as info:
        source.push(second)
    assert info.value.close_code == CLOSE_POLICY


async def test_source_backlog_is_bounded_when_nobody_reads() -> None:
    clock = FakeClock()
    source = WebSocketAudioSource(clock=clock, max_backlog_s=1.0)
    for _ in range(50):
        clock.advance_ms(32)
        source.push(np.zeros(512, dtype=np.float32))
    assert source.dropped_samples == 50 * 512 - (16_000 // 512) * 512
    await source.close()
    kept = await _take(source, 1000)
    assert len(kept) == 16_000 // 512  # the newest second survives, the rest was dropped


# -- audio sink -------------------------------------------------------------------------------------------
def _chunk(seconds: float, index: int, text: str, rate: int = 16_000) -> SpeechChunk:
    return SpeechChunk(np.full(int(seconds * rate), 1000, dtype=np.int16), rate, index, text)


def _drain_outbox(outbox: Outbox) -> list[str | bytes]:
    items: list[str | bytes] = []
    while not outbox._queue.empty():
        item = outbox._queue.get_nowait()
        if item is not None:
            items.append(item[1])
    return items


async def test_sink_announces_each_sentence_before_its_audio_and_paces_playback() -> None:
    outbox = Outbox()
    started: list[bool] = []
    sink = WebSocketAudioSink(outbox, 16_000, lead_ms=100, on_first_audio=lambda: started.append(True))
    await sink.write(_chunk(0.3, 0, "First clause,"))
    await sink.write(_chunk(0.3, 1, "then the rest."))
    report = await sink.drain()
    items = _drain_outbox(outbox)
    texts = [json.loads(i) for i in items if isinstance(i, str)]
    assert [t["text"] for t in texts if t["type"] == "say"] == ["First clause,", "then the rest."]
    first_say = next(k for k, i in enumerate(items) if isinstance(i, str))
    assert first_say == 0  # the text goes out before any of its audio
    second_say = [k for k, i in enumerate(items) if isinstance(i, str)][1]
    audio_before_second = sum(len(i) for i in items[:second_say] if isinstance(i, bytes))
    block = 16_000 * WebSocketAudioSink.BLOCK_MS // 1000
    # the second text goes out with the block where its audio begins
    assert int(0.3 * 16_000) - block < audio_before_second // 2 <= int(0.3 * 16_000)
    assert sum(len(i) for i in items if isinstance(i, bytes)) == int(0.6 * 16_000) * 2
    assert started == [True]
    assert [c.fraction_played for c in report.chunks] == [1.0, 1.0]
    assert report.stopped_ns is None


async def test_sink_stop_cuts_playback_and_reports_what_was_heard() -> None:
    outbox = Outbox()
    sink = WebSocketAudioSink(outbox, 16_000, lead_ms=200)
    started = time.monotonic()
    await sink.write(_chunk(2.0, 0, "A long sentence that will be cut."))
    await asyncio.sleep(0.5)
    report = await sink.stop()
    waited_s = time.monotonic() - started  # 0.5 s, or more on a loaded machine
    items = _drain_outbox(outbox)
    assert json.loads(items[-1]) == {"type": "audio_stop"}
    sent_s = sum(len(i) for i in items if isinstance(i, bytes)) / 2 / 16_000
    assert 0.5 <= sent_s <= min(2.0, waited_s + 0.2 + 0.04 + 0.05)  # real time plus the lead and a block
    heard = report.chunks[0].fraction_played * 2.0
    assert 0.35 <= heard <= waited_s + 0.05  # what the browser played, not what was sent ahead
    assert heard <= sent_s
    assert report.interrupted


# -- outbox, logs, security helpers -----------------------------------------------------------------------
async def test_outbox_breaks_when_the_client_stops_reading() -> None:
    outbox = Outbox(max_queued=3)
    for _ in range(3):
        outbox.audio(b"\x00\x00")
    assert not outbox.broken.is_set()
    outbox.audio(b"\x00\x00")
    assert outbox.broken.is_set() and outbox.reason == "slow_consumer"


def test_logs_are_json_and_name_conversations_only_by_hash() -> None:
    redactor = logs.IdRedactor()
    conversation = new_conversation_id()
    redactor.add(conversation)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter(redactor))
    logger = logging.getLogger("test.kiosk.logs")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("LLM failed for conversation %s", conversation)
        try:
            raise RuntimeError(f"write failed in {conversation}")
        except RuntimeError:
            logger.exception("memory write failed")
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 2
    assert conversation not in stream.getvalue()
    assert f"conv:{public_id(conversation)}" in lines[0]["msg"]
    assert lines[1]["error"].startswith("RuntimeError")


def test_token_comes_from_the_named_env_var_and_must_be_long_enough() -> None:
    config = Config.model_validate({"server": {"token_env": "KIOSK_TOKEN"}})
    assert resolve_token(config, {"KIOSK_TOKEN": "s" * 24}) == "s" * 24
    with pytest.raises(ConfigError, match="KIOSK_TOKEN"):
        resolve_token(config, {})
    with pytest.raises(ConfigError, match="16 characters"):
        resolve_token(config, {"KIOSK_TOKEN": "short"})
    assert resolve_token(Config(), {}) is None


def test_only_the_served_page_may_open_the_socket() -> None:
    assert _same_origin(None, "127.0.0.1:8080")
    assert _same_origin("http://127.0.0.1:8080", "127.0.0.1:8080")
    assert not _same_origin("http://evil.example", "127.0.0.1:8080")
    assert not _same_origin("http://127.0.0.1:9999", "127.0.0.1:8080")


def test_the_no_turn_log_names_the_filter_rules_but_never_the_words() -> None:
    from voice_agent.server.visits import no_turn_reason
    from voice_agent.turn_detection import NoTurn

    dropped = NoTurn(0, "no words", ("2. 4. [no-words]", "2. [no-words]"), ("no-words", "no-words"))
    assert no_turn_reason(dropped) == "no words: no-words"
    assert no_turn_reason(NoTurn(0, "too short (120 ms of speech)")) == "too short (120 ms of speech)"
