"""The simulated table: tokens at locations and in hands, physical manipulations, virtual sensors.

It knows the physical set, not the rules: sim players (which know the rules)
decide what to do and express it as manipulations here.
"""

from sim.table.aac import AacTable, demo_setup
from sim.table.model import Table, TableChange, TableError, token_kind
from sim.table.sensors import SensorFaults, VirtualSensors

__all__ = [
    "AacTable",
    "SensorFaults",
    "Table",
    "TableChange",
    "TableError",
    "VirtualSensors",
    "demo_setup",
    "token_kind",
]
