"""``make archive``: the datasets of searching players, committed under ``archive/``.

A dataset with a ``pimc`` seat costs minutes a chunk (an hour in all on two cores), more than
``make reports`` may take from a fresh clone (20 minutes). So the repository keeps those run
folders (Parquet parts and manifest, with their provenance) under ``archive/``, and
:meth:`analyses.common.Context.ensure` copies one into ``data/reports/`` when it is missing there;
the copy is reused only if its manifest describes the run the registry asks for (else it is made
again). ``tests/test_archive.py`` (marker ``heavy``) replays the first units of every archived
run of deals, branches or parties with the current engine and requires the same rows.

Usage::

    python -m analyses.archive [--data data/reports]   # make (or reuse) each, then copy it to archive/
"""

from __future__ import annotations

import argparse
import shutil
import sys

from .common import ARCHIVE, Context, searching
from .data import REGISTRY


def archived_names() -> list[str]:
    """The registry's datasets with a searching seat: those the repository keeps."""
    return [name for name, d in REGISTRY.items() if searching(d)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/reports", help="folder of the simulated datasets (reused)")
    args = parser.parse_args(argv)
    ctx = Context(args.data, REGISTRY, 1.0, archive=None)  # made here, never copied from the archive
    ARCHIVE.mkdir(exist_ok=True)
    for name in archived_names():
        folder = ctx.ensure(name)
        staged = ARCHIVE / f".{name}.partial"
        shutil.rmtree(staged, ignore_errors=True)
        shutil.copytree(folder, staged)
        shutil.rmtree(ARCHIVE / name, ignore_errors=True)
        staged.rename(ARCHIVE / name)
        size = sum(f.stat().st_size for f in (ARCHIVE / name).iterdir())
        print(f"archive/{name}: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
