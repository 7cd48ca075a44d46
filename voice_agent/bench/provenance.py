"""What a benchmark runs with: its own config (``isolated_config``) and, in the report, the model files
(paths, sizes, sha256) next to ``report.run_meta``.

``models_info`` asks the provisioning code (``voice_agent.provision.status``) about the models a run
loads. With ``verify=True`` every file is hashed (a few seconds for the LLM and Whisper) and the record
says ``sha256_verified: true``; otherwise sizes are checked and the manifest's sha256 is recorded as the
expected hash.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from voice_agent.bench.bench_key import with_bench_key
from voice_agent.bench.report import run_meta
from voice_agent.config import Config, masked_dump


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def isolated_config(
    config: Config, workdir: Path, *, llm_timeout_s: float | None = None, prompt_cache: bool = True
) -> Config:
    """``config`` for a benchmark: a throw-away data dir with the benchmarks' fixed PII key, a free port
    for its own LLM server (a running assistant keeps its port), optionally longer LLM timeouts and the
    server's RAM prompt cache off."""
    backends = config.llm.backends
    if llm_timeout_s is not None:
        backends = [
            b.model_copy(update={"timeout_s": max(b.timeout_s, llm_timeout_s), "first_token_timeout_s": None})
            for b in backends
        ]
    local_update: dict[str, Any] = {"port": free_port()}
    if not prompt_cache:
        local_update["prompt_cache_mb"] = 0
    local = config.llm.local.model_copy(update=local_update)
    llm = config.llm.model_copy(update={"backends": backends, "local": local})
    return with_bench_key(config.model_copy(update={"llm": llm}), workdir / "data")


def models_info(model_dir: Path, ids: Sequence[str], *, verify: bool = True) -> list[dict[str, Any]]:
    from voice_agent.provision import load_manifest, status

    manifest = load_manifest()
    known = {m.id for m in manifest.models}
    out: list[dict[str, Any]] = []
    for report in status(Path(model_dir), [i for i in dict.fromkeys(ids) if i in known], hash_files=verify):
        spec = manifest.get(report.id)
        out.append(
            {
                "id": report.id,
                "state": report.state.value,
                "path": str(report.path) if report.path else None,
                "sha256_verified": report.hashed and report.ok,
                "files": [{"path": f.path, "size": f.size, "sha256": f.sha256} for f in spec.files],
                "packages": [p.requirement for p in spec.packages],
                "problems": [str(p) for p in report.problems],
            }
        )
    for missing in (i for i in ids if i not in known):
        out.append({"id": missing, "state": "unknown to the manifest"})
    return out


def llm_model_ids(config: Config) -> list[str]:
    """The local GGUF model(s) the configured LLM backends load (remote ones load nothing here)."""
    return [b.model or config.llm.local.model for b in config.llm.backends if b.kind == "local"]


def start_stamp() -> dict[str, Any]:
    """When a run started and the machine's 1-minute load average then (``bench_meta`` is built at the
    end of a run, when both have changed)."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {
        "started": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "load_avg_1m_at_start": None if load is None else round(load, 2),
    }


def bench_meta(
    config: Config,
    *,
    model_ids: Sequence[str],
    verify_models: bool,
    seed: int | None,
    sections: Sequence[str],
    started: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """``run_meta`` (date, machine, versions, seed) plus the config sections used and the model files;
    with ``started`` (``start_stamp()``), the start time and the load average at the start."""
    dumped = masked_dump(config)
    meta = run_meta(
        config={name: dumped[name] for name in sections if name in dumped},
        seed=seed,
        models=models_info(config.model_dir, model_ids, verify=verify_models),
        llm_backends=[
            {"name": b.name, "kind": b.kind, "model": b.model, "base_url": b.base_url}
            for b in config.llm.backends
        ],
        **extra,
    )
    if started is not None:
        meta["started"] = started["started"]
        meta["machine"]["load_avg_1m_at_start"] = started["load_avg_1m_at_start"]
        meta["machine"]["load_avg_1m_at_end"] = (
            round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
        )
    return meta


def memory_models(config: Config) -> list[dict[str, Any]]:
    """The model files the memory path loads (sizes checked, sha256 as the manifest expects them)."""
    from voice_agent.provision.required import EMBEDDER_MODELS

    ids = ["spacy-en", "parser-zh", EMBEDDER_MODELS[config.memory.embedder]]
    return models_info(config.model_dir, ids, verify=False)
