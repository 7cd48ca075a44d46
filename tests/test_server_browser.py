"""The kiosk page end to end in headless Chromium (Debian `chromium` + `chromium-driver`, driven by
Selenium): Chromium's fake microphone plays a real LibriVox clip (resampled to 48 kHz, looped with long
pauses) into the page's AudioWorklet, which streams it to `voice-agent serve` over the WebSocket. The page
must show the transcript, show and play the reply, and "New conversation" must start a clean one."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _llm_support import free_port
from _server_support import ServerProcess, write_config
from _speech_support import LIBRIVOX, words

from voice_agent.audio.files import read_audio, write_wav
from voice_agent.audio.resample import resample
from voice_agent.server.visitors import public_id

pytestmark = pytest.mark.slow
CLIP = LIBRIVOX / "sense_and_sensibility_01_austen_64kb-0880.wav"
REFERENCE = "he was not an ill disposed young man"
CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
TURN_TIMEOUT_S = 300


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, model_dir: Path) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("kiosk-browser")
    config = write_config(root, port=free_port(), server_extra="idle_timeout_s = 600")
    proc = ServerProcess(config, root / "data").start()
    yield proc
    assert proc.stop() in (0, -15), proc.log_tail()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.fail("headless Chromium is needed: apt-get install -y chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    clip = read_audio(CLIP)
    pause = np.zeros(16_000 * 45, dtype=np.float32)  # a long pause after each sentence: time to answer
    mic = np.concatenate([np.zeros(16_000, dtype=np.float32), clip, pause])
    wav = write_wav(tmp_path / "mic.wav", resample(mic, 16_000, 48_000), 48_000)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream", f"--use-file-for-fake-audio-capture={wav}",
        "--autoplay-policy=no-user-gesture-required", f"--user-data-dir={tmp_path / 'profile'}",
    ):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _state(driver: Any) -> dict[str, Any]:
    return dict(driver.execute_script("return window.kioskState"))


def _wait(driver: Any, what: str, check: Any, timeout_s: float = TURN_TIMEOUT_S) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    state = _state(driver)
    while time.monotonic() < deadline:
        state = _state(driver)
        if check(state):
            return state
        time.sleep(0.5)
    raise AssertionError(f"page never showed {what}; state: {state}")


def _overlap(text: str) -> float:
    said, ref = set(words(text)), set(words(REFERENCE))
    return len(said & ref) / len(ref)


def test_the_page_transcribes_answers_aloud_and_starts_clean_conversations(
    server: ServerProcess, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.base + "/")
    _wait(browser, "a connection", lambda s: s["ready"] is not None, 30)
    privacy = browser.find_element(By.ID, "privacy").text
    assert "30 days" in privacy and "Erase what I said" in privacy
    browser.find_element(By.ID, "start-button").click()

    state = _wait(browser, "a final transcript", lambda s: len(s["finals"]) >= 1)
    assert _overlap(state["finals"][0]) >= 0.6, state["finals"]
    state = _wait(browser, "a reply played", lambda s: s["turnsDone"] >= 1 and s["playedMs"] > 300)
    assert state["says"], state
    assert state["scheduledMs"] >= state["playedMs"] > 300
    transcript = browser.find_element(By.ID, "transcript")
    user_turns = transcript.find_elements(By.CSS_SELECTOR, ".turn.user")
    replies = transcript.find_elements(By.CSS_SELECTOR, ".turn.assistant")
    assert user_turns and user_turns[0].text == state["finals"][0]
    assert replies and replies[0].text.startswith(state["says"][0])
    frames_while_listening = state["micFrames"]
    assert frames_while_listening > 50  # the microphone streamed all along (barge-in is heard server-side)

    first = state["conversation"]
    browser.find_element(By.ID, "new-conversation").click()
    state = _wait(browser, "a new conversation", lambda s: s["conversation"] != first, 30)
    assert state["finals"] == [] and state["says"] == []
    assert browser.find_element(By.ID, "transcript").text == ""
    second = state["conversation"]
    state = _wait(browser, "a turn in the new conversation", lambda s: s["turnsDone"] >= 2)
    assert state["conversation"] == second and len(state["finals"]) >= 1
    assert state["micFrames"] > frames_while_listening

    _check_store(server, first, second)


def _check_store(server: ServerProcess, first: str, second: str) -> None:
    """Both conversations are in the turn log, and the second started from nothing (its own seq 0)."""
    import apsw

    conn = apsw.Connection(str(server.data_dir / "memory.sqlite3"), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        rows = conn.execute(
            "SELECT conversation_id, MIN(seq), COUNT(*) FROM conversation_turns GROUP BY 1"
        ).fetchall()
    finally:
        conn.close()
    by_public = {public_id(str(cid)): (int(low), int(n)) for cid, low, n in rows}
    assert first in by_public and second in by_public, by_public
    assert by_public[second][0] == 0 and by_public[first][0] == 0
