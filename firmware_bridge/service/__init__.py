"""The service: a single-threaded core fed by adapter threads (see ``docs/architecture.md``)."""
