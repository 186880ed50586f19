"""The gallery's Gradio app (a Svelte front end; every event a round trip to the server):
a dropdown of cities whose change event the server answers by writing the choice below it.
Run as a script: ``PORT=... python gradio_app.py`` (tests/gradio_support.py does)."""

from __future__ import annotations

import os

import gradio as gr

CITIES = ["Amsterdam", "Berlin", "Copenhagen", "Dublin", "Helsinki", "Lisbon", "Madrid", "Oslo",
          "Paris", "Prague", "Rome", "Stockholm", "Tallinn", "Vienna", "Warsaw", "Zurich"]


def chose(city: str | None) -> str:
    return f"You chose {city}" if city else "Nothing chosen"


with gr.Blocks(analytics_enabled=False, title="Gradio") as demo:
    city = gr.Dropdown(CITIES, label="City", value=None, elem_id="city")
    out = gr.Textbox("Nothing chosen", label="Answer", elem_id="out", interactive=False)
    city.change(chose, city, out)

if __name__ == "__main__":
    demo.launch(server_name="127.0.0.1", server_port=int(os.environ["PORT"]), show_error=True,
                quiet=True)
