"""`python -m graphmem` runs the CLI."""

from .cli import main

main()
