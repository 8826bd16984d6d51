import sys

from bonanza.cli import main

sys.exit(main())
