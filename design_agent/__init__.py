"""design-agent: a product-design assistant for the terminal.

Kept free of imports so that `design-agent --version` starts fast.
"""

__version__ = "0.1.0"
