"""``python -m bonanza``: the ``bonanza`` command."""

import sys

from bonanza.cli import main

if __name__ == "__main__":  # not when a worker process loads this file again
    sys.exit(main())
