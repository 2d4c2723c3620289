"""One module per command (or command group member) of the ``aetherlink`` CLI."""
