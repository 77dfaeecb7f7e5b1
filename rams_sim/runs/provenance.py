"""Where a run's data came from: package, code, libraries, rules, policies, seed.

The provenance is a JSON-ready dict stored in every Parquet part file's key-value
metadata (key :data:`METADATA_KEY`) and in ``manifest.json`` beside the parts.
"""

from __future__ import annotations

import functools
import json
import platform
import re
import subprocess
from datetime import UTC, datetime
from importlib import metadata as importlib_metadata
from pathlib import Path

from ..version import __version__

METADATA_KEY = "rams_sim"
LIBRARIES = ("numba", "numpy", "polars", "pyarrow")


@functools.cache
def git_commit() -> str:
    """The git commit of the package source, with ``-dirty`` if it has local changes, or ``unknown``."""
    root = Path(__file__).resolve().parents[2]  # the checkout: rams_sim/runs/provenance.py -> ../../..
    if not (root / ".git").exists():
        return "unknown"
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5,
                              check=False)
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "rams_sim"],
            cwd=root, capture_output=True, text=True, timeout=5, check=False,
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


def code_identity() -> dict[str, str]:
    """What code this process runs: the package version (from git by setuptools-scm at install time, e.g.
    ``0.1.dev417+g1ff1dafa6``) and the checkout's commit (:func:`git_commit`, ``unknown`` outside git).
    A sweep asks every worker for it (:func:`rams_sim.runs.sweep.check_workers`)."""
    return {"version": __version__, "commit": git_commit()}


_VERSION_COMMIT = re.compile(r"\+g([0-9a-f]{7,40})(\.d\d{8})?$")  # setuptools-scm's local part: +g<commit>[.dYYYYMMDD]


def _commit_of(identity: dict[str, str]) -> tuple[str, bool] | None:
    """(commit, has local changes) from the checkout's commit, or else from the version's ``+g<commit>``."""
    commit = identity.get("commit", "unknown")
    if commit != "unknown":
        return commit.removesuffix("-dirty"), commit.endswith("-dirty")
    found = _VERSION_COMMIT.search(identity.get("version", ""))
    return (found.group(1), found.group(2) is not None) if found else None


def same_code(mine: dict[str, str], theirs: dict[str, str]) -> bool:
    """Whether two :func:`code_identity` name the same code: the same commit, each side's taken from its
    checkout or else from its version's ``+g<commit>`` (a short hash matches the full one it starts), both
    with local changes or both without; where either side names no commit, the same version text.

    The commit of an editable install is read from its checkout at run time, while its version is written
    at install time, so commits decide where they are known. Local changes are not compared, only their presence.
    """
    a, b = _commit_of(mine), _commit_of(theirs)
    if a is None or b is None:
        return mine.get("version") == theirs.get("version")
    short = min(len(a[0]), len(b[0]))
    return a[0][:short] == b[0][:short] and a[1] == b[1]


def now_utc() -> str:
    """The current time, ISO 8601 in UTC to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def to_json(data: dict) -> str:
    """Stable JSON text (sorted keys, UTF-8 kept) for metadata and manifests."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1)
