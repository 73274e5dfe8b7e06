"""`python -m tasklists_py`: the command line."""

from .cli import main

main()
