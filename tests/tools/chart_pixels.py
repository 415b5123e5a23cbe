#!/usr/bin/env python3
"""chart_pixels.py PNG - find the report's charts in a screenshot and say
how much of each is drawn.

A chart's frame is a crisp one-pixel rectangle of exactly #cfd8dc
(analysis/svg.c), 640 px wide.  For each frame found, print one line:
    chart x y w h nonwhite fraction marks
where nonwhite counts the pixels inside the frame that are not white and
marks those of exactly a data mark's colour (bar fills, points, whiskers):
a chart whose data did not render has frame, title and grid but no marks.

The PNG reader is the standard's own algorithm (zlib from the standard
library, the five scanline filters), for 8-bit RGB or RGBA without
interlacing: what Chromium writes.
"""
import struct
import sys
import zlib

FRAME = (0xCF, 0xD8, 0xDC)
# analysis/svg.c: bars (unchanged, improved, regressed), whiskers, points
MARKS = {(0x90, 0xA4, 0xAE), (0x2E, 0x7D, 0x32), (0xC6, 0x28, 0x28), (0x26, 0x32, 0x38),
         (0x15, 0x65, 0xC0), (0xB0, 0xBE, 0xC5)}
CHART_W = 640


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit(f"{path}: unsupported PNG (depth {depth}, type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = read_png(sys.argv[1])
    px = lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])
    # top edges: a run of exactly CHART_W frame pixels
    tops = []
    for y in range(h):
        x = 0
        while x < w:
            if px(x, y) != FRAME:
                x += 1
                continue
            start = x
            while x < w and px(x, y) == FRAME:
                x += 1
            if x - start == CHART_W:
                tops.append((start, y))
    for x0, y0 in tops:
        # down the left edge to the bottom corner
        y1 = y0 + 1
        while y1 < h and px(x0, y1) == FRAME and px(x0 + 5, y1) != FRAME:
            y1 += 1
        if y1 >= h or px(x0 + 5, y1) != FRAME:
            continue  # a bottom edge, or cut off by the end of the screenshot
        inside = [(x, y) for y in range(y0 + 1, y1) for x in range(x0 + 1, x0 + CHART_W - 1)]
        colours = [px(x, y) for x, y in inside]
        nonwhite = sum(1 for c in colours if c != (255, 255, 255))
        marks = sum(1 for c in colours if c in MARKS)
        print(f"chart {x0} {y0} {CHART_W} {y1 - y0 + 1} {nonwhite} "
              f"{nonwhite / len(inside):.4f} {marks}")


if __name__ == "__main__":
    main()
