"""`voice-agent serve --local-audio`: the host's own microphone and speaker as one more client, through
a real device path (PortAudio → ALSA → a private PulseAudio server with null sinks, as in
test_session.py). A question played into the virtual microphone is answered out of the virtual speaker."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from _llm_support import free_port
from _server_support import ServerProcess, utterances, write_config
from _speech_support import silence
from test_session import pulse  # noqa: F401 (the PulseAudio fixture)

from voice_agent.audio.files import write_wav

pytestmark = [pytest.mark.slow, pytest.mark.audio]


def test_local_audio_answers_through_the_host_devices(
    pulse: dict[str, str],  # noqa: F811
    tmp_path: Path,
    model_dir: Path,
) -> None:
    question = utterances(model_dir, {"q": "Hello, can you hear me?"})["q"]
    wav = write_wav(tmp_path / "question.wav", np.concatenate([question, silence(1.0)]), 16_000)
    config = write_config(tmp_path, port=free_port(), server_extra="idle_timeout_s = 600")
    server = ServerProcess(config, tmp_path / "data", env=pulse, extra_args=("--local-audio",))
    recording = tmp_path / "speaker.raw"
    server.start()
    try:
        time.sleep(3.0)  # the local client opens the devices after the models load
        with recording.open("wb") as raw:
            recorder = subprocess.Popen(
                ["parec", "-d", "vspeaker.monitor", "--format=s16le", "--rate=16000", "--channels=1"],
                env=pulse, stdout=raw,
            )  # fmt: skip
            try:
                subprocess.run(["paplay", "-d", "vmic", str(wav)], env=pulse, check=True, timeout=60)
                deadline = time.monotonic() + 300
                done = 0.0
                while time.monotonic() < deadline and not done:
                    metrics = server.metrics()
                    done = sum(v for k, v in metrics.items() if k.startswith("voice_agent_turns_total{"))
                    time.sleep(1.0)
                time.sleep(1.0)
            finally:
                recorder.terminate()
                recorder.wait(timeout=10)
        assert done >= 1, server.log_tail()
        assert metrics['voice_agent_turns_total{outcome="ok"}'] >= 1
        heard = np.frombuffer(recording.read_bytes(), dtype="<i2").astype(np.float32) / 32768
        assert np.abs(heard).max() > 0.05  # the reply came out of the host's speaker
        assert metrics["voice_agent_active_clients"] == 0  # the local client is not a WebSocket client
    finally:
        assert server.stop() in (0, -15), server.log_tail()
    log = server.log_text()
    assert '"reason": "local_audio"' in log and '"event": "turn"' in log
