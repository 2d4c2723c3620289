"""Time of Empires through the service: the timekeeper, pause/resume, and the whole-stack demo (issue 9)."""
