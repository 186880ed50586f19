"""Write the gallery's test PDF (a small multi-page report) with a tiny PDF writer.

``python make_pdf.py OUT`` writes OUT; the gallery fixture calls :func:`write_pdf` into
tests/gallery/dist (build output), so no binary file is committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

PAGES = 12


def page_lines(n: int) -> list[str]:
    """Words on page ``n`` (1-based): a heading and a few lines a reader can look for."""
    heading = "Annual report 2024" if n == 1 else f"Section {n}: {'Operations' if n % 2 else 'Finance'}"
    return [heading, f"Page {n} of {PAGES}", f"Revenue grew in region {n * 7}.",
            f"Staff count at year end: {100 + n * 13}."]


def _content(lines: list[str]) -> bytes:
    ops = ["BT", "/F1 28 Tf", "72 720 Td"]
    for i, line in enumerate(lines):
        safe = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        if i == 1:
            ops.append("/F1 16 Tf")
        ops.append(f"({safe}) Tj")
        ops.append("0 -36 Td")
    ops.append("ET")
    return "\n".join(ops).encode("latin-1")


def pdf_bytes(pages: int = PAGES) -> bytes:
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for n in range(1, pages + 1):
        stream = _content(page_lines(n))
        content_id = len(objects) + 1
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        page_id = len(objects) + 1
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content_id, font))
        kids.append(page_id)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def write_pdf(path: Path) -> Path:
    path.write_bytes(pdf_bytes())
    return path


if __name__ == "__main__":
    write_pdf(Path(sys.argv[1]))
