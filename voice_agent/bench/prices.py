"""The price table (``config/prices.toml`` by default) and the cost of 1,000 turns.

A table names when its prices were noted and holds, per model, ``input_per_million`` and
``output_per_million`` (currency units per million tokens). Bad files raise ``ConfigError`` naming the
file and the entry.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_agent.errors import ConfigError
from voice_agent.paths import config_dir

DEFAULT_PRICE_FILE = "prices.toml"


@dataclass(frozen=True)
class Price:
    input_per_million: float
    output_per_million: float
    note: str = ""

    def turn_cost(self, prompt_tokens: float, completion_tokens: float) -> float:
        return (prompt_tokens * self.input_per_million + completion_tokens * self.output_per_million) / 1e6


@dataclass(frozen=True)
class PriceTable:
    path: str
    noted: str
    currency: str
    note: str
    models: dict[str, Price] = field(default_factory=dict)

    def cost_per_1000_turns(
        self, prompt_tokens_mean: float, completion_tokens_mean: float
    ) -> dict[str, float]:
        """Per priced model: what 1,000 turns of this size cost (rounded to 0.0001)."""
        return {
            name: round(1000 * price.turn_cost(prompt_tokens_mean, completion_tokens_mean), 4)
            for name, price in self.models.items()
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "noted": self.noted,
            "currency": self.currency,
            "note": self.note,
            "models": {
                name: {"input_per_million": p.input_per_million, "output_per_million": p.output_per_million}
                for name, p in self.models.items()
            },
        }


def default_price_file() -> Path:
    return config_dir() / DEFAULT_PRICE_FILE


def load_price_table(path: str | Path | None = None) -> PriceTable:
    """Read and validate a price table (the default one when ``path`` is None)."""
    p = Path(path) if path is not None else default_price_file()
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise ConfigError("price table not found", file=str(p)) from err
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"price table is not readable TOML: {err}", file=str(p)) from err
    models = raw.get("models")
    if not isinstance(models, dict) or not models:
        raise ConfigError("price table needs a [models.NAME] table per priced model", file=str(p))
    parsed = {str(name): _price(p, str(name), entry) for name, entry in models.items()}
    return PriceTable(
        str(p),
        str(raw.get("noted", "unknown")),
        str(raw.get("currency", "USD")),
        str(raw.get("note", "")),
        parsed,
    )


def _price(path: Path, name: str, entry: Any) -> Price:
    if not isinstance(entry, dict):
        raise ConfigError(f"models.{name} must be a table", file=str(path))
    values = []
    for key in ("input_per_million", "output_per_million"):
        value = entry.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"models.{name}.{key} must be a number", file=str(path))
        if not math.isfinite(value) or value < 0:
            raise ConfigError(
                f"models.{name}.{key} must be a finite number >= 0, got {value}", file=str(path)
            )
        values.append(float(value))
    return Price(values[0], values[1], str(entry.get("note", "")))
