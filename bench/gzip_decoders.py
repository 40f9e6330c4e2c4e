#!/usr/bin/env python3
"""Which gzip decoder to build numagraph's .gz input on: zlib against zlib-ng,
ISA-L (igzip) and libdeflate, each through its PyPI binding (thin wrappers of
the C libraries), inflating the same file whole, rounds interleaved, medians.

Usage: python bench/gzip_decoders.py FILE.gz [--rounds 5] [--markdown]
Needs: pip install isal zlib-ng deflate (a decoder whose binding is missing is skipped).
"""
import argparse
import importlib
import statistics
import time
import zlib


def decoders():
    found = {"zlib": lambda data: len(zlib.decompressobj(31).decompress(data))}
    for name, module, make in [
        ("zlib-ng", "zlib_ng.zlib_ng", lambda m: lambda data: len(m.decompressobj(31).decompress(data))),
        ("ISA-L igzip", "isal.isal_zlib", lambda m: lambda data: len(m.decompressobj(31).decompress(data))),
        ("libdeflate", "deflate", lambda m: lambda data: len(m.gzip_decompress(data))),
    ]:
        try:
            found[name] = make(importlib.import_module(module))
        except ImportError:
            print(f"gzip_decoders: {module} is not installed, skipping {name}")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    data = open(a.file, "rb").read()
    runs = decoders()
    times = {name: [] for name in runs}
    out = 0
    for _ in range(a.rounds):
        for name, inflate in runs.items():
            t = time.perf_counter()
            out = inflate(data)
            times[name].append(time.perf_counter() - t)
    base = statistics.median(times["zlib"])
    print(f"{a.file}: {len(data) / 1e6:.0f} MB -> {out / 1e6:.0f} MB, {a.rounds} rounds, medians, one thread\n")
    print("| decoder | seconds | output MB/s | speed vs zlib |")
    print("|---|---:|---:|---:|")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"| {name} | {m:.3f} | {out / m / 1e6:.0f} | {base / m:.2f} |")


if __name__ == "__main__":
    main()
