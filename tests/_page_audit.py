"""Accessibility audits of the kiosk page in a real browser: axe-core (installed from npm by
``scripts/setup.sh`` into ``.setup/node``) is injected into the page once it shows the wanted state, and
every violation of impact serious or critical fails the test. A screenshot of each audited state is saved
(pytest's tmp dir, and also ``$VOICE_AGENT_TEST_SCREENSHOTS`` when set) next to ``axe-results.json``."""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
AXE_JS = Path(os.environ.get("VOICE_AGENT_AXE_JS", REPO / ".setup/node/node_modules/axe-core/axe.min.js"))
BLOCKING_IMPACTS = ("serious", "critical")
WAIT_SLICE_S = 30.0
SCREEN = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}

# Wait (in the page) until the banner shows the wanted state, then audit at once, before it moves on.
_AUDIT_WHEN = """
const [want, timeoutMs, done] = arguments;
const started = performance.now();
const banner = () => {
  const el = document.getElementById("status");
  return { state: window.kioskState.shown, word: document.getElementById("status-word").textContent,
    icon: document.getElementById("status-use").getAttribute("href"),
    border: getComputedStyle(el).borderTopStyle + " " + getComputedStyle(el).borderTopLeftRadius };
};
(function poll() {
  if (window.kioskState && window.kioskState.shown === want) {
    const before = banner();
    axe.run(document, { resultTypes: ["violations"] }).then(
      (result) => done({ before, after: banner(), violations: result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": " + (n.failureSummary || "")) })) }),
      (err) => done({ error: String(err) }));
  } else if (performance.now() - started > timeoutMs) {
    done({ timeout: true, shown: window.kioskState && window.kioskState.shown });
  } else {
    setTimeout(poll, 25);
  }
})();
"""


def prepare_browser(driver: Any) -> None:
    """A kiosk-sized screen, asking for reduced motion (the page honours it; the screenshots are still)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", SCREEN)
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
    )


@dataclass
class PageAudit:
    """Audits states of the page; ``results`` maps state -> the violations found (any impact)."""

    shots: Path
    results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    banners: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def available(self) -> bool:
        return AXE_JS.is_file()

    def audit(self, driver: Any, state: str, timeout_s: float) -> dict[str, str]:
        """Wait for ``state`` on the page's banner, audit it, save a screenshot; returns the banner's look."""
        driver.execute_script(AXE_JS.read_text(encoding="utf-8"))
        driver.set_script_timeout(WAIT_SLICE_S + 60)
        deadline = time.monotonic() + timeout_s
        while True:  # in slices: one WebDriver call must end well within its HTTP timeout (120 s)
            slice_s = max(0.1, min(WAIT_SLICE_S, deadline - time.monotonic()))
            found = driver.execute_async_script(_AUDIT_WHEN, state, slice_s * 1000)
            if not found.get("timeout") or time.monotonic() >= deadline:
                break
        assert not found.get("timeout"), f"the page never showed {state!r}; it showed {found.get('shown')!r}"
        assert "error" not in found, f"axe failed on {state!r}: {found['error']}"
        shot = self.shots / f"kiosk-{state}.png"
        driver.save_screenshot(str(shot))
        self._copy_out(shot)
        assert found["before"]["state"] == found["after"]["state"] == state, (state, found["after"])
        self.results[state] = found["violations"]
        self.banners[state] = found["before"]
        self._write_results()
        blocking = [v for v in found["violations"] if v["impact"] in BLOCKING_IMPACTS]
        assert not blocking, f"axe found serious/critical violations in the {state!r} state: {blocking}"
        return dict(found["before"])

    def _copy_out(self, shot: Path) -> None:
        extra = os.environ.get("VOICE_AGENT_TEST_SCREENSHOTS")
        if extra:
            Path(extra).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(extra) / shot.name)

    def _write_results(self) -> None:
        summary = {
            state: {"violations": len(found), "blocking": sum(v["impact"] in BLOCKING_IMPACTS for v in found),
                    "details": found}
            for state, found in self.results.items()
        }  # fmt: skip
        text = json.dumps(summary, indent=2)
        (self.shots / "axe-results.json").write_text(text, encoding="utf-8")
        extra = os.environ.get("VOICE_AGENT_TEST_SCREENSHOTS")
        if extra:
            (Path(extra) / "axe-results.json").write_text(text, encoding="utf-8")
