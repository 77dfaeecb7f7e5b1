"""Where a run's data came from: package, code, libraries, rules, policies, seed.

The provenance is a JSON-ready dict stored in every Parquet part file's key-value
metadata (key :data:`METADATA_KEY`) and in ``manifest.json`` beside the parts.
"""

from __future__ import annotations

import functools
import json
import platform
import subprocess
from datetime import datetime, timezone
from importlib import metadata as importlib_metadata
from pathlib import Path

from .._version import __version__

METADATA_KEY = "rams_sim"
LIBRARIES = ("numba", "numpy", "polars", "pyarrow")


@functools.cache
def git_commit() -> str:
    """The git commit of the package source, with ``-dirty`` if it has local changes, or ``unknown``."""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return "unknown"
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5)
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "rams_sim"],
            cwd=root, capture_output=True, text=True, timeout=5,
        )  # fmt: skip
        return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def library_versions() -> dict[str, str]:
    """Versions of Python and of the libraries that shape the results and the files."""
    versions = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            versions[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:  # pragma: no cover
            versions[name] = "missing"
    return versions


def software() -> dict:
    """The software half of a provenance: package version, git commit, library versions."""
    return {"package": "rams-sim", "version": __version__, "git_commit": git_commit(), "libraries": library_versions()}


def now_utc() -> str:
    """The current time, ISO 8601 in UTC to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def to_json(data: dict) -> str:
    """Stable JSON text (sorted keys, UTF-8 kept) for metadata and manifests."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1)
