"""What the kiosk page tells visitors, built from the running configuration (served as ``/privacy``).

The page words these facts in the visitor's language; nothing here is fixed prose, so the notice cannot
drift from what the service does:

    >>> facts = privacy_facts(config)
    >>> facts["scrubbed_kinds"], facts["retention_days"], facts["idle_timeout_s"]
    (['PHONE', 'ID', 'CARD', 'EMAIL', 'ADDRESS', 'NAME'], 1, 60.0)

``scrubbed_kinds`` are the kinds the scrubber replaces before anything is stored (``memory.scrub.KINDS``);
the page says they are replaced when recognised, never that every one is caught.
"""

from __future__ import annotations

from typing import Any

from voice_agent.config import Config


def privacy_facts(config: Config) -> dict[str, Any]:
    """The facts the page's privacy notice states, and the language the page should use."""
    from voice_agent.memory.scrub import KINDS

    return {
        "page_language": config.server.page_language,
        "scrubbed_kinds": list(KINDS),
        "retention_days": config.privacy.retention_days,
        "idle_timeout_s": config.server.idle_timeout_s,
        # a badge id continues its conversation only with this second factor: "pin", "badge" or "either"
        "returning_users": {"badge": True, "second_factor": config.server.returning_factor},
    }
