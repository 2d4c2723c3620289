"""The simulated table on the wire: virtual microcontrollers on ptys, fault injection, direct hookup."""
