"""The kiosk page's words without a browser: ``/privacy`` states what the running configuration does, and
the page's wording of it (``static/kiosk-text.js``, run in Node) says those facts in English and Chinese
and picks the language from the kiosk setting or the visitor's browser."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from voice_agent.config import load_config
from voice_agent.errors import ConfigError
from voice_agent.memory.scrub import KINDS
from voice_agent.server.app import STATIC_DIR, create_app

NODE = shutil.which("node")
LOCAL = "http://127.0.0.1"  # the Host header the kiosk accepts


def _config(tmp_path: Path, server: str = "", privacy: str = "") -> Any:
    path = tmp_path / "kiosk.toml"
    path.write_text(f"[server]\n{server}\n[privacy]\n{privacy}\n", encoding="utf-8")
    return load_config(path, env={}, data_dir=tmp_path / "data")


def test_privacy_endpoint_serves_the_running_configuration(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    config = _config(tmp_path, 'idle_timeout_s = 45\npage_language = "zh"', "retention_days = 3")
    client = TestClient(create_app(config, token=None), base_url=LOCAL)  # no `with`: no models load
    response = client.get("/privacy")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    facts = response.json()
    assert facts["retention_days"] == 3 and facts["idle_timeout_s"] == 45
    assert facts["page_language"] == "zh"
    assert facts["scrubbed_kinds"] == list(KINDS)  # what the scrubber replaces, not a fixed list
    assert facts["returning_users"] == {"badge": True, "second_factor": "either"}
    pin_only = _config(tmp_path, 'returning_factor = "pin"')
    assert TestClient(create_app(pin_only, token=None), base_url=LOCAL).get("/privacy").json()[
        "returning_users"
    ] == {
        "badge": True,
        "second_factor": "pin",
    }


def test_page_language_setting_is_validated(tmp_path: Path) -> None:
    assert _config(tmp_path).server.page_language == "auto"
    with pytest.raises(ConfigError) as err:
        _config(tmp_path, 'page_language = "fr"')
    assert "page_language" in str(err.value)


def _run_texts(calls: str) -> Any:
    """Evaluate ``calls`` (an expression over ``KioskText``) against the page's own kiosk-text.js."""
    if NODE is None:
        pytest.skip("node is not installed: the page's wording cannot be run outside a browser")
    script = (
        "globalThis.window = globalThis;\n"
        + (STATIC_DIR / "kiosk-text.js").read_text(encoding="utf-8")
        + f"\nprocess.stdout.write(JSON.stringify({calls}));\n"
    )
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


FACTS = {
    "page_language": "auto",
    "scrubbed_kinds": ["PHONE", "EMAIL", "NAME"],
    "retention_days": 7,
    "idle_timeout_s": 90.4,
    "returning_users": {"badge": True, "second_factor": None},
}


def test_the_notice_words_the_served_facts_in_both_languages() -> None:
    facts = json.dumps(FACTS)
    en, zh = _run_texts(f"['en', 'zh'].map((l) => KioskText.privacyFacts(KioskText.TEXTS[l], {facts}))")
    english = " ".join(en)
    assert "7 days" in english and "90 seconds" in english
    assert "phone numbers, e-mail addresses and names" in english
    assert "card numbers" not in english  # only the kinds the server says it replaces
    assert "can miss some" in english  # no promise that every one is caught
    chinese = "".join(zh)
    assert "7 天" in chinese and "90 秒" in chinese and "电话号码、电子邮件地址、姓名" in chinese
    assert "银行卡号" not in chinese


def test_the_notice_follows_a_second_factor_and_unknown_kinds() -> None:
    facts = dict(FACTS, scrubbed_kinds=["PHONE", "PLATE"], idle_timeout_s=120)
    facts["returning_users"] = {"badge": True, "second_factor": "pin"}
    lines = _run_texts(f"KioskText.privacyFacts(KioskText.TEXTS.en, {json.dumps(facts)})")
    text = " ".join(lines)
    assert "only with its PIN" in text and "2 minutes" in text
    assert "phone numbers and plate" in text  # a kind the page has no words for is still listed


@pytest.mark.parametrize(
    ("setting", "browser", "expected"),
    [
        ("auto", ["zh-CN", "en"], "zh"),
        ("auto", ["de-DE", "en-GB", "zh"], "en"),
        ("auto", ["fr"], "en"),
        ("auto", ["zh-Hant-TW"], "zh"),
        ("en", ["zh-CN"], "en"),
        ("zh", ["en-US"], "zh"),
    ],
)
def test_language_follows_the_kiosk_setting_then_the_browser(
    setting: str, browser: list[str], expected: str
) -> None:
    assert _run_texts(f"KioskText.pickLanguage({json.dumps(setting)}, {json.dumps(browser)})") == expected


def test_both_languages_have_every_text_the_page_uses() -> None:
    keys = _run_texts(
        "Object.fromEntries(Object.entries(KioskText.TEXTS).map(([k, v]) => "
        "[k, Object.keys(v).concat(Object.keys(v.states).map((s) => 'state.' + s))]))"
    )
    assert set(keys["en"]) == set(keys["zh"])
    used = set()
    for name in ("index.html", "kiosk.js"):
        source = (STATIC_DIR / name).read_text(encoding="utf-8")
        used |= set(re.findall(r'data-text="(\w+)"', source))
        used |= set(re.findall(r"texts\.(\w+)", source))
    assert used <= set(keys["en"]), used - set(keys["en"])
