"""Package data: the prompts, installed as `app.resources` (pyproject maps this folder there)."""
