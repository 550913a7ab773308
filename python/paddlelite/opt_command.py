"""The ``paddle_lite_opt`` console script: the ``opt`` tool's main, same flags."""

import sys

from paddlelite import lite


def main():
    """Runs opt with this process's arguments and exits with its code."""
    sys.stdout.flush()
    sys.exit(lite._opt_main(["paddle_lite_opt"] + sys.argv[1:]))


if __name__ == "__main__":
    main()
