"""Pure figure builders: data in, plotly Figure out. No Streamlit, no session state."""
