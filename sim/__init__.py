"""sim package: the simulated table.

- ``sim.table``: the physical model (tokens, locations, hands, AAC manipulations, virtual sensors);
- ``sim.link``: the table on the wire (virtual microcontrollers on ptys, fault injection),
  at the HAL boundary (``direct``), and the link soak.
"""
