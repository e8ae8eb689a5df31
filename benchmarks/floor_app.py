"""The least a Streamlit page can be that still passes the bench's first-load marks: a title and one selectbox in
the sidebar. Its first load is the floor that Streamlit's own front-end sets on this machine."""

import streamlit as st

st.set_page_config(page_title="floor", layout="wide")
st.sidebar.selectbox("Option", ["a", "b"])
st.title("Streamlit floor")
