"""`python -m graphmem.cli`."""

from . import main

main()
