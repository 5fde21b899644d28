#!/usr/bin/env python3
"""Reads a bomberzero checkpoint with only the standard library.

Usage: read_checkpoint.py FILE
Verifies the data SHA-256 and prints one line per tensor:
name dtype shape sum-of-values
"""
import hashlib
import json
import struct
import sys


def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    (hlen,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + hlen])
    data = raw[8 + hlen:]
    meta = header.pop("__metadata__")
    if hashlib.sha256(data).hexdigest() != meta["data_sha256"]:
        raise ValueError("checksum mismatch")
    tensors = {}
    for name, e in header.items():
        begin, end = e["data_offsets"]
        n = (end - begin) // 4
        tensors[name] = (e["dtype"], e["shape"], struct.unpack("<%df" % n, data[begin:end]))
    return meta, tensors


if __name__ == "__main__":
    meta, tensors = read(sys.argv[1])
    print("variant", meta["variant"], "step", meta["step"])
    for name in sorted(tensors):
        dtype, shape, values = tensors[name]
        print(name, dtype, "x".join(str(d) for d in shape), repr(sum(values)))
