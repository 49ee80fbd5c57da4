"""What `chattts-studio self-test` ships with the program.

The self-test (steps.py) proves an installation works by speaking a sentence with a tiny
random-weight model built on the spot (random_model.py, with dimensions.py and tokenizer.py)
and by building the main window with a sound output that records instead of playing
(fake_audio.py), so it runs on a machine without a model or a sound card. The test suite and
the benchmarks use the same builder and output; helpers only tests need live in tests/support.
"""
