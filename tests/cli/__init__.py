"""A package, so that a test file here may share its name with one in tests/python
(test_<kernel>.py in both, as docs/adding-a-kernel.md asks)."""
