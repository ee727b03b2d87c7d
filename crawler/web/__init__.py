"""The search web UI (Flask): simple search, advanced search, result pages."""
