"""PAL Studio: reasoning methods (Qt-free), the desktop UI (`app.ui`, the only Qt importer) and the CLI."""
