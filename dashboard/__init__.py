"""The analysts' dashboard: Streamlit pages that read everything from the API over HTTP."""
