"""Reference firmware for the sensor microcontrollers (MicroPython on an RP2040).

``aetherlink_fw`` holds the protocol code, written in the subset of Python that
both MicroPython and CPython run: the host imports ``aetherlink_fw.wire`` (the
message codec) and the simulator runs ``aetherlink_fw.device`` (the device's
side of the link) under CPython with the hardware stubbed.
"""
