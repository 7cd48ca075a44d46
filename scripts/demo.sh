#!/usr/bin/env bash
# The main job: set everything up (idempotent; a second run takes seconds), then one spoken turn end to
# end, offline: real speech in → transcript → memory → reply → reply WAV, with per-stage latency.
#   bash scripts/demo.sh [INPUT.wav]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
INPUT=${1:-/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav}
mkdir -p out
exec .venv/bin/voice-agent talk --input "$INPUT" --output out/reply.wav --conversation demo \
    --trace out/trace.jsonl
