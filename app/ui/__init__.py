"""Qt widgets. The only package (with app.workers) allowed to import Qt."""
