"""Command-line tools: irkit-opt and irkit-run."""
