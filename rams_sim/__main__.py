"""``python -m rams_sim`` runs the command line."""

from .cli import main

main()
