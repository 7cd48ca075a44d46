"""The kiosk page end to end in headless Chromium (Debian `chromium` + `chromium-driver`, driven by
Selenium): Chromium's fake microphone plays a real LibriVox clip (resampled to 48 kHz, looped with long
pauses) into the page's AudioWorklet, which streams it to `voice-agent serve` over the WebSocket. The page
must show the transcript, show and play the reply, and "New conversation" must start a clean one.

On the way, axe-core audits the idle, speaking, listening and error states (no serious or critical
violation allowed) and a screenshot of each is saved (see ``_page_audit.py``)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _llm_support import free_port
from _page_audit import AXE_JS, PageAudit, prepare_browser
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


@pytest.fixture(scope="module")
def page_audit(tmp_path_factory: pytest.TempPathFactory) -> PageAudit:
    return PageAudit(tmp_path_factory.mktemp("kiosk-screens"))


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
    prepare_browser(driver)
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
    server: ServerProcess, browser: Any, page_audit: PageAudit
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.base + "/")
    state = _wait(browser, "a connection and its privacy facts", lambda s: s["ready"] and s["privacy"], 30)
    privacy = browser.find_element(By.ID, "privacy").text
    # the running config's facts: default retention, this server's idle_timeout_s = 600, the scrubbed kinds
    assert "30 days" in privacy and "10 minutes" in privacy and "Erase what I said" in privacy
    assert "phone numbers" in privacy and "can miss some" in privacy
    assert state["conversation"] not in browser.find_element(By.TAG_NAME, "body").text
    audited = page_audit.available
    looks = [page_audit.audit(browser, "idle", 30)] if audited else []
    _check_touch_targets(browser)
    _start_with_the_keyboard(browser)

    state = _wait(browser, "a final transcript", lambda s: len(s["finals"]) >= 1)
    assert _overlap(state["finals"][0]) >= 0.6, state["finals"]
    if audited:  # while the reply plays, then once the page listens again
        looks.append(page_audit.audit(browser, "speaking", TURN_TIMEOUT_S))
        looks.append(page_audit.audit(browser, "listening", TURN_TIMEOUT_S))
    motion = "return getComputedStyle(document.querySelector('.status-icon')).animationName"
    assert browser.execute_script(motion) == "none"  # the browser asks for reduced motion (prepare_browser)
    state = _wait(browser, "a reply played", lambda s: s["turnsDone"] >= 1 and s["playedMs"] > 300)
    assert state["says"], state
    assert state["scheduledMs"] >= state["playedMs"] > 300
    transcript = browser.find_element(By.ID, "transcript")
    user_turns = transcript.find_elements(By.CSS_SELECTOR, ".turn.user .turn-text")
    replies = transcript.find_elements(By.CSS_SELECTOR, ".turn.assistant .turn-text")
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
    if not audited:
        pytest.skip(
            f"axe-core is not installed ({AXE_JS}; scripts/setup.sh installs it): the page worked, unaudited"
        )
    # every state looks different without colour: its own word, icon and border
    for part in ("word", "icon", "border"):
        assert len({look[part] for look in looks}) == len(looks), looks


def test_a_refused_visit_shows_the_error_state_legibly(
    server: ServerProcess, browser: Any, page_audit: PageAudit
) -> None:
    from selenium.webdriver.common.by import By

    if not page_audit.available:
        pytest.skip(f"axe-core is not installed ({AXE_JS}; scripts/setup.sh installs it)")
    browser.get(server.base + "/#user=" + "x" * 300)  # a badge id over the protocol's limit: refused
    look = page_audit.audit(browser, "error", 30)
    assert look["icon"] == "#icon-error"
    hint = browser.find_element(By.ID, "status-hint").text
    assert hint and "user" not in hint  # a plain sentence for the visitor, not the protocol's message
    assert _state(browser)["errors"]


def _check_touch_targets(driver: Any) -> None:
    """Every control is at least 44 × 44 CSS px (WCAG 2.5.5), so a finger finds it."""
    sizes = driver.execute_script(
        "return [...document.querySelectorAll('button')].filter((b) => b.offsetParent)"
        ".map((b) => [b.id, b.getBoundingClientRect().width, b.getBoundingClientRect().height])"
    )
    assert len(sizes) >= 3 and all(w >= 44 and h >= 44 for _, w, h in sizes), sizes


def _start_with_the_keyboard(driver: Any) -> None:
    """Tab to "Tap to talk" (its focus ring must show) and press Enter: no mouse, no hover."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _ in range(6):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script("return document.activeElement.id") == "start-button":
            break
    ring = driver.execute_script(
        "const s = getComputedStyle(document.activeElement);"
        "return [s.outlineStyle, parseFloat(s.outlineWidth)]"
    )
    assert ring[0] != "none" and ring[1] >= 3, ring
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    _wait(driver, "the microphone on", lambda s: s["micOn"], 30)


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
