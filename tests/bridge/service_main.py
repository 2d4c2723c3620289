"""Runs the ``aetherlink`` CLI with the test game installed (for tests that start the service as a process).

Usage: ``python -m tests.bridge.service_main run --config PATH`` from the project root.
"""

import sys

from tests.bridge import testgame

testgame.register()

from firmware_bridge.cli import main  # noqa: E402 - the game must be registered first

sys.exit(main(sys.argv[1:]))
