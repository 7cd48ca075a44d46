"""The hallucination filter's rules, one by one, on what Whisper really produced on noise (texts from
issue 15 and earlier traces) and on real sentences that must stay; where Whisper and the local LLM run
(CPU, or a GPU when one is visible): the selection logic as pure functions of the detected facts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from voice_agent.asr.base import AsrResult, AsrSegment, DroppedSegment
from voice_agent.asr.device import choose_placement, cuda_device_count
from voice_agent.asr.filters import (
    DecodeContext,
    hallucination_reason,
    judge_segment,
    repeated_run,
    rule_compression,
    rule_no_speech,
    rule_no_words,
    rule_repeated_ngram,
    rule_unsure_language,
    speech_units,
)
from voice_agent.cli.transcribe_cmd import why_no_text
from voice_agent.config import load_config
from voice_agent.errors import ConfigError
from voice_agent.llm import _llama_launch
from voice_agent.llm.local_server import LocalLlamaServer

# what the whisper-base int8 decoder said on seeded noise on an AMD EPYC (issue 15)
EPYC_NOISE = "1.5% %, 1.5% %, 1.5% %, 1.5% %, 1.5%"
DETECTED = DecodeContext("en", 0.97, language_forced=False, expected_languages=("en", "zh"))

# real speech, said clearly (the decoder's usual figures for it): every rule must keep these
REAL_SENTENCES = (
    "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power.",
    "He was not an ill-disposed young man.",
    "No, no, no.",
    "I think I think I think that's right.",
    "The the the problem is that that I don't know, I don't know what to do about it, you know.",
    "It's a long long way to Tipperary, it's a long way to go.",
    "My phone number is 555 1234.",
    "25.",
    "50%",
    "Thank you.",
    "我女儿对花生过敏，请你记住这件事。",
    "对对对。",
    "谢谢谢谢。",
)


def seg(text: str, *, no_speech: float = 0.02, logprob: float = -0.25, ratio: float = 1.2) -> AsrSegment:
    return AsrSegment(text, 0.0, 1.5, (), logprob, no_speech, ratio)


def keep(text: str) -> bool:
    return judge_segment(seg(text), DETECTED) is None


def test_real_sentences_are_kept_by_every_rule() -> None:
    dropped = {text: judge_segment(seg(text), DETECTED) for text in REAL_SENTENCES}
    assert {t: v for t, v in dropped.items() if v is not None} == {}


def test_the_epyc_noise_output_is_dropped_whatever_the_language() -> None:
    as_reported = seg(EPYC_NOISE, no_speech=0.567, logprob=-0.61, ratio=1.89)
    for context in (DETECTED, DecodeContext("nn", 0.62, False, ("en", "zh")), DecodeContext()):
        verdict = judge_segment(as_reported, context)
        assert verdict is not None and verdict.detail
    # even when the decoder is sure of itself, the shape alone gives it away
    assert hallucination_reason(seg(EPYC_NOISE), DETECTED) in {"repeated-ngram", "compression", "no-words"}


def test_rule_no_speech_needs_both_doubt_and_weak_words() -> None:
    assert rule_no_speech(seg("Hello there", no_speech=0.9, logprob=-1.5), DETECTED)
    assert rule_no_speech(seg("Hello there", no_speech=0.567, logprob=-0.61), DETECTED)  # issue 15
    assert rule_no_speech(seg("Hello there", no_speech=0.9, logprob=-0.2), DETECTED) is None
    assert rule_no_speech(seg("Hello there", no_speech=0.1, logprob=-1.5), DETECTED) is None


def test_rule_repeated_ngram() -> None:
    def fires(text: str) -> bool:
        return rule_repeated_ngram(seg(text), DETECTED) is not None

    for looped in (EPYC_NOISE, "you you you you", "Thank you. Thank you. Thank you.", "我们我们我们我们"):
        assert fires(looped), looped
    assert fires("Thank you. Thank you. Thank you. Bye.")  # a loop with a short tail
    for speech in ("No, no, no.", "I think I think I think that's right.", "对对对", "very very good"):
        assert not fires(speech), speech
    assert repeated_run(speech_units("la la la la la")) == (["la"], 5)
    assert repeated_run([]) is None


def test_rule_compression_on_long_and_short_text() -> None:
    assert rule_compression(seg("what what what what", ratio=3.0), DETECTED)  # Whisper's own ratio
    short_loop = "1.5%, 1.5%, 1.5%, 1.5%, 1.5%, 1.5%, 1.5%"
    assert rule_compression(seg(short_loop, ratio=1.0), DETECTED)  # measured here, on the text
    for speech in REAL_SENTENCES:
        assert rule_compression(seg(speech), DETECTED) is None, speech


def test_rule_no_words() -> None:
    def fires(text: str, **kw: float) -> bool:
        return rule_no_words(seg(text, **kw), DETECTED) is not None

    assert fires(EPYC_NOISE)  # mostly symbols
    assert fires("% % %") and fires("...") and fires("♪ ♪")
    for quantity in ("1.5", "1.5kg", "1,5 cm", "1.5%"):  # what base says on noise on this machine
        assert fires(quantity, no_speech=0.567, logprob=-0.61), quantity  # on weak audio
        assert not fires(quantity), quantity  # said clearly
    for clear in ("25.", "50%", "$1.50", "555 1234", "12:30", "5 kg"):
        assert not fires(clear), clear
    # a PIN said clearly, as piper's voice gave it to Whisper base here: a no-speech hint, a sure decoder
    assert not fires("2, 4, 6, 8.", no_speech=0.30, logprob=-0.23)
    # digits said one by one are speech even when the decoder doubts them (the kiosk's spoken PIN)
    for pin in ("2. 4. 6. 8.", "2, 4, 6, 8.", "1 3 5 7 9", "0-1-2-3"):
        assert not fires(pin, no_speech=0.567, logprob=-0.61), pin
    assert fires("2. 4.", no_speech=0.567, logprob=-0.61)  # two digits on weak audio: not enough
    weak = {"no_speech": 0.567, "logprob": -0.61}
    for worded in ("1.5 percent", "Room 5", "5 kilos", "I", "你好"):  # words: other rules' business
        assert not fires(worded, **weak), worded


def test_rule_unsure_language() -> None:
    def fires(context: DecodeContext) -> bool:
        return rule_unsure_language(seg("Ein Mann"), context) is not None

    expected = ("en", "zh")
    assert fires(DecodeContext("nn", 0.62, False, expected))  # issue 15: Norwegian Nynorsk at 0.62
    assert not fires(DecodeContext("de", 0.95, False, expected))  # a confident German speaker is heard
    assert not fires(DecodeContext("en", 0.40, False, expected))  # unsure, but a language we expect
    assert not fires(DecodeContext("nn", 0.62, True, expected))  # forced by the caller: nothing detected
    assert not fires(DecodeContext("nn", 0.62, False, ()))  # no expectation configured


def test_stock_and_known_phrases_still_drop() -> None:
    assert hallucination_reason(seg("Thanks for watching!")) == "known-phrase"
    assert hallucination_reason(seg("字幕由Amara.org社区提供")) == "known-phrase"
    assert hallucination_reason(seg("Thank you.", no_speech=0.5)) == "stock-phrase-weak-audio"
    assert hallucination_reason(seg("Thank you.")) is None
    assert hallucination_reason(seg("  ")) == "empty"


def test_transcribe_explains_an_empty_transcript() -> None:
    noise = seg(EPYC_NOISE, no_speech=0.567, logprob=-0.61)
    verdict = judge_segment(noise, DETECTED)
    assert verdict is not None
    result = AsrResult(
        "", "en", 0.97, (), 1.5, 0.2, (f"{EPYC_NOISE} [{verdict.rule}]",),
        (DroppedSegment(noise, verdict.rule, verdict.detail),),
    )  # fmt: skip
    lines = why_no_text(result)
    assert "1 segment dropped" in lines[0] and EPYC_NOISE in lines[1] and verdict.rule in lines[1]
    dropped = result.to_json()["dropped"]
    assert dropped[0]["rule"] == verdict.rule and dropped[0]["text"] == EPYC_NOISE
    assert dropped[0]["no_speech_prob"] == 0.567
    silent = AsrResult("", "en", 1.0, (), 1.5, 0.2)
    assert "no words" in why_no_text(silent)[0] and "dropped" not in silent.to_json()


def test_asr_placement_follows_the_visible_gpu() -> None:
    assert choose_placement("cpu", "auto", 5).device == "cpu"  # asked for the CPU: the CPU
    cpu = choose_placement("auto", "auto", 0)
    assert (cpu.device, cpu.compute_type, cpu.automatic) == ("cpu", "int8", True)
    gpu = choose_placement("auto", "auto", 1)
    assert (gpu.device, gpu.compute_type, gpu.automatic) == ("cuda", "float16", True)
    forced = choose_placement("cuda", "int8_float16", 2)
    assert (forced.device, forced.compute_type, forced.automatic) == ("cuda", "int8_float16", False)
    with pytest.raises(ConfigError, match="no CUDA device"):
        choose_placement("cuda", "auto", 0)
    with pytest.raises(ConfigError, match="unknown device"):
        choose_placement("tpu", "auto", 1)
    assert cuda_device_count() >= 0  # the real CTranslate2 answers (0 without a GPU)


def test_config_defaults_keep_the_cpu_unless_a_gpu_is_there(tmp_path: Path) -> None:
    config = load_config(env={})
    assert config.asr.device == "auto" and config.asr.compute_type == "auto"
    assert config.llm.local.n_gpu_layers == "auto"
    assert config.asr.expected_languages == ("en", "zh")
    path = tmp_path / "gpu.toml"
    path.write_text('[asr]\ndevice = "cuda"\n[llm.local]\nn_gpu_layers = 20\n')
    custom = load_config(path, env={})
    assert custom.asr.device == "cuda" and custom.llm.local.n_gpu_layers == 20
    path.write_text('[asr]\ndevice = "gpu"\n')
    with pytest.raises(ConfigError, match=r"asr\.device"):
        load_config(path, env={})


def test_llm_gpu_layers_only_where_llama_cpp_can_offload(tmp_path: Path) -> None:
    assert _llama_launch.gpu_layers("auto", offload_supported=True) == "-1"
    assert _llama_launch.gpu_layers("auto", offload_supported=False) == "0"
    assert _llama_launch.gpu_layers("12", offload_supported=False) == "12"
    server = LocalLlamaServer(tmp_path / "m.gguf", log_path=tmp_path / "l.log", n_gpu_layers="auto")
    argv = ["-c", *server.command()]
    assert argv[argv.index("--n_gpu_layers") + 1] == "auto"
    resolved = _llama_launch.resolve_gpu_layers(argv)
    import llama_cpp  # the installed build decides; the project's portable build is CPU-only

    expected = "-1" if llama_cpp.llama_supports_gpu_offload() else "0"
    assert resolved[resolved.index("--n_gpu_layers") + 1] == expected
    assert len(resolved) == len(argv) and "auto" not in resolved
    plain = LocalLlamaServer(tmp_path / "m.gguf", log_path=tmp_path / "l.log").command()
    assert "--n_gpu_layers" not in plain  # CPU by default, llama.cpp's own default
    truncated = [sys.argv[0], "--n_gpu_layers"]
    assert _llama_launch.resolve_gpu_layers(truncated) == truncated
