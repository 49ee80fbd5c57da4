"""The narration view."""
