// TinyMCE 8, self-hosted from npm and bundled: its editing area is an iframe (the classic
// mode) whose <body contenteditable> holds the text. The page's status line counts the
// words from the editor's own input events; window.galleryState.text is its content.
import tinymce from "tinymce";
import "tinymce/models/dom/model";
import "tinymce/themes/silver";
import "tinymce/icons/default";
import "tinymce/skins/ui/oxide/skin.js";
import "tinymce/skins/ui/oxide/content.js";
import "tinymce/skins/content/default/content.js";

window.galleryState = { text: "Meeting on Friday", ready: false };
tinymce.init({
  selector: "#editor",
  license_key: "gpl",
  width: 640,
  height: 260,
  menubar: false,
  statusbar: false,
  toolbar: "bold italic",
  content_css: "default",
  content_style: "body { font: 16px sans-serif; caret-color: transparent; }",
  setup: (editor) => {
    editor.on("init", () => { window.galleryState.ready = true; });
    editor.on("input change keyup", () => {
      const text = editor.getContent({ format: "text" }).trim();
      window.galleryState.text = text;
      document.getElementById("status").textContent = `Words: ${text ? text.split(/\s+/).length : 0}`;
    });
  },
});
