"""python -m numagraph.experiments: the same as numagraph-experiments."""
import sys

from .cli import main

sys.exit(main())
