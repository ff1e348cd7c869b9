"""Parse a quoted ``tricksim ...`` command with tricksim's own command line, without running it."""


def parse_cli(argv):
    """Parse ``argv`` down to the sub-command: its name and parameters, or the parser's usage error
    (unknown option, bad value, missing argument) if the CLI would refuse it."""
    import typer

    from tricksim.cli import app
    cmd = typer.main.get_command(app)
    ctx = cmd.make_context("tricksim", list(argv))
    while hasattr(cmd, "resolve_command"):   # a group: on to its sub-command
        args = [*getattr(ctx, "_protected_args", getattr(ctx, "protected_args", [])), *ctx.args]
        name, sub, rest = cmd.resolve_command(ctx, args)
        ctx = sub.make_context(name, rest, parent=ctx)
        cmd = sub
    return cmd.name, ctx.params
