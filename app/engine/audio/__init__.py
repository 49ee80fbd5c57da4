"""Audio out of the engine: WAV files, the speaker, and the token grid streamed pieces lie on
(piece_grid.py: no torch; the decode's vocoder cuts on it, the player times by it)."""
