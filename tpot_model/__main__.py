"""``python -m tpot_model``: the command line (see tpot_model.cli)."""

import signal

from .cli import main

if hasattr(signal, "SIGPIPE"):  # `... | head` ends quietly, as Unix tools do, instead of a BrokenPipeError traceback
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)

raise SystemExit(main())
