"""Stand-in for Orbax (see ../README.md)."""
