"""Audio out of the engine: WAV files and the speaker."""
