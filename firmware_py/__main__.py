import sys

from firmware_py.cli import main

sys.exit(main())
