"""The command line ``rams-sim`` (typer): :mod:`.main` holds the app and the run commands, the others one
command family each (:mod:`.advise`, :mod:`.effect`, :mod:`.sweep`) and :mod:`.common` what they share
(option types, parsing, one-line errors). The entry point is :func:`rams_sim.cli.main.main`."""
