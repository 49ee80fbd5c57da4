"""Text on its way to the model: reading, checking, normalizing, pronunciations, sentences."""
