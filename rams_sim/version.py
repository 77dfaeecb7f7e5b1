"""The package's version: setuptools-scm's, from git, written into ``_version.py`` at install time.

A source tree that was never installed (tools that put the checkout on ``PYTHONPATH``) has no
``_version.py``; its version is ``0+unknown``. A module of its own, imported by the package init,
the CLI and the provenance, so that none of them imports another for it.
"""

from __future__ import annotations

try:
    from ._version import __version__
except ImportError:  # a source tree never installed: setuptools-scm writes _version.py at install time
    __version__ = "0+unknown"

__all__ = ["__version__"]
