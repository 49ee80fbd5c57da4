"""Voices: speaker strings from seeds, and voice files in and out."""
