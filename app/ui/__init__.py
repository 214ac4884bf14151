"""The desktop UI: the only package that imports Qt (PySide6)."""
