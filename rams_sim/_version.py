"""The package version, in a module of its own so that nothing needs the package ``__init__`` for it."""

__version__ = "0.1.0"
