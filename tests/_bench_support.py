"""Helpers for the benchmark tests: a tiny LoCoMo-format dataset, SmolLM2 configs, PNG checks, a LibriVox
clip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from _llm_support import smollm2_sections

from voice_agent.config import Config, load_config

LIBRIVOX_SHORT = Path(
    "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"
)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _turns(session: int, lines: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [
        {"speaker": speaker, "dia_id": f"D{session}:{i}", "text": text}
        for i, (speaker, text) in enumerate(lines, start=1)
    ]


TINY_LOCOMO: list[dict[str, Any]] = [
    {
        "sample_id": "tiny-bench",
        "conversation": {
            "speaker_a": "Alice",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": _turns(
                1,
                [
                    ("Alice", "Hi Bob! I just adopted a puppy named Biscuit last weekend."),
                    ("Bob", "Congratulations! What breed is Biscuit?"),
                    ("Alice", "She is a golden retriever and very playful."),
                    ("Bob", "I started learning to play the violin this month."),
                    ("Alice", "That's great, who is your teacher?"),
                    ("Bob", "My teacher works at the music school downtown."),
                ],
            ),
            "session_2_date_time": "10:00 am on 20 June, 2023",
            "session_2": _turns(
                2,
                [
                    ("Alice", "I ran my first marathon in Berlin on Sunday!"),
                    ("Bob", "Amazing, what was your time?"),
                    ("Alice", "I finished in four hours and twelve minutes."),
                    ("Bob", "I'm moving to Lisbon in September for a new job."),
                    ("Alice", "Lisbon is beautiful, you will love the food."),
                    ("Bob", "I hope so, I already booked a flat near the river."),
                ],
            ),
        },
        "qa": [
            {
                "question": "What is the name of Alice's puppy?",
                "answer": "Biscuit",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "Where did Alice run her first marathon, and how long did it take?",
                "answer": "Berlin",
                "evidence": ["D2:1", "D2:3"],
                "category": 1,
            },
            {
                "question": "When is Bob moving to Lisbon?",
                "answer": "September",
                "evidence": ["D2:4"],
                "category": 2,
            },
            {
                "question": "What is Bob's favourite colour?",
                "adversarial_answer": "blue",
                "evidence": [],
                "category": 5,
            },
        ],
    }
]


def write_tiny_locomo(path: Path) -> Path:
    path.write_text(json.dumps(TINY_LOCOMO), encoding="utf-8")
    return path


def smollm2_config_file(tmp_path: Path, extra: str = "") -> Path:
    """A config layered over the defaults: SmolLM2-135M as the local LLM, MiniLM embeddings, tiny.en."""
    path = tmp_path / "bench-test.toml"
    path.write_text(
        f"""{smollm2_sections()}
[memory]
embedder = "minilm"

[asr]
model = "whisper-tiny-en"

{extra}
""",
        encoding="utf-8",
    )
    return path


def load(path: Path, tmp_path: Path) -> Config:
    return load_config(path, data_dir=tmp_path / "data", env={})


def assert_png(path: Path) -> tuple[int, int]:
    """A real PNG that matplotlib decodes; returns (height, width)."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image

    pixels = matplotlib.image.imread(str(path))
    assert pixels.ndim == 3 and pixels.shape[2] in (3, 4)
    assert pixels.shape[0] > 100 and pixels.shape[1] > 100
    assert float(pixels.std()) > 0.01  # not a blank canvas
    return int(pixels.shape[0]), int(pixels.shape[1])
