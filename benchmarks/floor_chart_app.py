"""The least a Streamlit page with a Plotly chart can be, drawn the stock way: a title, one selectbox in the sidebar
and one small `st.plotly_chart`. Its first load is the floor that Streamlit and Plotly set for a chart page on this
machine (the bench times it as it times the app's pages)."""

import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="floor with a chart", layout="wide")
st.sidebar.selectbox("Option", ["a", "b"])
st.title("Streamlit floor with a Plotly chart")
st.plotly_chart(go.Figure(go.Scatter(x=[1, 2, 3], y=[1, 3, 2])), key="chart-floor")
