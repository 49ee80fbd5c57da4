"""Helpers only the tests (and the README's screenshot command) use; never shipped.

The bundle leaves them out (build.spec excludes `tests`), and nothing under app/ imports
them (tests/test_packaging.py checks).
"""
