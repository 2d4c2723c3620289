"""Channel sources: where raw readings come from (mcu link, gpio pins, a virtual table)."""
