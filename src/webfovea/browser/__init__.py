"""Everything that touches Chromium lives in this package."""
