"""The frame types of An Age Contrived's decision stack (importing registers them all)."""

from rules.aac.frames import benefits, completion, flow, movement, placement

__all__ = ["benefits", "completion", "flow", "movement", "placement"]
