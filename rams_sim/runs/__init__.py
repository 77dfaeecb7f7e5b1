"""Runs on disk: :mod:`.runner` executes a :class:`~.runner.RunSpec` in chunks into a run folder (atomic
parts, a manifest, resume), :mod:`.dataset` is its Parquet schema, :mod:`.read` reads a run back,
:mod:`.aggregate` keeps counts and sums by keys instead of rows, :mod:`.effect` pairs a rule change deal
by deal (:mod:`.effect_report` words it), :mod:`.sweep` runs a grid of cells (local processes or dask),
:mod:`.summary` turns rows into estimates with intervals, :mod:`.provenance` records what made a run."""
