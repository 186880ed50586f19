"""A PDF rendered into pages a viewer shows: each page's image, its text with boxes, links.

PDFium (``pypdfium2``) renders each page to a PNG at a width that fills the viewport and
gives the text as rectangles of one line segment each (left, bottom, right, top in PDF
points), which the viewer lays over the image as transparent text: selectable, searchable
and read from the DOM like any page's text. Link annotations become real links: a URI
leaves the document (through the domain lock, as any link), a destination inside it jumps
to its page. A page without any text (a scan) is read by OCR when the ``ocr`` extra is
installed (webfovea.documents.ocr), and marked as unread when it is not.
"""

from __future__ import annotations

import ctypes
import io
from dataclasses import dataclass, field
from typing import Literal

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from ..core.errors import DocumentError
from .ocr import available as ocr_available

RENDER_WIDTH = 1400  # pixels: sharp at the default 1280-wide viewport, a few 100 KB a page
JPEG_QUALITY = 80  # 20x faster to encode than PNG, and still crisp text at this width
MAX_PAGES = 200  # pages with a text layer; a longer document says how many more it has
# Pages drawn as images. They are inlined in the view page, which reaches the browser through
# CDP at a few MB a second, so the view's size and opening time stay bounded. (Served from a
# local HTTP server instead, Chromium's Private Network Access checks block them: a view
# page handed to the browser has no address, so it counts as public.)
IMAGE_PAGES = 20
OCR_PAGES = 10  # image-only pages read by OCR (a second or more each)
OCR_SECONDS = 20.0

TextSource = Literal["pdf", "ocr", "none", "past_ocr"]  # past_ocr: not read, over OCR_PAGES


@dataclass(frozen=True)
class Box:
    """A rectangle in fractions of the page (0..1), top-left origin, as the viewer lays it."""

    left: float
    top: float
    width: float
    height: float


@dataclass(frozen=True)
class Span:
    text: str
    box: Box


@dataclass(frozen=True)
class Link:
    box: Box
    href: str  # an absolute URL, or "#page-N" for a page of this document


@dataclass
class Page:
    number: int  # from 1
    width_pt: float
    height_pt: float
    jpeg: bytes | None  # None past IMAGE_PAGES: the page shows its text alone
    spans: list[Span] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    text_source: TextSource = "pdf"  # "none": an image-only page OCR could not read


@dataclass
class PdfDocument:
    pages: list[Page]
    page_count: int  # in the file; more than len(pages) when cut at MAX_PAGES
    title: str = ""

    @property
    def unread_pages(self) -> list[int]:
        return [p.number for p in self.pages if p.text_source == "none"]

    @property
    def past_ocr_pages(self) -> list[int]:
        return [p.number for p in self.pages if p.text_source == "past_ocr"]

    @property
    def text_only_pages(self) -> list[int]:
        return [p.number for p in self.pages if p.jpeg is None]

    @property
    def ocr_pages(self) -> list[int]:
        return [p.number for p in self.pages if p.text_source == "ocr"]


def render(data: bytes) -> PdfDocument:
    """Every page (up to MAX_PAGES) of the PDF ``data``; DocumentError if PDFium cannot open it."""
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        raise DocumentError(f"PDFium could not read it ({e})") from e
    try:
        count = len(doc)
        pages: list[Page] = []
        for i in range(min(count, MAX_PAGES)):
            read = sum(p.text_source == "ocr" for p in pages) < OCR_PAGES
            pages.append(_page(doc, i, image=i < IMAGE_PAGES, ocr=read))
        title = str(doc.get_metadata_dict().get("Title", "") or "")
    finally:
        doc.close()
    return PdfDocument(pages, count, title)


def _page(doc: pdfium.PdfDocument, index: int, *, image: bool, ocr: bool) -> Page:
    page = doc[index]
    try:
        width, height = page.get_size()
        textpage = page.get_textpage()
        try:
            spans = _spans(textpage, width, height)
        finally:
            textpage.close()
        out = Page(index + 1, width, height, None, spans, _links(doc, page, width, height))
        if not image and spans:
            return out
        # A page without text is drawn even past IMAGE_PAGES: its image is all it shows.
        drawn = page.render(scale=RENDER_WIDTH / width).to_pil()
        jpeg = io.BytesIO()
        drawn.convert("RGB").save(jpeg, format="JPEG", quality=JPEG_QUALITY)
        out.jpeg = jpeg.getvalue()
        if not spans:
            out.spans, out.text_source = (_ocr(drawn) if ocr_available() else ([], "none")) \
                if ocr else ([], "past_ocr")
        return out
    finally:
        page.close()


def _spans(textpage: pdfium.PdfTextPage, width: float, height: float) -> list[Span]:
    spans = []
    for i in range(textpage.count_rects()):
        left, bottom, right, top = textpage.get_rect(i)
        text = textpage.get_text_bounded(left, bottom, right, top).strip()
        if text:
            spans.append(Span(text, Box(left / width, (height - top) / height,
                                        (right - left) / width, (top - bottom) / height)))
    return spans


def _links(doc: pdfium.PdfDocument, page: pdfium.PdfPage, width: float,
           height: float) -> list[Link]:
    links = []
    pos = ctypes.c_int(0)
    link = raw.FPDF_LINK()
    while raw.FPDFLink_Enumerate(page.raw, ctypes.byref(pos), ctypes.byref(link)):
        href = _target(doc, link)
        rect = raw.FS_RECTF()
        if href and raw.FPDFLink_GetAnnotRect(link, ctypes.byref(rect)):
            box = Box(rect.left / width, (height - rect.top) / height,
                      (rect.right - rect.left) / width, (rect.top - rect.bottom) / height)
            links.append(Link(box, href))
    return links


def _target(doc: pdfium.PdfDocument, link: raw.FPDF_LINK) -> str:
    """A link's URI, or ``#page-N`` for a destination in the document; "" for neither."""
    action = raw.FPDFLink_GetAction(link)
    if action and raw.FPDFAction_GetType(action) == raw.PDFACTION_URI:
        size = raw.FPDFAction_GetURIPath(doc.raw, action, None, 0)
        buffer = ctypes.create_string_buffer(size)
        raw.FPDFAction_GetURIPath(doc.raw, action, buffer, size)
        return buffer.value.decode("utf-8", "replace")
    dest = raw.FPDFLink_GetDest(doc.raw, link) or (
        raw.FPDFAction_GetDest(doc.raw, action) if action else None)
    if dest:
        index = raw.FPDFDest_GetDestPageIndex(doc.raw, dest)
        return f"#page-{index + 1}" if index >= 0 else ""
    return ""


def _ocr(image: object) -> tuple[list[Span], TextSource]:
    """Words of an image-only page by Tesseract, each with its box."""
    import pytesseract

    try:
        data = pytesseract.image_to_data(image, lang="eng", timeout=OCR_SECONDS,
                                         output_type=pytesseract.Output.DICT)
    except (pytesseract.TesseractError, RuntimeError, OSError):
        return [], "none"
    w, h = image.size  # type: ignore[attr-defined]
    spans = [Span(word.strip(), Box(left / w, top / h, width / w, height / h))
             for word, left, top, width, height in zip(
                 data["text"], data["left"], data["top"], data["width"], data["height"],
                 strict=True) if word.strip()]
    return spans, "ocr" if spans else "none"
