"""Aetherlink sensor firmware: protocol (shared with the host) and RP2040 hardware drivers."""
