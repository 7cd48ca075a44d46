"""Where state and models live. The data directory and the model cache are separate on purpose:
data can be wiped or moved without re-assembling models."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir

APP_NAME = "voice-agent"


def checkout_root() -> Path | None:
    """The source checkout this package runs from, if any (it has models/manifest.toml)."""
    root = Path(__file__).resolve().parent.parent
    if (root / "models" / "manifest.toml").is_file() and (root / "pyproject.toml").is_file():
        return root
    return None


def manifest_path() -> Path:
    """The model manifest: the checkout's models/manifest.toml, else the copy shipped in the package."""
    root = checkout_root()
    if root is not None:
        return root / "models" / "manifest.toml"
    return Path(__file__).resolve().parent / "defaults" / "manifest.toml"


def default_model_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    if env.get("VOICE_AGENT_MODEL_DIR"):
        return Path(env["VOICE_AGENT_MODEL_DIR"]).expanduser()
    root = checkout_root()
    if root is not None:
        return root / "models" / "cache"
    return Path(user_cache_dir(APP_NAME)) / "models"


def default_data_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    if env.get("VOICE_AGENT_DATA_DIR"):
        return Path(env["VOICE_AGENT_DATA_DIR"]).expanduser()
    return Path(user_data_dir(APP_NAME))


def config_dir() -> Path:
    """The directory holding default.toml, kiosk.toml, bench.toml."""
    root = checkout_root()
    if root is not None:
        return root / "config"
    return Path(__file__).resolve().parent / "defaults"
