"""The gallery's WebSocket-driven app: Streamlit's own widgets, every change a rerun."""

import pandas as pd
import streamlit as st

st.title("Fleet dashboard")
colour = st.selectbox("Colour", ["Red", "Green", "Blue", "Yellow"])
st.markdown(f"**You chose {colour}**")
count = st.slider("Vehicles", 0, 10, 3)
st.markdown(f"**Vehicles: {count}**")
st.dataframe(pd.DataFrame({"vehicle": [f"Van {i}" for i in range(1, 41)],
                           "depot": [["Cork", "Galway", "Limerick", "Sligo"][i % 4] for i in range(40)],
                           "km": [1000 + 37 * i for i in range(40)]}), height=300)
