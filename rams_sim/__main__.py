"""``python -m rams_sim`` runs the command line."""

from .cli.main import main

main()
