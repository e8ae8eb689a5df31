"""``python -m tpot_model``: the command line (see tpot_model.cli)."""

from .cli import main

raise SystemExit(main())
