"""``python -m durak.cli``: the ``durak`` command (:func:`durak.cli.main`)."""

import sys

from durak.cli import main

if __name__ == "__main__":
    sys.exit(main())
