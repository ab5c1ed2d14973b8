"""A small PNG reader (standard library only) for tests that look at a browser's screenshot: 8-bit RGB or RGBA,
not interlaced (what Chromium writes)."""
from __future__ import annotations

import struct
import zlib
from collections import Counter
from pathlib import Path


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def read_png(path: Path) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per pixel, pixel bytes row by row) of an 8-bit RGB/RGBA PNG."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA, not interlaced (depth {depth}, colour type {colour})")
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif kind == 2:
            row = bytearray((r + p) & 255 for r, p in zip(row, prev))
        elif kind == 3:
            for i in range(stride):
                row[i] = (row[i] + ((row[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif kind == 4:
            for i in range(stride):
                left, up_left = (row[i - bpp], prev[i - bpp]) if i >= bpp else (0, 0)
                row[i] = (row[i] + _paeth(left, prev[i], up_left)) & 255
        out += row
        prev = row
    return width, height, bpp, bytes(out)


def colours(path: Path) -> Counter:
    """How many pixels of each (r, g, b) colour a PNG holds."""
    width, height, bpp, px = read_png(path)
    return Counter(zip(px[0::bpp], px[1::bpp], px[2::bpp]))
