// pdf.js's own viewer component (PDFViewer from pdfjs-dist/web), as a site embeds it: the
// document named by ?file= (default: report.pdf, written by tests/gallery/make_pdf.py).
import * as pdfjs from "pdfjs-dist";
import { EventBus, PDFLinkService, PDFViewer } from "pdfjs-dist/web/pdf_viewer.mjs";
import "pdfjs-dist/web/pdf_viewer.css";

pdfjs.GlobalWorkerOptions.workerSrc = new URL("./pdf.worker.min.mjs", import.meta.url).href;
const container = document.getElementById("viewerContainer");
const eventBus = new EventBus();
const linkService = new PDFLinkService({ eventBus });
const viewer = new PDFViewer({ container, eventBus, linkService });
linkService.setViewer(viewer);
window.pdfViewer = viewer;
eventBus.on("pagesinit", () => { viewer.currentScaleValue = "1"; });
eventBus.on("textlayerrendered", () => { window.textLayersRendered = (window.textLayersRendered || 0) + 1; });
const file = new URLSearchParams(location.search).get("file") || "../dist/report.pdf";
const doc = await pdfjs.getDocument({ url: file }).promise;
viewer.setDocument(doc);
linkService.setDocument(doc);
