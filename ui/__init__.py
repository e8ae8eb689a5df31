"""Streamlit-facing helpers: controls, URL state, translations, formatting, figures (pure) and display."""
