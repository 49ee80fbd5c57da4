"""Model folders: where they live, what is in them, fetching, importing and checking them."""
