"""``python -m bot``: see ``bot.cli``."""

import sys

from bot.cli import main

sys.exit(main())
