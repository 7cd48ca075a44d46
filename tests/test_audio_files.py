"""Audio files through the source/sink protocols, resampling, and the device layer's error paths."""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import time
import wave
from pathlib import Path

import numpy as np
import pytest
from _speech_support import librivox_clips

from voice_agent.audio.base import AudioSink, AudioSource
from voice_agent.audio.files import FileSource, WavFileSink, read_audio, write_wav
from voice_agent.audio.resample import Resampler, float32_to_int16, resample
from voice_agent.clock import FakeClock
from voice_agent.errors import AudioDeviceError, InputError
from voice_agent.frames import SpeechChunk

CLIP = librivox_clips()[1][0]


def _sine(freq: float, seconds: float, rate: int) -> np.ndarray:
    return (0.5 * np.sin(2 * np.pi * freq * np.arange(int(seconds * rate)) / rate)).astype(np.float32)


def _dominant_hz(samples: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.argmax(spectrum) * rate / len(samples))


def _wav_frames(path: Path) -> int:
    with wave.open(str(path), "rb") as fh:
        return fh.getnframes()


def test_read_audio_decodes_wav_flac_and_mp3_to_16k_mono(tmp_path: Path) -> None:
    reference = read_audio(CLIP)
    assert reference.dtype == np.float32 and reference.ndim == 1
    with wave.open(str(CLIP), "rb") as fh:
        assert abs(len(reference) - fh.getnframes() * 16000 / fh.getframerate()) < 16
    flac = tmp_path / "clip.flac"
    subprocess.run(["sox", str(CLIP), "-r", "44100", "-c", "2", str(flac)], check=True)
    from_flac = read_audio(flac)
    assert abs(len(from_flac) - len(reference)) < 200  # resampled 44.1 kHz stereo back to 16 kHz mono
    mp3 = tmp_path / "tone.mp3"
    _encode_mp3(mp3, _sine(440, 1.0, 24000), 24000)
    tone = read_audio(mp3)
    assert 0.9 < len(tone) / 16000 < 1.2
    assert abs(_dominant_hz(tone[2000:14000], 16000) - 440) < 10


def _encode_mp3(path: Path, samples: np.ndarray, rate: int) -> None:
    import av

    with av.open(str(path), "w") as container:
        stream = container.add_stream("mp3", rate=rate, layout="mono")
        frame = av.AudioFrame.from_ndarray(
            float32_to_int16(samples).reshape(1, -1), format="s16", layout="mono"
        )
        frame.sample_rate = rate
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty"), (b"RIFF\x00\x00garbage that is no audio" * 20, "cannot decode")],
)
def test_bad_audio_files_raise_input_error_naming_the_file(
    tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.wav"
    bad.write_bytes(content)
    with pytest.raises(InputError, match=message) as info:
        read_audio(bad)
    assert "bad.wav" in str(info.value)
    with pytest.raises(InputError, match="not found"):
        FileSource(tmp_path / "missing.wav")


async def test_file_source_frames_cover_the_file_in_order() -> None:
    source = FileSource(CLIP, frame_ms=32)
    assert isinstance(source, AudioSource) and not source.is_live
    frames = [f async for f in source]
    audio = np.concatenate([f.samples for f in frames])
    np.testing.assert_array_equal(audio, read_audio(CLIP))
    assert all(len(f.samples) == 512 for f in frames[:-1])
    assert all(b.t_ns >= a.t_ns for a, b in itertools.pairwise(frames))


async def test_realtime_file_source_is_paced_like_a_microphone() -> None:
    samples = np.zeros(16000 // 2, dtype=np.float32)  # 0.5 s
    source = FileSource(samples=samples, realtime=True)
    assert source.is_live
    started = time.monotonic()
    frames = [f async for f in source]
    elapsed = time.monotonic() - started
    assert elapsed >= 0.45  # paced: a real-time source cannot deliver 0.5 s of audio sooner
    gaps = {b.t_ns - a.t_ns for a, b in itertools.pairwise(frames)}
    assert gaps == {32_000_000}  # capture times advance exactly one frame each


def test_resampler_streams_like_one_shot_and_keeps_pitch() -> None:
    tone = _sine(440, 1.0, 44100)
    whole = resample(tone, 44100, 16000)
    assert abs(len(whole) - 16000) <= 32
    streamed = Resampler(44100, 16000)
    blocks = [streamed.process(tone[i : i + 1411]) for i in range(0, len(tone), 1411)] + [streamed.flush()]
    joined = np.concatenate(blocks)
    assert abs(len(joined) - len(whole)) <= 32
    n = min(len(joined), len(whole)) - 200
    assert np.max(np.abs(joined[200:n] - whole[200:n])) < 1e-3
    assert abs(_dominant_hz(whole[1000:15000], 16000) - 440) < 5
    with pytest.raises(ValueError):
        Resampler(0, 16000)


def _chunk(seconds: float, index: int, text: str, rate: int = 22050) -> SpeechChunk:
    return SpeechChunk(float32_to_int16(_sine(300, seconds, rate)), rate, index, text)


async def test_wav_sink_writes_replies_with_a_gap_and_reports_all_played(tmp_path: Path) -> None:
    out = tmp_path / "reply.wav"
    sink = WavFileSink(out, sample_rate_hz=16000, gap_ms=250)
    assert isinstance(sink, AudioSink)
    await sink.write(_chunk(0.5, 0, "one"))
    await sink.write(_chunk(0.25, 1, "two"))
    report = await sink.drain()
    assert [c.fraction_played for c in report.chunks] == [1.0, 1.0]
    assert report.first_audio_ns is not None and not report.interrupted
    await sink.write(_chunk(0.5, 0, "three"))
    await sink.drain()
    await sink.close()
    frames = _wav_frames(out)
    assert abs(frames - int(16000 * (0.5 + 0.25 + 0.25 + 0.5))) < 40  # resampled 22.05 -> 16 kHz, one gap


async def test_realtime_wav_sink_stops_mid_sentence_and_reports_what_was_played(tmp_path: Path) -> None:
    out = tmp_path / "cut.wav"
    clock = FakeClock()  # "real time" is the clock's: a loaded machine cannot stretch 0.4 s
    sink = WavFileSink(out, sample_rate_hz=16000, realtime=True, clock=clock)
    await sink.write(_chunk(1.0, 0, "first sentence here"))
    await sink.write(_chunk(1.0, 1, "second sentence here"))
    await asyncio.sleep(0.05)  # playback starts (at the clock's time 0)
    clock.advance_ms(400)
    await asyncio.sleep(0.1)  # the pacer catches up with the clock
    report = await sink.stop()
    written_at_stop = sink.seconds_written
    clock.advance_ms(200)
    await asyncio.sleep(0.1)
    assert sink.seconds_written == written_at_stop  # nothing plays after stop
    first, second = report.chunks
    assert 0.2 < first.fraction_played < 0.8 and second.samples_played == 0
    assert report.interrupted and report.stopped_ns is not None
    await sink.close()
    played_out = first.samples_played * 16000 / 22050
    assert abs(_wav_frames(out) - played_out) <= 16000 * 0.03  # the file holds exactly what was "heard"


async def test_realtime_wav_sink_drain_waits_for_the_end(tmp_path: Path) -> None:
    sink = WavFileSink(tmp_path / "d.wav", sample_rate_hz=16000, realtime=True)
    started = time.monotonic()
    await sink.write(_chunk(0.3, 0, "short"))
    report = await sink.drain()
    assert time.monotonic() - started >= 0.25
    assert report.chunks[0].fraction_played == 1.0 and not report.interrupted
    await sink.close()


def test_write_wav_round_trip(tmp_path: Path) -> None:
    tone = _sine(200, 0.2, 16000)
    path = write_wav(tmp_path / "t.wav", tone, 16000)
    back = read_audio(path)
    assert np.max(np.abs(back[: len(tone)] - tone)) < 1e-3


def test_device_errors_point_at_file_mode() -> None:
    from voice_agent.audio.devices import list_devices, resolve_device

    devices = list_devices()
    if any(d.get("max_input_channels", 0) > 0 for d in devices):
        with pytest.raises(AudioDeviceError, match="no audio input device named like"):
            resolve_device("no-such-device-xyz", "input")
        with pytest.raises(AudioDeviceError, match="index 999"):
            resolve_device(999, "input")
    else:  # this machine has no sound card: the message must say what to do instead
        with pytest.raises(AudioDeviceError, match="file mode"):
            resolve_device(None, "input")


def test_missing_portaudio_is_a_clear_error(tmp_path: Path) -> None:
    """Run in a child process whose loader cannot find libportaudio (the real failure, not a patch)."""
    import sys

    script = (
        "import ctypes.util, sys\n"
        "ctypes.util.find_library = lambda name: None\n"  # what a machine without libportaudio2 sees
        "from voice_agent.audio.devices import MicrophoneSource\n"
        "from voice_agent.errors import AudioDeviceError\n"
        "import asyncio\n"
        "async def main():\n"
        "    try:\n"
        "        async for _ in MicrophoneSource():\n"
        "            break\n"
        "    except AudioDeviceError as err:\n"
        "        print(err); sys.exit(0)\n"
        "    sys.exit(1)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "PortAudio" in done.stdout and "voice-agent talk --input" in done.stdout
