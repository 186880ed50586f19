"""Documents the agent can read: PDFs and data downloads shown as local viewer pages."""
