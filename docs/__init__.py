"""Documentation, installed as the data package ``bcdp.data`` (pyproject.toml ``package-dir``).

Only ``file_format.md`` and the example inputs ``examples/*.json`` ship in the wheel (package-data);
read them with ``importlib.resources.files("bcdp.data")``.  This file only makes the directory a
package, so that wheel and editable installs both find them.
"""
