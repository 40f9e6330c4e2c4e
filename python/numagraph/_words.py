"""Counts in text: "1 vertex", "3 vertices", never "1 vertices"."""


def count_of(count, one, many=None):
    """The count and its noun in agreement: count_of(1, "vertex", "vertices") -> "1 vertex"."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
