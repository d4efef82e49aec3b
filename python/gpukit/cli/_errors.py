"""CommandError: a command line that cannot be carried out as written."""


class CommandError(Exception):
    """What was asked for cannot be done as asked; the message says why and what to write instead.

    :func:`gpukit.cli.main` prints it as one line, ``gpukit SUBCOMMAND: error: MESSAGE``, and
    exits with status 2, as argparse does for the mistakes it finds itself."""
