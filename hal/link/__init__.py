"""The host side of the serial link to the sensor microcontrollers (docs/serial-protocol.md)."""
