"""firmware_bridge package: the Aetherlink service (the "bridge"), its configuration and CLI."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("aetherlink")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
